/*
 * comments.c - comments, replies and commenters (domain/comments.h).
 *
 * Every operation loads its place once (the space with the actor's role, and
 * the change request when the route names one), which is the access check of
 * the operation; the rules on bodies, reactions and targets follow, then the
 * store. Results come back with their views (model/comment_view.h):
 * permissions from comment_permissions(), the same function the checks use.
 */
#include "domain/comments.h"
#include "json/jsonw.h"
#include "util/err.h"
#include "util/util.h"

#include <string.h>

/* What a comment's target.tableCell is stored as: {"record":..,"definition":..}
 * compact, in a. NULL only past the JSON writer's SIZE_MAX / 2 bytes. */
static const char *comment_table_cell_json(struct arena *a, const char *record, const char *definition)
{
	struct jw g;

	jw_init(&g);
	jw_obj_open(&g);
	jw_kstr(&g, "record", record);
	jw_kstr(&g, "definition", definition);
	jw_obj_close(&g);
	return jw_take(&g, a, NULL);
}

/* Where an operation's comments live, and the actor's role on the space. */
struct place {
	struct space space;
	struct change_request cr;
	struct comment_place at;
	const char *head; /* the revision new comments target: the space's or the change request's */
};

static int load_place(struct dom *d, const struct comment_at *at, enum role need, struct place *p)
{
	int rc;

	memset(p, 0, sizeof(*p));
	if ((rc = dom_space_get(d, at->space_id, need, &p->space)))
		return rc;
	if (need > ROLE_READ && p->space.deleted_at)
		return err_set(ERR_CONFLICT, "the space is deleted; restore it first");
	p->at.org_id = p->space.org_id;
	p->at.space_id = p->space.id;
	p->head = p->space.revision;
	if (at->cr_key) {
		if ((rc = dom_change_request_get(d, &p->space, at->cr_key, &p->cr)))
			return rc;
		p->at.change_request_id = p->cr.id;
		p->head = p->cr.revision;
	}
	return 0;
}

/* comment_id of the place, or (reply_id set) that reply of it; ERR_NOT_FOUND
 * when it is not there. */
static int load_comment(struct dom *d, const struct place *p, const char *comment_id, const char *reply_id,
			struct comment *parent, struct comment *c)
{
	int rc = store_comment_get(d->tx, &p->at, NULL, comment_id, reply_id ? parent : c);

	if (rc || !reply_id)
		return rc;
	return store_comment_get(d->tx, &p->at, parent->id, reply_id, c);
}

static bool is_author(const struct dom *d, const struct comment *c)
{
	return c->posted_by.id && d->actor.user_id && strcmp(c->posted_by.id, d->actor.user_id) == 0;
}

static void perms_of(const struct dom *d, const struct place *p, const struct comment *c,
		     struct comment_permissions *out)
{
	comment_permissions(out, p->space.access, is_author(d, c));
}

/* ---- the rules on input ---- */

static int check_markdown(const char *s)
{
	long n;

	if (!s)
		return err_set(ERR_INVALID, "body: is required");
	if ((n = utf8_len(s)) < 0)
		return err_set(ERR_INVALID, "body.markdown: must be valid text");
	if (n > COMMENT_MARKDOWN_MAX)
		return err_set(ERR_INVALID, "body.markdown: must be at most %d characters long", COMMENT_MARKDOWN_MAX);
	if (s[strspn(s, " \t\r\n")] == '\0')
		return err_set(ERR_INVALID, "body.markdown: must not be empty");
	return 0;
}

/* A node, page or table cell id: 1..COMMENT_TARGET_MAX characters. */
static int check_target(const char *field, const char *s)
{
	long n = utf8_len(s);

	if (n < 0)
		return err_set(ERR_INVALID, "%s: must be valid text", field);
	if (n < 1 || n > COMMENT_TARGET_MAX)
		return err_set(ERR_INVALID, "%s: must be 1 to %d characters long", field, COMMENT_TARGET_MAX);
	return 0;
}

/* Emojis, each 1..COMMENT_EMOJI_MAX characters without spaces or control
 * characters. */
static int check_emojis(const char *field, const char *const *e, int n)
{
	if (n > COMMENT_REACTIONS_MAX)
		return err_set(ERR_INVALID, "%s: at most %d items", field, COMMENT_REACTIONS_MAX);
	for (int i = 0; i < n; i++) {
		long len = utf8_len(e[i]);
		if (len < 1 || len > COMMENT_EMOJI_MAX)
			return err_set(ERR_INVALID, "%s[%d]: must be an emoji of 1 to %d characters", field, i,
				       COMMENT_EMOJI_MAX);
		for (const unsigned char *s = (const unsigned char *)e[i]; *s; s++)
			if (*s <= ' ' || *s == 0x7f)
				return err_set(ERR_INVALID, "%s[%d]: must be an emoji, without spaces or control characters",
					       field, i);
	}
	return 0;
}

static int check_edit(const struct comment_edit *e)
{
	int rc;

	if ((e->markdown && (rc = check_markdown(e->markdown))) ||
	    (rc = check_emojis("addedReactions", e->added, e->nadded)) ||
	    (rc = check_emojis("removedReactions", e->removed, e->nremoved)))
		return rc;
	for (int i = 0; i < e->nadded; i++)
		for (int j = 0; j < e->nremoved; j++)
			if (strcmp(e->added[i], e->removed[j]) == 0)
				return err_set(ERR_INVALID, "removedReactions[%d]: '%s' is also in addedReactions", j,
					       e->removed[j]);
	return 0;
}

/* tableCell {record, definition}: *out is what the store keeps (compact JSON),
 * NULL when the comment has none. */
static int table_cell(struct dom *d, const struct comment_new *in, const char **out)
{
	const char *field[2] = { "tableCell.record", "tableCell.definition" };
	const char *value[2] = { in->cell_record, in->cell_definition };
	int rc;

	*out = NULL;
	if (!value[0] && !value[1])
		return 0;
	for (int i = 0; i < 2; i++) {
		if (!value[i])
			return err_set(ERR_INVALID, "%s: is required", field[i]);
		if ((rc = check_target(field[i], value[i])))
			return rc;
	}
	if (!(*out = comment_table_cell_json(d->arena, value[0], value[1])))
		return err_set(ERR_INTERNAL, "out of memory");
	return 0;
}

/* ---- results ---- */

/* target.page: the page as the place's current content shows it, else as the
 * revision the comment was posted on shows it (outdated), else only its id. */
static int page_view(struct dom *d, const struct place *p, const struct comment *c, struct comment_page *out)
{
	int rc = dom_page_summary(d, p->head, c->target_page, out);

	if (rc == ERR_NOT_FOUND && (rc = dom_page_summary(d, c->revision, c->target_page, out)) == 0)
		out->outdated = true;
	if (rc == ERR_NOT_FOUND) {
		/* Gone from both: only its id. */
		memset(out, 0, sizeof(*out));
		out->title = "Untitled";
		out->path = "";
		rc = 0;
	}
	out->id = c->target_page;
	return rc;
}

/* rows[0..n) with their reactions and views, into *out (d->arena). */
static int results(struct dom *d, const struct place *p, struct comment *rows, int n, enum comment_format fmt,
		   struct dom_comment **out)
{
	struct dom_comment *v;
	int rc;

	if ((rc = store_comment_reactions(d->tx, rows, n)))
		return rc;
	v = arena_alloc(d->arena, sizeof(*v) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		memset(&v[i], 0, sizeof(v[i]));
		v[i].c = rows[i];
		v[i].view.base = dom_base_url(d);
		v[i].view.with_email = d->actor.org.role >= ROLE_READ;
		v[i].view.format = fmt;
		perms_of(d, p, &rows[i], &v[i].view.perms);
		if (rows[i].target_page && !rows[i].parent_id) {
			struct comment_page *pg = arena_alloc(d->arena, sizeof(*pg));
			if ((rc = page_view(d, p, &rows[i], pg)))
				return rc;
			v[i].view.page = pg;
		}
	}
	*out = v;
	return 0;
}

/* One comment or reply read again from the store (after a change). */
static int fresh(struct dom *d, const struct place *p, const char *parent_id, const char *id, enum comment_format fmt,
		 struct dom_comment *out)
{
	struct comment c;
	struct dom_comment *v;
	int rc;

	if ((rc = store_comment_get(d->tx, &p->at, parent_id, id, &c)) || (rc = results(d, p, &c, 1, fmt, &v)))
		return rc;
	*out = *v;
	return 0;
}

/* ---- operations ---- */

int dom_comments_list(struct dom *d, const struct comment_at *at, const struct comment_filter *f,
		      const struct list_req *lr, enum comment_format fmt, struct dom_comment **items, int *n,
		      char **next)
{
	struct place p;
	struct comment *rows;
	int rc;

	if ((rc = load_place(d, at, ROLE_READ, &p)) ||
	    (rc = store_comments_list(d->tx, &p.at, f, lr, &rows, n, next)))
		return rc;
	return results(d, &p, rows, *n, fmt, items);
}

int dom_replies_list(struct dom *d, const struct comment_at *at, const char *comment_id, const struct list_req *lr,
		     enum comment_format fmt, struct dom_comment **items, int *n, char **next)
{
	struct place p;
	struct comment parent, *rows;
	int rc;

	if ((rc = load_place(d, at, ROLE_READ, &p)) || (rc = load_comment(d, &p, comment_id, NULL, NULL, &parent)) ||
	    (rc = store_replies_list(d->tx, parent.id, lr, &rows, n, next)))
		return rc;
	return results(d, &p, rows, *n, fmt, items);
}

int dom_comment_get(struct dom *d, const struct comment_at *at, const char *comment_id, const char *reply_id,
		    enum comment_format fmt, struct dom_comment *out)
{
	struct place p;
	struct comment parent, c;
	struct dom_comment *v;
	int rc;

	if ((rc = load_place(d, at, ROLE_READ, &p)) || (rc = load_comment(d, &p, comment_id, reply_id, &parent, &c)) ||
	    (rc = results(d, &p, &c, 1, fmt, &v)))
		return rc;
	*out = *v;
	return 0;
}

int dom_comment_post(struct dom *d, const struct comment_at *at, const struct comment_new *in, struct dom_comment *out)
{
	struct place p;
	struct comment c = { 0 };
	struct comment_page page;
	int rc;

	if ((rc = load_place(d, at, ROLE_COMMENT, &p)))
		return rc;
	if (!d->actor.user_id)
		return err_set(ERR_INVALID, "a comment needs an author: docsd itself cannot post one");
	if ((rc = check_markdown(in->markdown)) || (in->node && (rc = check_target("node", in->node))) ||
	    (in->page && (rc = check_target("page", in->page))) || (rc = table_cell(d, in, &c.target_table_cell)))
		return rc;
	if (in->page) {
		rc = dom_page_summary(d, p.head, in->page, &page);
		if (rc == ERR_NOT_FOUND)
			return err_set(ERR_INVALID, "page: no such page '%s' in the %s content", in->page,
				       p.at.change_request_id ? "change request's" : "space's");
		if (rc)
			return rc;
	}
	c.markdown = in->markdown;
	c.target_node = in->node;
	c.target_page = in->page;
	c.posted_by.id = d->actor.user_id;
	c.revision = p.head;
	if ((rc = store_comment_create(d->tx, &p.at, &c)))
		return rc;
	return fresh(d, &p, NULL, c.id, COMMENT_MARKDOWN, out);
}

int dom_reply_post(struct dom *d, const struct comment_at *at, const char *comment_id, const char *markdown,
		   struct dom_comment *out)
{
	struct place p;
	struct comment parent, c = { 0 };
	int rc;

	if ((rc = load_place(d, at, ROLE_COMMENT, &p)) || (rc = load_comment(d, &p, comment_id, NULL, NULL, &parent)))
		return rc;
	if (!d->actor.user_id)
		return err_set(ERR_INVALID, "a reply needs an author: docsd itself cannot post one");
	if ((rc = check_markdown(markdown)))
		return rc;
	c.markdown = markdown;
	c.parent_id = parent.id;
	c.posted_by.id = d->actor.user_id;
	c.revision = parent.revision;
	if ((rc = store_comment_create(d->tx, &p.at, &c)))
		return rc;
	return fresh(d, &p, parent.id, c.id, COMMENT_MARKDOWN, out);
}

int dom_comment_update(struct dom *d, const struct comment_at *at, const char *comment_id, const char *reply_id,
		       const struct comment_edit *e, struct dom_comment *out)
{
	struct place p;
	struct comment parent, c;
	struct comment_permissions perms;
	const char *what = reply_id ? "reply" : "comment";
	bool changed;
	int rc;

	if ((rc = load_place(d, at, ROLE_COMMENT, &p)) || (rc = load_comment(d, &p, comment_id, reply_id, &parent, &c)))
		return rc;
	/* The space's reply operation (UpdateCommentReplySchema) has no
	 * `resolved`; the change request's (UpdateCommentSchema, and the seed)
	 * lists it, so there it is checked and has no effect. */
	if (reply_id && e->resolved >= 0 && !p.at.change_request_id)
		return err_set(ERR_INVALID, "resolved: a reply cannot be resolved; resolve its comment");
	if ((rc = check_edit(e)))
		return rc;
	perms_of(d, &p, &c, &perms);
	if (e->markdown && !perms.edit)
		return err_set(ERR_FORBIDDEN, "only the author of a %s can edit its body", what);
	if ((e->nadded || e->nremoved) && !d->actor.user_id)
		return err_set(ERR_INVALID, "a reaction needs a user: docsd itself cannot react");
	if (e->markdown && (rc = store_comment_set_body(d->tx, c.id, e->markdown)))
		return rc;
	if (!reply_id && e->resolved >= 0 &&
	    (rc = store_comment_set_resolved(d->tx, &p.at, c.id, e->resolved, d->actor.user_id, &changed)))
		return rc;
	if ((e->nadded || e->nremoved) &&
	    (rc = store_comment_react(d->tx, c.id, d->actor.user_id, e->added, e->nadded, e->removed, e->nremoved)))
		return rc;
	return fresh(d, &p, reply_id ? parent.id : NULL, c.id, COMMENT_MARKDOWN, out);
}

int dom_comment_delete(struct dom *d, const struct comment_at *at, const char *comment_id, const char *reply_id,
		       bool *removed)
{
	struct place p;
	struct comment parent, c;
	struct comment_permissions perms;
	bool gone = false;
	int rc;

	if (removed)
		*removed = false;
	if ((rc = load_place(d, at, ROLE_COMMENT, &p)))
		return rc;
	/* Not there (a reply whose comment went with it too): nothing to do. */
	if ((rc = load_comment(d, &p, comment_id, reply_id, &parent, &c)) == ERR_NOT_FOUND)
		return 0;
	if (rc)
		return rc;
	perms_of(d, &p, &c, &perms);
	if (!perms.del)
		return err_set(ERR_FORBIDDEN, "only the author of a %s or someone with the create role on the space can delete it",
			       reply_id ? "reply" : "comment");
	if ((rc = store_comment_delete(d->tx, &p.at, reply_id ? parent.id : NULL, c.id, &gone)))
		return rc;
	if (removed)
		*removed = gone;
	return 0;
}

int dom_commenters_list(struct dom *d, const struct comment_at *at, const struct list_req *lr,
			struct member **items, int *n, char **next)
{
	struct place p;
	int rc = load_place(d, at, ROLE_READ, &p);

	return rc ? rc : store_commenters_list(d->tx, &p.at, lr, items, n, next);
}
