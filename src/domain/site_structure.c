/*
 * site_structure.c - a site's sections, section groups and site spaces
 * (domain/sites.h, "structure").
 *
 * DESIGN
 * Every operation takes the organization and site ids and checks the
 * actor's role once, first (open_view: dom_site_get, which puts the role
 * before the site's existence; read for reads, create for writes). Writers
 * get the site's row locked until the transaction ends, so the whole
 * structure read below (store_site_structure) stays what this transaction
 * sees until it commits; rules are checked against it, changed rows are
 * written back, and the site's generation is bumped (store_site_bump), all
 * in the caller's one transaction. Every operation on one item answers with
 * the structure as it now shows and the item in it (result()).
 *
 * Sections, section groups and site spaces are "items" of one structure:
 * finding one (slot_find), deleting one, moving one among its siblings
 * (place) and answering with one are written once, by kind; what differs
 * by kind (a section's default and site spaces, a group's sections) is in
 * the kind's own branch.
 *
 * Invariants kept here (and tested in tests/unit/test_domain_site_structure.c):
 *  1. a site with sections has exactly one default section, and no site
 *     space at its root;
 *  2. the site spaces of a section (or of the root) that has any have
 *     exactly one default;
 *  3. deleting a default promotes the first remaining sibling in display
 *     order;
 *  4. paths are unique among siblings (sections in their site, site spaces in
 *     their section or the root): a new item's path is a slug of its title
 *     made unique with "-2", "-3" ...; a path set by PATCH that a sibling
 *     holds is a 409;
 *  5. positions order siblings; an item added goes after the last
 *     (max(position) + 1); a move renumbers the siblings 0..n-1.
 *
 * Deleting a section deletes its site spaces (they belong to it). Deleting
 * the last section leaves the site with no sections and no site spaces: an
 * empty site, like a new one, whose next space goes to the root. (Moving the
 * last section's site spaces back to the root was the alternative; it would
 * make the last deletion behave unlike every other one.)
 *
 * The first section of a site takes the site spaces of the root (a site
 * with sections has none there): they keep their order, and the space the
 * section is created with becomes its first site space and its default.
 */
#include "domain/sites.h"

#include "model/condition.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

#define PATH_MAX_LEN 100
/* At most this many siblings: sections and groups of a site, site spaces of
 * a section or of the root (a bound on the arrays moves build on the stack). */
#define MAX_SIBLINGS 1000

/* GitBook's type of each kind, indexed by enum site_item_kind; NULL-ended,
 * it is also the list of every target type sortSiteStructure takes. */
static const char *const kind_type[] = { "site-space", "site-section", "site-section-group", NULL };
/* The same for messages. */
static const char *const kind_noun[] = { "site space", "site section", "site section group" };

int dom_site_item_kind(const char *type)
{
	for (int i = 0; type && kind_type[i]; i++)
		if (strcmp(type, kind_type[i]) == 0)
			return i;
	return -1;
}

/* ---- reading ---- */

static int load(struct dom *d, const struct site *s, struct site_structure *st)
{
	return store_site_structure(d->tx, s->id, st);
}

static struct site_section *find_section(const struct site_structure *st, const char *id)
{
	for (int i = 0; id && i < st->nsections; i++)
		if (strcmp(st->sections[i].id, id) == 0)
			return &st->sections[i];
	return NULL;
}

static struct site_section_group *find_group(const struct site_structure *st, const char *id)
{
	for (int i = 0; id && i < st->ngroups; i++)
		if (strcmp(st->groups[i].id, id) == 0)
			return &st->groups[i];
	return NULL;
}

/* A site space by id, with its section (NULL at the root). */
static struct site_space *find_site_space(const struct site_structure *st, const char *id, struct site_section **sec)
{
	*sec = NULL;
	for (int i = 0; id && i < st->nroot; i++)
		if (strcmp(st->root[i].id, id) == 0)
			return &st->root[i];
	for (int j = 0; id && j < st->nsections; j++)
		for (int i = 0; i < st->sections[j].nspaces; i++)
			if (strcmp(st->sections[j].spaces[i].id, id) == 0) {
				*sec = &st->sections[j];
				return &st->sections[j].spaces[i];
			}
	return NULL;
}

static struct site_section *default_section(const struct site_structure *st)
{
	for (int i = 0; i < st->nsections; i++)
		if (st->sections[i].is_default)
			return &st->sections[i];
	return NULL;
}

int dom_site_structure(struct dom *d, const struct site *s, struct site_structure *out)
{
	int rc = load(d, s, out);

	if (rc)
		return rc;
	/* Leave out site spaces of deleted spaces; the rest get the actor's
	 * role on their space (the Space object's permissions). */
	for (int j = -1; j < out->nsections; j++) {
		struct site_space *arr = j < 0 ? out->root : out->sections[j].spaces;
		int *n = j < 0 ? &out->nroot : &out->sections[j].nspaces, k = 0;

		for (int i = 0; i < *n; i++) {
			if (arr[i].space.deleted_at)
				continue;
			if ((rc = dom_space_role(d, &arr[i].space, &arr[i].space.access)))
				return rc;
			arr[k++] = arr[i];
		}
		*n = k;
	}
	return 0;
}

/* The key whose URLs a read shows (share_key from the request, NULL when
 * none): an active share link of s is required (else ERR_NOT_FOUND); *out is
 * the key when s is a share-link site, else NULL. */
static int share_key_check(struct dom *d, const struct site *s, const char *share_key, const char **out)
{
	struct site_share_link l;
	int rc;

	*out = NULL;
	if (!share_key)
		return 0;
	if ((rc = store_site_share_link_by_key(d->tx, s->id, share_key, &l)))
		return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "shareKey: no active share link has this key") : rc;
	if (strcmp(s->visibility, "share-link") == 0)
		*out = l.key;
	return 0;
}

/* ---- paths ---- */

/* A path is 1..100 of [A-Za-z0-9._~-], not "." or "..", not starting with
 * '~' (the published site's own paths: /~share, /~gitbook). */
static int path_check(const char *field, const char *p)
{
	size_t n = strlen(p);

	if (n < 1 || n > PATH_MAX_LEN)
		return err_set(ERR_INVALID, "%s: must be 1 to %d characters", field, PATH_MAX_LEN);
	if (strcmp(p, ".") == 0 || strcmp(p, "..") == 0 || p[0] == '~')
		return err_set(ERR_INVALID, "%s: '%s' is not allowed", field, p);
	for (size_t i = 0; i < n; i++) {
		char c = p[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
		      c == '_' || c == '.' || c == '~'))
			return err_set(ERR_INVALID, "%s: only letters, digits, '-', '_', '.' and '~' are allowed", field);
	}
	return 0;
}

/* A set of sibling paths a new path must differ from. */
struct paths {
	const char *p[MAX_SIBLINGS + 1];
	int n;
};

static bool paths_has(const struct paths *ps, const char *p)
{
	for (int i = 0; i < ps->n; i++)
		if (strcmp(ps->p[i], p) == 0)
			return true;
	return false;
}

static void paths_add(struct paths *ps, const char *p)
{
	if (ps->n < (int)(sizeof(ps->p) / sizeof(ps->p[0])))
		ps->p[ps->n++] = p;
}

/* A slug of title (lower-case letters and digits, other runs become one
 * '-'), "fallback" when nothing is left, made unique among ps with -2, -3... */
static int slug_unique(struct dom *d, const char *title, const char *fallback, const struct paths *ps,
		       const char **out)
{
	char base[PATH_MAX_LEN - 8], cand[PATH_MAX_LEN + 16];
	size_t n = 0;

	for (const char *c = title ? title : ""; *c && n < sizeof(base) - 1; c++) {
		char ch = *c;

		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
			base[n++] = ch;
		else if (n > 0 && base[n - 1] != '-')
			base[n++] = '-';
	}
	while (n > 0 && base[n - 1] == '-')
		n--;
	base[n] = 0;
	if (n == 0)
		snprintf(base, sizeof(base), "%s", fallback);
	snprintf(cand, sizeof(cand), "%s", base);
	for (int i = 2; paths_has(ps, cand); i++)
		snprintf(cand, sizeof(cand), "%s-%d", base, i);
	*out = arena_strdup(d->arena, cand);
	return 0;
}

static void section_paths(const struct site_structure *st, const struct site_section *except, struct paths *ps)
{
	ps->n = 0;
	for (int i = 0; i < st->nsections; i++)
		if (&st->sections[i] != except)
			paths_add(ps, st->sections[i].path);
}

/* Paths of the site spaces of sec (NULL: the root), deleted spaces included
 * (their rows still hold their paths). */
static void space_paths(const struct site_structure *st, const struct site_section *sec,
			const struct site_space *except, struct paths *ps)
{
	const struct site_space *arr = sec ? sec->spaces : st->root;
	int n = sec ? sec->nspaces : st->nroot;

	ps->n = 0;
	for (int i = 0; i < n; i++)
		if (&arr[i] != except)
			paths_add(ps, arr[i].path);
}

/* ---- positions ---- */

static int64_t next_top_position(const struct site_structure *st)
{
	int64_t max = -1;

	for (int i = 0; i < st->ngroups; i++)
		if (st->groups[i].position > max)
			max = st->groups[i].position;
	for (int i = 0; i < st->nsections; i++)
		if (!st->sections[i].group_id && st->sections[i].position > max)
			max = st->sections[i].position;
	return max + 1;
}

static int64_t next_group_position(const struct site_structure *st, const char *group_id)
{
	int64_t max = -1;

	for (int i = 0; i < st->nsections; i++)
		if (st->sections[i].group_id && strcmp(st->sections[i].group_id, group_id) == 0 &&
		    st->sections[i].position > max)
			max = st->sections[i].position;
	return max + 1;
}

static int64_t next_space_position(const struct site_structure *st, const struct site_section *sec)
{
	const struct site_space *arr = sec ? sec->spaces : st->root;
	int n = sec ? sec->nspaces : st->nroot;
	int64_t max = -1;

	for (int i = 0; i < n; i++)
		if (arr[i].position > max)
			max = arr[i].position;
	return max + 1;
}

/* One item being changed or reordered: a group, a section or a site space
 * (p), with, for a site space, its section (sec; NULL at the root). */
struct slot {
	enum site_item_kind kind;
	void *p;
	struct site_section *sec;
};

static const char *slot_id(const struct slot *x)
{
	switch (x->kind) {
	case SITE_ITEM_GROUP:
		return ((struct site_section_group *)x->p)->id;
	case SITE_ITEM_SECTION:
		return ((struct site_section *)x->p)->id;
	default:
		return ((struct site_space *)x->p)->id;
	}
}

static int64_t *slot_pos(const struct slot *x)
{
	switch (x->kind) {
	case SITE_ITEM_GROUP:
		return &((struct site_section_group *)x->p)->position;
	case SITE_ITEM_SECTION:
		return &((struct site_section *)x->p)->position;
	default:
		return &((struct site_space *)x->p)->position;
	}
}

static int slot_write(struct dom *d, const struct slot *x)
{
	switch (x->kind) {
	case SITE_ITEM_GROUP:
		return store_site_group_update(d->tx, x->p);
	case SITE_ITEM_SECTION:
		return store_site_section_update(d->tx, x->p);
	default:
		return store_site_space_update(d->tx, x->p);
	}
}

/* The siblings at the site's top level (groups and ungrouped sections), of a
 * group (its sections), or of a section or the root (site spaces), in order.
 * *n: how many were written into out (at most max). */
static void top_slots(const struct site_structure *st, struct slot *out, int max, int *n)
{
	enum site_top t;
	int gi = 0, si = 0;

	*n = 0;
	while (*n < max && (t = site_top_next(st, &gi, &si)) != SITE_TOP_END)
		out[(*n)++] = t == SITE_TOP_GROUP ? (struct slot){ SITE_ITEM_GROUP, &st->groups[gi - 1], NULL }
						  : (struct slot){ SITE_ITEM_SECTION, &st->sections[si - 1], NULL };
}

static void group_slots(const struct site_structure *st, const char *group_id, struct slot *out, int max, int *n)
{
	*n = 0;
	for (int i = 0; i < st->nsections && *n < max; i++)
		if (st->sections[i].group_id && strcmp(st->sections[i].group_id, group_id) == 0)
			out[(*n)++] = (struct slot){ SITE_ITEM_SECTION, &st->sections[i], NULL };
}

static void space_slots(const struct site_structure *st, struct site_section *sec, struct slot *out, int max, int *n)
{
	struct site_space *arr = sec ? sec->spaces : st->root;
	int cnt = sec ? sec->nspaces : st->nroot;

	*n = 0;
	for (int i = 0; i < cnt && *n < max; i++)
		out[(*n)++] = (struct slot){ SITE_ITEM_SPACE, &arr[i], sec };
}

/* Put item among sib (which may contain it) before/after target_id (NULL:
 * at the end), renumber the siblings 0..n-1 and write those that changed;
 * the item is always written (its parent may have changed). ERR_INVALID
 * naming `field` when target_id is not among the siblings. */
static int place(struct dom *d, const struct slot *sib, int n, struct slot item, const char *target_id, bool after,
		 const char *field)
{
	struct slot order[MAX_SIBLINGS + 1];
	int k = 0, at = -1, rc;

	for (int i = 0; i < n; i++)
		if (sib[i].p != item.p)
			order[k++] = sib[i];
	if (target_id) {
		for (int i = 0; i < k && at < 0; i++)
			if (strcmp(slot_id(&order[i]), target_id) == 0)
				at = after ? i + 1 : i;
		if (at < 0)
			return err_set(ERR_INVALID, "%s: '%s' is not a sibling of '%s' in this site", field, target_id,
				       slot_id(&item));
	} else {
		at = k;
	}
	memmove(&order[at + 1], &order[at], sizeof(order[0]) * (size_t)(k - at));
	order[at] = item;
	k++;
	for (int i = 0; i < k; i++) {
		int64_t *pos = slot_pos(&order[i]);

		if (*pos == i && order[i].p != item.p)
			continue;
		*pos = i;
		if ((rc = slot_write(d, &order[i])))
			return rc;
	}
	return 0;
}

/* The one target of a position of the given type ("site-section" ...). */
static int position_target(const struct site_position *pos, const char *const *types, const char **target,
			   const char **type, bool *after)
{
	*target = NULL;
	*type = NULL;
	*after = false;
	if (pos->before && pos->after)
		return err_set(ERR_INVALID, "position: give before or after, not both");
	if (pos->before) {
		*target = pos->before;
		*type = pos->before_type;
	} else if (pos->after) {
		*target = pos->after;
		*type = pos->after_type;
		*after = true;
	}
	if (*target && types) {
		for (int i = 0; types[i]; i++)
			if (*type && strcmp(*type, types[i]) == 0)
				return 0;
		return err_set(ERR_INVALID, "position: type '%s' is not allowed here", *type ? *type : "");
	}
	return 0;
}


/* ---- one item: the access check, finding it, the answer ---- */

/* The one access check of an operation: v->site with the actor's role at
 * least need, its row locked until the transaction ends when need is a
 * writer's (create). Role before existence: see dom_site_get. */
static int open_view(struct dom *d, const char *org_id, const char *site_id, enum role need, struct site_answer *v)
{
	memset(v, 0, sizeof(*v));
	return dom_site_get(d, org_id, site_id, need, need > ROLE_READ, &v->site);
}

/* Item (kind, id) of st: ERR_NOT_FOUND naming the kind when there is none. */
static int slot_find(const struct site_structure *st, enum site_item_kind kind, const char *id, struct slot *out)
{
	out->kind = kind;
	out->sec = NULL;
	switch (kind) {
	case SITE_ITEM_GROUP:
		out->p = find_group(st, id);
		break;
	case SITE_ITEM_SECTION:
		out->p = find_section(st, id);
		break;
	default:
		out->p = find_site_space(st, id, &out->sec);
	}
	return out->p ? 0 : err_set(ERR_NOT_FOUND, "%s not found", kind_noun[kind]);
}

/* A writer's structure as stored (site spaces of deleted spaces included:
 * their rows still hold paths and positions) and item (kind, id) in it. */
static int load_item(struct dom *d, const struct site_answer *v, struct site_structure *st, enum site_item_kind kind,
		     const char *id, struct slot *out)
{
	int rc = load(d, &v->site, st);

	return rc ? rc : slot_find(st, kind, id, out);
}

/* The public view of a found item. */
static struct site_item item_of(const struct slot *x)
{
	struct site_item it = { .kind = x->kind };

	if (x->kind == SITE_ITEM_GROUP)
		it.group = x->p;
	else if (x->kind == SITE_ITEM_SECTION)
		it.section = x->p;
	else {
		it.space = x->p;
		it.section = x->sec;
	}
	return it;
}

/* The answer of an operation on one item: the structure as it now shows,
 * and the item in it (ERR_NOT_FOUND when it is not shown: a site space of a
 * deleted space). */
static int result(struct dom *d, struct site_answer *v, enum site_item_kind kind, const char *id)
{
	struct slot x;
	int rc;

	if ((rc = dom_site_structure(d, &v->site, &v->st)) || (rc = slot_find(&v->st, kind, id, &x)))
		return rc;
	v->item = item_of(&x);
	return 0;
}

/* The end of a write: the site's generation (the renderer's cache sees the
 * change), then the answer. */
static int written(struct dom *d, struct site_answer *v, enum site_item_kind kind, const char *id)
{
	int rc = store_site_bump(d->tx, v->site.id);

	return rc ? rc : result(d, v, kind, id);
}

/* Room for one more section or group at the site's top level. */
static int top_room(const struct site_structure *st)
{
	if (st->nsections + st->ngroups >= MAX_SIBLINGS)
		return err_set(ERR_INVALID, "a site holds at most %d sections and groups", MAX_SIBLINGS);
	return 0;
}

/* ---- reads ---- */

int dom_site_structure_get(struct dom *d, const char *org_id, const char *site_id, const char *share_key,
			   struct site_answer *out)
{
	int rc;

	if ((rc = open_view(d, org_id, site_id, ROLE_READ, out)) ||
	    (rc = share_key_check(d, &out->site, share_key, &out->share_key)))
		return rc;
	return dom_site_structure(d, &out->site, &out->st);
}

int dom_site_items_list(struct dom *d, const char *org_id, const char *site_id, enum site_item_kind kind,
			const char *share_key, int want_default, struct site_answer *out, struct site_item **items,
			int *n)
{
	const struct site_structure *st = &out->st;
	size_t max;
	int rc;

	*items = NULL;
	*n = 0;
	if ((rc = dom_site_structure_get(d, org_id, site_id, share_key, out)))
		return rc;
	max = (size_t)st->nroot + (size_t)st->nsections + (size_t)st->ngroups + 1;
	for (int j = 0; j < st->nsections; j++)
		max += (size_t)st->sections[j].nspaces;
	*items = arena_alloc(d->arena, sizeof(**items) * max);
	for (int i = 0; kind == SITE_ITEM_GROUP && i < st->ngroups; i++)
		(*items)[(*n)++] = (struct site_item){ .kind = kind, .group = &st->groups[i] };
	for (int i = 0; kind == SITE_ITEM_SECTION && i < st->nsections; i++)
		(*items)[(*n)++] = (struct site_item){ .kind = kind, .section = &st->sections[i] };
	for (int j = -1; kind == SITE_ITEM_SPACE && j < st->nsections; j++) {
		const struct site_section *sec = j < 0 ? NULL : &st->sections[j];
		const struct site_space *arr = sec ? sec->spaces : st->root;
		int cnt = sec ? sec->nspaces : st->nroot;

		for (int i = 0; i < cnt; i++) {
			/* The site's default site space: the root's default, or
			 * the default section's. */
			int site_default = arr[i].is_default && (!sec || sec->is_default);

			if (want_default < 0 || site_default == want_default)
				(*items)[(*n)++] = (struct site_item){ .kind = kind, .section = sec, .space = &arr[i] };
		}
	}
	return 0;
}

/* ---- site spaces ---- */

/* The space a site space shows: of the site's organization, live, readable. */
static int space_for_site(struct dom *d, const struct site *s, const char *space_id, struct space *out)
{
	int rc = dom_space_get(d, space_id, ROLE_READ, out);

	if (rc)
		return rc;
	if (strcmp(out->org_id, s->org_id) != 0 || out->deleted_at)
		return err_set(ERR_NOT_FOUND, "space not found");
	return 0;
}

/* Insert a site space of sp into sec (NULL: the root) of st. */
static int insert_site_space(struct dom *d, const struct site *s, const struct site_structure *st,
			     const struct site_section *sec, const struct space *sp, bool make_default,
			     int64_t position, struct site_space *out)
{
	const struct site_space *arr = sec ? sec->spaces : st->root;
	int n = sec ? sec->nspaces : st->nroot, has_default = 0, rc;
	struct paths ps;

	if (n >= MAX_SIBLINGS)
		return err_set(ERR_INVALID, "a section (or a site's root) holds at most %d site spaces", MAX_SIBLINGS);
	for (int i = 0; i < n; i++)
		has_default |= arr[i].is_default;
	memset(out, 0, sizeof(*out));
	out->site_id = s->id;
	out->section_id = sec ? sec->id : NULL;
	out->space_id = sp->id;
	out->is_default = make_default || !has_default;
	out->position = position;
	space_paths(st, sec, NULL, &ps);
	if ((rc = slug_unique(d, sp->title, "space", &ps, &out->path)) ||
	    (rc = store_site_space_insert(d->tx, out)))
		return rc;
	if (out->is_default && has_default && (rc = store_site_space_set_default(d->tx, s->id, out->section_id, out->id)))
		return rc;
	out->space = *sp;
	return dom_space_role(d, &out->space, &out->space.access);
}

int dom_site_space_add(struct dom *d, const struct site *s, const char *space_id, const char *section_id,
		       struct site_space *out)
{
	struct site_structure st;
	struct site_section *sec = NULL;
	struct space sp;
	int rc;

	if ((rc = space_for_site(d, s, space_id, &sp)) || (rc = load(d, s, &st)))
		return rc;
	if (section_id && !(sec = find_section(&st, section_id)))
		return err_set(ERR_INVALID, "sectionId: '%s' is not a section of this site", section_id);
	if (!sec && st.nsections > 0)
		sec = default_section(&st);
	if ((rc = insert_site_space(d, s, &st, sec, &sp, false, next_space_position(&st, sec), out)))
		return rc;
	return store_site_bump(d->tx, s->id);
}

int dom_site_space_create(struct dom *d, const char *org_id, const char *site_id, const char *space_id,
			  const char *section_id, struct site_answer *out)
{
	struct site_space ss;
	int rc;

	if ((rc = open_view(d, org_id, site_id, ROLE_CREATE, out)) ||
	    (rc = dom_site_space_add(d, &out->site, space_id, section_id, &ss)))
		return rc;
	return result(d, out, SITE_ITEM_SPACE, ss.id);
}

int dom_site_default_set(struct dom *d, const struct site *s, const char *section_id, const char *site_space_id)
{
	struct site_structure st;
	struct site_section *sec = NULL, *target = NULL;
	struct site_space *ss = NULL;
	int rc;

	if ((rc = load(d, s, &st)))
		return rc;
	if (section_id) {
		if (!(target = find_section(&st, section_id)))
			return err_set(ERR_INVALID, "defaultSiteSection: '%s' is not a section of this site", section_id);
		if ((rc = store_site_section_set_default(d->tx, s->id, section_id)))
			return rc;
		for (int i = 0; i < st.nsections; i++)
			st.sections[i].is_default = &st.sections[i] == target;
	}
	if (site_space_id) {
		if (!(ss = find_site_space(&st, site_space_id, &sec)) || sec != default_section(&st))
			return err_set(ERR_INVALID, "defaultSiteSpace: '%s' is not a site space of %s", site_space_id,
				       st.nsections ? "the default section" : "this site's root");
		if ((rc = store_site_space_set_default(d->tx, s->id, ss->section_id, ss->id)))
			return rc;
	}
	return store_site_bump(d->tx, s->id);
}

/* ---- sections ---- */

int dom_site_section_create(struct dom *d, const char *org_id, const char *site_id,
			    const struct site_section_input *in, struct site_answer *out)
{
	const struct site *s = &out->site;
	struct site_structure st;
	struct site_section sec;
	struct site_space ss;
	struct space sp;
	struct paths ps;
	int64_t first = 0;
	int rc;

	if ((rc = open_view(d, org_id, site_id, ROLE_CREATE, out)) || (rc = space_for_site(d, s, in->space_id, &sp)) ||
	    (rc = load(d, s, &st)) || (rc = top_room(&st)))
		return rc;
	memset(&sec, 0, sizeof(sec));
	sec.site_id = s->id;
	sec.title = in->title ? in->title : sp.title;
	sec.icon = in->icon;
	sec.is_default = st.nsections == 0;
	sec.position = next_top_position(&st);
	section_paths(&st, NULL, &ps);
	if ((rc = slug_unique(d, sec.title, "section", &ps, &sec.path)) || (rc = store_site_section_insert(d->tx, &sec)))
		return rc;
	/* The first section takes the root's site spaces; the new space goes
	 * first and is the section's default. */
	if (st.nsections == 0 && st.nroot > 0) {
		if ((rc = store_site_spaces_to_section(d->tx, s->id, sec.id)))
			return rc;
		sec.spaces = st.root;
		sec.nspaces = st.nroot;
		for (int i = 0; i < st.nroot; i++)
			if (st.root[i].position <= first)
				first = st.root[i].position - 1;
	}
	if ((rc = insert_site_space(d, s, &st, &sec, &sp, true, first, &ss)))
		return rc;
	return written(d, out, SITE_ITEM_SECTION, sec.id);
}

/* ---- section groups ---- */

int dom_site_group_create(struct dom *d, const char *org_id, const char *site_id, const struct site_group_input *in,
			  struct site_answer *out)
{
	struct site_structure st;
	struct site_section_group g;
	struct site_section *secs[MAX_SIBLINGS];
	int rc;

	if ((rc = open_view(d, org_id, site_id, ROLE_CREATE, out)) || (rc = load(d, &out->site, &st)) ||
	    (rc = top_room(&st)))
		return rc;
	if (in->nsections > MAX_SIBLINGS)
		return err_set(ERR_INVALID, "sections: too many");
	for (int i = 0; i < in->nsections; i++) {
		if (!(secs[i] = find_section(&st, in->sections[i])))
			return err_set(ERR_INVALID, "sections: '%s' is not a section of this site", in->sections[i]);
		for (int j = 0; j < i; j++)
			if (secs[j] == secs[i])
				return err_set(ERR_INVALID, "sections: '%s' is listed twice", in->sections[i]);
	}
	memset(&g, 0, sizeof(g));
	g.site_id = out->site.id;
	g.title = in->title;
	g.icon = in->icon;
	g.position = next_top_position(&st);
	if ((rc = store_site_group_insert(d->tx, &g)))
		return rc;
	for (int i = 0; i < in->nsections; i++) {
		secs[i]->group_id = g.id;
		secs[i]->position = i;
		if ((rc = store_site_section_update(d->tx, secs[i])))
			return rc;
	}
	return written(d, out, SITE_ITEM_GROUP, g.id);
}

int dom_site_group_add_section(struct dom *d, const char *org_id, const char *site_id, const char *id,
			       const char *section_id, struct site_answer *out)
{
	struct site_structure st;
	struct site_section *sec;
	struct slot x;
	int rc;

	if ((rc = open_view(d, org_id, site_id, ROLE_CREATE, out)) ||
	    (rc = load_item(d, out, &st, SITE_ITEM_GROUP, id, &x)))
		return rc;
	if (!(sec = find_section(&st, section_id)))
		return err_set(ERR_INVALID, "sectionId: '%s' is not a section of this site", section_id);
	if (sec->group_id && strcmp(sec->group_id, id) == 0)
		return result(d, out, SITE_ITEM_GROUP, id); /* in it already: nothing to write */
	sec->group_id = id;
	sec->position = next_group_position(&st, id);
	if ((rc = store_site_section_update(d->tx, sec)))
		return rc;
	return written(d, out, SITE_ITEM_GROUP, id);
}

int dom_site_group_remove_section(struct dom *d, const char *org_id, const char *site_id, const char *id,
				  const char *section_id)
{
	struct site_structure st;
	struct site_section *sec;
	struct site_answer v;
	struct slot x;
	int rc;

	if ((rc = open_view(d, org_id, site_id, ROLE_CREATE, &v)) ||
	    (rc = load_item(d, &v, &st, SITE_ITEM_GROUP, id, &x)))
		return rc;
	if (!(sec = find_section(&st, section_id)) || !sec->group_id || strcmp(sec->group_id, id) != 0)
		return 0;
	/* It goes to the end of the top level. */
	sec->position = next_top_position(&st);
	sec->group_id = NULL;
	if ((rc = store_site_section_update(d->tx, sec)))
		return rc;
	return store_site_bump(d->tx, v.site.id);
}

/* ---- updating an item ---- */

/* The fields an update may set, as pointers into the item; NULL where its
 * kind has no such field. */
struct item_fields {
	const char **title, **icon, **path, **condition, **description;
};

static struct item_fields fields_of(const struct slot *x)
{
	struct site_section_group *g = x->p;
	struct site_section *sec = x->p;
	struct site_space *ss = x->p;

	if (x->kind == SITE_ITEM_GROUP)
		return (struct item_fields){ .title = &g->title, .icon = &g->icon };
	if (x->kind == SITE_ITEM_SECTION)
		return (struct item_fields){ .title = &sec->title, .icon = &sec->icon, .path = &sec->path,
					     .condition = &sec->condition, .description = &sec->description };
	return (struct item_fields){ .path = &ss->path, .condition = &ss->condition };
}

/* A new path for item x of st: well-formed, held by no sibling (sections:
 * the site's other sections; site spaces: the others of their section). */
static int path_set(const struct site_structure *st, const struct slot *x, const char **field, const char *path)
{
	struct paths ps;
	int rc;

	if ((rc = path_check("path", path)))
		return rc;
	if (x->kind == SITE_ITEM_SECTION)
		section_paths(st, x->p, &ps);
	else
		space_paths(st, x->sec, x->p, &ps);
	if (paths_has(&ps, path))
		return err_set(ERR_CONFLICT, "path: '%s' is taken by another %s of %s", path, kind_noun[x->kind],
			       x->kind == SITE_ITEM_SECTION ? "this site" : "its section");
	*field = path;
	return 0;
}

/* A section's default site space: one of its own. */
static int section_default_set(struct dom *d, const struct site *s, const struct site_structure *st,
			       const struct site_section *sec, const char *site_space_id)
{
	struct site_section *owner;
	struct site_space *ss = find_site_space(st, site_space_id, &owner);

	if (!ss || owner != sec)
		return err_set(ERR_INVALID, "defaultSiteSpace: '%s' is not a site space of this section", site_space_id);
	return store_site_space_set_default(d->tx, s->id, sec->id, ss->id);
}

int dom_site_item_update(struct dom *d, const char *org_id, const char *site_id, enum site_item_kind kind,
			 const char *id, const struct site_item_update *in, struct site_answer *out)
{
	struct site_structure st;
	struct item_fields f;
	struct space sp;
	struct slot x;
	int rc;

	if ((rc = open_view(d, org_id, site_id, ROLE_CREATE, out)) || (rc = load_item(d, out, &st, kind, id, &x)))
		return rc;
	f = fields_of(&x);
	if (in->title && f.title)
		*f.title = in->title;
	if (in->has_icon && f.icon)
		*f.icon = in->icon;
	if (in->has_description && f.description)
		*f.description = in->description;
	if (in->path && f.path && (rc = path_set(&st, &x, f.path, in->path)))
		return rc;
	if (in->has_condition && f.condition) {
		if (in->condition && (rc = cond_check("condition", in->condition)))
			return rc;
		*f.condition = in->condition;
	}
	if (kind == SITE_ITEM_SECTION && in->default_site_space &&
	    (rc = section_default_set(d, &out->site, &st, x.p, in->default_site_space)))
		return rc;
	if (kind == SITE_ITEM_SPACE && in->space_id) {
		if ((rc = space_for_site(d, &out->site, in->space_id, &sp)))
			return rc;
		((struct site_space *)x.p)->space_id = sp.id;
	}
	if ((rc = slot_write(d, &x)))
		return rc;
	return written(d, out, kind, id);
}

/* ---- deleting an item ---- */

/* A section and its site spaces; a default section hands the role to the
 * first remaining one. */
static int section_delete(struct dom *d, const struct site *s, const struct site_structure *st,
			  const struct site_section *sec)
{
	int rc;

	if ((rc = store_site_section_delete(d->tx, s->id, sec->id)))
		return rc;
	for (int i = 0; sec->is_default && i < st->nsections; i++)
		if (&st->sections[i] != sec)
			return store_site_section_set_default(d->tx, s->id, st->sections[i].id);
	return 0;
}

/* A group; its sections take its place at the top level, in their order. */
static int group_delete(struct dom *d, const struct site *s, const struct site_structure *st,
			const struct site_section_group *g)
{
	struct slot top[MAX_SIBLINGS], inner[MAX_SIBLINGS];
	int ntop, ninner, k = 0, rc;

	top_slots(st, top, MAX_SIBLINGS, &ntop);
	group_slots(st, g->id, inner, MAX_SIBLINGS, &ninner);
	for (int i = 0; i < ntop; i++) {
		if (top[i].p != g) {
			int64_t *pos = slot_pos(&top[i]);

			if (*pos != k) {
				*pos = k;
				if ((rc = slot_write(d, &top[i])))
					return rc;
			}
			k++;
			continue;
		}
		for (int j = 0; j < ninner; j++) {
			struct site_section *sec = inner[j].p;

			sec->group_id = NULL;
			sec->position = k++;
			if ((rc = store_site_section_update(d->tx, sec)))
				return rc;
		}
	}
	return store_site_group_delete(d->tx, s->id, g->id);
}

/* A site space; a default hands the role to the first remaining sibling. */
static int space_delete(struct dom *d, const struct site *s, const struct site_structure *st,
			const struct site_section *sec, const struct site_space *ss)
{
	const struct site_space *arr = sec ? sec->spaces : st->root;
	int n = sec ? sec->nspaces : st->nroot, rc;

	if ((rc = store_site_space_delete(d->tx, s->id, ss->id)))
		return rc;
	for (int i = 0; ss->is_default && i < n; i++)
		if (&arr[i] != ss)
			return store_site_space_set_default(d->tx, s->id, ss->section_id, arr[i].id);
	return 0;
}

int dom_site_item_delete(struct dom *d, const char *org_id, const char *site_id, enum site_item_kind kind,
			 const char *id)
{
	struct site_structure st;
	struct site_answer v;
	struct slot x;
	int rc;

	/* The role first: a member without it gets 403 for a missing item too. */
	if ((rc = open_view(d, org_id, site_id, ROLE_CREATE, &v)) || (rc = load(d, &v.site, &st)))
		return rc;
	if (slot_find(&st, kind, id, &x) == ERR_NOT_FOUND)
		return 0; /* deleting what is not there is done (the seed: 204) */
	if (kind == SITE_ITEM_GROUP)
		rc = group_delete(d, &v.site, &st, x.p);
	else if (kind == SITE_ITEM_SECTION)
		rc = section_delete(d, &v.site, &st, x.p);
	else
		rc = space_delete(d, &v.site, &st, x.sec, x.p);
	return rc ? rc : store_site_bump(d->tx, v.site.id);
}

/* ---- moving an item ---- */

/* The targets each kind's own (deprecated) move operation takes. */
static const char *const space_targets[] = { "site-space", NULL };
static const char *const section_targets[] = { "site-section", NULL };
static const char *const group_targets[] = { "site-section", "site-section-group", NULL };

/* Move section sec before/after target (a section or, at the top level, a
 * group): it joins the target's parent (a group, or the top level). */
static int move_section(struct dom *d, const struct site_structure *st, struct site_section *sec, const char *type,
			const char *target, bool after)
{
	struct slot sib[MAX_SIBLINGS];
	struct site_section *ts = NULL;
	int n;

	if (target && strcmp(type, "site-section") == 0) {
		if (!(ts = find_section(st, target)) || ts == sec)
			return err_set(ERR_INVALID, "position: '%s' is not another section of this site", target);
		sec->group_id = ts->group_id;
	} else if (target) {
		if (!find_group(st, target))
			return err_set(ERR_INVALID, "position: '%s' is not a section group of this site", target);
		sec->group_id = NULL;
	}
	if (sec->group_id)
		group_slots(st, sec->group_id, sib, MAX_SIBLINGS, &n);
	else
		top_slots(st, sib, MAX_SIBLINGS, &n);
	return place(d, sib, n, (struct slot){ SITE_ITEM_SECTION, sec, NULL }, target, after, "position");
}

/* Groups live at the top level: a target is a group or an ungrouped section. */
static int move_group(struct dom *d, const struct site_structure *st, struct site_section_group *g, const char *type,
		      const char *target, bool after)
{
	struct slot sib[MAX_SIBLINGS];
	int n;

	if (target && strcmp(type, "site-section") == 0) {
		const struct site_section *ts = find_section(st, target);

		if (!ts || ts->group_id)
			return err_set(ERR_INVALID, "position: '%s' is not a section at the top level of this site", target);
	} else if (target && (!find_group(st, target) || strcmp(target, g->id) == 0)) {
		return err_set(ERR_INVALID, "position: '%s' is not another section group of this site", target);
	}
	top_slots(st, sib, MAX_SIBLINGS, &n);
	return place(d, sib, n, (struct slot){ SITE_ITEM_GROUP, g, NULL }, target, after, "position");
}

/* A site space moves among the site spaces of its own section (or root). */
static int move_space(struct dom *d, const struct site_structure *st, const struct slot *x, const char *type,
		      const char *target, bool after)
{
	struct slot sib[MAX_SIBLINGS];
	struct site_section *tsec;
	int n;

	if (target && (strcmp(type, "site-space") != 0 || !find_site_space(st, target, &tsec) || tsec != x->sec))
		return err_set(ERR_INVALID, "position: '%s' is not a site space of the same section", target);
	space_slots(st, x->sec, sib, MAX_SIBLINGS, &n);
	return place(d, sib, n, *x, target, after, "position");
}

int dom_site_item_move(struct dom *d, const char *org_id, const char *site_id, enum site_item_kind kind,
		       const char *id, const struct site_position *pos, bool sort, struct site_answer *out)
{
	static const char *const *const own_targets[] = { space_targets, section_targets, group_targets };
	struct site_structure st;
	const char *target, *type;
	struct slot x;
	bool after;
	int rc;

	if ((rc = open_view(d, org_id, site_id, ROLE_CREATE, out)) ||
	    (rc = position_target(pos, sort ? kind_type : own_targets[kind], &target, &type, &after)) ||
	    (rc = load_item(d, out, &st, kind, id, &x)))
		return rc;
	if (target && kind != SITE_ITEM_SPACE && strcmp(type, "site-space") == 0)
		return err_set(ERR_INVALID, "position: a %s moves among sections and groups, not site spaces",
			       kind == SITE_ITEM_GROUP ? "group" : "section");
	if (kind == SITE_ITEM_GROUP)
		rc = move_group(d, &st, x.p, type, target, after);
	else if (kind == SITE_ITEM_SECTION)
		rc = move_section(d, &st, x.p, type, target, after);
	else
		rc = move_space(d, &st, &x, type, target, after);
	return rc ? rc : written(d, out, kind, id);
}
