/*
 * site_structure.c - a site's sections, section groups and site spaces
 * (domain/sites.h, "structure").
 *
 * DESIGN
 * Every writer gets the site loaded with dom_site_get(..., ROLE_CREATE,
 * lock = true): the site's row is locked until the transaction ends, so the
 * whole structure read below (store_site_structure) stays what this
 * transaction sees until it commits; rules are checked against it, changed
 * rows are written back, and the site's generation is bumped
 * (store_site_bump), all in the caller's one transaction.
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

#include "core/condition.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

#define PATH_MAX_LEN 100
/* At most this many siblings: sections and groups of a site, site spaces of
 * a section or of the root (a bound on the arrays moves build on the stack). */
#define MAX_SIBLINGS 1000

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

const struct site_section_group *dom_site_group_find(const struct site_structure *st, const char *id)
{
	for (int i = 0; id && i < st->ngroups; i++)
		if (strcmp(st->groups[i].id, id) == 0)
			return &st->groups[i];
	return NULL;
}

static struct site_section_group *find_group(const struct site_structure *st, const char *id)
{
	return (struct site_section_group *)dom_site_group_find(st, id);
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

int dom_site_share_key(struct dom *d, const struct site *s, const char *share_key, const char **out)
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
	if (!(*out = arena_strdup(d->arena, cand)))
		return err_set(ERR_INTERNAL, "out of memory");
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

/* One sibling in a reorder: a group, a section or a site space. */
enum slot_kind { SLOT_GROUP, SLOT_SECTION, SLOT_SPACE };
struct slot {
	enum slot_kind kind;
	void *p;
};

static const char *slot_id(const struct slot *x)
{
	switch (x->kind) {
	case SLOT_GROUP:
		return ((struct site_section_group *)x->p)->id;
	case SLOT_SECTION:
		return ((struct site_section *)x->p)->id;
	default:
		return ((struct site_space *)x->p)->id;
	}
}

static int64_t *slot_pos(const struct slot *x)
{
	switch (x->kind) {
	case SLOT_GROUP:
		return &((struct site_section_group *)x->p)->position;
	case SLOT_SECTION:
		return &((struct site_section *)x->p)->position;
	default:
		return &((struct site_space *)x->p)->position;
	}
}

static int slot_write(struct dom *d, const struct slot *x)
{
	switch (x->kind) {
	case SLOT_GROUP:
		return store_site_group_update(d->tx, x->p);
	case SLOT_SECTION:
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
	*n = 0;
	for (int gi = 0, si = 0; *n < max;) {
		while (si < st->nsections && st->sections[si].group_id)
			si++;
		if (gi < st->ngroups &&
		    (si >= st->nsections || st->groups[gi].position < st->sections[si].position ||
		     (st->groups[gi].position == st->sections[si].position &&
		      strcmp(st->groups[gi].id, st->sections[si].id) < 0)))
			out[(*n)++] = (struct slot){ SLOT_GROUP, &st->groups[gi++] };
		else if (si < st->nsections)
			out[(*n)++] = (struct slot){ SLOT_SECTION, &st->sections[si++] };
		else
			break;
	}
}

static void group_slots(const struct site_structure *st, const char *group_id, struct slot *out, int max, int *n)
{
	*n = 0;
	for (int i = 0; i < st->nsections && *n < max; i++)
		if (st->sections[i].group_id && strcmp(st->sections[i].group_id, group_id) == 0)
			out[(*n)++] = (struct slot){ SLOT_SECTION, &st->sections[i] };
}

static void space_slots(const struct site_structure *st, const struct site_section *sec, struct slot *out, int max,
			int *n)
{
	struct site_space *arr = sec ? sec->spaces : st->root;
	int cnt = sec ? sec->nspaces : st->nroot;

	*n = 0;
	for (int i = 0; i < cnt && *n < max; i++)
		out[(*n)++] = (struct slot){ SLOT_SPACE, &arr[i] };
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

int dom_site_space_update(struct dom *d, const struct site *s, const char *id, const struct site_space_input *in,
			  struct site_space *out, struct site_section *out_sec)
{
	struct site_structure st;
	struct site_section *sec;
	struct site_space *ss;
	struct space sp;
	struct paths ps;
	int rc;

	if ((rc = load(d, s, &st)))
		return rc;
	if (!(ss = find_site_space(&st, id, &sec)))
		return err_set(ERR_NOT_FOUND, "site space not found");
	if (in->path) {
		if ((rc = path_check("path", in->path)))
			return rc;
		space_paths(&st, sec, ss, &ps);
		if (paths_has(&ps, in->path))
			return err_set(ERR_CONFLICT, "path: '%s' is taken by another site space of its section", in->path);
		ss->path = in->path;
	}
	if (in->has_condition) {
		if (in->condition && (rc = cond_check("condition", in->condition)))
			return rc;
		ss->condition = in->condition;
	}
	if (in->space_id) {
		if ((rc = space_for_site(d, s, in->space_id, &sp)))
			return rc;
		ss->space_id = sp.id;
	}
	if ((rc = store_site_space_update(d->tx, ss)) || (rc = store_site_bump(d->tx, s->id)))
		return rc;
	return dom_site_space_find(d, s, id, out, out_sec);
}

int dom_site_space_delete(struct dom *d, const struct site *s, const char *id)
{
	struct site_structure st;
	struct site_section *sec;
	struct site_space *ss;
	int rc;

	if ((rc = load(d, s, &st)))
		return rc;
	if (!(ss = find_site_space(&st, id, &sec)))
		return 0;
	if ((rc = store_site_space_delete(d->tx, s->id, id)))
		return rc;
	if (ss->is_default) {
		/* promote the first remaining sibling */
		struct site_space *arr = sec ? sec->spaces : st.root;
		int n = sec ? sec->nspaces : st.nroot;

		for (int i = 0; i < n; i++)
			if (&arr[i] != ss) {
				if ((rc = store_site_space_set_default(d->tx, s->id, ss->section_id, arr[i].id)))
					return rc;
				break;
			}
	}
	return store_site_bump(d->tx, s->id);
}

int dom_site_space_move(struct dom *d, const struct site *s, const char *id, const struct site_position *pos,
			struct site_space *out, struct site_section *out_sec)
{
	static const char *const types[] = { "site-space", NULL };
	struct slot sib[MAX_SIBLINGS];
	struct site_structure st;
	struct site_section *sec;
	struct site_space *ss;
	const char *target, *type;
	bool after;
	int n, rc;

	if ((rc = position_target(pos, types, &target, &type, &after)) || (rc = load(d, s, &st)))
		return rc;
	if (!(ss = find_site_space(&st, id, &sec)))
		return err_set(ERR_NOT_FOUND, "site space not found");
	space_slots(&st, sec, sib, MAX_SIBLINGS, &n);
	if ((rc = place(d, sib, n, (struct slot){ SLOT_SPACE, ss }, target, after, "position")) ||
	    (rc = store_site_bump(d->tx, s->id)))
		return rc;
	return dom_site_space_find(d, s, id, out, out_sec);
}

int dom_site_space_find(struct dom *d, const struct site *s, const char *id, struct site_space *out,
			struct site_section *out_sec)
{
	struct site_structure st;
	struct site_section *sec;
	struct site_space *ss;
	int rc;

	if ((rc = dom_site_structure(d, s, &st)))
		return rc;
	if (!(ss = find_site_space(&st, id, &sec)))
		return err_set(ERR_NOT_FOUND, "site space not found");
	*out = *ss;
	if (out_sec) {
		if (sec)
			*out_sec = *sec;
		else
			memset(out_sec, 0, sizeof(*out_sec));
	}
	return 0;
}

/* ---- sections ---- */

int dom_site_section_find(struct dom *d, const struct site *s, const char *id, struct site_section *out)
{
	struct site_structure st;
	struct site_section *sec;
	int rc;

	if ((rc = dom_site_structure(d, s, &st)))
		return rc;
	if (!(sec = find_section(&st, id)))
		return err_set(ERR_NOT_FOUND, "site section not found");
	*out = *sec;
	return 0;
}

int dom_site_section_create(struct dom *d, const struct site *s, const struct site_section_input *in,
			    struct site_section *out)
{
	struct site_structure st;
	struct site_section sec;
	struct site_space ss;
	struct space sp;
	struct paths ps;
	int64_t first = 0;
	int rc;

	if ((rc = space_for_site(d, s, in->space_id, &sp)) || (rc = load(d, s, &st)))
		return rc;
	if (st.nsections + st.ngroups >= MAX_SIBLINGS)
		return err_set(ERR_INVALID, "a site holds at most %d sections and groups", MAX_SIBLINGS);
	memset(&sec, 0, sizeof(sec));
	sec.site_id = s->id;
	sec.title = in->title ? in->title : sp.title;
	sec.icon = in->icon;
	sec.description = in->description;
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
	if ((rc = insert_site_space(d, s, &st, &sec, &sp, true, first, &ss)) || (rc = store_site_bump(d->tx, s->id)))
		return rc;
	return dom_site_section_find(d, s, sec.id, out);
}

int dom_site_section_update(struct dom *d, const struct site *s, const char *id, const struct site_section_input *in,
			    struct site_section *out)
{
	struct site_structure st;
	struct site_section *sec;
	struct site_space *ss;
	struct paths ps;
	int rc;

	if ((rc = load(d, s, &st)))
		return rc;
	if (!(sec = find_section(&st, id)))
		return err_set(ERR_NOT_FOUND, "site section not found");
	if (in->title)
		sec->title = in->title;
	if (in->path) {
		if ((rc = path_check("path", in->path)))
			return rc;
		section_paths(&st, sec, &ps);
		if (paths_has(&ps, in->path))
			return err_set(ERR_CONFLICT, "path: '%s' is taken by another section of this site", in->path);
		sec->path = in->path;
	}
	if (in->has_condition) {
		if (in->condition && (rc = cond_check("condition", in->condition)))
			return rc;
		sec->condition = in->condition;
	}
	if (in->has_icon)
		sec->icon = in->icon;
	if (in->has_description)
		sec->description = in->description;
	if (in->default_site_space) {
		struct site_section *owner;

		if (!(ss = find_site_space(&st, in->default_site_space, &owner)) || owner != sec)
			return err_set(ERR_INVALID, "defaultSiteSpace: '%s' is not a site space of this section",
				       in->default_site_space);
		if ((rc = store_site_space_set_default(d->tx, s->id, sec->id, ss->id)))
			return rc;
	}
	if ((rc = store_site_section_update(d->tx, sec)) || (rc = store_site_bump(d->tx, s->id)))
		return rc;
	return dom_site_section_find(d, s, id, out);
}

int dom_site_section_delete(struct dom *d, const struct site *s, const char *id)
{
	struct site_structure st;
	struct site_section *sec;
	int rc;

	if ((rc = load(d, s, &st)))
		return rc;
	if (!(sec = find_section(&st, id)))
		return 0;
	if ((rc = store_site_section_delete(d->tx, s->id, id)))
		return rc;
	if (sec->is_default)
		for (int i = 0; i < st.nsections; i++)
			if (&st.sections[i] != sec) {
				if ((rc = store_site_section_set_default(d->tx, s->id, st.sections[i].id)))
					return rc;
				break;
			}
	return store_site_bump(d->tx, s->id);
}

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
	return place(d, sib, n, (struct slot){ SLOT_SECTION, sec }, target, after, "position");
}

int dom_site_section_move(struct dom *d, const struct site *s, const char *id, const struct site_position *pos,
			  struct site_section *out)
{
	static const char *const types[] = { "site-section", NULL };
	struct site_structure st;
	struct site_section *sec;
	const char *target, *type;
	bool after;
	int rc;

	if ((rc = position_target(pos, types, &target, &type, &after)) || (rc = load(d, s, &st)))
		return rc;
	if (!(sec = find_section(&st, id)))
		return err_set(ERR_NOT_FOUND, "site section not found");
	if ((rc = move_section(d, &st, sec, type, target, after)) || (rc = store_site_bump(d->tx, s->id)))
		return rc;
	return dom_site_section_find(d, s, id, out);
}

/* ---- section groups ---- */

static int group_result(struct dom *d, const struct site *s, const char *id, struct site_section_group *out,
			struct site_structure *out_st)
{
	struct site_structure st, *p = out_st ? out_st : &st;
	const struct site_section_group *g;
	int rc;

	if ((rc = dom_site_structure(d, s, p)))
		return rc;
	if (!(g = dom_site_group_find(p, id)))
		return err_set(ERR_NOT_FOUND, "site section group not found");
	*out = *g;
	return 0;
}

int dom_site_group_create(struct dom *d, const struct site *s, const struct site_group_input *in,
			  struct site_section_group *out, struct site_structure *out_st)
{
	struct site_structure st;
	struct site_section_group g;
	struct site_section *secs[MAX_SIBLINGS];
	int rc;

	if ((rc = load(d, s, &st)))
		return rc;
	if (st.nsections + st.ngroups >= MAX_SIBLINGS)
		return err_set(ERR_INVALID, "a site holds at most %d sections and groups", MAX_SIBLINGS);
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
	g.site_id = s->id;
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
	if ((rc = store_site_bump(d->tx, s->id)))
		return rc;
	return group_result(d, s, g.id, out, out_st);
}

int dom_site_group_update(struct dom *d, const struct site *s, const char *id, const struct site_group_input *in,
			  struct site_section_group *out, struct site_structure *out_st)
{
	struct site_structure st;
	struct site_section_group *g;
	int rc;

	if ((rc = load(d, s, &st)))
		return rc;
	if (!(g = find_group(&st, id)))
		return err_set(ERR_NOT_FOUND, "site section group not found");
	if (in->title)
		g->title = in->title;
	if (in->has_icon)
		g->icon = in->icon;
	if ((rc = store_site_group_update(d->tx, g)) || (rc = store_site_bump(d->tx, s->id)))
		return rc;
	return group_result(d, s, id, out, out_st);
}

int dom_site_group_delete(struct dom *d, const struct site *s, const char *id)
{
	struct slot top[MAX_SIBLINGS], inner[MAX_SIBLINGS];
	struct site_structure st;
	struct site_section_group *g;
	int ntop, ninner, k = 0, rc;

	if ((rc = load(d, s, &st)))
		return rc;
	if (!(g = find_group(&st, id)))
		return 0;
	/* Its sections take its place at the top level, in their order. */
	top_slots(&st, top, MAX_SIBLINGS, &ntop);
	group_slots(&st, id, inner, MAX_SIBLINGS, &ninner);
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
	if ((rc = store_site_group_delete(d->tx, s->id, id)))
		return rc;
	return store_site_bump(d->tx, s->id);
}

int dom_site_group_add_section(struct dom *d, const struct site *s, const char *id, const char *section_id,
			       struct site_section_group *out, struct site_structure *out_st)
{
	struct site_structure st;
	struct site_section *sec;
	int rc;

	if ((rc = load(d, s, &st)))
		return rc;
	if (!find_group(&st, id))
		return err_set(ERR_NOT_FOUND, "site section group not found");
	if (!(sec = find_section(&st, section_id)))
		return err_set(ERR_INVALID, "sectionId: '%s' is not a section of this site", section_id);
	if (!sec->group_id || strcmp(sec->group_id, id) != 0) {
		sec->group_id = id;
		sec->position = next_group_position(&st, id);
		if ((rc = store_site_section_update(d->tx, sec)) || (rc = store_site_bump(d->tx, s->id)))
			return rc;
	}
	return group_result(d, s, id, out, out_st);
}

int dom_site_group_remove_section(struct dom *d, const struct site *s, const char *id, const char *section_id)
{
	struct site_structure st;
	struct site_section *sec;
	int rc;

	if ((rc = load(d, s, &st)))
		return rc;
	if (!find_group(&st, id))
		return err_set(ERR_NOT_FOUND, "site section group not found");
	if (!(sec = find_section(&st, section_id)) || !sec->group_id || strcmp(sec->group_id, id) != 0)
		return 0;
	/* It goes to the end of the top level. */
	sec->position = next_top_position(&st);
	sec->group_id = NULL;
	if ((rc = store_site_section_update(d->tx, sec)))
		return rc;
	return store_site_bump(d->tx, s->id);
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
	return place(d, sib, n, (struct slot){ SLOT_GROUP, g }, target, after, "position");
}

int dom_site_group_move(struct dom *d, const struct site *s, const char *id, const struct site_position *pos,
			struct site_section_group *out, struct site_structure *out_st)
{
	static const char *const types[] = { "site-section", "site-section-group", NULL };
	struct site_structure st;
	struct site_section_group *g;
	const char *target, *type;
	bool after;
	int rc;

	if ((rc = position_target(pos, types, &target, &type, &after)) || (rc = load(d, s, &st)))
		return rc;
	if (!(g = find_group(&st, id)))
		return err_set(ERR_NOT_FOUND, "site section group not found");
	if ((rc = move_group(d, &st, g, type, target, after)) || (rc = store_site_bump(d->tx, s->id)))
		return rc;
	return group_result(d, s, id, out, out_st);
}

/* ---- the whole structure ---- */

int dom_site_structure_sort(struct dom *d, const struct site *s, const char *type, const char *id,
			    const struct site_position *pos, struct site_structure *out_st)
{
	static const char *const types[] = { "site-space", "site-section", "site-section-group", NULL };
	struct slot sib[MAX_SIBLINGS];
	struct site_structure st;
	const char *target, *ttype;
	bool after;
	int n, rc;

	if ((rc = position_target(pos, types, &target, &ttype, &after)) || (rc = load(d, s, &st)))
		return rc;
	if (strcmp(type, "site-space") == 0) {
		struct site_section *sec, *tsec;
		struct site_space *ss = find_site_space(&st, id, &sec);

		if (!ss)
			return err_set(ERR_NOT_FOUND, "site space not found");
		if (target && (strcmp(ttype, "site-space") != 0 || !find_site_space(&st, target, &tsec) || tsec != sec))
			return err_set(ERR_INVALID, "position: '%s' is not a site space of the same section", target);
		space_slots(&st, sec, sib, MAX_SIBLINGS, &n);
		rc = place(d, sib, n, (struct slot){ SLOT_SPACE, ss }, target, after, "position");
	} else if (strcmp(type, "site-section") == 0) {
		struct site_section *sec = find_section(&st, id);

		if (!sec)
			return err_set(ERR_NOT_FOUND, "site section not found");
		if (target && strcmp(ttype, "site-space") == 0)
			return err_set(ERR_INVALID, "position: a section moves among sections and groups, not site spaces");
		rc = move_section(d, &st, sec, ttype, target, after);
	} else {
		struct site_section_group *g = find_group(&st, id);

		if (!g)
			return err_set(ERR_NOT_FOUND, "site section group not found");
		if (target && strcmp(ttype, "site-space") == 0)
			return err_set(ERR_INVALID, "position: a group moves among sections and groups, not site spaces");
		rc = move_group(d, &st, g, ttype, target, after);
	}
	if (rc || (rc = store_site_bump(d->tx, s->id)))
		return rc;
	return dom_site_structure(d, s, out_st);
}
