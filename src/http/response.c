/*
 * response.c - writing a response: JSON bodies, empty bodies, list envelopes,
 * and the one table from error codes to HTTP statuses.
 */
#include "json/jsonw.h"
#include "http/http.h"
#include "util/err.h"

static const struct {
	int code;
	int status;
} status_table[] = {
	{ ERR_INVALID, 400 },      { ERR_UNAUTHORIZED, 401 }, { ERR_FORBIDDEN, 403 },
	{ ERR_NOT_FOUND, 404 },    { ERR_METHOD, 405 },       { ERR_CONFLICT, 409 },
	{ ERR_TOO_LARGE, 413 },    { ERR_MEDIA_TYPE, 415 },   { ERR_RATE_LIMITED, 429 },
	{ ERR_UNAVAILABLE, 503 },  { ERR_PRECONDITION, 412 },
};

int err_status(int code)
{
	for (size_t i = 0; i < sizeof(status_table) / sizeof(status_table[0]); i++)
		if (status_table[i].code == code)
			return status_table[i].status;
	return 500;
}

void http_error_json(struct jw *w, int status, const char *msg)
{
	jw_obj_open(w);
	jw_key(w, "error");
	jw_obj_open(w);
	jw_kint(w, "code", status);
	jw_key(w, "message");
	jw_strn(w, msg, strlen(msg));
	jw_obj_close(w);
	jw_obj_close(w);
}

struct jw *resp_json(struct req *r, int status)
{
	jw_reset(&r->out);
	r->gen = &r->out;
	r->status = status;
	r->responded = 1;
	r->raw_body = NULL;
	return r->gen;
}

int resp_empty(struct req *r, int status)
{
	r->gen = NULL;
	r->status = status;
	r->responded = 1;
	return 0;
}

int resp_text(struct req *r, int status, const char *content_type, const char *text, size_t len)
{
	char *copy = arena_strndup(&r->arena, text, len);

	resp_empty(r, status);
	r->raw_body = copy;
	r->raw_len = len;
	r->content_type = content_type;
	return 0;
}

int resp_bytes(struct req *r, int status, const char *content_type, const void *data, size_t len)
{
	resp_empty(r, status);
	r->raw_body = data;
	r->raw_len = len;
	r->content_type = content_type;
	return 0;
}

int resp_header(struct req *r, const char *name, const char *value)
{
	if (r->nheaders >= REQ_MAX_HEADERS)
		return err_set(ERR_INTERNAL, "too many response headers");
	r->header_names[r->nheaders] = name;
	r->header_values[r->nheaders] = value;
	r->nheaders++;
	return 0;
}

struct jw *resp_list_begin(struct req *r)
{
	struct jw *g = resp_json(r, 200);

	jw_obj_open(g);
	jw_key(g, "items");
	jw_arr_open(g);
	return g;
}

int resp_list_end(struct req *r, int64_t total, const char *next)
{
	jw_arr_close(r->gen);
	return resp_list_end_open(r, total, next);
}

int resp_list_end_open(struct req *r, int64_t total, const char *next)
{
	struct jw *g = r->gen;

	jw_kint(g, "count", total);
	if (next) {
		jw_key(g, "next");
		jw_obj_open(g);
		jw_kstr(g, "page", next);
		jw_obj_close(g);
	}
	jw_obj_close(g);
	return 0;
}
