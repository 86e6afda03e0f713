/*
 * main.c - the command line: serve, user create, user password, token create,
 * migrate.
 *
 * Every flag also reads a DOCSD_* environment variable; a flag given on the
 * command line wins over the environment.
 */
#include "domain/sessions.h"
#include "json/serialize.h"
#include "model/validate.h"
#include "http/listener.h"
#include "http/services.h"
#include "domain/tokens.h"
#include "jobs/jobs.h"
#include "options.h"
#include "server.h"
#include "store/store.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <jansson.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "json/jsonw.h"

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
	log_info("docsd %s listening on %s, published sites on %s (store: %s, threads: %d)", DOCSD_VERSION,
		 srv->public_url, srv->site_url, store_engine(srv->store), c->cfg.threads);
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

/* Read a password: from the terminal with echo off when stdin is one, else
 * the first line of stdin (a trailing "\n" or "\r\n" dropped). 0, or -1
 * with a message printed. */
static int read_password(char *buf, size_t size)
{
	struct termios old, quiet;
	int tty = isatty(STDIN_FILENO), ok;
	size_t n;

	if (tty) {
		fprintf(stderr, "New password for the web interface: ");
		fflush(stderr);
		if (tcgetattr(STDIN_FILENO, &old) != 0)
			return -1;
		quiet = old;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) != 0)
			return -1;
	}
	ok = fgets(buf, (int)size, stdin) != NULL;
	if (tty) {
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
		fputc('\n', stderr);
	}
	if (!ok) {
		fprintf(stderr, "docsd: no password read from %s\n", tty ? "the terminal" : "stdin");
		return -1;
	}
	n = strlen(buf);
	if (n == size - 1 && buf[n - 1] != '\n') {
		fprintf(stderr, "docsd: the password is longer than %d bytes\n", DOM_PASSWORD_MAX);
		return -1;
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return 0;
}

/* docsd user password --email E: set the user's web interface password
 * (argon2id), which signs them out everywhere and, when it replaces one,
 * revokes their API tokens unless --keep-tokens (domain/sessions.h); with --link, print a one-time
 * link where the user sets it (domain/sessions.h, "Password links"). The hash is computed before
 * the write transaction opens (~100 ms of CPU the server's writers need not
 * wait for). */
static int cmd_user_password(struct cli *c)
{
	struct store *st = NULL;
	struct store_tx tx;
	struct arena a;
	struct user u;
	struct dom d;
	char pw[DOM_PASSWORD_MAX + 2], hash[DOM_PASSWORD_HASH_MAX];
	const char *link = NULL;
	int64_t expires = 0, revoked = 0;
	int rc, ret = 1;

	if (!c->email || !valid_email(c->email)) {
		fprintf(stderr, "docsd: --email must be a valid email address\n");
		return 2;
	}
	if (!c->link) {
		if (read_password(pw, sizeof(pw)))
			return 1;
		rc = dom_password_hash(pw, hash);
		sodium_memzero(pw, sizeof(pw));
		if (rc) {
			fprintf(stderr, "docsd: %s\n", err_message());
			return rc == ERR_INVALID ? 2 : 1;
		}
	}
	arena_init(&a);
	if (server_open_store(&st, &c->cfg, 1)) {
		fprintf(stderr, "docsd: %s\n", err_message());
		goto out;
	}
	if ((rc = store_tx_begin(st, &tx, 1, &a)) == 0) {
		dom_init(&d, NULL, &tx, &a, NULL);
		rc = store_user_get_by_email(&tx, c->email, &u);
		if (rc == 0 && c->link)
			rc = dom_password_link(&d, u.id, &link, &expires);
		else if (rc == 0)
			rc = dom_password_set(&d, u.id, hash, c->keep_tokens != 0, &revoked);
		if (rc == 0)
			rc = store_tx_commit(&tx);
		else
			store_tx_rollback(&tx);
	}
	if (rc) {
		fprintf(stderr, "docsd: %s\n", err_message());
		goto out;
	}
	if (c->link) {
		/* The token is ids, digits and hex: nothing to escape. */
		char base[512];
		snprintf(base, sizeof(base), "%s", c->cfg.public_url ? c->cfg.public_url : "");
		if (!*base)
			snprintf(base, sizeof(base), "http://%s", c->cfg.listen);
		while (*base && base[strlen(base) - 1] == '/')
			base[strlen(base) - 1] = '\0';
		printf("{\"user\":\"%s\",\"link\":\"%s/signin/password?token=%s\",\"expiresAt\":%lld}\n", u.id, base,
		       link, (long long)expires);
	} else {
		printf("{\"user\":\"%s\",\"password\":\"set\",\"tokensRevoked\":%lld}\n", u.id, (long long)revoked);
	}
	ret = fflush(stdout) == 0 ? 0 : 1;
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
		cli_usage(cmd ? stdout : stderr);
		return cmd ? 0 : 2;
	}
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
		printf("docsd %s\n", DOCSD_VERSION);
		return 0;
	}
	/* libsodium (password hashes, session tokens) before any thread starts. */
	if (dom_crypto_init()) {
		fprintf(stderr, "docsd: libsodium cannot start\n");
		return 1;
	}
	if (strcmp(cmd, "serve") == 0) {
		if (cli_parse(&c, argc, argv, 2))
			return 2;
		return cmd_serve(&c);
	}
	if (strcmp(cmd, "migrate") == 0) {
		if (cli_parse(&c, argc, argv, 2))
			return 2;
		return cmd_migrate(&c);
	}
	if ((strcmp(cmd, "user") == 0 || strcmp(cmd, "token") == 0) && argc > 2 && strcmp(argv[2], "create") == 0) {
		if (cli_parse(&c, argc, argv, 3))
			return 2;
		/* Command-line tools log errors only. */
		log_set_level(LOG_ERROR);
		return cmd_user_token(&c, cmd[0] == 'u');
	}
	if (strcmp(cmd, "user") == 0 && argc > 2 && strcmp(argv[2], "password") == 0) {
		if (cli_parse(&c, argc, argv, 3))
			return 2;
		log_set_level(LOG_ERROR);
		return cmd_user_password(&c);
	}
	if (strcmp(cmd, "job") == 0 && argc > 2 && (strcmp(argv[2], "enqueue") == 0 || strcmp(argv[2], "list") == 0)) {
		if (cli_parse(&c, argc, argv, 3))
			return 2;
		log_set_level(LOG_ERROR);
		return cmd_job(&c, argv[2][0] == 'e');
	}
	fprintf(stderr, "docsd: unknown command '%s'\n\n", cmd);
	cli_usage(stderr);
	return 2;
}
