/*
 * options.h - the command line's options, from one table (options.c).
 *
 * Each row names a flag, its environment variable, its default, its help and
 * its parser; `docsd --help`, getopt_long's table, the environment and the
 * defaults are all read from it, so an option is added in one place.
 * Precedence: default < environment < flag.
 */
#ifndef DOCSD_OPTIONS_H
#define DOCSD_OPTIONS_H

#include <stdio.h>

#include "server.h"

/* What the commands read: the server's configuration and the options of the
 * user, token and job commands. */
struct cli {
	struct config cfg;
	const char *email;
	const char *name;
	int if_exists;                        /* user create: an existing user gets a new token */
	int link;                             /* user password: print a password link instead */
	int keep_tokens;                      /* user password: a reset keeps the API tokens */
	const char *kind, *subject, *payload; /* job enqueue, job list */
};

/* Defaults, then DOCSD_* variables, then the flags of argv[first..]. -1 after
 * printing why on stderr; --help and --version print and exit(0). */
int cli_parse(struct cli *c, int argc, char **argv, int first);
/* --help: the commands, then the options generated from the table. */
void cli_usage(FILE *f);

#endif
