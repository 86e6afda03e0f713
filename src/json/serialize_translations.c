/*
 * serialize_translations.c - GitBook's Translation (serialize_translations.h).
 */
#include "json/serialize_translations.h"

#include <string.h>

/* urls.location: <base>/v1/orgs/<org>/translations/<id>. The base is the
 * operator's --public-url and the ids docsd's own: nothing JSON escapes
 * (as jw_kurl). */
static void location(struct jw *g, const char *base, const struct translation *t)
{
	const char *const parts[] = { base, "/v1/orgs/", t->org_id, "/translations/", t->id };

	jw_key(g, "location");
	jw_put(g, "\"", 1);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		jw_put(g, parts[i], strlen(parts[i]));
	jw_put(g, "\"", 1);
	g->comma = true;
}

static void stats_to_json(struct jw *g, const struct translation_stats *s)
{
	jw_obj_open(g);
	jw_kint(g, "runs", s->runs);
	jw_kint(g, "totalWords", s->total_words);
	jw_kint(g, "totalPages", s->total_pages);
	jw_kint(g, "totalDuration", s->total_duration);
	jw_kint(g, "latestRunDuration", s->latest_run_duration);
	jw_kint(g, "latestPages", s->latest_pages);
	jw_kint(g, "latestWords", s->latest_words);
	jw_obj_close(g);
}

void translation_to_json(struct jw *g, const char *base, const struct translation *t)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "translation");
	jw_kstr(g, "id", t->id);
	jw_kstr(g, "status", t->status);
	jw_key(g, "source");
	jw_obj_open(g);
	jw_kstr(g, "space", t->source_space);
	jw_kstr(g, "language", t->source_language);
	jw_obj_close(g);
	jw_kstr(g, "language", t->language);
	/* Checked and stored as compact JSON (format/document.h). */
	jw_key(g, "instructions");
	jw_raw(g, t->instructions);
	if (t->result_space && t->result_revision) {
		jw_key(g, "result");
		jw_obj_open(g);
		jw_kstr(g, "space", t->result_space);
		jw_kstr(g, "revision", t->result_revision);
		jw_obj_close(g);
	}
	jw_kts(g, "createdAt", t->created_at);
	jw_kts(g, "updatedAt", t->updated_at);
	jw_key(g, "stats");
	stats_to_json(g, &t->stats);
	jw_key(g, "permissions");
	jw_obj_open(g);
	jw_kbool(g, "view", true);
	jw_kbool(g, "edit", t->editable);
	jw_obj_close(g);
	jw_key(g, "urls");
	jw_obj_open(g);
	location(g, base, t);
	jw_obj_close(g);
	/* docsd's own: the chain a run takes (GitBook's schema allows more
	 * properties; its clients ignore them). */
	if (t->route_engine && t->route_n) {
		jw_key(g, "route");
		jw_obj_open(g);
		jw_kstr(g, "engine", t->route_engine);
		jw_key(g, "languages");
		jw_arr_open(g);
		for (int i = 0; i < t->route_n; i++)
			jw_str(g, t->route[i]);
		jw_arr_close(g);
		if (t->route_note)
			jw_kstr(g, "note", t->route_note);
		jw_obj_close(g);
	}
	jw_obj_close(g);
}
