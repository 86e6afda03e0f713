/*
 * comments.c - comments, replies and commenters of a space's own content or
 * of one of its change requests: the same handlers serve both (the route has
 * {changeRequestId} for the second).
 *
 * Each handler reads the query and the body's shapes, calls one domain
 * function (domain/comments.c: access, the rules on bodies, reactions and
 * targets, the state of a comment) and serializes what it returns
 * (json/serialize_comments.c).
 */
#include "api/api.h"
#include "json/serialize_comments.h"
#include "domain/comments.h"

#include <microhttpd.h>
#include <string.h>

#define AUTHORS_MAX 1000 /* ids in the authors filter */

/* The place the route names. */
static struct comment_at place_of(struct req *r)
{
	return (struct comment_at){ req_param(r, "spaceId"), req_param(r, "changeRequestId") };
}

/* ---- input ---- */

static int req_format(struct req *r, enum comment_format *out)
{
	static const char *const formats[] = { "markdown", "document", NULL };
	int i, rc = req_query_enum(r, "format", formats, &i);

	*out = i == 1 ? COMMENT_DOCUMENT : COMMENT_MARKDOWN;
	return rc;
}

struct authors {
	struct req *r;
	const char **ids;
	int n;
	int rc;
};

/* One `authors` query argument: comma-separated ids. */
static enum MHD_Result author_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct authors *a = cls;
	const char *s = value;

	(void)kind;
	if (strcmp(key, "authors") != 0 || !value || a->rc)
		return MHD_YES;
	while (*s) {
		size_t len = strcspn(s, ",");
		if (len > 0) {
			if (a->n == AUTHORS_MAX) {
				a->rc = err_set(ERR_INVALID, "authors: at most %d user ids", AUTHORS_MAX);
				return MHD_NO;
			}
			a->ids[a->n++] = arena_strndup(&a->r->arena, s, len);
		}
		s += len + (s[len] == ',');
	}
	return MHD_YES;
}

/* authors: user ids, repeated (authors=a&authors=b, as GitBook's client sends
 * an array) and/or comma-separated. */
static int req_authors(struct req *r, struct comment_filter *f)
{
	struct authors a = { .r = r };

	if (!req_query(r, "authors"))
		return 0;
	a.ids = arena_alloc(&r->arena, sizeof(*a.ids) * AUTHORS_MAX);
	MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, author_arg, &a);
	f->authors = a.ids;
	f->nauthors = a.n;
	if (!a.rc && a.n == 0)
		return err_set(ERR_INVALID, "authors: give at least one user id");
	return a.rc;
}

/* A string field of an object, whole (no NUL inside). */
static int text_of(json_t *v, const char *field, const char **out)
{
	if (!json_is_string(v))
		return err_set(ERR_INVALID, "%s: must be a string", field);
	if (strlen(json_string_value(v)) != json_string_length(v))
		return err_set(ERR_INVALID, "%s: must be valid text", field);
	*out = json_string_value(v);
	return 0;
}

/* body: GitBook's Document, of which docsd takes {markdown}. */
static int body_markdown(struct req *r, bool required, const char **out)
{
	json_t *v = body_field(r, "body"), *md;

	*out = NULL;
	if (!v)
		return required ? err_set(ERR_INVALID, "body: is required") : 0;
	if (!json_is_object(v))
		return err_set(ERR_INVALID, "body: must be an object {markdown: string}");
	if (!(md = json_object_get(v, "markdown"))) {
		if (json_object_get(v, "document"))
			return err_set(ERR_INVALID, "body: only markdown is supported ({markdown: string}), not a document");
		return err_set(ERR_INVALID, "body.markdown: is required");
	}
	return text_of(md, "body.markdown", out);
}

/* tableCell {record, definition}: both NULL when absent. */
static int body_table_cell(struct req *r, struct comment_new *c)
{
	json_t *v = body_field(r, "tableCell"), *s;
	const char *key[2] = { "record", "definition" }, *field[2] = { "tableCell.record", "tableCell.definition" };
	const char **out[2] = { &c->cell_record, &c->cell_definition };
	int rc;

	if (!v)
		return 0;
	if (!json_is_object(v))
		return err_set(ERR_INVALID, "tableCell: must be an object {record, definition}");
	for (int i = 0; i < 2; i++) {
		if (!(s = json_object_get(v, key[i])))
			return err_set(ERR_INVALID, "%s: is required", field[i]);
		if ((rc = text_of(s, field[i], out[i])))
			return rc;
	}
	return 0;
}

/* The changes of a PUT (comment or reply): body, resolved, reactions. */
static int body_edit(struct req *r, struct comment_edit *e)
{
	const char **added, **removed;
	int rc;

	memset(e, 0, sizeof(*e));
	e->resolved = -1;
	if ((rc = body_bool(r, "resolved", 0, &e->resolved)) < 0 || (rc = body_markdown(r, false, &e->markdown)) < 0 ||
	    (rc = body_string_array(r, "addedReactions", 0, COMMENT_REACTIONS_MAX, 4 * COMMENT_EMOJI_MAX, &added,
				    &e->nadded)) < 0 ||
	    (rc = body_string_array(r, "removedReactions", 0, COMMENT_REACTIONS_MAX, 4 * COMMENT_EMOJI_MAX, &removed,
				    &e->nremoved)) < 0)
		return rc;
	e->added = added;
	e->removed = removed;
	return 0;
}

/* ---- output ---- */

static void write_one(struct jw *g, const struct dom_comment *c)
{
	if (c->c.parent_id)
		comment_reply_to_json(g, &c->c, &c->view);
	else
		comment_to_json(g, &c->c, &c->view);
}

static int send_one(struct req *r, int status, const struct dom_comment *c)
{
	struct jw *g = resp_json(r, status);

	write_one(g, c);
	return 0;
}

static int send_list(struct req *r, const struct dom_comment *items, int n, int64_t total, const char *next)
{
	struct jw *g = resp_list_begin(r);

	for (int i = 0; i < n; i++)
		write_one(g, &items[i]);
	return resp_list_end(r, total, next);
}

/* ---- comments and replies ---- */

int api_comment_list(struct req *r)
{
	static const char *const statuses[] = { "all", "open", "resolved", NULL };
	struct comment_at at = place_of(r);
	struct comment_filter f = { 0 };
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	enum comment_format fmt;
	struct dom_comment *items;
	char *next;
	int status, n, rc;

	if ((rc = req_list_total(r, &lr, &cur, "order", 1, &total)) || (rc = req_format(r, &fmt)) ||
	    (rc = req_query_enum(r, "status", statuses, &status)) || (rc = req_authors(r, &f)))
		return rc;
	f.status = status > 0 ? statuses[status] : NULL;
	f.target_page = req_query(r, "targetPage");
	if (f.target_page && !*f.target_page)
		f.target_page = NULL;
	if ((rc = dom_comments_list(&r->dom, &at, &f, &lr, fmt, &items, &n, &next)))
		return rc;
	return send_list(r, items, n, total, next);
}

int api_reply_list(struct req *r)
{
	struct comment_at at = place_of(r);
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	enum comment_format fmt;
	struct dom_comment *items;
	char *next;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) || (rc = req_format(r, &fmt)) ||
	    (rc = dom_replies_list(&r->dom, &at, req_param(r, "commentId"), &lr, fmt, &items, &n, &next)))
		return rc;
	return send_list(r, items, n, total, next);
}

/* GET of a comment or (reply_id set) a reply. */
static int get_one(struct req *r, const char *reply_id)
{
	struct comment_at at = place_of(r);
	struct dom_comment c;
	enum comment_format fmt;
	int rc;

	if ((rc = req_format(r, &fmt)) || (rc = dom_comment_get(&r->dom, &at, req_param(r, "commentId"), reply_id, fmt, &c)))
		return rc;
	return send_one(r, 200, &c);
}

int api_comment_get(struct req *r)
{
	return get_one(r, NULL);
}

int api_reply_get(struct req *r)
{
	return get_one(r, req_param(r, "commentReplyId"));
}

int api_comment_create(struct req *r)
{
	struct comment_at at = place_of(r);
	struct comment_new in = { 0 };
	struct dom_comment c;
	int rc;

	if ((rc = body_markdown(r, true, &in.markdown)) < 0 || (rc = body_string(r, "node", 0, 0, 0, &in.node)) < 0 ||
	    (rc = body_string(r, "page", 0, 0, 0, &in.page)) < 0 || (rc = body_table_cell(r, &in)) < 0 ||
	    (rc = dom_comment_post(&r->dom, &at, &in, &c)))
		return rc;
	return send_one(r, 201, &c);
}

int api_reply_create(struct req *r)
{
	struct comment_at at = place_of(r);
	struct dom_comment c;
	const char *markdown;
	int rc;

	if ((rc = body_markdown(r, true, &markdown)) < 0 ||
	    (rc = dom_reply_post(&r->dom, &at, req_param(r, "commentId"), markdown, &c)))
		return rc;
	return send_one(r, 201, &c);
}

/* PUT of a comment or (reply_id set) a reply. */
static int update_one(struct req *r, const char *reply_id)
{
	struct comment_at at = place_of(r);
	struct comment_edit e;
	struct dom_comment c;
	int rc;

	if ((rc = body_edit(r, &e)) || (rc = dom_comment_update(&r->dom, &at, req_param(r, "commentId"), reply_id, &e, &c)))
		return rc;
	return send_one(r, 200, &c);
}

int api_comment_update(struct req *r)
{
	return update_one(r, NULL);
}

int api_reply_update(struct req *r)
{
	return update_one(r, req_param(r, "commentReplyId"));
}

/* DELETE answers 204 whether it deleted or there was nothing to delete. */
static int delete_one(struct req *r, const char *reply_id)
{
	struct comment_at at = place_of(r);
	int rc = dom_comment_delete(&r->dom, &at, req_param(r, "commentId"), reply_id, NULL);

	return rc ? rc : resp_empty(r, 204);
}

int api_comment_delete(struct req *r)
{
	return delete_one(r, NULL);
}

int api_reply_delete(struct req *r)
{
	return delete_one(r, req_param(r, "commentReplyId"));
}

/* ---- commenters ---- */

int api_commenter_list(struct req *r)
{
	struct comment_at at = place_of(r);
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct member *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) || (rc = dom_commenters_list(&r->dom, &at, &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		member_to_json(g, api_base(r), &items[i], api_sees_emails(r));
	return resp_list_end(r, total, next);
}
