/*
 * site_structure.c - a site's sections, section groups and site spaces
 * (store/sites.h, "structure").
 *
 * Only SQL and the mapping of rows: the domain (domain/site_structure.c)
 * decides paths, positions and defaults under the site's row lock and
 * writes rows back through the functions below. The structure is small (a
 * site has tens of sections, not thousands), so it is read whole: three
 * indexed range scans, assembled here into display order.
 */
#include "store/internal.h"
#include "util/util.h"

#include <string.h>

#define SECTION_COLS "id, site_id, group_id, title, description, path, condition, icon, is_default, position, created_at"
#define GROUP_COLS "id, site_id, title, icon, position, created_at"
#define SITE_SPACE_COLS "x.id, x.site_id, x.section_id, x.space_id, x.path, x.condition, x.customization, " \
	"x.is_default, x.position, x.created_at, "

static int fill_section(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct site_section *sec = out;

	memset(sec, 0, sizeof(*sec));
	sec->id = st_str(tx, r, 0);
	sec->site_id = st_str(tx, r, 1);
	sec->group_id = st_str(tx, r, 2);
	sec->title = st_str(tx, r, 3);
	sec->description = st_str(tx, r, 4);
	sec->path = st_str(tx, r, 5);
	sec->condition = st_str(tx, r, 6);
	sec->icon = st_str(tx, r, 7);
	sec->is_default = (int)st_int(tx, r, 8);
	sec->position = st_int(tx, r, 9);
	sec->created_at = st_int(tx, r, 10);
	return 0;
}

static int fill_group(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct site_section_group *g = out;

	memset(g, 0, sizeof(*g));
	g->id = st_str(tx, r, 0);
	g->site_id = st_str(tx, r, 1);
	g->title = st_str(tx, r, 2);
	g->icon = st_str(tx, r, 3);
	g->position = st_int(tx, r, 4);
	g->created_at = st_int(tx, r, 5);
	return 0;
}

static int fill_site_space(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct site_space *ss = out;

	memset(ss, 0, sizeof(*ss));
	ss->id = st_str(tx, r, 0);
	ss->site_id = st_str(tx, r, 1);
	ss->section_id = st_str(tx, r, 2);
	ss->space_id = st_str(tx, r, 3);
	ss->path = st_str(tx, r, 4);
	ss->condition = st_str(tx, r, 5);
	ss->customization = st_str(tx, r, 6);
	ss->is_default = (int)st_int(tx, r, 7);
	ss->position = st_int(tx, r, 8);
	ss->created_at = st_int(tx, r, 9);
	return store_fill_space(tx, r, 10, &ss->space);
}

int store_site_space_by_id(struct store_tx *tx, const char *site_id, const char *id, struct site_space *out)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(id) };
	int rc = st_one(tx,
			"SELECT " SITE_SPACE_COLS SPACE_COLS " FROM site_spaces x JOIN spaces s ON s.id = x.space_id "
			"WHERE x.site_id = $1 AND x.id = $2",
			p, NP(p), fill_site_space, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "site space not found") : rc;
}

/* Top-level order: groups and ungrouped sections merged by (position, id). */
static int top_before(int64_t pa, const char *ia, int64_t pb, const char *ib)
{
	return pa < pb || (pa == pb && strcmp(ia, ib) < 0);
}

int store_site_structure(struct store_tx *tx, const char *site_id, struct site_structure *out)
{
	struct db_param p[] = { P_TEXT(site_id) };
	struct site_section *secs = NULL, *ordered = NULL;
	struct site_space *spaces = NULL;
	int nsecs = 0, nspaces = 0, k = 0, rc;

	memset(out, 0, sizeof(*out));
	if ((rc = st_all(tx, "SELECT " GROUP_COLS " FROM site_section_groups WHERE site_id = $1 ORDER BY position, id", p,
			 NP(p), fill_group, sizeof(*out->groups), (void **)&out->groups, &out->ngroups)) ||
	    (rc = st_all(tx, "SELECT " SECTION_COLS " FROM site_sections WHERE site_id = $1 ORDER BY position, id", p,
			 NP(p), fill_section, sizeof(*secs), (void **)&secs, &nsecs)) ||
	    (rc = st_all(tx,
			 "SELECT " SITE_SPACE_COLS SPACE_COLS " FROM site_spaces x JOIN spaces s ON s.id = x.space_id "
			 "WHERE x.site_id = $1 ORDER BY x.position, x.id",
			 p, NP(p), fill_site_space, sizeof(*spaces), (void **)&spaces, &nspaces)))
		return rc;
	if (nsecs)
		ordered = arena_alloc(tx->arena, sizeof(*ordered) * (size_t)nsecs);
	/* Display order: walk the top level (groups and ungrouped sections by
	 * position); a group contributes its sections by position. */
	for (int gi = 0, si = 0;;) {
		while (si < nsecs && secs[si].group_id)
			si++;
		int take_group = gi < out->ngroups &&
				 (si >= nsecs || top_before(out->groups[gi].position, out->groups[gi].id,
							    secs[si].position, secs[si].id));
		if (take_group) {
			for (int j = 0; j < nsecs; j++)
				if (secs[j].group_id && strcmp(secs[j].group_id, out->groups[gi].id) == 0)
					ordered[k++] = secs[j];
			gi++;
		} else if (si < nsecs) {
			ordered[k++] = secs[si++];
		} else {
			break;
		}
	}
	/* Sections of a group that no longer exists (cannot happen: the foreign
	 * key sets group_id NULL) would be lost above; keep them at the end. */
	for (int j = 0; j < nsecs && k < nsecs; j++) {
		int found = 0;
		for (int i = 0; i < k; i++)
			found |= strcmp(ordered[i].id, secs[j].id) == 0;
		if (!found)
			ordered[k++] = secs[j];
	}
	out->sections = ordered;
	out->nsections = k;
	/* Site spaces to their sections (or the root), keeping their order:
	 * count each parent's, give it an exact array, then fill. */
	int *owner = NULL;

	if (nspaces)
		owner = arena_alloc(tx->arena, sizeof(*owner) * (size_t)nspaces);
	for (int i = 0; i < nspaces; i++) {
		owner[i] = -1;
		for (int j = 0; spaces[i].section_id && j < k; j++)
			if (strcmp(ordered[j].id, spaces[i].section_id) == 0) {
				owner[i] = j;
				break;
			}
		if (owner[i] < 0)
			out->nroot++;
		else
			ordered[owner[i]].nspaces++;
	}
	for (int j = -1; j < k; j++) {
		int n = j < 0 ? out->nroot : ordered[j].nspaces;
		struct site_space **arr = j < 0 ? &out->root : &ordered[j].spaces;

		if (n)
			*arr = arena_alloc(tx->arena, sizeof(**arr) * (size_t)n);
		if (j < 0)
			out->nroot = 0;
		else
			ordered[j].nspaces = 0;
	}
	for (int i = 0; i < nspaces; i++) {
		if (owner[i] < 0)
			out->root[out->nroot++] = spaces[i];
		else
			ordered[owner[i]].spaces[ordered[owner[i]].nspaces++] = spaces[i];
	}
	return 0;
}

static int new_id(struct store_tx *tx, const char **id, int64_t *created_at)
{
	char buf[ID_LEN + 1];

	if (id_new(buf))
		return err_set(ERR_INTERNAL, "getrandom failed");
	*id = arena_strdup(tx->arena, buf);
	*created_at = clock_now_ms();
	return 0;
}

int store_site_section_insert(struct store_tx *tx, struct site_section *sec)
{
	int rc = new_id(tx, &sec->id, &sec->created_at);

	if (rc)
		return rc;
	struct db_param p[] = { P_TEXT(sec->id), P_TEXT(sec->site_id), P_TEXT(sec->group_id), P_TEXT(sec->title),
				P_TEXT(sec->description), P_TEXT(sec->path), P_TEXT(sec->condition), P_TEXT(sec->icon),
				P_BOOL(sec->is_default), P_INT(sec->position), P_INT(sec->created_at) };
	return st_exec(tx,
		       "INSERT INTO site_sections (" SECTION_COLS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
		       p, NP(p), NULL);
}

int store_site_group_insert(struct store_tx *tx, struct site_section_group *g)
{
	int rc = new_id(tx, &g->id, &g->created_at);

	if (rc)
		return rc;
	struct db_param p[] = { P_TEXT(g->id), P_TEXT(g->site_id), P_TEXT(g->title), P_TEXT(g->icon),
				P_INT(g->position), P_INT(g->created_at) };
	return st_exec(tx, "INSERT INTO site_section_groups (" GROUP_COLS ") VALUES ($1, $2, $3, $4, $5, $6)", p, NP(p),
		       NULL);
}

int store_site_space_insert(struct store_tx *tx, struct site_space *ss)
{
	int rc = new_id(tx, &ss->id, &ss->created_at);

	if (rc)
		return rc;
	struct db_param p[] = { P_TEXT(ss->id), P_TEXT(ss->site_id), P_TEXT(ss->section_id), P_TEXT(ss->space_id),
				P_TEXT(ss->path), P_TEXT(ss->condition), P_TEXT(ss->customization),
				P_BOOL(ss->is_default), P_INT(ss->position), P_INT(ss->created_at) };
	return st_exec(tx,
		       "INSERT INTO site_spaces (id, site_id, section_id, space_id, path, condition, customization, "
		       "is_default, position, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
		       p, NP(p), NULL);
}

int store_site_section_update(struct store_tx *tx, const struct site_section *sec)
{
	struct db_param p[] = { P_TEXT(sec->id), P_TEXT(sec->site_id), P_TEXT(sec->group_id), P_TEXT(sec->title),
				P_TEXT(sec->description), P_TEXT(sec->path), P_TEXT(sec->condition), P_TEXT(sec->icon),
				P_BOOL(sec->is_default), P_INT(sec->position) };
	return st_exec(tx,
		       "UPDATE site_sections SET group_id = $3, title = $4, description = $5, path = $6, condition = $7, "
		       "icon = $8, is_default = $9, position = $10 WHERE id = $1 AND site_id = $2",
		       p, NP(p), NULL);
}

int store_site_group_update(struct store_tx *tx, const struct site_section_group *g)
{
	struct db_param p[] = { P_TEXT(g->id), P_TEXT(g->site_id), P_TEXT(g->title), P_TEXT(g->icon),
				P_INT(g->position) };
	return st_exec(tx,
		       "UPDATE site_section_groups SET title = $3, icon = $4, position = $5 WHERE id = $1 AND site_id = $2",
		       p, NP(p), NULL);
}

int store_site_space_update(struct store_tx *tx, const struct site_space *ss)
{
	struct db_param p[] = { P_TEXT(ss->id), P_TEXT(ss->site_id), P_TEXT(ss->section_id), P_TEXT(ss->space_id),
				P_TEXT(ss->path), P_TEXT(ss->condition), P_BOOL(ss->is_default), P_INT(ss->position) };
	return st_exec(tx,
		       "UPDATE site_spaces SET section_id = $3, space_id = $4, path = $5, condition = $6, is_default = $7, "
		       "position = $8 WHERE id = $1 AND site_id = $2",
		       p, NP(p), NULL);
}

int store_site_section_delete(struct store_tx *tx, const char *site_id, const char *id)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(site_id) };
	int rc = st_exec(tx, "DELETE FROM site_spaces WHERE section_id = $1 AND site_id = $2", p, NP(p), NULL);

	return rc ? rc : st_exec(tx, "DELETE FROM site_sections WHERE id = $1 AND site_id = $2", p, NP(p), NULL);
}

int store_site_group_delete(struct store_tx *tx, const char *site_id, const char *id)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(site_id) };
	int rc = st_exec(tx, "UPDATE site_sections SET group_id = NULL WHERE group_id = $1 AND site_id = $2", p, NP(p),
			 NULL);

	return rc ? rc : st_exec(tx, "DELETE FROM site_section_groups WHERE id = $1 AND site_id = $2", p, NP(p), NULL);
}

int store_site_space_delete(struct store_tx *tx, const char *site_id, const char *id)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(site_id) };

	return st_exec(tx, "DELETE FROM site_spaces WHERE id = $1 AND site_id = $2", p, NP(p), NULL);
}

int store_site_spaces_to_section(struct store_tx *tx, const char *site_id, const char *section_id)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(section_id) };

	return st_exec(tx, "UPDATE site_spaces SET section_id = $2 WHERE site_id = $1 AND section_id IS NULL", p, NP(p),
		       NULL);
}

int store_site_section_set_default(struct store_tx *tx, const char *site_id, const char *id)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(id) };

	return st_exec(tx,
		       "UPDATE site_sections SET is_default = CASE WHEN id = $2 THEN 1 ELSE 0 END WHERE site_id = $1",
		       p, NP(p), NULL);
}

int store_site_space_set_default(struct store_tx *tx, const char *site_id, const char *section_id, const char *id)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(section_id ? section_id : ""), P_TEXT(id) };

	return st_exec(tx,
		       "UPDATE site_spaces SET is_default = CASE WHEN id = $3 THEN 1 ELSE 0 END "
		       "WHERE site_id = $1 AND COALESCE(section_id, '') = $2",
		       p, NP(p), NULL);
}
