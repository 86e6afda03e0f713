/*
 * err.h - error codes and the thread-local error message.
 *
 * Functions return int: 0 on success, one of the named negative codes for the
 * failures a caller is expected to handle, and ERR_INTERNAL (-1) for the rest.
 * The message lives in a thread-local buffer set by err_set(); errors are passed
 * up unchanged and never overwritten by the caller (libgit2's convention).
 * http/response.c maps each code to an HTTP status in one table.
 */
#ifndef DOCSD_UTIL_ERR_H
#define DOCSD_UTIL_ERR_H

enum err_code {
	ERR_OK = 0,
	ERR_INTERNAL = -1,     /* 500: details in the log only */
	ERR_INVALID = -2,      /* 400 */
	ERR_UNAUTHORIZED = -3, /* 401 */
	ERR_FORBIDDEN = -4,    /* 403 */
	ERR_NOT_FOUND = -5,    /* 404 */
	ERR_METHOD = -6,       /* 405 */
	ERR_CONFLICT = -7,     /* 409 */
	ERR_TOO_LARGE = -8,    /* 413 */
	ERR_MEDIA_TYPE = -9,   /* 415 */
	ERR_RATE_LIMITED = -10,/* 429 */
	ERR_UNAVAILABLE = -11, /* 503 */
	ERR_PRECONDITION = -12,/* 412 */
};

/* Set the thread's error and return `code`, so callers write `return err_set(...)`. */
int err_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *err_message(void);
int err_code(void);
void err_clear(void);

#endif
