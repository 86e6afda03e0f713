/*
 * options.c - every command-line option in one table (options.h).
 *
 * A row: flag, environment variable, metavar, default (applied through the
 * row's own parser, so a default is checked like any value), help lines, and
 * where the value goes (a kind and an offset into struct cli). getopt_long's
 * table is built from the rows; --help prints them.
 */
#include "options.h"
#include "util/log.h"
#include "util/netaddr.h"

#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum opt_kind {
	OPT_STR,      /* const char * */
	OPT_STR_NULL, /* const char *, "" is NULL (unset) */
	OPT_INT,      /* int in [min, max] */
	OPT_LONG,     /* long in [min, max] */
	OPT_SIZE,     /* size_t in [min, max] */
	OPT_SWITCH,   /* int: 1 when given; from the environment "0" and "false" are 0 */
	OPT_CUSTOM,   /* parse() */
};

struct cli_option {
	const char *name;    /* the flag without "--" */
	const char *env;     /* its environment variable, or NULL */
	const char *metavar; /* what the flag takes; NULL: a switch */
	const char *def;     /* the default, applied through the parser; NULL: none */
	const char *shown;   /* the default as --help says it, when not def */
	const char *help;    /* one or more lines, '\n' between them */
	enum opt_kind kind;
	size_t off; /* into struct cli */
	long min, max;
	int (*parse)(const struct cli_option *o, const char *v, void *field);
};

static const char commands[] =
	"usage: docsd <command> [options]\n"
	"\n"
	"commands:\n"
	"  serve                      run the HTTP API server\n"
	"  user create --email E [--name N] [--if-exists]\n"
	"                             create a user; prints {\"user\": ..., \"token\": ...}; with\n"
	"                             --if-exists an existing user gets a new token instead of an error\n"
	"  user password --email E [--link] [--keep-tokens]\n                             set the user's password for the web interface (read from the\n"
	"                             terminal without echo, else the first line of stdin); signs\n"
	"                             the user out of every session and, replacing a password,\n"
	"                             revokes their API tokens (--keep-tokens keeps them); with\n"
	"                             --link, prints a one-time link (valid 7 days) where the user\n"
	"                             sets it themselves\n"
	"  token create --email E     create an API token for an existing user; prints {\"token\": ...}\n"
	"  migrate                    apply pending database migrations and exit\n"
	"  job enqueue --kind K [--subject S] [--payload JSON]\n"
	"                             (debugging) queue a job; prints {\"id\": ...}\n"
	"  job list [--kind K]        (debugging) print the newest 100 jobs, one JSON object a line\n"
	"\n"
	"options (each also read from the environment variable shown; a flag wins):\n";

#define CFG(f) offsetof(struct cli, cfg.f)
#define CLI(f) offsetof(struct cli, f)

static int parse_log_level(const struct cli_option *o, const char *v, void *field)
{
	int *out = field;

	if (strcmp(v, "off") == 0)
		*out = LOG_OFF;
	else if (strcmp(v, "error") == 0)
		*out = LOG_ERROR;
	else if (strcmp(v, "info") == 0)
		*out = LOG_INFO;
	else {
		fprintf(stderr, "docsd: --%s must be off, error or info\n", o->name);
		return -1;
	}
	return 0;
}

static int parse_engine(const struct cli_option *o, const char *v, void *field)
{
	if (strcmp(v, "apertium") != 0 && strcmp(v, "libretranslate") != 0 && strcmp(v, "deepl") != 0 &&
	    strcmp(v, "off") != 0) {
		fprintf(stderr, "docsd: --%s must be apertium, libretranslate, deepl or off\n", o->name);
		return -1;
	}
	*(const char **)field = v;
	return 0;
}

/* Apertium's data directories: absolute paths separated by ':' (the engine
 * checks each one's length and counts them). */
static int parse_abs_dirs(const struct cli_option *o, const char *v, void *field)
{
	for (const char *at = v; *at; at += strcspn(at, ":"), at += *at == ':')
		if (at[0] != '/') {
			fprintf(stderr, "docsd: --%s must be absolute paths separated by ':'\n", o->name);
			return -1;
		}
	*(const char **)field = v;
	return 0;
}

/* --trusted-proxy: checked here so a typo stops the start with a message
 * (server_start parses it again into the server's ranges). */
static int parse_ranges(const struct cli_option *o, const char *v, void *field)
{
	struct net_range r[NET_RANGES_MAX];
	int n = 0;

	if (!*v) {
		*(const char **)field = NULL;
		return 0;
	}
	if (net_ranges_parse(v, r, NET_RANGES_MAX, &n)) {
		fprintf(stderr, "docsd: --%s must be at most %d CIDR ranges (10.0.0.0/8, ::1) separated by ','\n", o->name,
			NET_RANGES_MAX);
		return -1;
	}
	*(const char **)field = v;
	return 0;
}

/* Rows leave out the members they do not use (min, max, parse). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct cli_option options[] = {
	{ "listen", "DOCSD_LISTEN", "HOST:PORT", "127.0.0.1:8080", NULL, "address to listen on", OPT_STR, CFG(listen) },
	{ "data", "DOCSD_DATA", "DIR", "./data", NULL, "SQLite database at DIR/docsd.db", OPT_STR, CFG(data_dir) },
	{ "database", "DOCSD_DATABASE", "URL", NULL, NULL, "PostgreSQL URL instead of SQLite", OPT_STR_NULL,
	  CFG(database_url) },
	{ "public-url", "DOCSD_PUBLIC_URL", "URL", NULL, "http://LISTEN", "base of the URLs in responses", OPT_STR,
	  CFG(public_url) },
	/* Published sites and everything else whose bytes a user or an
	 * integration chooses (integration scripts, uploaded files) are served on
	 * an origin of their own, never the web interface's (README, "Two
	 * origins"). */
	{ "site-listen", "DOCSD_SITE_LISTEN", "HOST:PORT", NULL, "the --listen host, its port + 1",
	  "address of the published sites' listener (never the web interface's or the API's)", OPT_STR_NULL,
	  CFG(site_listen) },
	{ "site-url", "DOCSD_SITE_URL", "URL", NULL, "the public URL's host (127.0.0.1 <-> localhost) on the site port",
	  "base of published sites' URLs (urls.published): another host than --public-url's", OPT_STR_NULL,
	  CFG(site_url) },
	/* Two workers per CPU (set in cli_parse): libmicrohttpd pins each
	 * connection to the worker that accepted it, so with one worker per CPU a
	 * burst accepted by one worker leaves a CPU idle (measured: half the
	 * throughput in about half the runs); with two the kernel keeps every CPU
	 * busy. */
	{ "threads", "DOCSD_THREADS", "N", NULL, "2 per CPU, at least 4", "HTTP worker threads", OPT_INT, CFG(threads), 1,
	  256 },
	{ "rate-limit", "DOCSD_RATE_LIMIT", "N", "0", NULL, "requests per minute per token, 0 = unlimited", OPT_INT,
	  CFG(rate_limit), 0, 100000000 },
	/* room for insert_files batches of base64 files (1 MB each) */
	{ "max-body", "DOCSD_MAX_BODY", "BYTES", "8388608", NULL, "largest accepted request body", OPT_SIZE,
	  CFG(max_body), 1024, 1L << 30 },
	{ "allow-private-network", "DOCSD_ALLOW_PRIVATE_NETWORK", NULL, NULL, "off",
	  "let the server's outgoing requests (insert_files URLs, website imports,\n"
	  "OpenAPI spec URLs, Git sync remotes) reach loopback, private, link-local\n"
	  "and other reserved addresses, and accept file:// Git remotes (the variable: =1)",
	  OPT_SWITCH, CFG(allow_private_network) },
	/* Idle connections on epoll cost a few KiB each: allow many, and keep any
	 * one address (--max-connections-per-ip) and any slow client
	 * (--head-timeout, --body-min-rate) from taking them all. */
	{ "max-connections", "DOCSD_MAX_CONNECTIONS", "N", "50000", NULL,
	  "open connections at most, lowered to what the open file limit allows", OPT_INT, CFG(max_connections), 1,
	  1000000 },
	{ "max-connections-per-ip", "DOCSD_MAX_CONNECTIONS_PER_IP", "N", "64", NULL,
	  "open connections from one client address at most, 0 = no limit\n(raise it behind a proxy)", OPT_INT,
	  CFG(max_connections_per_ip), 0, 1000000 },
	{ "connection-timeout", "DOCSD_CONNECTION_TIMEOUT", "SECS", "30", NULL, "idle connection timeout", OPT_INT,
	  CFG(connection_timeout), 1, 3600 },
	{ "head-timeout", "DOCSD_HEAD_TIMEOUT", "SECS", "10", NULL, "time from a request head's first byte to its end",
	  OPT_INT, CFG(head_timeout), 1, 3600 },
	{ "body-min-rate", "DOCSD_BODY_MIN_RATE", "BYTES", "1024", NULL,
	  "bytes per second a request body must average after the head timeout's grace", OPT_LONG,
	  CFG(body_min_rate), 1, 1L << 30 },
	{ "log-level", "DOCSD_LOG_LEVEL", "off|error|info", "info", NULL, "access log and messages on stderr",
	  OPT_CUSTOM, CFG(log_level), 0, 0, parse_log_level },
	{ "cache-mb", "DOCSD_CACHE_MB", "N", "64", NULL, "memory for built revisions shared by requests, in MiB; 0 = none",
	  OPT_INT, CFG(cache_mb), 0, 1L << 20 },
	/* A 50-page PDF takes seconds to render and blocks its worker thread:
	 * two at once, and a fetch waits 5 s for a turn before a 503. */
	{ "pdf-cache-mb", "DOCSD_PDF_CACHE_MB", "N", "64", NULL, "rendered PDFs kept, in MiB; 0 = none", OPT_INT,
	  CFG(pdf_cache_mb), 0, 1L << 20 },
	{ "site-cache-mb", "DOCSD_SITE_CACHE_MB", "N", "64", NULL, "rendered published-site pages kept, in MiB; 0 = none",
	  OPT_INT, CFG(site_cache_mb), 0, 1L << 20 },
	{ "pdf-renders", "DOCSD_PDF_RENDERS", "N", "2", NULL, "PDFs rendered at once at most", OPT_INT, CFG(pdf_renders),
	  1, 64 },
	{ "pdf-wait-ms", "DOCSD_PDF_WAIT_MS", "MS", "5000", NULL, "how long a PDF fetch waits for a render slot before a 503",
	  OPT_INT, CFG(pdf_wait_ms), 0, 600000 },
	{ "job-workers", "DOCSD_JOB_WORKERS", "N", "2", NULL, "threads running queued jobs, 0 = none", OPT_INT,
	  CFG(job_workers), 0, 64 },
	{ "translation-engine", "DOCSD_TRANSLATION_ENGINE", "NAME", "apertium", NULL,
	  "machine translation: apertium, libretranslate, deepl or off", OPT_CUSTOM, CFG(translation_engine), 0, 0,
	  parse_engine },
	{ "translation-url", "DOCSD_TRANSLATION_URL", "URL", NULL, NULL,
	  "libretranslate, deepl: the server's base URL (the operator's: private addresses allowed)", OPT_STR_NULL,
	  CFG(translation_url) },
	{ "translation-api-key", "DOCSD_TRANSLATION_API_KEY", "KEY", NULL, NULL,
	  "libretranslate, deepl: the API key (never logged; prefer the environment variable)", OPT_STR_NULL,
	  CFG(translation_api_key) },
	{ "apertium-dir", "DOCSD_APERTIUM_DIR", "DIRS", "/usr/share/apertium:/usr/local/share/apertium", NULL,
	  "Apertium's data directories, ':'-separated; each DIR/modes lists installed pairs", OPT_CUSTOM,
	  CFG(apertium_dir), 0, 0, parse_abs_dirs },
	{ "translation-timeout", "DOCSD_TRANSLATION_TIMEOUT", "SECS", "120", NULL,
	  "one translation engine batch (process or HTTP request) at most this long", OPT_INT,
	  CFG(translation_timeout), 1, 3600 },
	/* Integrations: published scripts run in workerd (npm's workerd package
	 * ships the binary; scripts/deps.sh installs the pinned one under
	 * tools/workerd/, where "auto" finds it); without it deliveries without a
	 * dev tunnel fail. */
	{ "integration-runtime", "DOCSD_INTEGRATION_RUNTIME", "PATH", "auto", NULL,
	  "workerd binary that runs published integrations; auto: the one scripts/deps.sh\n"
	  "installed (tools/workerd/ beside build/), when there; none: events are recorded,\n"
	  "delivered to dev tunnels only", OPT_STR_NULL, CFG(integration_runtime) },
	{ "integration-timeout", "DOCSD_INTEGRATION_TIMEOUT", "SECS", "10", NULL,
	  "one delivery of an event to an integration at most this long (its process is killed past it)", OPT_INT,
	  CFG(integration_timeout), 1, 600 },
	/* The scripts' callbacks have a listener of their own (http/listener.c,
	 * listener_start_runtime), so they and local clients do not share
	 * --max-connections-per-ip. */
	{ "runtime-callback-connections", "DOCSD_RUNTIME_CALLBACK_CONNECTIONS", "N", "64", NULL,
	  "connections the integrations' scripts may hold open to docsd's API at once", OPT_INT,
	  CFG(runtime_callback_connections), 1, 100000 },
	/* SAML's start and ACS URLs are open to anyone and each costs a row
	 * or a signature check (domain/saml_sso.h). */
	{ "sso-rate-limit", "DOCSD_SSO_RATE_LIMIT", "N", "30", NULL,
	  "SAML sign-in requests (start, link, ACS) per minute per client address, 0 = unlimited\n(raise it behind a proxy)",
	  OPT_INT, CFG(sso_rate_limit), 0, 100000000 },
	{ "domain-verification-base", "DOCSD_DOMAIN_VERIFICATION_BASE", "URL", NULL, NULL,
	  "for tests: fetch an email domain's proof from URL/DOMAIN/.well-known/... instead of\n"
	  "https://DOMAIN/.well-known/docsd-domain-verification.txt", OPT_STR_NULL, CFG(domain_verification_base) },
	/* Behind a reverse proxy every client has the proxy's address: the
	 * sign-in throttle would count them all as one (issue 30 item 5). */
	{ "trusted-proxy", "DOCSD_TRUSTED_PROXY", "CIDR,...", NULL, "none",
	  "peers whose X-Forwarded-For names the client (its right-most entry not\n"
	  "itself trusted); from any other peer the header is ignored", OPT_CUSTOM, CFG(trusted_proxy), 0, 0,
	  parse_ranges },
	{ "clock-offset-ms", "DOCSD_CLOCK_OFFSET_MS", "MS", "0", NULL, "shift the server's clock, for tests", OPT_LONG,
	  CFG(clock_offset_ms), -(1L << 40), 1L << 40 },
	/* The user, token and job commands' own. */
	{ "email", NULL, "EMAIL", NULL, NULL, "user and token commands: the user's email", OPT_STR, CLI(email) },
	{ "name", NULL, "NAME", NULL, NULL, "user create: the display name", OPT_STR, CLI(name) },
	{ "if-exists", NULL, NULL, NULL, NULL, "user create: an existing user gets a new token instead of an error",
	  OPT_SWITCH, CLI(if_exists) },
	{ "link", NULL, NULL, NULL, NULL, "user password: print a one-time link (7 days) where the user sets it",
	  OPT_SWITCH, CLI(link) },
	{ "keep-tokens", NULL, NULL, NULL, NULL, "user password: a new password keeps the user's API tokens (default: revoked)",
	  OPT_SWITCH, CLI(keep_tokens) },
	{ "kind", NULL, "K", NULL, NULL, "job commands: the job kind", OPT_STR, CLI(kind) },
	{ "subject", NULL, "S", NULL, NULL, "job enqueue: the job's subject", OPT_STR, CLI(subject) },
	{ "payload", NULL, "JSON", NULL, NULL, "job enqueue: the job's payload, a JSON object", OPT_STR, CLI(payload) },
};
#pragma GCC diagnostic pop
#define NOPTIONS ((int)(sizeof(options) / sizeof(options[0])))

/* Apply one value, from a flag (v NULL for a switch), the environment or a default. */
static int apply(struct cli *c, const struct cli_option *o, const char *v)
{
	void *field = (char *)c + o->off;
	char *end;
	long n;

	switch (o->kind) {
	case OPT_STR:
		*(const char **)field = v;
		return 0;
	case OPT_STR_NULL:
		*(const char **)field = *v ? v : NULL;
		return 0;
	case OPT_SWITCH:
		*(int *)field = !v || (strcmp(v, "0") != 0 && strcmp(v, "false") != 0);
		return 0;
	case OPT_CUSTOM:
		return o->parse(o, v, field);
	case OPT_INT:
	case OPT_LONG:
	case OPT_SIZE:
		n = strtol(v, &end, 10);
		if (!*v || *end || n < o->min || n > o->max) {
			fprintf(stderr, "docsd: --%s must be an integer between %ld and %ld\n", o->name, o->min, o->max);
			return -1;
		}
		if (o->kind == OPT_INT)
			*(int *)field = (int)n;
		else if (o->kind == OPT_LONG)
			*(long *)field = n;
		else
			*(size_t *)field = (size_t)n;
		return 0;
	}
	return -1;
}

static void defaults(struct cli *c)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < NOPTIONS; i++)
		if (options[i].def && apply(c, &options[i], options[i].def))
			abort(); /* a default the table's own parser refuses */
	c->cfg.threads = ncpu > 1 ? 2 * (int)ncpu : 4;
}

void cli_usage(FILE *f)
{
	fputs(commands, f);
	for (int i = 0; i < NOPTIONS; i++) {
		const struct cli_option *o = &options[i];
		const char *h = o->help, *def = o->def ? o->def : o->shown;
		char flag[64];
		int first = 1;

		snprintf(flag, sizeof(flag), "--%s%s%s", o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
		while (*h) {
			size_t n = strcspn(h, "\n");
			fprintf(f, "  %-26s %.*s\n", first ? flag : "", (int)n, h);
			first = 0;
			h += n + (h[n] == '\n');
		}
		if (o->env || def)
			fprintf(f, "  %-26s (%s%s%s%s)\n", "", o->env ? o->env : "", o->env && def ? ", " : "",
				def ? "default " : "", def ? def : "");
	}
	fprintf(f, "  %-26s %s\n  %-26s %s\n", "-h, --help", "this help", "-V, --version", "print the version");
}

int cli_parse(struct cli *c, int argc, char **argv, int first)
{
	struct option longs[NOPTIONS + 3];
	int opt;

	defaults(c);
	for (int i = 0; i < NOPTIONS; i++) {
		const char *v = options[i].env ? getenv(options[i].env) : NULL;
		if (v && apply(c, &options[i], v)) {
			fprintf(stderr, "docsd: in %s\n", options[i].env);
			return -1;
		}
		/* getopt_long returns 256 + the row's index */
		longs[i] = (struct option){ options[i].name, options[i].metavar ? required_argument : no_argument, NULL,
					    256 + i };
	}
	longs[NOPTIONS] = (struct option){ "help", no_argument, NULL, 'h' };
	longs[NOPTIONS + 1] = (struct option){ "version", no_argument, NULL, 'V' };
	longs[NOPTIONS + 2] = (struct option){ NULL, 0, NULL, 0 };
	optind = first;
	while ((opt = getopt_long(argc, argv, "hV", longs, NULL)) != -1) {
		if (opt == 'h') {
			cli_usage(stdout);
			exit(0);
		}
		if (opt == 'V') {
			printf("docsd %s\n", DOCSD_VERSION);
			exit(0);
		}
		if (opt < 256 || opt >= 256 + NOPTIONS || apply(c, &options[opt - 256], optarg))
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "docsd: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	log_set_level((enum log_level)c->cfg.log_level);
	return 0;
}
