/*
 * log.h - one JSON line per event on stderr.
 *
 * Each line is formatted into a stack buffer and written with a single write(2),
 * so lines from different threads never interleave.
 */
#ifndef DOCSD_UTIL_LOG_H
#define DOCSD_UTIL_LOG_H

enum log_level { LOG_OFF = 0, LOG_ERROR = 1, LOG_INFO = 2 };

void log_set_level(enum log_level l);
enum log_level log_get_level(void);
/* msg is a plain message; it is JSON-escaped. */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Write an already-formed JSON object line (no trailing newline needed). */
void log_json_line(const char *json, int len);
/* JSON-escape s into out (at most cap bytes incl. NUL); returns bytes written. */
int json_escape(char *out, int cap, const char *s);

#endif
