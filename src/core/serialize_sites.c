/*
 * serialize_sites.c - sites (serialize_sites.h).
 */
#include "core/serialize_sites.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

void site_published_url(char *out, size_t n, const char *base, const struct site *s)
{
	const char *colon;

	if (s->hostname && (colon = strstr(base, "://"))) {
		snprintf(out, n, "%.*s://%s", (int)(colon - base), base, s->hostname);
		return;
	}
	snprintf(out, n, "%s/sites/%s", base, s->basename ? s->basename : s->id);
}

void site_to_json(struct jw *g, const char *base, const struct site *s)
{
	char url[512];

	jw_obj_open(g);
	jw_kstr(g, "object", "site");
	jw_kstr(g, "id", s->id);
	jw_kstr(g, "type", s->type);
	jw_kstr(g, "title", s->title);
	if (s->icon) {
		jw_key(g, "icon");
		jw_raw(g, s->icon);
	}
	jw_kstr_opt(g, "hostname", s->hostname);
	jw_kstr_opt(g, "basename", s->basename);
	if (s->proxy) {
		/* SiteProxy: origin is the proxied URL, target where it leads (this site). */
		site_published_url(url, sizeof(url), base, s);
		jw_key(g, "proxy");
		jw_obj_open(g);
		jw_kstr(g, "origin", s->proxy);
		jw_kstr(g, "target", url);
		jw_obj_close(g);
	}
	jw_kstr(g, "visibility", s->visibility);
	jw_kbool(g, "published", s->published);
	jw_kint(g, "siteSpaces", s->site_spaces);
	jw_kts(g, "createdAt", s->created_at);
	jw_key(g, "adaptiveContent");
	jw_obj_open(g);
	jw_kbool(g, "enabled", s->adaptive_enabled);
	jw_obj_close(g);
	jw_kstr(g, "agentsContext", s->agents_context);
	jw_key(g, "features");
	jw_arr_open(g);
	jw_arr_close(g);
	jw_key(g, "urls");
	jw_obj_open(g);
	snprintf(url, sizeof(url), "%s/v1/orgs/%s/sites/%s", base, s->org_id, s->id);
	jw_kstr(g, "location", url);
	snprintf(url, sizeof(url), "%s/o/%s/sites/%s", base, s->org_id, s->id);
	jw_kstr(g, "app", url);
	if (s->published) {
		site_published_url(url, sizeof(url), base, s);
		jw_kstr(g, "published", url);
	}
	jw_obj_close(g);
	jw_obj_close(g);
}

/* Every group GitBook's SiteCustomizationSettings requires, with the values
 * GitBook gives a new site. */
static const char customization_defaults[] =
	"{\"styling\":{\"theme\":\"clean\",\"primaryColor\":{\"light\":\"#346DDB\",\"dark\":\"#346DDB\"},"
	"\"infoColor\":{\"light\":\"#787878\",\"dark\":\"#787878\"},"
	"\"successColor\":{\"light\":\"#00C950\",\"dark\":\"#00C950\"},"
	"\"warningColor\":{\"light\":\"#FE9A00\",\"dark\":\"#FE9A00\"},"
	"\"dangerColor\":{\"light\":\"#FB2C36\",\"dark\":\"#FB2C36\"},"
	"\"corners\":\"rounded\",\"depth\":\"subtle\",\"links\":\"default\",\"font\":\"Inter\","
	"\"monospaceFont\":\"IBMPlexMono\",\"background\":\"plain\",\"icons\":\"regular\","
	"\"sidebar\":{\"background\":\"default\",\"list\":\"default\"},\"search\":\"prominent\"},"
	"\"internationalization\":{\"locale\":\"en\"},"
	"\"favicon\":{},"
	"\"header\":{\"preset\":\"default\",\"links\":[]},"
	"\"footer\":{\"groups\":[]},"
	"\"themes\":{\"default\":\"light\",\"toggeable\":true},"
	"\"pdf\":{\"enabled\":true},\"feedback\":{\"enabled\":false},\"ai\":{\"mode\":\"none\"},"
	"\"advancedCustomization\":{\"enabled\":true},\"trademark\":{\"enabled\":true},"
	"\"externalLinks\":{\"target\":\"self\"},\"pagination\":{\"enabled\":true},"
	"\"pageActions\":{\"externalAI\":true,\"markdown\":true,\"mcp\":true},"
	"\"git\":{\"showEditLink\":false},\"privacyPolicy\":{},\"socialPreview\":{},"
	"\"insights\":{\"trackingCookie\":true}}";

int site_customization_to_json(struct jw *g, const char *stored)
{
	json_t *def = json_loads(customization_defaults, 0, NULL), *st = NULL;
	char *text = NULL;
	int rc = -1;

	if (!def)
		goto out;
	if (stored && strcmp(stored, "{}") != 0) {
		if (!(st = json_loads(stored, 0, NULL)) || !json_is_object(st))
			goto out;
		/* Groups replace their defaults field by field, objects recursively. */
		if (json_object_update_recursive(def, st))
			goto out;
	}
	if (!(text = json_dumps(def, JSON_COMPACT | JSON_PRESERVE_ORDER)))
		goto out;
	jw_raw(g, text);
	rc = 0;
out:
	free(text);
	json_decref(st);
	json_decref(def);
	return rc ? err_set(ERR_INTERNAL, "site customization: stored text is not a JSON object") : 0;
}
