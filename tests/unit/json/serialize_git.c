/* Unit tests: json/serialize_content's Git sync fields (a page's layout and
 * GitSyncBlob, a file's GitSyncBlob, a revision's GitSyncCommit) and the
 * metadata=false switch. The revision written here is kept, byte for byte, in
 * tests/api/fixtures/git-sync-revision.json, which tests/api/git-metadata
 * .test.mjs validates against GitBook's schemas. */
#include "json/jsonw.h"
#include "model/revision.h"
#include "json/serialize_content.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIXTURE "tests/api/fixtures/git-sync-revision.json"

static struct revision *sample(void)
{
	static const struct rev_page pages[] = {
		{ .id = "p1", .pos = 1, .type = PAGE_DOCUMENT, .title = "Setup", .slug = "setup", .body = "h1",
		  .description = "How to install it", .icon = "gear", .hidden = true,
		  .layout = "{\"width\":\"wide\",\"cover\":false,\"coverSize\":\"hero\",\"title\":true,\"description\":true,"
			    "\"tableOfContents\":true,\"outline\":false,\"pagination\":true,\"metadata\":true}",
		  .git_oid = "0123456789abcdef0123456789abcdef01234567", .git_path = "guide/setup.md",
		  .git_hash = "ignored", .created_at = 1700000000000, .updated_at = 1700000000000 },
		{ .id = "p2", .pos = 2, .type = PAGE_DOCUMENT, .title = "Plain", .slug = "plain", .body = "h2",
		  .created_at = 1700000000000, .updated_at = 1700000000000 },
		{ .id = "g1", .pos = 3, .type = PAGE_GROUP, .title = "Group", .slug = "group",
		  .created_at = 1700000000000, .updated_at = 1700000000000 },
	};
	static const struct rev_file files[] = {
		{ .id = "f1", .name = "logo.png", .content_type = "image/png", .blob = "b1", .size = 67, .width = 1,
		  .height = 1, .git_oid = "89abcdef0123456789abcdef0123456789abcdef", .git_path = ".gitbook/assets/logo.png" },
	};
	struct revision_new nr = { .space_id = "s1", .parents = "[\"r0\"]", .type = "update",
				   .git = "{\"oid\":\"fedcba9876543210fedcba9876543210fedcba98\",\"message\":\"Import\","
					  "\"createdByGitBook\":false,\"ref\":\"refs/heads/main\"}",
				   .pages = pages, .npages = 3, .files = files, .nfiles = 1 };

	return revision_build("r1", &nr, 1700000001000);
}

static char *revision_text(const struct revision *rv, int no_git)
{
	struct jw w;
	/* The bodies of the pages (only document pages write theirs), as the domain loads them. */
	static const char *const bodies[] = { "# Setup\n\nText.\n", "# Setup\n\nText.\n", "# Setup\n\nText.\n" };
	struct page_json o = { .base = "http://127.0.0.1:1", .space_id = "s1", .children = 1, .bodies = bodies,
			       .no_git = no_git };
	/* The download URL of each file, as the domain signs them. */
	static const char *const file_urls[] = { "http://127.0.0.1:1/files/f1" };
	char *out;

	jw_init(&w);
	CHECK(revision_to_json(&w, "http://127.0.0.1:1", rv, NULL, NULL, file_urls, &o) == 0);
	out = strndup(w.buf ? w.buf : "", w.len);
	jw_free(&w);
	return out;
}

UNIT_TEST(serialize_revision_git_metadata)
{
	struct revision *rv = sample();
	char *with = NULL, *without = NULL, fixture[8192];
	FILE *f;
	size_t n = 0;

	CHECK(rv != NULL);
	if (!rv)
		return;
	with = revision_text(rv, 0);
	without = revision_text(rv, 1);
	/* The layout is the page's own; the default one for a page without. */
	CHECK(strstr(with, "\"layout\":{\"width\":\"wide\",\"cover\":false,\"coverSize\":\"hero\",\"title\":true,"
			   "\"description\":true,\"tableOfContents\":true,\"outline\":false,") != NULL);
	CHECK(strstr(with, "\"layout\":{\"width\":\"default\"") != NULL);
	CHECK(strstr(with, "\"git\":{\"oid\":\"0123456789abcdef0123456789abcdef01234567\",\"path\":\"guide/setup.md\"}") != NULL);
	CHECK(strstr(with, "\"git\":{\"oid\":\"89abcdef0123456789abcdef0123456789abcdef\",\"path\":\".gitbook/assets/logo.png\"}") != NULL);
	CHECK(strstr(with, "\"git\":{\"oid\":\"fedcba9876543210fedcba9876543210fedcba98\",\"message\":\"Import\"") != NULL);
	CHECK(strstr(with, "ignored") == NULL); /* the fingerprint is docsd's own */
	/* metadata=false: no Git metadata anywhere, the layout stays. */
	CHECK(strstr(without, "\"git\"") == NULL);
	CHECK(strstr(without, "\"outline\":false") != NULL);
	/* The schema-validated copy (tests/api/git-metadata.test.mjs). */
	if ((f = fopen(FIXTURE, "r"))) {
		n = fread(fixture, 1, sizeof(fixture) - 1, f);
		fclose(f);
	}
	fixture[n] = '\0';
	while (n && fixture[n - 1] == '\n')
		fixture[--n] = '\0';
	if (strcmp(fixture, with) != 0)
		fprintf(stderr, "  %s differs; the serializer now writes:\n%s\n", FIXTURE, with);
	CHECK_STR(fixture, with);
	free(with);
	free(without);
	revision_free(rv);
}
