/*
 * translations.c - creating, reading, changing, deleting and running
 * translations (domain/translations.h: access rules and the run's steps).
 */
#include "domain/translations.h"
#include "domain/events.h"
#include "format/document.h"
#include "translate/engine.h"
#include "util/err.h"
#include "util/util.h"

#include <string.h>

#define EMPTY_DOCUMENT "{\"object\":\"document\",\"data\":{},\"nodes\":[]}"

/* t's route through the engine (docsd's `route` field): none when there is
 * no engine (unit tests) or the pair is not reachable now. A failing
 * engine listing leaves it out rather than failing the read. */
static void with_route(struct dom *d, struct translation *t)
{
	const struct tr_engine *engine = d->srv ? d->srv->translator : NULL;
	struct tr_route r;

	t->route_n = 0;
	if (!engine || tr_engine_route(engine, d->arena, t->source_language, t->language, &r) || !r.steps)
		return;
	t->route_engine = tr_engine_name(engine);
	for (int i = 0; i <= r.steps; i++)
		t->route[i] = r.lang[i];
	t->route_n = r.steps + 1;
	t->route_note = r.note;
}

/* What the actor may do with t: 0 with t->editable set, or ERR_NOT_FOUND
 * when the actor does not read its source space (the translation is not
 * revealed). The actor's standing in the organization is loaded. */
static int visible(struct dom *d, struct translation *t)
{
	int rc = dom_space_role(d, &t->source, &t->source.access);

	if (rc)
		return rc;
	if (t->source.access < ROLE_READ)
		return err_set(ERR_NOT_FOUND, "translation not found");
	t->editable = d->actor.org.role >= ROLE_CREATE;
	with_route(d, t);
	return 0;
}

static int require_edit(const struct translation *t, const char *what)
{
	return t->editable ? 0
			   : err_set(ERR_FORBIDDEN, "%s a translation needs the create role in the organization", what);
}

/* Load a translation of org_id the actor sees (locked: for a write). */
static int load(struct dom *d, const char *org_id, const char *id, bool locked, struct translation *out)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW);

	if (rc || (rc = locked ? store_translation_get_locked(d->tx, org_id, id, out)
			       : store_translation_get(d->tx, org_id, id, out)))
		return rc;
	return visible(d, out);
}

int dom_translation_create(struct dom *d, const char *org_id, const struct translation_input *in,
			   struct translation *out)
{
	struct translation t = { 0 };
	struct space s;
	enum role role;
	const char *instructions = EMPTY_DOCUMENT;
	const struct tr_engine *engine = d->srv ? d->srv->translator : NULL;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW)))
		return rc;
	/* A space the actor cannot read is answered as one that does not exist. */
	rc = store_space_get(d->tx, in->source_space, &s);
	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	if (rc || strcmp(s.org_id, org_id) != 0 || (rc = dom_space_role(d, &s, &role)) || role < ROLE_READ)
		return rc && rc != ERR_NOT_FOUND ? rc
						 : err_set(ERR_INVALID, "source.space: no such space in the organization");
	if (s.deleted_at)
		return err_set(ERR_INVALID, "source.space: the space is deleted");
	if (d->actor.org.role < ROLE_CREATE)
		return err_set(ERR_FORBIDDEN, "creating a translation needs the create role in the organization");
	if (strcmp(in->source_language, in->language) == 0)
		return err_set(ERR_INVALID, "language: must differ from source.language");
	/* The pair must be installed now, not at the first run (no engine: the
	 * unit tests of this layer). */
	if (engine && (rc = tr_engine_check_pair(engine, d->arena, in->source_language, in->language)))
		return rc == ERR_INVALID ? err_set(ERR_INVALID, "language: %s", arena_strdup(d->arena, err_message())) : rc;
	if (in->instructions &&
	    (rc = document_text(d->arena, "instructions", in->instructions, TRANSLATION_INSTRUCTIONS_MAX, &instructions)))
		return rc;
	t.org_id = org_id;
	t.source_space = s.id;
	t.source_language = in->source_language;
	t.language = in->language;
	t.instructions = instructions;
	t.created_by = d->actor.user_id;
	if ((rc = store_translation_create(d->tx, &t)) || (rc = store_translation_get(d->tx, org_id, t.id, out)))
		return rc;
	return visible(d, out);
}

int dom_translation_get(struct dom *d, const char *org_id, const char *id, struct translation *out)
{
	return load(d, org_id, id, false, out);
}

int dom_translations_list(struct dom *d, const char *org_id, const struct list_req *lr, struct translation **items,
			  int *n, char **next)
{
	const struct access_ctx *ctx;
	struct dom_list l;
	bool admin;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW)) || (rc = dom_actor_access(d, org_id, &ctx)) ||
	    (rc = dom_list_init(d, ctx, org_id, &l)))
		return rc;
	/* Admins read every space: no filter (and a counted total). */
	admin = ctx->org_role == ROLE_ADMIN;
	if ((rc = store_translations_list(d->tx, org_id, lr, admin ? NULL : dom_keep_space, &l, items, n, next)))
		return rc;
	for (int i = 0; i < *n; i++) {
		if (admin)
			(*items)[i].source.access = ROLE_ADMIN;
		(*items)[i].editable = ctx->org_role >= ROLE_CREATE;
		with_route(d, &(*items)[i]);
	}
	return 0;
}

int dom_translation_update(struct dom *d, const char *org_id, const char *id, json_t *instructions,
			   struct translation *out)
{
	const char *text;
	int rc;

	if ((rc = load(d, org_id, id, true, out)) || (rc = require_edit(out, "changing")) ||
	    (rc = document_text(d->arena, "instructions", instructions, TRANSLATION_INSTRUCTIONS_MAX, &text)) ||
	    (rc = store_translation_set_instructions(d->tx, out, text)) ||
	    (rc = store_translation_get(d->tx, org_id, id, out)))
		return rc;
	return visible(d, out);
}

int dom_translation_delete(struct dom *d, const char *org_id, const char *id, bool *removed)
{
	struct translation t;
	int rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW);

	*removed = false;
	if (rc)
		return rc; /* outsiders: 404 */
	/* The role first, existence after: a member or guest without the create
	 * role gets 403 for any id, so a missing translation does not answer
	 * better (204) than an existing one (403). */
	if (d->actor.org.role < ROLE_CREATE)
		return err_set(ERR_FORBIDDEN, "deleting a translation needs the create role in the organization");
	rc = load(d, org_id, id, true, &t);
	/* GitBook answers a delete of what does not exist (for the actor: a
	 * translation of a space they do not read is not revealed) with 204. */
	if (rc == ERR_NOT_FOUND)
		return 0;
	if (rc || (rc = require_edit(&t, "deleting")))
		return rc;
	return store_translation_delete(d->tx, org_id, id, removed);
}

/* Queue a run of translation id: while a run waits in the queue, asking
 * again is that run (at most one queued run per translation). */
static int queue_run(struct dom *d, const char *id)
{
	char job[ID_LEN + 1];
	int rc = store_job_enqueue_unique(d->tx, JOB_KIND_TRANSLATION, id, NULL, 0, job);

	return rc ? rc : store_translation_queue_run(d->tx, id, job);
}

int dom_translation_run(struct dom *d, const char *org_id, const char *id)
{
	struct translation t;
	int rc;

	if ((rc = load(d, org_id, id, true, &t)) || (rc = require_edit(&t, "running")))
		return rc;
	if (t.source.deleted_at)
		return err_set(ERR_PRECONDITION, "the source space is deleted: restore it before running its translation");
	return queue_run(d, t.id);
}

int dom_translation_on_space_advanced(struct dom *d, const struct space_advanced *ev)
{
	const char **ids;
	int n, rc;

	/* New source content from a merge or a Git import; a run's own result
	 * (cause translation) is never a source change, and edits written
	 * straight into a space (templates, the API) are run on demand. */
	if (ev->cause != SPACE_ADVANCED_BY_MERGE && ev->cause != SPACE_ADVANCED_BY_IMPORT)
		return 0;
	if ((rc = store_translations_of_source(d->tx, ev->space->id, &ids, &n)))
		return rc;
	for (int i = 0; i < n; i++)
		if ((rc = queue_run(d, ids[i])))
			return rc;
	return 0;
}
