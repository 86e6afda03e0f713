/*
 * main.c - the command line: serve, user create, token create, migrate.
 *
 * Every flag also reads a DOCSD_* environment variable; a flag given on the
 * command line wins over the environment.
 */
#include "core/serialize.h"
#include "core/validate.h"
#include "http/listener.h"
#include "http/services.h"
#include "jobs/jobs.h"
#include "server.h"
#include "store/store.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/jsonw.h"

static const char usage[] =
	"usage: docsd <command> [options]\n"
	"\n"
	"commands:\n"
	"  serve                      run the HTTP API server\n"
	"  user create --email E [--name N] [--if-exists]\n"
	"                             create a user; prints {\"user\": ..., \"token\": ...}; with\n"
	"                             --if-exists an existing user gets a new token instead of an error\n"
	"  token create --email E     create an API token for an existing user; prints {\"token\": ...}\n"
	"  migrate                    apply pending database migrations and exit\n"
	"  job enqueue --kind K [--subject S] [--payload JSON]\n"
	"                             (debugging) queue a job; prints {\"id\": ...}\n"
	"  job list [--kind K]        (debugging) print the newest 100 jobs, one JSON object a line\n"
	"\n"
	"options (each also read from the environment variable shown):\n"
	"  --listen HOST:PORT         address to listen on (DOCSD_LISTEN, default 127.0.0.1:8080)\n"
	"  --data DIR                 SQLite database at DIR/docsd.db (DOCSD_DATA, default ./data)\n"
	"  --database URL             PostgreSQL URL instead of SQLite (DOCSD_DATABASE)\n"
	"  --public-url URL           base of the URLs in responses (DOCSD_PUBLIC_URL, default http://LISTEN)\n"
	"  --threads N                HTTP worker threads (DOCSD_THREADS, default: 2 per CPU, at least 4)\n"
	"  --rate-limit N             requests per minute per token, 0 = unlimited (DOCSD_RATE_LIMIT, default 0)\n"
	"  --max-body BYTES           largest accepted request body (DOCSD_MAX_BODY, default 8388608)\n"
	"  --allow-private-network    let the server's outgoing requests (insert_files URLs, website imports,\n"
	"                             OpenAPI spec URLs, Git sync remotes) reach loopback, private, link-local\n"
	"                             and other reserved addresses, and accept file:// Git remotes\n"
	"                             (DOCSD_ALLOW_PRIVATE_NETWORK=1; off by default)\n"
	"  --max-connections N        open connections at most, lowered to what the open file limit\n"
	"                             allows (DOCSD_MAX_CONNECTIONS, default 50000)\n"
	"  --max-connections-per-ip N open connections from one client address at most, 0 = no limit\n"
	"                             (DOCSD_MAX_CONNECTIONS_PER_IP, default 64; raise it behind a proxy)\n"
	"  --connection-timeout SECS  idle connection timeout (DOCSD_CONNECTION_TIMEOUT, default 30)\n"
	"  --head-timeout SECS        time from a request head's first byte to its end\n"
	"                             (DOCSD_HEAD_TIMEOUT, default 10)\n"
	"  --body-min-rate BYTES      bytes per second a request body must average after the head timeout's\n"
	"                             grace (DOCSD_BODY_MIN_RATE, default 1024)\n"
	"  --log-level off|error|info access log and messages on stderr (DOCSD_LOG_LEVEL, default info)\n"
	"  --cache-mb N               memory for built revisions shared by requests, in MiB; 0 = none\n"
	"                             (DOCSD_CACHE_MB, default 64)\n"
	"  --pdf-cache-mb N           rendered PDFs kept, in MiB; 0 = none (DOCSD_PDF_CACHE_MB, default 64)\n"
	"  --site-cache-mb N          rendered published-site pages kept, in MiB; 0 = none\n"
	"                             (DOCSD_SITE_CACHE_MB, default 64)\n"
	"  --pdf-renders N            PDFs rendered at once at most (DOCSD_PDF_RENDERS, default 2)\n"
	"  --pdf-wait-ms MS           how long a PDF fetch waits for a render slot before a 503\n"
	"                             (DOCSD_PDF_WAIT_MS, default 5000)\n"
	"  --job-workers N            threads running queued jobs, 0 = none (DOCSD_JOB_WORKERS, default 2)\n"
	"  --translation-engine NAME  machine translation: apertium or off (DOCSD_TRANSLATION_ENGINE,\n"
	"                             default apertium)\n"
	"  --apertium-dir DIR         Apertium's data directory; DIR/modes lists the installed pairs\n"
	"                             (DOCSD_APERTIUM_DIR, default /usr/share/apertium)\n"
	"  --translation-timeout SECS one translation engine process at most this long\n"
	"                             (DOCSD_TRANSLATION_TIMEOUT, default 120)\n"
	"  --clock-offset-ms MS       shift the server's clock, for tests (DOCSD_CLOCK_OFFSET_MS, default 0)\n"
	"  --email EMAIL, --name NAME user and token commands\n"
	"  -h, --help                 this help\n"
	"  -V, --version              print the version\n";

enum { O_LISTEN = 256, O_DATA, O_DATABASE, O_PUBLIC_URL, O_THREADS, O_RATE_LIMIT, O_MAX_BODY, O_MAX_CONN,
       O_CONN_TIMEOUT, O_LOG_LEVEL, O_CLOCK, O_EMAIL, O_NAME, O_ALLOW_PRIVATE, O_CACHE_MB, O_IF_EXISTS,
       O_MAX_CONN_IP, O_HEAD_TIMEOUT, O_BODY_MIN_RATE, O_PDF_CACHE_MB, O_PDF_RENDERS, O_PDF_WAIT_MS,
       O_SITE_CACHE_MB, O_JOB_WORKERS, O_KIND, O_SUBJECT, O_PAYLOAD, O_TR_ENGINE, O_APERTIUM_DIR, O_TR_TIMEOUT };

static const struct option long_opts[] = {
	{ "listen", required_argument, NULL, O_LISTEN },
	{ "data", required_argument, NULL, O_DATA },
	{ "database", required_argument, NULL, O_DATABASE },
	{ "public-url", required_argument, NULL, O_PUBLIC_URL },
	{ "threads", required_argument, NULL, O_THREADS },
	{ "rate-limit", required_argument, NULL, O_RATE_LIMIT },
	{ "max-body", required_argument, NULL, O_MAX_BODY },
	{ "max-connections", required_argument, NULL, O_MAX_CONN },
	{ "max-connections-per-ip", required_argument, NULL, O_MAX_CONN_IP },
	{ "connection-timeout", required_argument, NULL, O_CONN_TIMEOUT },
	{ "head-timeout", required_argument, NULL, O_HEAD_TIMEOUT },
	{ "pdf-cache-mb", required_argument, NULL, O_PDF_CACHE_MB },
	{ "site-cache-mb", required_argument, NULL, O_SITE_CACHE_MB },
	{ "pdf-renders", required_argument, NULL, O_PDF_RENDERS },
	{ "pdf-wait-ms", required_argument, NULL, O_PDF_WAIT_MS },
	{ "body-min-rate", required_argument, NULL, O_BODY_MIN_RATE },
	{ "log-level", required_argument, NULL, O_LOG_LEVEL },
	{ "cache-mb", required_argument, NULL, O_CACHE_MB },
	{ "clock-offset-ms", required_argument, NULL, O_CLOCK },
	{ "allow-private-network", no_argument, NULL, O_ALLOW_PRIVATE },
	{ "job-workers", required_argument, NULL, O_JOB_WORKERS },
	{ "translation-engine", required_argument, NULL, O_TR_ENGINE },
	{ "apertium-dir", required_argument, NULL, O_APERTIUM_DIR },
	{ "translation-timeout", required_argument, NULL, O_TR_TIMEOUT },
	{ "kind", required_argument, NULL, O_KIND },
	{ "subject", required_argument, NULL, O_SUBJECT },
	{ "payload", required_argument, NULL, O_PAYLOAD },
	{ "email", required_argument, NULL, O_EMAIL },
	{ "name", required_argument, NULL, O_NAME },
	{ "if-exists", no_argument, NULL, O_IF_EXISTS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

struct cli {
	struct config cfg;
	const char *email;
	const char *name;
	int if_exists; /* user create: an existing user gets a new token */
	const char *kind, *subject, *payload; /* job enqueue, job list */
};

static int parse_long(const char *flag, const char *v, long min, long max, long *out)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (!*v || *end || n < min || n > max) {
		fprintf(stderr, "docsd: %s must be an integer between %ld and %ld\n", flag, min, max);
		return -1;
	}
	*out = n;
	return 0;
}

static int parse_log_level(const char *v, int *out)
{
	if (strcmp(v, "off") == 0)
		*out = LOG_OFF;
	else if (strcmp(v, "error") == 0)
		*out = LOG_ERROR;
	else if (strcmp(v, "info") == 0)
		*out = LOG_INFO;
	else {
		fprintf(stderr, "docsd: --log-level must be off, error or info\n");
		return -1;
	}
	return 0;
}

/* Apply one option, from a flag or from its environment variable. */
static int apply(struct cli *c, int opt, const char *v)
{
	long n;

	switch (opt) {
	case O_LISTEN: c->cfg.listen = v; return 0;
	case O_DATA: c->cfg.data_dir = v; return 0;
	case O_DATABASE: c->cfg.database_url = *v ? v : NULL; return 0;
	case O_PUBLIC_URL: c->cfg.public_url = v; return 0;
	case O_THREADS:
		if (parse_long("--threads", v, 1, 256, &n))
			return -1;
		c->cfg.threads = (int)n;
		return 0;
	case O_RATE_LIMIT:
		if (parse_long("--rate-limit", v, 0, 100000000, &n))
			return -1;
		c->cfg.rate_limit = (int)n;
		return 0;
	case O_MAX_BODY:
		if (parse_long("--max-body", v, 1024, 1L << 30, &n))
			return -1;
		c->cfg.max_body = (size_t)n;
		return 0;
	case O_MAX_CONN:
		if (parse_long("--max-connections", v, 1, 1000000, &n))
			return -1;
		c->cfg.max_connections = (int)n;
		return 0;
	case O_MAX_CONN_IP:
		if (parse_long("--max-connections-per-ip", v, 0, 1000000, &n))
			return -1;
		c->cfg.max_connections_per_ip = (int)n;
		return 0;
	case O_PDF_CACHE_MB:
		if (parse_long("--pdf-cache-mb", v, 0, 1L << 20, &n))
			return -1;
		c->cfg.pdf_cache_mb = (int)n;
		return 0;
	case O_SITE_CACHE_MB:
		if (parse_long("--site-cache-mb", v, 0, 1L << 20, &n))
			return -1;
		c->cfg.site_cache_mb = (int)n;
		return 0;
	case O_PDF_RENDERS:
		if (parse_long("--pdf-renders", v, 1, 64, &n))
			return -1;
		c->cfg.pdf_renders = (int)n;
		return 0;
	case O_PDF_WAIT_MS:
		if (parse_long("--pdf-wait-ms", v, 0, 600000, &n))
			return -1;
		c->cfg.pdf_wait_ms = (int)n;
		return 0;
	case O_HEAD_TIMEOUT:
		if (parse_long("--head-timeout", v, 1, 3600, &n))
			return -1;
		c->cfg.head_timeout = (int)n;
		return 0;
	case O_BODY_MIN_RATE:
		if (parse_long("--body-min-rate", v, 1, 1L << 30, &n))
			return -1;
		c->cfg.body_min_rate = n;
		return 0;
	case O_CONN_TIMEOUT:
		if (parse_long("--connection-timeout", v, 1, 3600, &n))
			return -1;
		c->cfg.connection_timeout = (int)n;
		return 0;
	case O_LOG_LEVEL: return parse_log_level(v, &c->cfg.log_level);
	case O_CACHE_MB:
		if (parse_long("--cache-mb", v, 0, 1L << 20, &n))
			return -1;
		c->cfg.cache_mb = (int)n;
		return 0;
	case O_CLOCK:
		if (parse_long("--clock-offset-ms", v, -(1L << 40), 1L << 40, &n))
			return -1;
		c->cfg.clock_offset_ms = n;
		return 0;
	case O_ALLOW_PRIVATE:
		c->cfg.allow_private_network = !v || (strcmp(v, "0") != 0 && strcmp(v, "false") != 0);
		return 0;
	case O_JOB_WORKERS:
		if (parse_long("--job-workers", v, 0, 64, &n))
			return -1;
		c->cfg.job_workers = (int)n;
		return 0;
	case O_TR_ENGINE:
		if (strcmp(v, "apertium") != 0 && strcmp(v, "off") != 0) {
			fprintf(stderr, "docsd: --translation-engine must be apertium or off\n");
			return -1;
		}
		c->cfg.translation_engine = v;
		return 0;
	case O_APERTIUM_DIR:
		if (v[0] != '/' || strlen(v) > 900) {
			fprintf(stderr, "docsd: --apertium-dir must be an absolute path of at most 900 bytes\n");
			return -1;
		}
		c->cfg.apertium_dir = v;
		return 0;
	case O_TR_TIMEOUT:
		if (parse_long("--translation-timeout", v, 1, 3600, &n))
			return -1;
		c->cfg.translation_timeout = (int)n;
		return 0;
	case O_KIND: c->kind = v; return 0;
	case O_SUBJECT: c->subject = v; return 0;
	case O_PAYLOAD: c->payload = v; return 0;
	case O_EMAIL: c->email = v; return 0;
	case O_NAME: c->name = v; return 0;
	case O_IF_EXISTS: c->if_exists = 1; return 0;
	}
	return -1;
}

static const struct {
	int opt;
	const char *env;
} env_vars[] = {
	{ O_LISTEN, "DOCSD_LISTEN" }, { O_DATA, "DOCSD_DATA" }, { O_DATABASE, "DOCSD_DATABASE" },
	{ O_PUBLIC_URL, "DOCSD_PUBLIC_URL" }, { O_THREADS, "DOCSD_THREADS" }, { O_RATE_LIMIT, "DOCSD_RATE_LIMIT" },
	{ O_MAX_BODY, "DOCSD_MAX_BODY" }, { O_MAX_CONN, "DOCSD_MAX_CONNECTIONS" },
	{ O_CONN_TIMEOUT, "DOCSD_CONNECTION_TIMEOUT" }, { O_LOG_LEVEL, "DOCSD_LOG_LEVEL" },
	{ O_CLOCK, "DOCSD_CLOCK_OFFSET_MS" }, { O_ALLOW_PRIVATE, "DOCSD_ALLOW_PRIVATE_NETWORK" },
	{ O_CACHE_MB, "DOCSD_CACHE_MB" }, { O_MAX_CONN_IP, "DOCSD_MAX_CONNECTIONS_PER_IP" },
	{ O_HEAD_TIMEOUT, "DOCSD_HEAD_TIMEOUT" }, { O_PDF_CACHE_MB, "DOCSD_PDF_CACHE_MB" },
	{ O_SITE_CACHE_MB, "DOCSD_SITE_CACHE_MB" },
	{ O_PDF_RENDERS, "DOCSD_PDF_RENDERS" }, { O_PDF_WAIT_MS, "DOCSD_PDF_WAIT_MS" }, { O_BODY_MIN_RATE, "DOCSD_BODY_MIN_RATE" },
	{ O_JOB_WORKERS, "DOCSD_JOB_WORKERS" }, { O_TR_ENGINE, "DOCSD_TRANSLATION_ENGINE" },
	{ O_APERTIUM_DIR, "DOCSD_APERTIUM_DIR" }, { O_TR_TIMEOUT, "DOCSD_TRANSLATION_TIMEOUT" },
};

/* argv[first..] holds the options of a command. */
static int parse_options(struct cli *c, int argc, char **argv, int first)
{
	int opt;

	config_defaults(&c->cfg);
	for (size_t i = 0; i < sizeof(env_vars) / sizeof(env_vars[0]); i++) {
		const char *v = getenv(env_vars[i].env);
		if (v && apply(c, env_vars[i].opt, v)) {
			fprintf(stderr, "docsd: in %s\n", env_vars[i].env);
			return -1;
		}
	}
	optind = first;
	while ((opt = getopt_long(argc, argv, "hV", long_opts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage, stdout);
			exit(0);
		}
		if (opt == 'V') {
			printf("docsd %s\n", DOCSD_VERSION);
			exit(0);
		}
		if (opt == '?' || apply(c, opt, optarg))
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "docsd: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	log_set_level((enum log_level)c->cfg.log_level);
	return 0;
}

static int cmd_serve(struct cli *c)
{
	struct server *srv = NULL;
	sigset_t set;
	int sig = 0;

	/* Block the stop signals in every thread (the HTTP threads inherit the
	 * mask); the main thread waits for them with sigwait(). */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (server_start(&srv, &c->cfg)) {
		fprintf(stderr, "docsd: %s\n", err_message());
		return 1;
	}
	log_info("docsd %s listening on %s (store: %s, threads: %d)", DOCSD_VERSION, srv->public_url,
		 store_engine(srv->store), c->cfg.threads);
	sigwait(&set, &sig);
	log_info("received %s, finishing requests in flight", sig == SIGTERM ? "SIGTERM" : "SIGINT");
	listener_quiesce(srv);
	server_stop(srv);
	return 0;
}

/* Print {"user": ..., "token": ...} or {"token": ...} as one JSON line. */
static int print_result(const char *base, const struct user *u, const char *token)
{
	struct jw w, *g = &w;
	int ok;

	jw_init(g);
	jw_obj_open(g);
	if (u) {
		jw_key(g, "user");
		user_to_json(g, base, u, true);
	}
	jw_key(g, "token");
	jw_strn(g, token, strlen(token));
	jw_obj_close(g);
	ok = jw_ok(g) && fwrite(g->buf, 1, g->len, stdout) == g->len && fputc('\n', stdout) != EOF;
	jw_free(g);
	return ok && fflush(stdout) == 0 ? 0 : -1;
}

static int cmd_user_token(struct cli *c, int create_user)
{
	struct store *st = NULL;
	struct store_tx tx;
	struct arena a;
	struct user u;
	char token[TOKEN_LEN + 1], base[512];
	int rc, ret = 1;

	if (!c->email || !valid_email(c->email)) {
		fprintf(stderr, "docsd: --email must be a valid email address\n");
		return 2;
	}
	if (c->name && (utf8_len(c->name) < 1 || utf8_len(c->name) > 64)) {
		fprintf(stderr, "docsd: --name must be 1 to 64 characters\n");
		return 2;
	}
	snprintf(base, sizeof(base), "%s", c->cfg.public_url ? c->cfg.public_url : "");
	if (!*base)
		snprintf(base, sizeof(base), "http://%s", c->cfg.listen);
	arena_init(&a);
	if (server_open_store(&st, &c->cfg, 1)) {
		fprintf(stderr, "docsd: %s\n", err_message());
		goto out;
	}
	rc = store_tx_begin(st, &tx, 1, &a);
	if (rc == 0) {
		if (create_user) {
			char name[256];
			const char *at = strchr(c->email, '@');
			snprintf(name, sizeof(name), "%.*s", (int)(at - c->email), c->email);
			rc = store_user_create(&tx, c->email, c->name ? c->name : name, &u);
			if (rc == ERR_CONFLICT && c->if_exists) {
				/* The user exists: start again and give them a token. */
				store_tx_rollback(&tx);
				if ((rc = store_tx_begin(st, &tx, 1, &a)) == 0)
					rc = store_user_get_by_email(&tx, c->email, &u);
			}
		} else {
			rc = store_user_get_by_email(&tx, c->email, &u);
		}
		if (rc == 0)
			rc = token_issue(&tx, u.id, token);
		if (rc == 0)
			rc = store_tx_commit(&tx);
		else
			store_tx_rollback(&tx);
	}
	if (rc == ERR_CONFLICT && create_user) {
		fprintf(stderr,
			"docsd: a user with the email %s already exists: add --if-exists to get a new token for them, "
			"or use `docsd token create --email %s`\n", c->email, c->email);
		goto out;
	}
	if (rc) {
		fprintf(stderr, "docsd: %s\n", err_message());
		goto out;
	}
	ret = print_result(base, create_user ? &u : NULL, token) ? 1 : 0;
out:
	store_close(st);
	arena_free(&a);
	return ret;
}

static int cmd_migrate(struct cli *c)
{
	struct store *st = NULL;

	if (server_open_store(&st, &c->cfg, 1)) {
		fprintf(stderr, "docsd: %s\n", err_message());
		return 1;
	}
	store_close(st);
	return 0;
}

static void job_to_json(struct jw *g, const struct job *j)
{
	jw_obj_open(g);
	jw_key(g, "id");
	jw_strn(g, j->id, strlen(j->id));
	jw_key(g, "kind");
	jw_strn(g, j->kind, strlen(j->kind));
	jw_key(g, "subject");
	jw_strn(g, j->subject, strlen(j->subject));
	jw_key(g, "state");
	jw_strn(g, j->state, strlen(j->state));
	jw_key(g, "attempts");
	jw_int(g, j->attempts);
	jw_key(g, "lastError");
	if (j->last_error)
		jw_strn(g, j->last_error, strlen(j->last_error));
	else
		jw_null(g);
	jw_key(g, "result");
	if (j->result)
		jw_raw(g, j->result);
	else
		jw_null(g);
	jw_key(g, "runAfter");
	jw_int(g, j->run_after);
	jw_obj_close(g);
}

/* docsd job enqueue | job list: debugging commands on the queue's rows. */
static int cmd_job(struct cli *c, int enqueue)
{
	struct store *st = NULL;
	struct store_tx tx;
	struct arena a;
	struct job *jobs = NULL;
	char id[ID_LEN + 1];
	int rc, n = 0, ret = 1;
	struct jw w;

	if (enqueue && (!c->kind || !*c->kind)) {
		fprintf(stderr, "docsd: --kind is required\n");
		return 2;
	}
	if (enqueue && c->payload) {
		json_t *v = json_loads(c->payload, 0, NULL);
		int obj = v && json_is_object(v);
		json_decref(v);
		if (!obj) {
			fprintf(stderr, "docsd: --payload must be a JSON object\n");
			return 2;
		}
	}
	arena_init(&a);
	if (server_open_store(&st, &c->cfg, 1)) {
		fprintf(stderr, "docsd: %s\n", err_message());
		goto out;
	}
	if ((rc = store_tx_begin(st, &tx, enqueue, &a)) == 0) {
		rc = enqueue ? store_job_enqueue(&tx, c->kind, c->subject, c->payload, 0, id)
			     : store_job_list(&tx, c->kind, 100, &jobs, &n);
		if (rc == 0 && enqueue)
			rc = store_tx_commit(&tx);
		else
			store_tx_rollback(&tx);
	}
	if (rc) {
		fprintf(stderr, "docsd: %s\n", err_message());
		goto out;
	}
	ret = 0;
	if (enqueue) {
		printf("{\"id\":\"%s\"}\n", id);
	} else {
		for (int i = 0; i < n && ret == 0; i++) {
			jw_init(&w);
			job_to_json(&w, &jobs[i]);
			if (!jw_ok(&w) || fwrite(w.buf, 1, w.len, stdout) != w.len || fputc('\n', stdout) == EOF)
				ret = 1;
			jw_free(&w);
		}
	}
	if (fflush(stdout) != 0)
		ret = 1;
out:
	store_close(st);
	arena_free(&a);
	return ret;
}

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd || strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		fputs(usage, cmd ? stdout : stderr);
		return cmd ? 0 : 2;
	}
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
		printf("docsd %s\n", DOCSD_VERSION);
		return 0;
	}
	if (strcmp(cmd, "serve") == 0) {
		if (parse_options(&c, argc, argv, 2))
			return 2;
		return cmd_serve(&c);
	}
	if (strcmp(cmd, "migrate") == 0) {
		if (parse_options(&c, argc, argv, 2))
			return 2;
		return cmd_migrate(&c);
	}
	if ((strcmp(cmd, "user") == 0 || strcmp(cmd, "token") == 0) && argc > 2 && strcmp(argv[2], "create") == 0) {
		if (parse_options(&c, argc, argv, 3))
			return 2;
		/* Command-line tools log errors only. */
		log_set_level(LOG_ERROR);
		return cmd_user_token(&c, cmd[0] == 'u');
	}
	if (strcmp(cmd, "job") == 0 && argc > 2 && (strcmp(argv[2], "enqueue") == 0 || strcmp(argv[2], "list") == 0)) {
		if (parse_options(&c, argc, argv, 3))
			return 2;
		log_set_level(LOG_ERROR);
		return cmd_job(&c, argv[2][0] == 'e');
	}
	fprintf(stderr, "docsd: unknown command '%s'\n\n%s", cmd, usage);
	return 2;
}
