/*
 * serialize_integrations.c - integrations and what hangs off them
 * (serialize_integrations.h).
 */
#include "json/serialize.h"
#include "json/serialize_integrations.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A string value from a format: URLs made of the public base and docsd's
 * own names and ids (integration names are [a-zA-Z0-9-_.]+). */
__attribute__((format(printf, 2, 3))) static void strf(struct jw *g, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	jw_str(g, buf);
}

void integration_to_json(struct jw *g, const char *base, const struct integration_view *v)
{
	const struct integration *it = &v->it;

	jw_obj_open(g);
	jw_kstr(g, "object", "integration");
	jw_kstr(g, "name", it->name);
	jw_kint(g, "version", it->version);
	jw_kstr(g, "title", it->title);
	jw_kstr(g, "description", it->description);
	jw_kstr_opt(g, "summary", it->summary);
	/* Preview images are served by docsd (api/integrations.c). */
	jw_key(g, "previewImages");
	jw_arr_open(g);
	{
		int n = 0;
		for (const char *p = it->preview_images; p && *p; p++)
			n += *p == '"';
		for (int i = 0; i < n / 2; i++)
			strf(g, "%s/v1/integrations/%s/preview/%d", base, it->name, i);
	}
	jw_arr_close(g);
	jw_kstr(g, "target", it->target);
	jw_kbool(g, "verified", false);
	jw_kstr(g, "visibility", it->visibility);
	jw_key(g, "scopes");
	jw_raw(g, it->scopes);
	jw_key(g, "categories");
	jw_raw(g, it->categories);
	jw_key(g, "blocks");
	jw_raw(g, it->blocks);
	jw_key(g, "contentSources");
	jw_raw(g, it->content_sources);
	jw_key(g, "configurations");
	jw_raw(g, it->configurations);
	jw_key(g, "externalLinks");
	jw_raw(g, it->external_links);
	jw_key(g, "owner");
	org_to_json(g, base, &v->owner, &v->caller);
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_kurl(g, "location", base, "/v1/integrations/", it->name);
	if (it->icon && *it->icon) {
		jw_key(g, "icon");
		strf(g, "%s/v1/integrations/%s/icon", base, it->name);
	}
	jw_kurl(g, "app", base, "/integrations/", it->name);
	jw_kurl(g, "assets", base, "/v1/integrations/", it->name);
	jw_kurl(g, "publicEndpoint", base, "/v1/integrations/", it->name);
	jw_obj_close(g);
	jw_key(g, "permissions");
	jw_obj_open(g);
	jw_kbool(g, "admin", v->admin);
	jw_obj_close(g);
	if (it->csp) {
		jw_key(g, "contentSecurityPolicy");
		jw_raw(g, it->csp);
	}
	jw_obj_close(g);
}

void installation_to_json(struct jw *g, const char *base, const char *name, const struct integration_installation *in)
{
	jw_obj_open(g);
	jw_kstr(g, "id", in->id);
	jw_kstr(g, "status", in->status);
	jw_kstr(g, "space_selection", in->space_selection);
	jw_kstr(g, "site_selection", in->site_selection);
	jw_kint(g, "spaces", in->spaces);
	/* NULL: the caller may not read it (domain/integration_access.c); the
	 * schema requires the field. */
	jw_key(g, "configuration");
	jw_raw(g, in->configuration ? in->configuration : "{}");
	jw_kts(g, "createdAt", in->created_at);
	jw_kts(g, "updatedAt", in->updated_at);
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_key(g, "location");
	strf(g, "%s/v1/integrations/%s/installations/%s", base, name, in->id);
	jw_key(g, "app");
	strf(g, "%s/integrations/%s/installations/%s", base, name, in->id);
	jw_key(g, "publicEndpoint");
	strf(g, "%s/v1/integrations/%s/installations/%s", base, name, in->id);
	jw_obj_close(g);
	jw_key(g, "externalIds");
	jw_raw(g, in->external_ids);
	jw_key(g, "target");
	jw_obj_open(g);
	jw_kstr(g, "organization", in->org_id);
	jw_obj_close(g);
	jw_obj_close(g);
}

void target_to_json(struct jw *g, const char *base, const struct target_view *tv)
{
	const struct integration_target *t = &tv->t;
	char loc[2048];

	snprintf(loc, sizeof(loc), "%s/v1/integrations/%s/installations/%s/%ss/%s", base, tv->integration,
		 t->installation_id, t->kind, t->target_id);

	jw_obj_open(g);
	jw_kstr(g, "integration", tv->integration);
	jw_kstr(g, "installation", t->installation_id);
	jw_kstr(g, "status", t->status);
	jw_key(g, "configuration");
	jw_raw(g, t->configuration ? t->configuration : "{}");
	jw_key(g, "externalIds");
	jw_raw(g, t->external_ids);
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_kstr(g, "location", loc);
	jw_kstr(g, "publicEndpoint", loc);
	jw_obj_close(g);
	if (tv->expanded && strcmp(t->kind, "space") == 0) {
		jw_key(g, "space");
		space_to_json(g, base, &tv->space, tv->space.access);
	} else {
		jw_kstr(g, t->kind, t->target_id);
	}
	jw_obj_close(g);
}

void event_to_json(struct jw *g, const struct integration_event *ev)
{
	jw_obj_open(g);
	jw_kstr(g, "id", ev->id);
	jw_kstr(g, "integrationId", ev->integration_id);
	jw_kstr_opt(g, "installationId", ev->installation_id);
	jw_kts(g, "createdAt", ev->created_at);
	jw_key(g, "payload");
	jw_raw(g, ev->payload);
	jw_kstr(g, "status", strcmp(ev->status, "success") == 0 ? "success" : "failed");
	jw_obj_close(g);
}

void event_trace_to_json(struct jw *g, const struct event_view *ev)
{
	jw_obj_open(g);
	jw_key(g, "event");
	event_to_json(g, &ev->ev);
	jw_key(g, "trace");
	jw_obj_open(g);
	jw_key(g, "logs");
	jw_arr_open(g);
	for (int i = 0; i < ev->nlogs; i++) {
		jw_obj_open(g);
		jw_kstr(g, "message", ev->logs[i].message);
		jw_kts(g, "timestamp", ev->logs[i].ts);
		jw_kstr(g, "level", ev->logs[i].level);
		jw_obj_close(g);
	}
	jw_arr_close(g);
	jw_obj_close(g);
	jw_obj_close(g);
}

void site_scripts_to_json(struct jw *g, const struct site_script *s, int n)
{
	jw_arr_open(g);
	for (int i = 0; i < n; i++) {
		jw_obj_open(g);
		jw_kstr(g, "script", s[i].script);
		jw_kstr_opt(g, "contentSecurityPolicy", s[i].csp);
		jw_kbool(g, "cookies", s[i].cookies);
		jw_obj_close(g);
	}
	jw_arr_close(g);
}
