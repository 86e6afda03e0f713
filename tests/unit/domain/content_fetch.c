/*
 * dom_content_prefetch: which entries of a batch it fetches, in which order,
 * its limit on URLs, and that it stops at the first failure. No store and no
 * transaction: it runs before the write transaction begins. The server is
 * NULL, so private addresses are refused and nothing leaves the machine.
 */
#include "domain/content.h"
#include "unit.h"
#include "util/err.h"
#include "util/fetch.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static json_t *batch(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	CHECK(j != NULL);
	return j;
}

UNIT_TEST(prefetch_ignores_batches_without_urls)
{
	struct arena a;
	struct dom d;
	struct fetched_files ff = { (void *)1, 7 };
	json_t *c = batch("[{\"operation\":\"insert_page\",\"title\":\"T\",\"document\":{\"markdown\":\"x\"}},"
			  "{\"operation\":\"insert_files\",\"files\":[{\"name\":\"a\",\"contentType\":\"text/plain\",\"base64\":\"eA==\"}]}]");

	arena_init(&a);
	dom_init(&d, NULL, NULL, &a, "u1");
	CHECK(dom_content_prefetch(&d, c, &ff) == 0);
	CHECK(ff.n == 0 && ff.items == NULL);
	/* not a batch at all: the batch itself will say so, in the transaction */
	CHECK(dom_content_prefetch(&d, NULL, &ff) == 0 && ff.n == 0);
	json_decref(c);
	arena_free(&a);
}

UNIT_TEST(prefetch_refuses_more_than_20_urls_before_fetching)
{
	struct arena a;
	struct dom d;
	struct fetched_files ff;
	json_t *c = json_array();
	char url[64];

	for (int i = 0; i < CONTENT_FETCH_MAX_URLS + 1; i++) {
		/* port 1 on loopback: refused by the address rules, never connected */
		snprintf(url, sizeof(url), "http://127.0.0.1:1/%d", i);
		CHECK(json_array_append_new(c, json_pack("{s:s, s:[{s:s, s:s}]}", "operation", "insert_files", "files",
							 "name", "f", "url", url)) == 0);
	}
	arena_init(&a);
	dom_init(&d, NULL, NULL, &a, "u1");
	CHECK(dom_content_prefetch(&d, c, &ff) == ERR_INVALID);
	CHECK_STR(err_message(), "changes: at most 20 distinct file URLs in one request (21 given)");
	CHECK(ff.n == 0);
	/* the same URL many times is one fetch */
	json_array_clear(c);
	for (int i = 0; i < 30; i++)
		CHECK(json_array_append_new(c, json_pack("{s:s, s:[{s:s, s:s}]}", "operation", "insert_files", "files",
							 "name", "f", "url", "http://127.0.0.1:1/same")) == 0);
	CHECK(dom_content_prefetch(&d, c, &ff) == 0);
	CHECK(ff.n == 1);
	json_decref(c);
	arena_free(&a);
}

UNIT_TEST(prefetch_walks_the_batch_in_order_and_stops_at_a_failure)
{
	struct arena a;
	struct dom d;
	struct fetched_files ff;
	/* Skipped: a url with base64 (refused by the batch), an over-long url, a
	 * change that is not insert_files. Fetched in order: http://10.0.0.1/a
	 * (refused: private), after which the batch stops, so the rest is not
	 * fetched. */
	char *long_url = malloc(2100);
	json_t *c;

	CHECK(long_url != NULL);
	memcpy(long_url, "http://example.com/", 19);
	memset(long_url + 19, 'x', 2100 - 20);
	long_url[2099] = '\0';
	c = json_pack("[{s:s, s:[{s:s, s:s, s:s}, {s:s, s:s}]}, {s:s, s:s, s:[{s:s, s:s}]},"
		      " {s:s, s:[{s:s, s:s}, {s:s, s:s}]}]",
		      "operation", "insert_files", "files", "name", "both", "url", "http://192.0.2.1/x", "base64", "eA==",
		      "name", "long", "url", long_url,
		      "operation", "update_page", "page", "p", "files", "name", "n", "url", "http://192.0.2.2/y",
		      "operation", "insert_files", "files", "name", "a", "url", "http://10.0.0.1/a", "name", "b", "url",
		      "https://example.com/b");
	CHECK(c != NULL);
	arena_init(&a);
	dom_init(&d, NULL, NULL, &a, "u1");
	CHECK(dom_content_prefetch(&d, c, &ff) == 0);
	CHECK(ff.n == 1);
	CHECK_STR(ff.items[0].url, "http://10.0.0.1/a");
	CHECK(ff.items[0].error == ERR_INVALID && ff.items[0].data == NULL);
	CHECK_STR(ff.items[0].message, FETCH_REFUSED_MESSAGE);
	json_decref(c);
	free(long_url);
	arena_free(&a);
}
