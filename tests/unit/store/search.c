/*
 * Search (store/search.c) on SQLite and on PostgreSQL (DOCSD_TEST_PG_URL):
 * ranking by words held, prefixes, pagination, excerpts, the index following
 * puts, removals, copies, deletion, purge and transfer of spaces, and query
 * text that looks like FTS5 or tsquery syntax.
 */
#include "jobs/jobs.h"
#include "store/internal.h"
#include "domain/content.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdlib.h>
#include <unistd.h>

struct fixture {
	struct store *s;
	struct arena a;
	struct user u;
	struct org org, other;
	struct space docs, more, gone;
};

static const char *const hatching_md =
	"Intro about drawing.\n\n"
	"# Hatch patterns\n\nCustom hatch patterns fill closed areas.\n\n"
	"## Colors\n\nPick a color for the lines.\n";

static void put(struct fixture *f, const struct space *sp, const char *id, const char *title, const char *md)
{
	struct store_tx tx;
	char path[64];

	snprintf(path, sizeof(path), "%s-path", id);
	CHECK(store_tx_begin(f->s, &tx, 1, &f->a) == 0);
	CHECK(dom_search_put_page(&tx, sp->org_id, sp->id, id, title, path, md) == 0);
	CHECK(store_tx_commit(&tx) == 0);
}

/* The page ids of a space search, space-separated ("" when none), walking
 * every page of results `limit` at a time. */
static const char *ids(struct fixture *f, const struct space *sp, const char *query, int limit)
{
	static char out[1024];
	struct store_tx tx;
	struct list_req lr = { .limit = limit };
	struct cursor cur;
	struct search_page *pages;
	char *next;
	int n, guard = 0;

	out[0] = '\0';
	CHECK(store_tx_begin(f->s, &tx, 0, &f->a) == 0);
	do {
		int rc = store_search_space(&tx, sp->id, query, &lr, &pages, &n, &next);
		CHECK(rc == 0);
		if (rc) {
			fprintf(stderr, "  query %s: %s\n", query, err_message());
			break;
		}
		CHECK(n <= limit);
		for (int i = 0; i < n; i++)
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", *out ? " " : "", pages[i].id);
		if (next) {
			CHECK(n == limit);
			CHECK(cursor_decode(&f->a, next, &cur) == 0);
			lr.after = &cur;
		}
	} while (next && ++guard < 20);
	store_tx_rollback(&tx);
	return out;
}

static void fixture_open(struct fixture *f, struct store *s)
{
	struct store_tx tx;
	char email[64], r[9];

	memset(f, 0, sizeof(*f));
	f->s = s;
	arena_init(&f->a);
	random_alnum(r, 8);
	snprintf(email, sizeof(email), "searcher-%s@example.com", r);
	CHECK(store_tx_begin(s, &tx, 1, &f->a) == 0);
	CHECK(store_user_create(&tx, email, "Searcher", &f->u) == 0);
	f->org = (struct org){ .title = "Search", .email_domains = "[]", .default_role = ROLE_READ };
	f->other = (struct org){ .title = "Elsewhere", .email_domains = "[]", .default_role = ROLE_READ };
	CHECK(store_org_create(&tx, &f->org, f->u.id) == 0);
	CHECK(store_org_create(&tx, &f->other, f->u.id) == 0);
	f->docs = (struct space){ .org_id = f->org.id, .title = "Docs", .default_level = LEVEL_INHERIT };
	f->more = (struct space){ .org_id = f->org.id, .title = "More", .default_level = LEVEL_INHERIT };
	f->gone = (struct space){ .org_id = f->org.id, .title = "Gone", .default_level = LEVEL_INHERIT };
	CHECK(store_space_create(&tx, &f->docs) == 0);
	CHECK(store_space_create(&tx, &f->more) == 0);
	CHECK(store_space_create(&tx, &f->gone) == 0);
	CHECK(store_tx_commit(&tx) == 0);
}

/* Every word first, then most words, then some; a word no page holds does
 * not empty the results; the last word is a prefix. */
static void ranking(struct fixture *f)
{
	const struct space *d = &f->docs;

	put(f, d, "p3", "Hatch patterns", hatching_md);
	put(f, d, "p2", "Shading", "Hatch lines and patterns.\n");
	put(f, d, "p1", "Others", "Only patterns here.\n");
	put(f, d, "p0", "Unrelated", "Nothing to see.\n");

	CHECK_STR(ids(f, d, "custom hatch patterns", 10), "p3 p2 p1");
	CHECK_STR(ids(f, d, "zebra hatch patterns", 10), "p3 p2 p1"); /* GitBook finds nothing here */
	CHECK_STR(ids(f, d, "custom hatch patterns zebra", 10), "p3 p2 p1");
	/* every page of results, one at a time, across both passes */
	CHECK_STR(ids(f, d, "custom hatch patterns", 1), "p3 p2 p1");
	CHECK_STR(ids(f, d, "zebra hatch patterns", 2), "p3 p2 p1");
	/* prefixes: only the last word, only while it is being typed */
	CHECK_STR(ids(f, d, "hatc", 10), "p3 p2");
	CHECK_STR(ids(f, d, "hatch patt", 10), "p3 p2 p1");
	CHECK_STR(ids(f, d, "hatc ", 10), "");
	CHECK_STR(ids(f, d, "patt hatch", 10), "p3 p2");
	CHECK_STR(ids(f, d, "zebra", 10), "");
	/* case, repeats and stop words do not matter */
	CHECK_STR(ids(f, d, "How to use CUSTOM Hatch the hatch", 10), "p3 p2");
	CHECK_STR(ids(f, d, "the", 10), "p3"); /* only stop words: they are searched */
	/* a title hit weighs more than a body hit */
	put(f, d, "t1", "Zeppelin", "Airships.\n");
	put(f, d, "t2", "Flying", "A zeppelin is an airship.\n");
	CHECK_STR(ids(f, d, "zeppelin", 10), "t1 t2");
	CHECK_STR(ids(f, d, "zeppelin airship ", 10), "t2 t1"); /* more words beat a title hit */
	/* other scripts, diacritics */
	put(f, d, "u1", "Café", "Straße und Größe, 日本語 text.\n");
	CHECK_STR(ids(f, d, "café", 10), "u1");
	CHECK_STR(ids(f, d, "größe", 10), "u1");
	CHECK_STR(ids(f, d, "日本語", 10), "u1");

	/* the words each result holds */
	struct store_tx tx;
	struct list_req lr = { .limit = 10 };
	struct search_page *pages;
	char *next;
	int n;
	CHECK(store_tx_begin(f->s, &tx, 0, &f->a) == 0);
	CHECK(store_search_space(&tx, d->id, "zebra hatch patterns", &lr, &pages, &n, &next) == 0 && n == 3);
	CHECK(n == 3 && pages[0].words == 2 && pages[1].words == 2 && pages[2].words == 1);
	/* no word at all */
	CHECK(store_search_space(&tx, d->id, "  ?! ", &lr, &pages, &n, &next) == ERR_INVALID);
	store_tx_rollback(&tx);
}

/* Sections with a hit, best first, each with an excerpt around its first hit. */
static void sections(struct fixture *f)
{
	struct store_tx tx;
	struct list_req lr = { .limit = 10 };
	struct search_page *pages;
	char *next, md[8192], *o = md;
	int n;

	CHECK(store_tx_begin(f->s, &tx, 0, &f->a) == 0);
	CHECK(store_search_space(&tx, f->docs.id, "hatch patterns", &lr, &pages, &n, &next) == 0 && n >= 1);
	CHECK_STR(pages[0].id, "p3");
	CHECK_STR(pages[0].title, "Hatch patterns");
	CHECK_STR(pages[0].path, "p3-path");
	CHECK_STR(pages[0].space_id, f->docs.id);
	CHECK(pages[0].nsections == 1);
	CHECK_STR(pages[0].sections[0].id, "hatch-patterns");
	CHECK_STR(pages[0].sections[0].title, "Hatch patterns");
	CHECK_STR(pages[0].sections[0].body, "Custom hatch patterns fill closed areas.");
	/* a title-only hit shows the page's first section */
	CHECK(store_search_space(&tx, f->docs.id, "others", &lr, &pages, &n, &next) == 0 && n == 1);
	CHECK(n == 1 && pages[0].nsections == 1);
	CHECK_STR(pages[0].sections[0].id, "");
	CHECK_STR(pages[0].sections[0].body, "Only patterns here.");
	/* the section holding more words comes first */
	CHECK(store_search_space(&tx, f->docs.id, "drawing lines color", &lr, &pages, &n, &next) == 0 && n == 2);
	CHECK(n == 2 && strcmp(pages[0].id, "p3") == 0 && pages[0].nsections == 2);
	CHECK_STR(pages[0].sections[0].id, "colors");
	CHECK_STR(pages[0].sections[1].id, "");
	store_tx_rollback(&tx);

	/* a long section: about SEARCH_EXCERPT characters around the hit, whole words */
	o += sprintf(o, "# Long\n\n");
	for (int i = 0; i < 300; i++)
		o += sprintf(o, "%s%s", i == 150 ? "needle " : "", i % 12 == 11 ? "word\n\n" : "word ");
	put(f, &f->docs, "long", "Long", md);
	CHECK(store_tx_begin(f->s, &tx, 0, &f->a) == 0);
	CHECK(store_search_space(&tx, f->docs.id, "needle", &lr, &pages, &n, &next) == 0 && n == 1);
	if (n == 1 && pages[0].nsections == 1) {
		const char *b = pages[0].sections[0].body;
		size_t len = strlen(b);
		CHECK(strncmp(b, "\xE2\x80\xA6word ", 8) == 0);
		CHECK(len > 8 && strcmp(b + len - 8, " word\xE2\x80\xA6") == 0);
		CHECK(strstr(b, " needle word ") != NULL);
		CHECK(strchr(b, '\n') == NULL && !strstr(b, "  "));
		CHECK(len >= SEARCH_EXCERPT - 10 && len <= SEARCH_EXCERPT + 6);
		CHECK(strstr(b, "needle") - b < SEARCH_EXCERPT / 2);
	} else {
		CHECK(!"one section expected");
	}
	/* a text shorter than an excerpt is shown whole, wherever the hit is */
	store_tx_rollback(&tx);
	put(f, &f->docs, "short", "Short", "A fairly short paragraph that mentions many things before it says quokka at its end.\n");
	CHECK(store_tx_begin(f->s, &tx, 0, &f->a) == 0);
	CHECK(store_search_space(&tx, f->docs.id, "quokka", &lr, &pages, &n, &next) == 0 && n == 1);
	CHECK(n == 1 && pages[0].nsections == 1);
	if (n == 1 && pages[0].nsections == 1)
		CHECK_STR(pages[0].sections[0].body,
			  "A fairly short paragraph that mentions many things before it says quokka at its end.");
	store_tx_rollback(&tx);
}

/* Query text with the engines' syntax in it is only words. */
static void hostile(struct fixture *f)
{
	static const char *const none[] = { "\"", "*", "-", "'", "\\", "\"\"", "()", ":*", "''", "!", "&|" };
	static const char *const words[] = {
		"OR", "NEAR(", "AND", "NOT", "hatch\" OR \"x", "hatch' | 'x", "hatch\\", "hatch*", "-hatch",
		"{title body}: hatch", "hatch:*", "hatch & !patterns", "NEAR(hatch patterns, 2)", "^hatch",
		"'; DROP TABLE search_index; --", "space_id : hatch", "hatch)", "((hatch", "\xff\xfehatch\xc3",
	};
	struct store_tx tx;
	struct list_req lr = { .limit = 5 };
	struct search_page *pages;
	struct search_space *spaces;
	char *next;
	int n;

	CHECK(store_tx_begin(f->s, &tx, 0, &f->a) == 0);
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		CHECK(store_search_space(&tx, f->docs.id, none[i], &lr, &pages, &n, &next) == ERR_INVALID);
		CHECK(store_search_org(&tx, f->org.id, NULL, 0, none[i], &lr, &spaces, &n, &next) == ERR_INVALID);
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		int rc = store_search_space(&tx, f->docs.id, words[i], &lr, &pages, &n, &next);
		CHECK(rc == 0);
		if (rc)
			fprintf(stderr, "  query %s: %s\n", words[i], err_message());
		CHECK(store_search_org(&tx, f->org.id, NULL, 0, words[i], &lr, &spaces, &n, &next) == 0);
	}
	store_tx_rollback(&tx);
	CHECK_STR(ids(f, &f->docs, "hatch\" OR \"zebra", 10), "p3 p2");
	CHECK_STR(ids(f, &f->docs, "'; DROP TABLE search_index; --", 10), "");
	CHECK_STR(ids(f, &f->docs, "hatch", 10), "p3 p2");
}

/* Puts replace, removals remove, unchanged puts change nothing. */
static void updates(struct fixture *f)
{
	struct store_tx tx;

	put(f, &f->docs, "p2", "Shading", "Now about zebras.\n");
	CHECK_STR(ids(f, &f->docs, "hatch", 10), "p3");
	CHECK_STR(ids(f, &f->docs, "zebras", 10), "p2");
	put(f, &f->docs, "p2", "Shading", "Now about zebras.\n");
	CHECK_STR(ids(f, &f->docs, "zebras", 10), "p2");
	CHECK(store_tx_begin(f->s, &tx, 1, &f->a) == 0);
	CHECK(store_search_remove_page(&tx, f->docs.id, "p2") == 0);
	CHECK(store_search_remove_page(&tx, f->docs.id, "never-indexed") == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK_STR(ids(f, &f->docs, "zebras", 10), "");
	/* an empty page is found by its title */
	put(f, &f->docs, "g1", "Group of zebras", "");
	CHECK_STR(ids(f, &f->docs, "zebras", 10), "g1");
}

static const char *org_result(struct fixture *f, const char *org_id, const char *const *only, int nonly,
			      const char *query, int limit)
{
	static char out[1024];
	struct store_tx tx;
	struct list_req lr = { .limit = limit };
	struct cursor cur;
	struct search_space *spaces;
	char *next;
	int n, guard = 0;

	out[0] = '\0';
	CHECK(store_tx_begin(f->s, &tx, 0, &f->a) == 0);
	do {
		int rc = store_search_org(&tx, org_id, only, nonly, query, &lr, &spaces, &n, &next);
		CHECK(rc == 0);
		if (rc) {
			fprintf(stderr, "  query %s: %s\n", query, err_message());
			break;
		}
		for (int i = 0; i < n; i++) {
			const char *title = spaces[i].title;
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s:", *out ? " " : "", title);
			for (int j = 0; j < spaces[i].npages; j++) {
				CHECK_STR(spaces[i].pages[j].space_id, spaces[i].id);
				snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", j ? "," : "", spaces[i].pages[j].id);
			}
		}
		if (next) {
			CHECK(n == limit);
			CHECK(cursor_decode(&f->a, next, &cur) == 0);
			lr.after = &cur;
		}
	} while (next && ++guard < 20);
	store_tx_rollback(&tx);
	return out;
}

/* Organization search: spaces by their best page, their best pages, only
 * the spaces asked for, never deleted ones; the index follows a space to
 * another organization, into a copy, and out with the purge. */
static void organization(struct fixture *f)
{
	struct store_tx tx;
	struct space copy = { 0 };
	const char *only[] = { f->more.id };
	int64_t removed, count;
	bool deleted;

	put(f, &f->more, "m1", "Hatch basics", "Hatch patterns for beginners.\n");
	put(f, &f->more, "m2", "Patterns", "Patterns of all kinds.\n");
	put(f, &f->gone, "x1", "Hatch patterns", "Custom hatch patterns, deleted.\n");
	CHECK(store_tx_begin(f->s, &tx, 1, &f->a) == 0);
	CHECK(store_space_delete(&tx, &f->gone, &deleted) == 0 && deleted);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK_STR(ids(f, &f->gone, "hatch", 10), "");

	CHECK_STR(org_result(f, f->org.id, NULL, 0, "custom hatch patterns", 10), "Docs:p3,p1 More:m1,m2");
	CHECK_STR(org_result(f, f->org.id, NULL, 0, "custom hatch patterns", 1), "Docs:p3,p1 More:m1,m2");
	CHECK_STR(org_result(f, f->org.id, only, 1, "custom hatch patterns", 10), "More:m1,m2");
	CHECK_STR(org_result(f, f->org.id, only, 0, "hatch", 10), "");
	CHECK_STR(org_result(f, f->org.id, NULL, 0, "zebra", 10), "Docs:g1");
	CHECK_STR(org_result(f, f->other.id, NULL, 0, "hatch", 10), "");

	/* a copy of a space's content is searchable in the copy */
	CHECK(store_tx_begin(f->s, &tx, 1, &f->a) == 0);
	copy = (struct space){ .org_id = f->org.id, .title = "Copy", .default_level = LEVEL_INHERIT };
	CHECK(store_space_create(&tx, &copy) == 0);
	CHECK(store_search_copy_space(&tx, f->more.id, copy.id) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK_STR(ids(f, &copy, "beginners", 10), "m1");

	/* transfer: the pages follow the space to the other organization */
	CHECK(store_tx_begin(f->s, &tx, 1, &f->a) == 0);
	CHECK(store_space_transfer(&tx, &f->more, f->other.id, NULL, 1000) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK_STR(org_result(f, f->other.id, NULL, 0, "beginners", 10), "More:m1");
	CHECK_STR(org_result(f, f->org.id, NULL, 0, "beginners", 10), "Copy:m1");

	/* purge: the deleted space's rows leave the table and the FTS index */
	clock_set_offset(SPACE_RETENTION_MS + 3600 * 1000);
	CHECK(jobs_purge_spaces(f->s, &removed) == 0 && removed >= 1);
	clock_set_offset(0);
	CHECK(store_tx_begin(f->s, &tx, 1, &f->a) == 0);
	{
		struct db_rows *r;
		struct db_param p[] = { P_TEXT(f->gone.id) };
		CHECK(st_query(&tx, &r, "SELECT COUNT(*) FROM search_index WHERE space_id = $1", p, 1) == 0 &&
		      st_next(&tx, r) == 1);
		count = st_int(&tx, r, 0);
		st_done(&tx, r);
		CHECK(count == 0);
		if (strcmp(tx.drv->name, "sqlite") == 0) {
			/* the FTS index holds nothing of it, and agrees with the table */
			char match[64];
			struct db_param m[] = { P_TEXT(match) };
			snprintf(match, sizeof(match), "space_id : \"%s\"", f->gone.id);
			CHECK(st_query(&tx, &r, "SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH $1", m, 1) == 0 &&
			      st_next(&tx, r) == 1);
			count = st_int(&tx, r, 0);
			st_done(&tx, r);
			CHECK(count == 0);
			CHECK(st_exec(&tx, "INSERT INTO search_fts(search_fts, rank) VALUES ('integrity-check', 1)", NULL, 0,
				      NULL) == 0);
		}
	}
	store_tx_rollback(&tx);
}

static void search_suite(struct store *s)
{
	struct fixture f;

	fixture_open(&f, s);
	ranking(&f);
	sections(&f);
	hostile(&f);
	updates(&f);
	organization(&f);
	arena_free(&f.a);
}

UNIT_TEST_ON_ENGINES(search, search_suite)
