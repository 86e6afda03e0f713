/*
 * response.c - writing a response: JSON bodies, empty bodies, list envelopes,
 * and the one table from error codes to HTTP statuses.
 */
#include "core/jsonw.h"
#include "http/http.h"
#include "util/err.h"

static const struct {
	int code;
	int status;
} status_table[] = {
	{ ERR_INVALID, 400 },      { ERR_UNAUTHORIZED, 401 }, { ERR_FORBIDDEN, 403 },
	{ ERR_NOT_FOUND, 404 },    { ERR_METHOD, 405 },       { ERR_CONFLICT, 409 },
	{ ERR_TOO_LARGE, 413 },    { ERR_MEDIA_TYPE, 415 },   { ERR_RATE_LIMITED, 429 },
	{ ERR_UNAVAILABLE, 503 },
};

int err_status(int code)
{
	for (size_t i = 0; i < sizeof(status_table) / sizeof(status_table[0]); i++)
		if (status_table[i].code == code)
			return status_table[i].status;
	return 500;
}

yajl_gen resp_json(struct req *r, int status)
{
	if (r->gen) {
		yajl_gen_clear(r->gen);
		yajl_gen_reset(r->gen, NULL);
	} else {
		r->gen = yajl_gen_alloc(NULL);
		if (!r->gen)
			return NULL;
	}
	r->status = status;
	r->responded = 1;
	r->raw_body = NULL;
	return r->gen;
}

int resp_empty(struct req *r, int status)
{
	if (r->gen) {
		yajl_gen_free(r->gen);
		r->gen = NULL;
	}
	r->status = status;
	r->responded = 1;
	return 0;
}

int resp_text(struct req *r, int status, const char *content_type, const char *text, size_t len)
{
	char *copy = arena_strndup(&r->arena, text, len);

	if (!copy)
		return err_set(ERR_INTERNAL, "out of memory");
	resp_empty(r, status);
	r->raw_body = copy;
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

yajl_gen resp_list_begin(struct req *r)
{
	yajl_gen g = resp_json(r, 200);

	if (!g)
		return NULL;
	yajl_gen_map_open(g);
	jw_key(g, "items");
	yajl_gen_array_open(g);
	return g;
}

int resp_list_end(struct req *r, int count, const char *next)
{
	yajl_gen g = r->gen;

	yajl_gen_array_close(g);
	jw_kint(g, "count", count);
	if (next) {
		jw_key(g, "next");
		yajl_gen_map_open(g);
		jw_kstr(g, "page", next);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
	return 0;
}
