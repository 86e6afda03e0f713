/*
 * driver.c - what the two engines under the store share (driver.h).
 */
#include "store/driver.h"
#include "util/alloc.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int db_sql_for(const char *sql, const char *engine, char **out)
{
	char open[32];
	int n = snprintf(open, sizeof(open), "/*%s:", engine);
	const char *hit;
	char *copy, *p;

	*out = NULL;
	if (n < 0 || (size_t)n >= sizeof(open))
		return err_set(ERR_INTERNAL, "bad engine name");
	if (!(hit = strstr(sql, open)))
		return 0;
	copy = xstrdup(sql);
	p = copy + (hit - sql);
	do {
		char *end = strstr(p + n, "*/");
		if (!end) {
			free(copy);
			return err_set(ERR_INTERNAL, "engine-only SQL without its closing */");
		}
		memset(p, ' ', (size_t)n);
		memset(end, ' ', 2);
		p = strstr(end + 2, open);
	} while (p);
	*out = copy;
	return 0;
}
