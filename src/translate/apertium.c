/*
 * apertium.c - the Apertium engine (engine.h): Debian's `apertium` command
 * and its language-pair packages (apertium-eng-spa, apertium-fr-es ...).
 *
 * DESIGN
 * Installed pairs are the files of <dir>/modes/ for each of the data
 * directories (--apertium-dir, ':'-separated; /usr/share/apertium, where
 * Debian's packages install, and /usr/local/share/apertium, where
 * scripts/deps.sh writes the modes a package ships but does not install,
 * such as es-ro, by default): a pair package installs "<from>-<to>.mode" for
 * each direction it deems ready, with Apertium's codes, ISO 639-3
 * ("eng-spa") or, in older packages, ISO 639-1 ("fr-es"). The table `langs`
 * maps GitBook's codes to those, plus a few languages that only serve as a
 * middle language in a chain (Catalan, Macedonian, Icelandic, Nynorsk,
 * Galician, Esperanto: route.c); a mode whose codes are not in it (a variant
 * such as "spa-eng_US", a language GitBook does not list) is not offered.
 * Croatian is Apertium's Serbo-Croatian, its Croatian variant (hbs_HR)
 * preferred where a pair has one.
 *
 * One batch of segments is one process:
 *
 *   apertium -d <dir> -u -f txt <mode>
 *
 * run without a shell (util/proc.h) with a deadline, the segments written
 * as paragraphs each followed by a paragraph holding only a marker,
 * "xq<nonce>x<i>": a word no dictionary knows, which Apertium passes through
 * unchanged, and the blank lines around it end a sentence, so no transfer
 * rule moves words across it. The output is cut at the markers, in order;
 * when a marker is missing or out of place the batch is sent again in
 * halves, down to one segment a process (slower, always right). -u drops the '*' Apertium
 * puts before unknown words; without -n, the full stops it would drop before
 * a paragraph end are kept. Apertium capitalizes a word it takes for a
 * sentence start: each translation's first letter gets the case of its
 * source's first letter.
 */
#include "translate/engine.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"
#include "util/proc.h"
#include "util/util.h"

#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define DEFAULT_DIR "/usr/share/apertium:/usr/local/share/apertium"
/* A batch: at most this many bytes of segments, or this many segments.
 * Each process pays Apertium's start (loading the pair's transducers:
 * ~0.3-0.6 s here) before it translates ~40 KB/s, so batches are large:
 * 1,000 pages of ~1.5 KB (14,000 segments) took 35 processes at 400
 * segments or 32 KiB a batch (a third of
 * the run spent starting), a handful at 256 KiB: 3.5 times as fast
 * (bench/translate.sh). */
#define BATCH_BYTES (256 * 1024)
#define BATCH_SEGMENTS 4000
#define MAX_PAIRS 256

#define MAX_DIRS 4

struct apertium {
	char dir[MAX_DIRS][1024];
	int ndirs;
	int timeout_ms;
};

/* GitBook's TranslationLanguage -> Apertium's codes, preferred first. */
static const struct lang {
	const char *code;
	const char *ap[5];
} langs[] = {
	{ "en", { "eng", "en" } },           { "fr", { "fra", "fr" } },
	{ "de", { "deu", "de" } },           { "es", { "spa", "es" } },
	{ "it", { "ita", "it" } },           { "pt", { "por", "pt" } },
	{ "pt-br", { "por_BR", "pt_BR" } },  { "ru", { "rus", "ru" } },
	{ "ja", { "jpn", "ja" } },           { "zh", { "zho", "cmn", "zh" } },
	{ "yue", { "yue" } },                { "ko", { "kor", "ko" } },
	{ "ar", { "ara", "ar" } },           { "hi", { "hin", "hi" } },
	{ "nl", { "nld", "nl" } },           { "pl", { "pol", "pl" } },
	{ "tr", { "tur", "tr" } },           { "sv", { "swe", "sv" } },
	{ "no", { "nob", "nor", "nb", "no" } }, { "da", { "dan", "da" } },
	{ "fi", { "fin", "fi" } },           { "el", { "ell", "el" } },
	{ "cs", { "ces", "cs" } },           { "hu", { "hun", "hu" } },
	{ "ro", { "ron", "ro" } },           { "th", { "tha", "th" } },
	{ "vi", { "vie", "vi" } },           { "id", { "ind", "id" } },
	{ "ms", { "zlm", "msa", "ms" } },    { "he", { "heb", "he" } },
	{ "uk", { "ukr", "uk" } },           { "sk", { "slk", "sk" } },
	{ "bg", { "bul", "bg" } },           { "hr", { "hrv", "hbs", "hr", "sh" } },
	{ "lt", { "lit", "lt" } },           { "lv", { "lav", "lv" } },
	{ "et", { "est", "et" } },           { "sl", { "slv", "sl" } },
	/* Middle languages only (not GitBook's): route.c chains through them. */
	{ "ca", { "cat", "ca" } },           { "mk", { "mkd", "mk" } },
	{ "is", { "isl", "is" } },           { "nn", { "nno", "nn" } },
	{ "gl", { "glg", "gl" } },           { "eo", { "epo", "eo" } },
};

static const struct lang *lang_of(const char *code)
{
	for (size_t i = 0; i < sizeof(langs) / sizeof(langs[0]); i++)
		if (strcmp(langs[i].code, code) == 0)
			return &langs[i];
	return NULL;
}

/* The GitBook code of an Apertium code (n bytes of s), or NULL. */
static const char *gitbook_code(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof(langs) / sizeof(langs[0]); i++)
		for (int k = 0; k < 5 && langs[i].ap[k]; k++)
			if (strlen(langs[i].ap[k]) == n && memcmp(langs[i].ap[k], s, n) == 0)
				return langs[i].code;
	return NULL;
}

static int pair_cmp(const void *x, const void *y)
{
	const struct tr_pair *a = x, *b = y;
	int c = strcmp(a->from, b->from);

	return c ? c : strcmp(a->to, b->to);
}

static int ap_pairs(const struct tr_engine *e, struct arena *a, struct tr_pair **out, int *n)
{
	const struct apertium *ap = e->impl;
	char path[1100];
	struct tr_pair *p;
	struct dirent *de;
	DIR *dir;
	int k = 0;

	*out = NULL;
	*n = 0;
	p = arena_alloc(a, sizeof(*p) * MAX_PAIRS);
	for (int d = 0; d < ap->ndirs; d++) {
	snprintf(path, sizeof(path), "%s/modes", ap->dir[d]);
	if (!(dir = opendir(path)))
		continue; /* nothing installed there */
	while ((de = readdir(dir)) && k < MAX_PAIRS) {
		const char *name = de->d_name, *dash = strchr(name, '-'), *dot = strrchr(name, '.');
		const char *from, *to;
		bool seen = false;

		if (!dash || !dot || strcmp(dot, ".mode") != 0 || dot < dash || strchr(dash + 1, '-'))
			continue;
		from = gitbook_code(name, (size_t)(dash - name));
		to = gitbook_code(dash + 1, (size_t)(dot - dash - 1));
		if (!from || !to || strcmp(from, to) == 0)
			continue;
		for (int i = 0; i < k && !seen; i++)
			seen = strcmp(p[i].from, from) == 0 && strcmp(p[i].to, to) == 0;
		if (!seen)
			p[k++] = (struct tr_pair){ from, to };
	}
	closedir(dir);
	}
	qsort(p, (size_t)k, sizeof(*p), pair_cmp);
	*out = p;
	*n = k;
	return 0;
}

/* The mode of from -> to, e.g. "eng-spa", and the data directory that has
 * it (*dir); ERR_PRECONDITION when none. */
static int find_mode(const struct apertium *ap, const char *from, const char *to, char *mode, size_t cap,
		     const char **dir)
{
	const struct lang *f = lang_of(from), *t = lang_of(to);
	char path[1200];

	for (int i = 0; f && i < 5 && f->ap[i]; i++)
		for (int j = 0; t && j < 5 && t->ap[j]; j++)
			for (int d = 0; d < ap->ndirs; d++) {
				snprintf(mode, cap, "%s-%s", f->ap[i], t->ap[j]);
				snprintf(path, sizeof(path), "%s/modes/%s.mode", ap->dir[d], mode);
				if (access(path, R_OK) == 0) {
					*dir = ap->dir[d];
					return 0;
				}
			}
	return err_set(ERR_PRECONDITION, "no Apertium pair from %s to %s is installed in %s/modes", from, to,
		       ap->dir[0]);
}

/* The segment as one line of plain text. */
static void put_clean(char *dst, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = s[i] == '\n' || s[i] == '\r' || s[i] == '\t' || s[i] == '\f' || s[i] == '\v' ? ' ' : s[i];
}

static char *trimmed(struct arena *a, const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return arena_strndup(a, s, n);
}

/* The first letter's case follows the source's (Apertium capitalizes what
 * it takes for a sentence start). ASCII letters only. */
static void match_case(const char *src, char *tr)
{
	unsigned char s = (unsigned char)*src, t = (unsigned char)*tr;

	if (islower(s) && isupper(t))
		*tr = (char)tolower(t);
	else if (isupper(s) && islower(t))
		*tr = (char)toupper(t);
}

/* A mode: its name and the data directory that has it. */
struct mode {
	char name[64];
	const char *dir;
};

static int run(const struct apertium *ap, struct arena *a, const struct mode *m, const char *in, size_t len,
	       struct proc_result *res)
{
	const char *dir = m->dir, *mode = m->name;
	const char *const argv[] = { "apertium", "-d", dir, "-u", "-f", "txt", mode, NULL };

	/* Generous room for the output: a translation can be longer than its source. */
	return proc_run(a, argv, in, len, 4 * len + 65536, ap->timeout_ms, res);
}

/* One segment alone. */
static int translate_one(const struct apertium *ap, struct arena *a, const struct mode *mode, const char *seg,
			 const char **out)
{
	size_t n = strlen(seg);
	char *in = arena_alloc(a, n + 2), *t;
	struct proc_result res;
	int rc;

	put_clean(in, seg, n);
	in[n] = '\n';
	in[n + 1] = '\0';
	if ((rc = run(ap, a, mode, in, n + 1, &res)))
		return rc;
	t = trimmed(a, res.out, res.out_len);
	match_case(seg, t);
	*out = t;
	return 0;
}

/* Segments in[0..n) in one process; 1 when the output could not be cut back
 * into n segments (the caller splits the batch). */
static int translate_batch(const struct apertium *ap, struct arena *a, const struct mode *mode, const char *const *in,
			   int n, const char **out)
{
	char nonce[9], marker[40], *buf, *t;
	size_t len = 0, at = 0, mlen;
	struct proc_result res;
	const char *pos;
	int rc;

	if (random_alnum(nonce, 8))
		return err_set(ERR_INTERNAL, "no randomness");
	for (int i = 0; i < 8; i++)
		nonce[i] = (char)('a' + (unsigned char)nonce[i] % 26);
	nonce[8] = '\0';
	for (int i = 0; i < n; i++)
		len += strlen(in[i]) + 4 + sizeof(marker);
	buf = arena_alloc(a, len + 1);
	for (int i = 0; i < n; i++) {
		size_t k = strlen(in[i]);
		put_clean(buf + at, in[i], k);
		at += k;
		at += (size_t)snprintf(buf + at, len + 1 - at, "\n\nxq%sx%d\n\n", nonce, i);
	}
	if ((rc = run(ap, a, mode, buf, at, &res)))
		return rc;
	pos = res.out;
	for (int i = 0; i < n; i++) {
		const char *m;
		mlen = (size_t)snprintf(marker, sizeof(marker), "xq%sx%d", nonce, i);
		m = strcasestr(pos, marker);
		if (!m || isdigit((unsigned char)m[mlen]))
			return 1;
		t = trimmed(a, pos, (size_t)(m - pos));
		match_case(in[i], t);
		out[i] = t;
		pos = m + mlen;
	}
	for (; *pos; pos++)
		if (!isspace((unsigned char)*pos))
			return 1;
	return 0;
}

/* in[0..k) in one process; a batch that comes back without its markers is
 * split in halves, down to one segment a process, so that one segment that
 * upsets the markers costs a few more processes, not one per segment of a
 * large batch. */
static int translate_range(const struct apertium *ap, struct arena *a, const struct mode *mode,
			   const char *const *in, int k, const char **out)
{
	int rc = k == 1 ? translate_one(ap, a, mode, in[0], &out[0]) : translate_batch(ap, a, mode, in, k, out);

	if (rc != 1)
		return rc;
	log_info("apertium %s: a batch of %d segments came back without its markers; translating it in halves",
		 mode->name, k);
	if ((rc = translate_range(ap, a, mode, in, k / 2, out)))
		return rc;
	return translate_range(ap, a, mode, in + k / 2, k - k / 2, out + k / 2);
}

static int ap_translate(const struct tr_engine *e, struct arena *a, const char *from, const char *to,
			const char *const *in, int n, const char ***out)
{
	const struct apertium *ap = e->impl;
	struct mode m, *mode = &m;
	const char **res;
	int rc;

	*out = NULL;
	if ((rc = find_mode(ap, from, to, m.name, sizeof(m.name), &m.dir)))
		return rc;
	res = arena_alloc(a, sizeof(*res) * (size_t)(n + 1));
	for (int first = 0; first < n;) {
		int k = 0;
		size_t bytes = 0;

		/* A batch: up to BATCH_BYTES (at least one segment, however long). */
		while (first + k < n && k < BATCH_SEGMENTS && (k == 0 || bytes + strlen(in[first + k]) <= BATCH_BYTES))
			bytes += strlen(in[first + k++]);
		if ((rc = translate_range(ap, a, mode, in + first, k, res + first)))
			return rc;
		first += k;
	}
	*out = res;
	return 0;
}

static void ap_free(struct tr_engine *e)
{
	if (e) {
		free(e->impl);
		free(e);
	}
}

static const struct tr_engine_ops apertium_ops = { "apertium", ap_pairs, ap_translate, ap_free };

int tr_apertium_new(struct tr_engine **out, const char *dir, int timeout_ms)
{
	struct tr_engine *e = xcalloc(1, sizeof(*e));
	struct apertium *ap = xcalloc(1, sizeof(*ap));

	*out = NULL;
	if (!dir || !*dir)
		dir = DEFAULT_DIR;
	for (const char *at = dir; *at;) {
		size_t k = strcspn(at, ":");
		if (k >= sizeof(ap->dir[0]) - 64 || at[0] != '/' || ap->ndirs == MAX_DIRS) {
			free(e);
			free(ap);
			return err_set(ERR_INVALID, "--apertium-dir must be at most %d absolute paths of at most 900 "
						    "bytes, separated by ':'", MAX_DIRS);
		}
		snprintf(ap->dir[ap->ndirs++], sizeof(ap->dir[0]), "%.*s", (int)k, at);
		at += k;
		if (*at == ':')
			at++;
	}
	ap->timeout_ms = timeout_ms > 0 ? timeout_ms : 60000;
	e->ops = &apertium_ops;
	e->impl = ap;
	*out = e;
	return 0;
}
