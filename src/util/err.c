#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char err_buf[512];
static _Thread_local int err_last;

int err_set(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err_buf, sizeof(err_buf), fmt, ap);
	va_end(ap);
	err_last = code;
	return code;
}

const char *err_message(void)
{
	return err_buf[0] ? err_buf : "unknown error";
}

int err_code(void)
{
	return err_last;
}

void err_clear(void)
{
	err_buf[0] = '\0';
	err_last = 0;
}
