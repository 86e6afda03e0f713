/*
 * request.c - reading a request: path and query parameters, list parameters,
 * and typed fields of the JSON body, each failure a 400 naming the field.
 */
#include "http/http.h"
#include "store/store.h"
#include "util/err.h"
#include "util/netaddr.h"
#include "util/util.h"

#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *req_param(const struct req *r, const char *name)
{
	for (int i = 0; i < r->nparams; i++)
		if (strcmp(r->param_names[i], name) == 0)
			return r->param_values[i];
	return NULL;
}

const char *req_query(struct req *r, const char *name)
{
	const char *v = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name);
	char *d, *w;

	/* The listener leaves %2F encoded (see on_unescape); decode it here. */
	if (!v || !strchr(v, '%'))
		return v;
	d = arena_strdup(&r->arena, v);
	for (w = d; *v; v++) {
		if (v[0] == '%' && v[1] == '2' && (v[2] == 'F' || v[2] == 'f')) {
			*w++ = '/';
			v += 2;
		} else {
			*w++ = *v;
		}
	}
	*w = '\0';
	return d;
}

const char *req_header(const struct req *r, const char *name)
{
	return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
}

/* Every X-Forwarded-For header, in order, joined by ',' (a client can send
 * several; only the last entries, which our proxies appended, matter). */
struct xff {
	char buf[2048];
	size_t len;
	bool overflow;
};

static enum MHD_Result xff_add(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct xff *x = cls;
	size_t n = value ? strlen(value) : 0;

	(void)kind;
	if (strcasecmp(key, "X-Forwarded-For") != 0)
		return MHD_YES;
	/* Too long: keep the tail, which holds the entries we trust (the
	 * first, client-written part is dropped). */
	if (x->len + n + 2 > sizeof(x->buf)) {
		x->overflow = true;
		x->len = 0;
		if (n + 1 > sizeof(x->buf)) {
			value += n - (sizeof(x->buf) - 2);
			n = sizeof(x->buf) - 2;
		}
	}
	if (x->len)
		x->buf[x->len++] = ',';
	memcpy(x->buf + x->len, value, n);
	x->len += n;
	x->buf[x->len] = '\0';
	return MHD_YES;
}

/* The client behind trusted peer `peer`, walking X-Forwarded-For from its
 * right end: each entry that is a trusted proxy hands us on to the one
 * before it; the first that is not is the client. */
static struct net_addr xff_client(struct req *r, struct net_addr peer)
{
	struct xff x = { .len = 0 };
	struct net_addr hop = peer, a;

	MHD_get_connection_values(r->conn, MHD_HEADER_KIND, xff_add, &x);
	for (size_t end = x.len; end > 0;) {
		size_t start = end, e = end;

		while (start > 0 && x.buf[start - 1] != ',')
			start--;
		while (start < e && (x.buf[start] == ' ' || x.buf[start] == '\t'))
			start++;
		while (e > start && (x.buf[e - 1] == ' ' || x.buf[e - 1] == '\t'))
			e--;
		/* The left-most entry of a header cut to its tail may be a
		 * fragment that still parses (2.3.4.5 of 12.3.4.5). */
		if ((start == 0 && x.overflow) || net_addr_parse(x.buf + start, e - start, &a))
			return hop; /* not an address: the hop that passed it on is all we know */
		if (!net_ranges_contain(r->srv->trusted_proxies, r->srv->ntrusted_proxies, &a))
			return a;
		hop = a;
		while (start > 0 && x.buf[start - 1] != ',')
			start--;
		end = start > 0 ? start - 1 : 0;
	}
	return hop;
}

const char *req_client_addr(struct req *r)
{
	const union MHD_ConnectionInfo *ci;
	struct net_addr peer;
	char buf[46];

	if (r->client_addr)
		return r->client_addr;
	ci = r->conn ? MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS) : NULL;
	if (!ci || net_addr_from_sockaddr(ci->client_addr, &peer))
		return "?";
	if (r->srv && r->srv->ntrusted_proxies > 0 &&
	    net_ranges_contain(r->srv->trusted_proxies, r->srv->ntrusted_proxies, &peer))
		peer = xff_client(r, peer);
	r->client_addr = arena_strdup(&r->arena, net_addr_format(&peer, buf));
	return r->client_addr ? r->client_addr : "?";
}

const char *req_cookie(struct req *r, const char *name)
{
	const char *c = req_header(r, "Cookie");
	size_t nl = strlen(name);

	while (c && *c) {
		while (*c == ' ' || *c == ';')
			c++;
		if (strncmp(c, name, nl) == 0 && c[nl] == '=') {
			size_t n;
			c += nl + 1;
			n = strcspn(c, ";");
			while (n && c[n - 1] == ' ')
				n--;
			return arena_strndup(&r->arena, c, n);
		}
		c += strcspn(c, ";");
	}
	return NULL;
}

int req_query_enum(struct req *r, const char *name, const char *const *allowed, int *out)
{
	const char *v = req_query(r, name);

	*out = -1;
	if (!v)
		return 0;
	for (int i = 0; allowed[i]; i++)
		if (strcmp(v, allowed[i]) == 0) {
			*out = i;
			return 0;
		}
	return err_set(ERR_INVALID, "%s: unsupported value", name);
}

int parse_decimal(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		unsigned d = (unsigned char)*s - '0';
		if (d > 9 || v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int req_query_int(struct req *r, const char *name, long min, long max, long *out)
{
	const char *v = req_query(r, name);
	uint64_t n;

	if (!v)
		return 0;
	if (parse_decimal(v, (uint64_t)max, &n) || (long)n < min)
		return err_set(ERR_INVALID, "%s: must be a decimal integer between %ld and %ld", name, min, max);
	*out = (long)n;
	return 1;
}

int req_list(struct req *r, struct list_req *lr, struct cursor *cur, const char *order_param, int default_desc)
{
	static const char *const orders[] = { "asc", "desc", NULL };
	const char *page = req_query(r, "page");
	long limit = 100;
	int rc, order;

	lr->limit = 100;
	lr->desc = default_desc;
	lr->after = NULL;
	lr->total = NULL;
	lr->generation = 0;
	lr->count_who = NULL;
	if ((rc = req_query_int(r, "limit", 1, 1000, &limit)) < 0)
		return rc;
	lr->limit = (int)limit;
	if (order_param) {
		rc = req_query_enum(r, order_param, orders, &order);
		if (rc)
			return rc;
		if (order >= 0)
			lr->desc = order == 1;
	}
	if (page && *page) {
		rc = cursor_decode(&r->arena, page, cur);
		if (rc)
			return rc;
		lr->after = cur;
	}
	return 0;
}

int req_list_total(struct req *r, struct list_req *lr, struct cursor *cur, const char *order_param, int default_desc,
		   int64_t *total)
{
	int rc = req_list(r, lr, cur, order_param, default_desc);

	*total = 0;
	lr->total = total;
	return rc;
}

json_t *body_field(struct req *r, const char *field)
{
	return r->json ? json_object_get(r->json, field) : NULL;
}

/* Common head of the body_* readers: absent, null, or a value to check. */
static int field_head(struct req *r, const char *field, int flags, json_t **v)
{
	*v = body_field(r, field);
	if (!*v) {
		if (flags & F_REQUIRED)
			return err_set(ERR_INVALID, "%s: is required", field);
		return 0;
	}
	if (json_is_null(*v)) {
		if (!(flags & F_NULLABLE))
			return err_set(ERR_INVALID, "%s: must not be null", field);
		*v = NULL;
		return 1;
	}
	return 2;
}

int body_string(struct req *r, const char *field, int flags, long minlen, long maxlen, const char **out)
{
	json_t *v;
	int rc = field_head(r, field, flags, &v);
	long n;

	*out = NULL;
	if (rc <= 1)
		return rc;
	if (!json_is_string(v))
		return err_set(ERR_INVALID, "%s: must be a string", field);
	n = utf8_len(json_string_value(v));
	if (n < 0 || strlen(json_string_value(v)) != json_string_length(v))
		return err_set(ERR_INVALID, "%s: must be valid text", field);
	if (n < minlen || (maxlen > 0 && n > maxlen)) {
		if (maxlen > 0)
			return err_set(ERR_INVALID, "%s: must be %ld to %ld characters long", field, minlen, maxlen);
		return err_set(ERR_INVALID, "%s: must be at least %ld characters long", field, minlen);
	}
	*out = json_string_value(v);
	return 1;
}

int body_bool(struct req *r, const char *field, int flags, int *out)
{
	json_t *v;
	int rc = field_head(r, field, flags, &v);

	if (rc <= 1)
		return rc;
	if (!json_is_boolean(v))
		return err_set(ERR_INVALID, "%s: must be a boolean", field);
	*out = json_is_true(v);
	return 1;
}

int body_role(struct req *r, const char *field, int flags, enum role *out)
{
	json_t *v;
	int rc = field_head(r, field, flags, &v);

	if (rc == 1) {
		*out = ROLE_GUEST;
		return 1;
	}
	if (rc <= 0)
		return rc;
	if (!json_is_string(v) || role_parse(json_string_value(v)) == ROLE_NONE)
		return err_set(ERR_INVALID, "%s: must be one of admin, create, review, edit, comment, read%s", field,
			       flags & F_NULLABLE ? " or null" : "");
	*out = role_parse(json_string_value(v));
	return 1;
}

int body_string_array(struct req *r, const char *field, int flags, int max_items, long maxlen,
		      const char ***out, int *n)
{
	json_t *v, *item;
	size_t i;
	int rc = field_head(r, field, flags, &v);

	*out = NULL;
	*n = 0;
	if (rc <= 1)
		return rc;
	if (!json_is_array(v))
		return err_set(ERR_INVALID, "%s: must be an array of strings", field);
	if ((int)json_array_size(v) > max_items)
		return err_set(ERR_INVALID, "%s: at most %d items", field, max_items);
	*out = arena_alloc(&r->arena, sizeof(char *) * (json_array_size(v) + 1));
	json_array_foreach(v, i, item) {
		if (!json_is_string(item))
			return err_set(ERR_INVALID, "%s[%zu]: must be a string", field, i);
		if (json_string_length(item) == 0 || (long)json_string_length(item) > maxlen)
			return err_set(ERR_INVALID, "%s[%zu]: must be 1 to %ld characters long", field, i, maxlen);
		(*out)[i] = json_string_value(item);
	}
	*n = (int)json_array_size(v);
	return 1;
}

int req_caller(struct req *r, const struct user **out)
{
	int rc;

	if (!r->caller_loaded) {
		rc = store_user_get(&r->tx, r->caller_id, &r->caller);
		if (rc)
			return rc == ERR_NOT_FOUND ? err_set(ERR_UNAUTHORIZED, "the token's user no longer exists") : rc;
		r->caller_loaded = 1;
	}
	*out = &r->caller;
	return 0;
}
