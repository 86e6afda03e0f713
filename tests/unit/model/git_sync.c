/* Unit tests: the checks of a Git sync request (model/git_sync.c), the
 * GitSyncState serializer (json/serialize_git.c) and the sealing of
 * credentials (util/seal.c). */
#include "model/git_sync.h"
#include "json/serialize_git.h"
#include "util/err.h"
#include "util/seal.h"
#include "unit.h"

UNIT_TEST(git_remote_urls)
{
	struct arena a;
	struct gs_remote r;

	arena_init(&a);
	CHECK(gs_remote_parse(&a, "https://bot:t%40k@git.example.com/acme/docs.git", false, &r) == 0);
	CHECK_STR(r.url, "https://git.example.com/acme/docs.git");
	CHECK_STR(r.user, "bot");
	CHECK_STR(r.password, "t@k");
	CHECK_STR(r.repo_name, "acme/docs");
	CHECK(r.scheme == GS_SCHEME_HTTPS);
	CHECK(gs_remote_parse(&a, "http://127.0.0.1:8080/docs", false, &r) == 0);
	CHECK(!r.user && !r.password);
	CHECK_STR(r.repo_name, "docs");
	CHECK(gs_remote_parse(&a, "https://token@host/x.git", false, &r) == 0);
	CHECK_STR(r.user, "token");
	CHECK(!r.password);
	/* refused, and the message names the field but never repeats the URL */
	CHECK(gs_remote_parse(&a, "file:///srv/docs.git", false, &r) == ERR_INVALID);
	CHECK(strncmp(err_message(), "url: ", 5) == 0);
	CHECK(gs_remote_parse(&a, "file:///srv/docs.git", true, &r) == 0);
	CHECK_STR(r.repo_name, "docs");
	CHECK(gs_remote_parse(&a, "file://relative/docs.git", true, &r) == ERR_INVALID);
	CHECK(gs_remote_parse(&a, "file:///srv/../etc", true, &r) == ERR_INVALID);
	CHECK(gs_remote_parse(&a, "ssh://git@host/x.git", true, &r) == ERR_INVALID);
	CHECK(gs_remote_parse(&a, "git://host/x.git", true, &r) == ERR_INVALID);
	CHECK(gs_remote_parse(&a, "git@host:x/y.git", true, &r) == ERR_INVALID);
	CHECK(gs_remote_parse(&a, "https://user:s3cret@/x", false, &r) == ERR_INVALID);
	CHECK(!strstr(err_message(), "s3cret"));
	CHECK(gs_remote_parse(&a, "https://host/x?y=1", false, &r) == ERR_INVALID);
	CHECK(gs_remote_parse(&a, "https://host/a b", false, &r) == ERR_INVALID);
	CHECK(gs_remote_parse(&a, "https://u:%zz@host/x", false, &r) == ERR_INVALID);
	CHECK(gs_remote_parse(&a, "", false, &r) == ERR_INVALID);
	arena_free(&a);
}

UNIT_TEST(git_refs_dirs_timestamps)
{
	struct arena a;
	const char *d;
	int64_t ms;

	CHECK(gs_ref_valid("refs/heads/main"));
	CHECK(gs_ref_valid("refs/heads/feature/x-1"));
	CHECK(!gs_ref_valid("main"));
	CHECK(!gs_ref_valid("refs/heads/"));
	CHECK(!gs_ref_valid("refs/tags/v1"));
	CHECK(!gs_ref_valid("refs/heads/a..b"));
	CHECK(!gs_ref_valid("refs/heads/a b"));
	CHECK(!gs_ref_valid("refs/heads/x.lock"));
	CHECK(!gs_ref_valid("refs/heads/.hidden"));
	CHECK(!gs_ref_valid("refs/heads/a/"));
	CHECK(!gs_ref_valid("refs/heads/a@{1}"));
	arena_init(&a);
	CHECK(gs_project_dir(&a, "/docs/site/", &d) == 0);
	CHECK_STR(d, "docs/site");
	CHECK(gs_project_dir(&a, "", &d) == 0 && d == NULL);
	CHECK(gs_project_dir(&a, "/", &d) == 0 && d == NULL);
	CHECK(gs_project_dir(&a, "a/../b", &d) == ERR_INVALID);
	CHECK(gs_project_dir(&a, "a//b", &d) == ERR_INVALID);
	CHECK(gs_project_dir(&a, "./a", &d) == ERR_INVALID);
	arena_free(&a);
	CHECK(gs_timestamp_parse("2024-05-01T10:00:00Z", &ms) == 0 && ms == 1714557600000LL);
	CHECK(gs_timestamp_parse("2024-05-01T10:00:00.25Z", &ms) == 0 && ms == 1714557600250LL);
	CHECK(gs_timestamp_parse("2024-05-01T12:00:00+02:00", &ms) == 0 && ms == 1714557600000LL);
	CHECK(gs_timestamp_parse("2024-05-01", &ms) < 0);
	CHECK(gs_timestamp_parse("2024-13-01T00:00:00Z", &ms) < 0);
	CHECK(gs_timestamp_parse("2024-05-01T10:00:00", &ms) < 0);
	CHECK(gs_timestamp_parse("yesterday", &ms) < 0);
}

UNIT_TEST(git_sync_state_json)
{
	struct gs_link l = { 0 };
	struct jw w;

	l.repo_name = "acme/docs";
	l.provider = "bitbucket"; /* not in GitBook's enum: left out */
	l.url = "https://git.example.com/acme/docs.git";
	l.updated_at = 0;
	jw_init(&w);
	git_sync_state_to_json(&w, &l);
	jw_put(&w, "", 1);
	CHECK_STR(w.buf, "{\"repoName\":\"acme/docs\",\"integration\":\"docsd\",\"url\":\"https://git.example.com/acme/docs.git\","
			 "\"updatedAt\":\"1970-01-01T00:00:00.000Z\"}");
	jw_reset(&w);
	l.provider = "github";
	l.info_url = "https://github.com/acme/docs";
	l.op_state = "failure";
	l.op_direction = "import";
	l.op_stage = "config_check";
	l.op_completed_tasks = 1;
	l.op_error = "'.gitbook.yaml' line 1";
	git_sync_state_to_json(&w, &l);
	jw_put(&w, "", 1);
	CHECK(strstr(w.buf, "\"installationProvider\":\"github\""));
	CHECK(strstr(w.buf, "\"url\":\"https://github.com/acme/docs\""));
	CHECK(strstr(w.buf, "\"operation\":{\"state\":\"failure\",\"direction\":\"import\",\"stage\":\"config_check\","
			    "\"dispatchedTasks\":4,\"completedTasks\":1"));
	CHECK(strstr(w.buf, "\"error\":\"'.gitbook.yaml' line 1\""));
	CHECK(!strstr(w.buf, "completedAt"));
	jw_free(&w);
}

UNIT_TEST(seal_round_trip)
{
	struct arena a;
	unsigned char key[SEAL_KEY_LEN], other[SEAL_KEY_LEN];
	const char *sealed, *again, *plain;

	memset(key, 7, sizeof(key));
	memset(other, 8, sizeof(other));
	arena_init(&a);
	CHECK(seal_text(&a, key, "bot:s3cret", 10, &sealed) == 0);
	CHECK(strncmp(sealed, "v1.", 3) == 0);
	CHECK(!strstr(sealed, "s3cret"));
	CHECK(seal_text(&a, key, "bot:s3cret", 10, &again) == 0);
	CHECK(strcmp(sealed, again) != 0); /* a fresh nonce each time */
	CHECK(seal_open(&a, key, sealed, &plain) == 0);
	CHECK_STR(plain, "bot:s3cret");
	CHECK(seal_open(&a, other, sealed, &plain) == ERR_INVALID);
	{
		char *bent = arena_strdup(&a, sealed);
		bent[10] = bent[10] == 'A' ? 'B' : 'A';
		CHECK(seal_open(&a, key, bent, &plain) == ERR_INVALID);
	}
	CHECK(seal_open(&a, key, "v1.", &plain) == ERR_INVALID);
	CHECK(seal_open(&a, key, "plain", &plain) == ERR_INVALID);
	CHECK(seal_text(&a, key, "", 0, &sealed) == 0 && seal_open(&a, key, sealed, &plain) == 0 && *plain == '\0');
	arena_free(&a);
}
