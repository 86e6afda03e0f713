/*
 * comments.c - comments, replies and commenters of a space's own content or
 * of one of its change requests: the same handlers serve both (the route has
 * {changeRequestId} for the second).
 *
 * Access (on the space, api/content.c): reading needs read; posting, replying,
 * reacting and resolving need comment. Editing a body is its author's only;
 * deleting is its author's or a space admin's. A deleted space's comments can
 * be read, not changed (409 until it is restored).
 *
 * State of a comment (the seed's table; replies have none):
 *   open --PUT resolved:true--> resolved (resolvedAt, resolvedBy set)
 *   resolved --PUT resolved:false--> open (both cleared)
 * Space.comments / ChangeRequest.comments count the open comments of the
 * place; store/comments.c keeps them in the request's transaction.
 */
#include "api/content.h"
#include "core/serialize_comments.h"
#include "util/util.h"

#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>

#define MARKDOWN_MAX 10000 /* characters of a comment's body */
#define EMOJI_MAX 50       /* characters of a reaction (GitBook's Emoji) */
#define REACTIONS_MAX 50   /* emojis in addedReactions / removedReactions */
#define TARGET_MAX 256     /* characters of a node, page or table cell id */
#define AUTHORS_MAX 1000   /* ids in the authors filter */

/* Where the route's comments live, and the caller's role on the space. */
struct place {
	struct space space;
	struct change_request cr;
	struct comment_place at;
	const char *head; /* the revision new comments target: the space's or the change request's */
};

static int load_place(struct req *r, enum role need, struct place *p)
{
	int rc;

	memset(p, 0, sizeof(*p));
	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), need, &p->space)))
		return rc;
	if (need > ROLE_READ && p->space.deleted_at)
		return err_set(ERR_CONFLICT, "the space is deleted; restore it first");
	p->at.org_id = p->space.org_id;
	p->at.space_id = p->space.id;
	p->head = p->space.revision;
	if (req_param(r, "changeRequestId")) {
		if ((rc = dom_change_request_get(&r->dom, &p->space, req_param(r, "changeRequestId"), &p->cr)))
			return rc;
		p->at.change_request_id = p->cr.id;
		p->head = p->cr.revision;
	}
	return 0;
}

/* {commentId} of the place (404 when it is not there). */
static int load_comment(struct req *r, const struct place *p, struct comment *c)
{
	return store_comment_get(&r->tx, &p->at, NULL, req_param(r, "commentId"), c);
}

/* {commentReplyId} of {commentId}. */
static int load_reply(struct req *r, const struct place *p, struct comment *parent, struct comment *c)
{
	int rc = load_comment(r, p, parent);

	return rc ? rc : store_comment_get(&r->tx, &p->at, parent->id, req_param(r, "commentReplyId"), c);
}

static bool is_author(const struct req *r, const struct comment *c)
{
	return c->posted_by.id && r->caller_id && strcmp(c->posted_by.id, r->caller_id) == 0;
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
			if (!(a->ids[a->n++] = arena_strndup(&a->r->arena, s, len))) {
				a->rc = err_set(ERR_INTERNAL, "out of memory");
				return MHD_NO;
			}
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
	if (!(a.ids = arena_alloc(&r->arena, sizeof(*a.ids) * AUTHORS_MAX)))
		return err_set(ERR_INTERNAL, "out of memory");
	MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, author_arg, &a);
	f->authors = a.ids;
	f->nauthors = a.n;
	if (!a.rc && a.n == 0)
		return err_set(ERR_INVALID, "authors: give at least one user id");
	return a.rc;
}

/* body: GitBook's Document, of which docsd takes {markdown}. 1 when present. */
static int body_markdown(struct req *r, bool required, const char **out)
{
	json_t *v = body_field(r, "body"), *md;
	const char *s;
	long n;

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
	if (!json_is_string(md))
		return err_set(ERR_INVALID, "body.markdown: must be a string");
	s = json_string_value(md);
	n = utf8_len(s);
	if (n < 0 || strlen(s) != json_string_length(md))
		return err_set(ERR_INVALID, "body.markdown: must be valid text");
	if (n > MARKDOWN_MAX)
		return err_set(ERR_INVALID, "body.markdown: must be at most %d characters long", MARKDOWN_MAX);
	if (s[strspn(s, " \t\r\n")] == '\0')
		return err_set(ERR_INVALID, "body.markdown: must not be empty");
	*out = s;
	return 1;
}

/* addedReactions / removedReactions: emojis, each 1..EMOJI_MAX characters. */
static int body_emojis(struct req *r, const char *field, const char ***out, int *n)
{
	int rc = body_string_array(r, field, 0, REACTIONS_MAX, 4 * EMOJI_MAX, out, n);

	for (int i = 0; rc == 1 && i < *n; i++) {
		const unsigned char *s = (const unsigned char *)(*out)[i];
		long len = utf8_len((*out)[i]);
		if (len < 1 || len > EMOJI_MAX)
			return err_set(ERR_INVALID, "%s[%d]: must be an emoji of 1 to %d characters", field, i, EMOJI_MAX);
		for (; *s; s++)
			if (*s <= ' ' || *s == 0x7f)
				return err_set(ERR_INVALID, "%s[%d]: must be an emoji, without spaces or control characters",
					       field, i);
	}
	return rc;
}

/* The reactions of a PUT (comment or reply). */
struct reacting {
	const char **added, **removed;
	int nadded, nremoved;
};

static int body_reactions(struct req *r, struct reacting *x)
{
	int rc;

	if ((rc = body_emojis(r, "addedReactions", &x->added, &x->nadded)) < 0 ||
	    (rc = body_emojis(r, "removedReactions", &x->removed, &x->nremoved)) < 0)
		return rc;
	for (int i = 0; i < x->nadded; i++)
		for (int j = 0; j < x->nremoved; j++)
			if (strcmp(x->added[i], x->removed[j]) == 0)
				return err_set(ERR_INVALID, "removedReactions[%d]: '%s' is also in addedReactions", j,
					       x->removed[j]);
	return 0;
}

/* tableCell {record, definition}: *out is its compact JSON, NULL when absent. */
static int body_table_cell(struct req *r, const char **out)
{
	json_t *v = body_field(r, "tableCell");
	const char *field[2] = { "record", "definition" };
	char *json;

	*out = NULL;
	if (!v)
		return 0;
	if (!json_is_object(v))
		return err_set(ERR_INVALID, "tableCell: must be an object {record, definition}");
	for (int i = 0; i < 2; i++) {
		json_t *s = json_object_get(v, field[i]);
		long n;
		if (!s)
			return err_set(ERR_INVALID, "tableCell.%s: is required", field[i]);
		if (!json_is_string(s))
			return err_set(ERR_INVALID, "tableCell.%s: must be a string", field[i]);
		n = utf8_len(json_string_value(s));
		if (n < 1 || n > TARGET_MAX || strlen(json_string_value(s)) != json_string_length(s))
			return err_set(ERR_INVALID, "tableCell.%s: must be 1 to %d characters long", field[i], TARGET_MAX);
	}
	json_t *cell = json_pack("{s:O,s:O}", "record", json_object_get(v, "record"), "definition",
				 json_object_get(v, "definition"));
	json = cell ? json_dumps(cell, JSON_COMPACT) : NULL;
	json_decref(cell);
	if (!json)
		return err_set(ERR_INTERNAL, "out of memory");
	*out = arena_strdup(&r->arena, json);
	free(json);
	return *out ? 1 : err_set(ERR_INTERNAL, "out of memory");
}

/* ---- output ---- */

/* target.page: the page as the place's current content shows it, else as the
 * revision the comment was posted on shows it (outdated). */
static int page_view(struct req *r, const struct place *p, const struct comment *c, struct comment_page *out)
{
	struct page_summary s;
	int rc = dom_page_summary(&r->dom, p->head, c->target_page, &s);

	memset(out, 0, sizeof(*out));
	if (rc == ERR_NOT_FOUND) {
		out->outdated = true;
		rc = dom_page_summary(&r->dom, c->revision, c->target_page, &s);
	}
	if (rc == ERR_NOT_FOUND) {
		memset(&s, 0, sizeof(s));
		s.id = c->target_page;
		s.path = "";
		rc = 0;
	}
	if (rc)
		return rc;
	out->id = c->target_page;
	out->title = s.title && *s.title ? s.title : "Untitled";
	out->emoji = s.emoji;
	out->icon = s.icon;
	out->path = s.path ? s.path : "";
	out->created_at = s.created_at;
	out->updated_at = s.updated_at;
	return 0;
}

/* What the serializer needs besides the rows: prepared before the response
 * starts, so a failure here still answers with the error envelope. */
static int views(struct req *r, const struct place *p, const struct comment *items, int n, enum comment_format fmt,
		 struct comment_view **out)
{
	struct comment_view *v = arena_alloc(&r->arena, sizeof(*v) * (size_t)(n ? n : 1));
	int rc;

	if (!v)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++) {
		memset(&v[i], 0, sizeof(v[i]));
		v[i].base = api_base(r);
		v[i].with_email = api_sees_emails(r);
		v[i].format = fmt;
		comment_permissions(&v[i].perms, p->space.access, is_author(r, &items[i]));
		if (items[i].target_page && !items[i].parent_id) {
			struct comment_page *pg = arena_alloc(&r->arena, sizeof(*pg));
			if (!pg)
				return err_set(ERR_INTERNAL, "out of memory");
			if ((rc = page_view(r, p, &items[i], pg)))
				return rc;
			v[i].page = pg;
		}
	}
	*out = v;
	return 0;
}

static void write_one(struct jw *g, const struct comment *c, const struct comment_view *v)
{
	if (c->parent_id)
		comment_reply_to_json(g, c, v);
	else
		comment_to_json(g, c, v);
}

/* Answer a list page of comments or replies. */
static int send_list(struct req *r, const struct place *p, struct comment *items, int n, const char *next,
		     enum comment_format fmt)
{
	struct comment_view *v;
	struct jw *g;
	int rc;

	if ((rc = store_comment_reactions(&r->tx, items, n)) || (rc = views(r, p, items, n, fmt, &v)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++)
		write_one(g, &items[i], &v[i]);
	return resp_list_end(r, n, next);
}

/* Answer one comment or reply, read again from the store (after a change). */
static int send_fresh(struct req *r, int status, const struct place *p, const char *parent_id, const char *id,
		      enum comment_format fmt)
{
	struct comment c;
	struct comment_view *v;
	struct jw *g;
	int rc;

	if ((rc = store_comment_get(&r->tx, &p->at, parent_id, id, &c)) || (rc = store_comment_reactions(&r->tx, &c, 1)) ||
	    (rc = views(r, p, &c, 1, fmt, &v)))
		return rc;
	if (!(g = resp_json(r, status)))
		return err_set(ERR_INTERNAL, "out of memory");
	write_one(g, &c, v);
	return 0;
}

/* ---- comments ---- */

int comment_list(struct req *r)
{
	static const char *const statuses[] = { "all", "open", "resolved", NULL };
	struct comment_filter f = { 0 };
	struct place p;
	struct list_req lr;
	struct cursor cur;
	enum comment_format fmt;
	struct comment *items;
	char *next;
	int status, n, rc;

	if ((rc = req_list(r, &lr, &cur, "order", 1)) || (rc = req_format(r, &fmt)) ||
	    (rc = req_query_enum(r, "status", statuses, &status)) || (rc = req_authors(r, &f)))
		return rc;
	f.status = status > 0 ? statuses[status] : NULL;
	f.target_page = req_query(r, "targetPage");
	if (f.target_page && !*f.target_page)
		f.target_page = NULL;
	if ((rc = load_place(r, ROLE_READ, &p)) || (rc = store_comments_list(&r->tx, &p.at, &f, &lr, &items, &n, &next)))
		return rc;
	return send_list(r, &p, items, n, next, fmt);
}

int comment_create(struct req *r)
{
	struct place p;
	struct comment c = { 0 };
	struct page_summary page;
	int rc;

	if ((rc = load_place(r, ROLE_COMMENT, &p)))
		return rc;
	if ((rc = body_markdown(r, true, &c.markdown)) < 0 ||
	    (rc = body_string(r, "node", 0, 1, TARGET_MAX, &c.target_node)) < 0 ||
	    (rc = body_string(r, "page", 0, 1, TARGET_MAX, &c.target_page)) < 0 ||
	    (rc = body_table_cell(r, &c.target_table_cell)) < 0)
		return rc;
	if (c.target_page) {
		rc = dom_page_summary(&r->dom, p.head, c.target_page, &page);
		if (rc == ERR_NOT_FOUND)
			return err_set(ERR_INVALID, "page: no such page '%s' in the %s content", c.target_page,
				       p.at.change_request_id ? "change request's" : "space's");
		if (rc)
			return rc;
	}
	c.posted_by.id = r->caller_id;
	c.revision = p.head;
	if ((rc = store_comment_create(&r->tx, &p.at, &c)))
		return rc;
	return send_fresh(r, 201, &p, NULL, c.id, COMMENT_MARKDOWN);
}

int comment_get(struct req *r)
{
	struct place p;
	struct comment c;
	enum comment_format fmt;
	int rc;

	if ((rc = req_format(r, &fmt)) || (rc = load_place(r, ROLE_READ, &p)) || (rc = load_comment(r, &p, &c)))
		return rc;
	return send_fresh(r, 200, &p, NULL, c.id, fmt);
}

/* The changes a PUT asks for on a comment or a reply; 403 when the caller may
 * not make one of them. */
static int apply_update(struct req *r, const struct place *p, const struct comment *c, const char *markdown,
			int resolved, const struct reacting *x)
{
	bool changed;
	int rc;

	if (markdown && !is_author(r, c))
		return err_set(ERR_FORBIDDEN, "only the author of a %s can edit its body",
			       c->parent_id ? "reply" : "comment");
	if (markdown && (rc = store_comment_set_body(&r->tx, c->id, markdown)))
		return rc;
	if (resolved >= 0 &&
	    (rc = store_comment_set_resolved(&r->tx, &p->at, c->id, resolved, r->caller_id, &changed)))
		return rc;
	return store_comment_react(&r->tx, c->id, r->caller_id, x->added, x->nadded, x->removed, x->nremoved);
}

int comment_update(struct req *r)
{
	struct place p;
	struct comment c;
	struct reacting x;
	const char *markdown;
	int resolved = -1, rc;

	if ((rc = load_place(r, ROLE_COMMENT, &p)) || (rc = load_comment(r, &p, &c)))
		return rc;
	if ((rc = body_bool(r, "resolved", 0, &resolved)) < 0 || (rc = body_markdown(r, false, &markdown)) < 0 ||
	    (rc = body_reactions(r, &x)) < 0 || (rc = apply_update(r, &p, &c, markdown, resolved, &x)))
		return rc;
	return send_fresh(r, 200, &p, NULL, c.id, COMMENT_MARKDOWN);
}

/* DELETE answers 204 whether it deleted or there was nothing to delete. */
int comment_delete(struct req *r)
{
	struct place p;
	struct comment c;
	struct comment_permissions perms;
	bool removed;
	int rc;

	if ((rc = load_place(r, ROLE_COMMENT, &p)))
		return rc;
	rc = load_comment(r, &p, &c);
	if (rc == ERR_NOT_FOUND)
		return resp_empty(r, 204);
	if (rc)
		return rc;
	comment_permissions(&perms, p.space.access, is_author(r, &c));
	if (!perms.del)
		return err_set(ERR_FORBIDDEN, "only the author of a comment or a space admin can delete it");
	if ((rc = store_comment_delete(&r->tx, &p.at, NULL, c.id, &removed)))
		return rc;
	return resp_empty(r, 204);
}

/* ---- replies ---- */

int reply_list(struct req *r)
{
	struct place p;
	struct comment parent, *items;
	struct list_req lr;
	struct cursor cur;
	enum comment_format fmt;
	char *next;
	int n, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = req_format(r, &fmt)) ||
	    (rc = load_place(r, ROLE_READ, &p)) || (rc = load_comment(r, &p, &parent)) ||
	    (rc = store_replies_list(&r->tx, parent.id, &lr, &items, &n, &next)))
		return rc;
	return send_list(r, &p, items, n, next, fmt);
}

int reply_create(struct req *r)
{
	struct place p;
	struct comment parent, c = { 0 };
	int rc;

	if ((rc = load_place(r, ROLE_COMMENT, &p)) || (rc = load_comment(r, &p, &parent)))
		return rc;
	if ((rc = body_markdown(r, true, &c.markdown)) < 0)
		return rc;
	c.parent_id = parent.id;
	c.posted_by.id = r->caller_id;
	c.revision = parent.revision;
	if ((rc = store_comment_create(&r->tx, &p.at, &c)))
		return rc;
	return send_fresh(r, 201, &p, parent.id, c.id, COMMENT_MARKDOWN);
}

int reply_get(struct req *r)
{
	struct place p;
	struct comment parent, c;
	enum comment_format fmt;
	int rc;

	if ((rc = req_format(r, &fmt)) || (rc = load_place(r, ROLE_READ, &p)) || (rc = load_reply(r, &p, &parent, &c)))
		return rc;
	return send_fresh(r, 200, &p, parent.id, c.id, fmt);
}

int reply_update(struct req *r)
{
	struct place p;
	struct comment parent, c;
	struct reacting x;
	const char *markdown;
	int resolved = -1, rc;

	if ((rc = load_place(r, ROLE_COMMENT, &p)) || (rc = load_reply(r, &p, &parent, &c)))
		return rc;
	/* A reply has no state. The space's operation (UpdateCommentReplySchema)
	 * has no `resolved`; the change request's (UpdateCommentSchema, and the
	 * seed) lists it, so there it is checked and has no effect. */
	if (body_field(r, "resolved") && !p.at.change_request_id)
		return err_set(ERR_INVALID, "resolved: a reply cannot be resolved; resolve its comment");
	if ((rc = body_bool(r, "resolved", 0, &resolved)) < 0 || (rc = body_markdown(r, false, &markdown)) < 0 ||
	    (rc = body_reactions(r, &x)) < 0 || (rc = apply_update(r, &p, &c, markdown, -1, &x)))
		return rc;
	return send_fresh(r, 200, &p, parent.id, c.id, COMMENT_MARKDOWN);
}

int reply_delete(struct req *r)
{
	struct place p;
	struct comment parent, c;
	struct comment_permissions perms;
	bool removed;
	int rc;

	if ((rc = load_place(r, ROLE_COMMENT, &p)))
		return rc;
	/* A reply whose comment is gone went with it. */
	if ((rc = load_reply(r, &p, &parent, &c)) == ERR_NOT_FOUND)
		return resp_empty(r, 204);
	if (rc)
		return rc;
	comment_permissions(&perms, p.space.access, is_author(r, &c));
	if (!perms.del)
		return err_set(ERR_FORBIDDEN, "only the author of a reply or a space admin can delete it");
	if ((rc = store_comment_delete(&r->tx, &p.at, parent.id, c.id, &removed)))
		return rc;
	return resp_empty(r, 204);
}

/* ---- commenters ---- */

int commenter_list(struct req *r)
{
	struct place p;
	struct list_req lr;
	struct cursor cur;
	struct member *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = load_place(r, ROLE_READ, &p)) ||
	    (rc = store_commenters_list(&r->tx, &p.at, &lr, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++)
		member_to_json(g, api_base(r), &items[i], api_sees_emails(r));
	return resp_list_end(r, n, next);
}
