/*
 * translate/apertium: the installed pairs read from a modes directory, and a
 * batch translated by the real `apertium` (skipped when Debian's apertium
 * and apertium-eng-spa are not installed).
 */
#include "translate/engine.h"
#include "util/arena.h"
#include "util/err.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int have_eng_spa(void)
{
	return access("/usr/share/apertium/modes/eng-spa.mode", R_OK) == 0 && access("/usr/bin/apertium", X_OK) == 0;
}

UNIT_TEST(apertium_pairs_from_a_modes_directory)
{
	char dir[] = "/tmp/docsd-apertium-XXXXXX", path[256];
	static const char *const files[] = { "eng-spa.mode", "spa-eng.mode", "fr-es.mode", "spa-eng_US.mode",
					     "xx-yy.mode", "README" };
	struct tr_engine *e = NULL;
	struct tr_pair *p;
	struct arena a;
	int n = 0;

	arena_init(&a);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/modes", dir);
	CHECK(mkdir(path, 0700) == 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FILE *f;
		snprintf(path, sizeof(path), "%s/modes/%s", dir, files[i]);
		if ((f = fopen(path, "w")))
			fclose(f);
	}
	CHECK(tr_apertium_new(&e, dir, 5000) == 0);
	if (e) {
		CHECK(e->ops->pairs(e, &a, &p, &n) == 0);
		CHECK(n == 3);
		if (n == 3) {
			CHECK_STR(p[0].from, "en");
			CHECK_STR(p[0].to, "es");
			CHECK_STR(p[1].from, "es");
			CHECK_STR(p[1].to, "en");
			CHECK_STR(p[2].from, "fr");
			CHECK_STR(p[2].to, "es");
		}
		CHECK(tr_engine_check_pair(e, &a, "en", "es") == 0);
		CHECK(tr_engine_check_pair(e, &a, "en", "fr") == ERR_INVALID);
		/* fr is reached from es only: no chain from en */
		CHECK(strstr(err_message(), "reachable from en: es (en\xe2\x86\x92" "es)") != NULL);
		CHECK(tr_engine_check_pair(e, &a, "fr", "en") == 0); /* fr -> es -> en */
		/* a pair that is not installed is a permanent failure */
		const char *in[] = { "hello" };
		const char **out;
		CHECK(e->ops->translate(e, &a, "de", "en", in, 1, &out) == ERR_PRECONDITION);
	}
	tr_engine_free(e);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/modes/%s", dir, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/modes", dir);
	rmdir(path);
	rmdir(dir);
	/* a directory that does not exist: no pairs */
	CHECK(tr_apertium_new(&e, "/nonexistent/apertium", 5000) == 0);
	if (e) {
		CHECK(e->ops->pairs(e, &a, &p, &n) == 0 && n == 0);
		CHECK(tr_engine_check_pair(e, &a, "en", "es") == ERR_INVALID);
		CHECK(strstr(err_message(), "reachable from en: none") != NULL);
	}
	tr_engine_free(e);
	CHECK(tr_apertium_new(&e, "relative/dir", 5000) == ERR_INVALID);
	arena_free(&a);
}

UNIT_TEST(apertium_translates_a_batch)
{
	struct tr_engine *e = NULL;
	struct tr_engine_config cfg = { "apertium", NULL, 30000, NULL, NULL };
	struct arena a;
	const char **out = NULL;
	static const char *const in[] = { "The house is red.", "dog", "Hello world", "xyzzyplugh", "big", "The cat." };

	if (!have_eng_spa()) {
		printf("skip apertium_translates_a_batch: apertium-eng-spa is not installed\n");
		return;
	}
	arena_init(&a);
	CHECK(tr_engine_new(&e, &cfg) == 0);
	if (e) {
		CHECK(e->ops->translate(e, &a, "en", "es", in, 6, &out) == 0);
		if (out) {
			CHECK_STR(out[0], "La casa es roja.");
			CHECK_STR(out[1], "perro");
			CHECK_STR(out[2], "Hola Mundo");
			CHECK_STR(out[3], "xyzzyplugh");
			CHECK_STR(out[4], "grande");
			CHECK_STR(out[5], "El gato.");
		}
	}
	tr_engine_free(e);
	arena_free(&a);
}
