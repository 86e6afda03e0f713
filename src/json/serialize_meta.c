/*
 * serialize_meta.c - API information, health, visitor claims, invitations.
 */
#include "json/serialize_meta.h"

void api_info_to_json(struct jw *g, const char *version, const char *build)
{
	jw_obj_open(g);
	jw_kstr(g, "version", version);
	jw_kstr(g, "build", build);
	jw_obj_close(g);
}

/* GET /: what this server is and where to go next (a person's first look). */
void home_to_json(struct jw *g, const char *base, const char *site_base, const char *version)
{
	jw_obj_open(g);
	jw_kstr(g, "name", "docsd");
	jw_kstr(g, "description", "a self-hosted documentation server whose HTTP API is compatible with GitBook's REST API v1");
	jw_kstr(g, "version", version);
	jw_kurl(g, "api", base, "/v1", NULL);
	jw_kurl(g, "health", base, "/healthz", NULL);
	jw_kurl(g, "metrics", base, "/metrics", NULL);
	/* Published sites live on their own origin (README, "Two origins"). */
	jw_kurl(g, "sites", site_base, "/sites/", NULL);
	jw_kstr(g, "docs", "the README of the docsd repository (operations, configuration); GitBook's API reference: https://gitbook.com/docs/developers/gitbook-api");
	jw_kstr(g, "webInterface", "/ in a browser (sign in at /signin; every object's urls.app opens its page)");
	jw_obj_close(g);
}

void health_to_json(struct jw *g, const char *engine)
{
	jw_obj_open(g);
	jw_kstr(g, "status", "ok");
	jw_kstr(g, "store", engine);
	jw_obj_close(g);
}

void visitor_claims_to_json(struct jw *g, const char *jwt)
{
	jw_obj_open(g);
	jw_kstr(g, "serviceVisitorClaims", jwt);
	jw_kstr(g, "gitbookVisitorClaims", jwt);
	jw_obj_close(g);
}

void wrapped_list_open(struct jw *g, const char *key)
{
	jw_obj_open(g);
	jw_key(g, key);
	jw_arr_open(g);
}

void wrapped_list_close(struct jw *g)
{
	jw_arr_close(g);
	jw_obj_close(g);
}

void invited_to_json(struct jw *g, const char *const *user_ids, int n)
{
	jw_obj_open(g);
	jw_key(g, "users");
	jw_arr_open(g);
	for (int k = 0; k < n; k++)
		jw_str(g, user_ids[k]);
	jw_arr_close(g);
	jw_kint(g, "invited", n);
	jw_obj_close(g);
}
