/*
 * domain/translation_run: the glossary of a translation's instructions
 * (tr_glossary_parse: GitBook's table block and rows of cells;
 * tr_glossary_protect / tr_glossary_restore: whole words, longest first,
 * tokens back in any case).
 */
#include "domain/translations.h"
#include "util/arena.h"
#include "unit.h"

#include <ctype.h>
#include <string.h>

/* GitBook's table: columns src, dst; records out of order; cells in fragments. */
static const char gitbook_table[] =
	"{\"object\":\"document\",\"data\":{},\"nodes\":["
	"{\"object\":\"block\",\"type\":\"paragraph\",\"nodes\":[{\"object\":\"text\",\"leaves\":[{\"object\":\"leaf\",\"text\":\"Be formal.\",\"marks\":[]}]}]},"
	"{\"object\":\"block\",\"type\":\"table\",\"isVoid\":true,\"data\":{\"view\":{\"type\":\"grid\",\"columns\":[\"s\",\"d\"],\"hideHeader\":false},"
	"\"records\":{\"r2\":{\"orderIndex\":\"a1\",\"values\":{\"s\":\"f2\",\"d\":\"plain target\"}},"
	"\"r1\":{\"orderIndex\":\"a0\",\"values\":{\"s\":\"f1\",\"d\":\"g1\"}}},"
	"\"definition\":{\"s\":{\"id\":\"s\",\"title\":\"Source\",\"type\":\"text\"},\"d\":{\"id\":\"d\",\"title\":\"Target\",\"type\":\"text\"}}},"
	"\"fragments\":["
	"{\"object\":\"fragment\",\"fragment\":\"f1\",\"nodes\":[{\"object\":\"block\",\"type\":\"paragraph\",\"nodes\":[{\"object\":\"text\",\"leaves\":[{\"object\":\"leaf\",\"text\":\" docs \",\"marks\":[]}]}]}]},"
	"{\"object\":\"fragment\",\"fragment\":\"g1\",\"nodes\":[{\"object\":\"block\",\"type\":\"paragraph\",\"nodes\":[{\"object\":\"text\",\"leaves\":[{\"object\":\"leaf\",\"text\":\"Doku\",\"marks\":[]}]}]}]},"
	"{\"object\":\"fragment\",\"fragment\":\"f2\",\"nodes\":[{\"object\":\"block\",\"type\":\"paragraph\",\"nodes\":[{\"object\":\"text\",\"leaves\":[{\"object\":\"leaf\",\"text\":\"docs site\",\"marks\":[]}]}]}]}"
	"]}]}";

/* Rows of cells, a header row first. */
static const char row_table[] =
	"{\"object\":\"document\",\"data\":{},\"nodes\":[{\"object\":\"block\",\"type\":\"table\",\"nodes\":["
	"{\"object\":\"block\",\"type\":\"table-row\",\"nodes\":["
	"{\"object\":\"block\",\"type\":\"table-cell\",\"nodes\":[{\"object\":\"text\",\"leaves\":[{\"object\":\"leaf\",\"text\":\"Source\",\"marks\":[]}]}]},"
	"{\"object\":\"block\",\"type\":\"table-cell\",\"nodes\":[{\"object\":\"text\",\"leaves\":[{\"object\":\"leaf\",\"text\":\"Target\",\"marks\":[]}]}]}]},"
	"{\"object\":\"block\",\"type\":\"table-row\",\"nodes\":["
	"{\"object\":\"block\",\"type\":\"table-cell\",\"nodes\":[{\"object\":\"text\",\"leaves\":[{\"object\":\"leaf\",\"text\":\"GitBook\",\"marks\":[]}]}]},"
	"{\"object\":\"block\",\"type\":\"table-cell\",\"nodes\":[{\"object\":\"text\",\"leaves\":[{\"object\":\"leaf\",\"text\":\"GitBook\",\"marks\":[]}]}]}]}"
	"]}]}";

UNIT_TEST(glossary_from_instructions)
{
	struct tr_glossary g;
	struct arena a;
	const char *p;

	arena_init(&a);
	tr_glossary_parse(&a, gitbook_table, &g);
	CHECK(g.n == 2);
	if (g.n == 2) {
		/* longest first */
		CHECK_STR(g.from[0], "docs site");
		CHECK_STR(g.to[0], "plain target");
		CHECK_STR(g.from[1], "docs");
		CHECK_STR(g.to[1], "Doku");
	}
	p = tr_glossary_protect(&a, &g, "The docs site has docs, not mydocs or docs_x.");
	CHECK_STR(p, "The zqg0z has zqg1z, not mydocs or docs_x.");
	/* an engine may change the token's case */
	CHECK_STR(tr_glossary_restore(&a, &g, "EL ZQG0Z TIENE Zqg1Z, zqg9z."), "EL plain target TIENE Doku, zqg9z.");
	CHECK_STR(tr_glossary_restore(&a, &g, p), "The plain target has Doku, not mydocs or docs_x.");
	/* nothing to do: the same string */
	CHECK(tr_glossary_protect(&a, &g, "nothing here") != NULL);
	CHECK_STR(tr_glossary_protect(&a, &g, "nothing here"), "nothing here");

	tr_glossary_parse(&a, row_table, &g);
	CHECK(g.n == 1);
	if (g.n == 1)
		CHECK_STR(g.from[0], "GitBook");
	tr_glossary_parse(&a, "{\"object\":\"document\",\"data\":{},\"nodes\":[]}", &g);
	CHECK(g.n == 0);
	tr_glossary_parse(&a, "not json", &g);
	CHECK(g.n == 0);
	CHECK(tr_glossary_protect(&a, &g, "text") != NULL);
	arena_free(&a);
}
