#include "util/log.h"
#include "util/text.h"
#include "util/util.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Set once at start from --log-level; read by every thread. */
static _Atomic int log_level = LOG_INFO;

void log_set_level(enum log_level l)
{
	atomic_store(&log_level, (int)l);
}

enum log_level log_get_level(void)
{
	return (enum log_level)atomic_load(&log_level);
}

int json_escape(char *out, int cap, const char *s)
{
	int o = 0;

	for (; *s && o < cap - 7; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			out[o++] = '\\';
			out[o++] = (char)c;
		} else if (c < 0x20) {
			out[o++] = '\\';
			out[o++] = 'u';
			out[o++] = '0';
			out[o++] = '0';
			out[o++] = hex_lower[c >> 4];
			out[o++] = hex_lower[c & 15];
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return o;
}

void log_json_line(const char *json, int len)
{
	char buf[4096];

	if (len < 0 || len > (int)sizeof(buf) - 2)
		len = (int)sizeof(buf) - 2;
	memcpy(buf, json, (size_t)len);
	buf[len] = '\n';
	if (write(STDERR_FILENO, buf, (size_t)len + 1) < 0) {
		/* nothing sensible to do: stderr is gone */
	}
}

static void log_v(const char *level, const char *fmt, va_list ap)
{
	char msg[1024], esc[2048], line[2600], ts[TS_LEN];
	int n;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	json_escape(esc, sizeof(esc), msg);
	ts_format(ts, clock_now_ms());
	n = snprintf(line, sizeof(line), "{\"time\":\"%s\",\"level\":\"%s\",\"msg\":\"%s\"}", ts, level, esc);
	if (n > 0)
		log_json_line(line, n < (int)sizeof(line) ? n : (int)sizeof(line) - 1);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	if (atomic_load(&log_level) < LOG_ERROR)
		return;
	va_start(ap, fmt);
	log_v("error", fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	if (atomic_load(&log_level) < LOG_INFO)
		return;
	va_start(ap, fmt);
	log_v("info", fmt, ap);
	va_end(ap);
}
