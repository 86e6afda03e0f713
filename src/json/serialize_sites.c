/*
 * serialize_sites.c - sites (serialize_sites.h).
 */
#include "json/serialize_sites.h"

#include <ctype.h>
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/adaptive.h"
#include "model/condition.h"
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

void site_to_json(struct jw *g, const char *base, const char *site_base, const struct site *s)
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
		site_published_url(url, sizeof(url), site_base, s);
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
		site_published_url(url, sizeof(url), site_base, s);
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

/* Keys whose values are one of several shapes (GitBook's oneOf): a new value
 * replaces the old one whole, never field by field (an emoji favicon laid over
 * an icon one would be both). */
static bool atomic_key(const char *key)
{
	return strcmp(key, "favicon") == 0 || strcmp(key, "font") == 0 || strcmp(key, "monospaceFont") == 0 ||
	       strcmp(key, "to") == 0 || strcmp(key, "link") == 0;
}

/* Lay src over dst: objects field by field (recursively, but for atomic
 * keys), other values replace; a null in src removes the key (an override's
 * reset). */
static int merge_into(json_t *dst, json_t *src)
{
	const char *key;
	json_t *v, *d;

	json_object_foreach(src, key, v) {
		if (json_is_null(v)) {
			json_object_del(dst, key);
			continue;
		}
		d = json_object_get(dst, key);
		if (json_is_object(v) && json_is_object(d) && !atomic_key(key)) {
			if (merge_into(d, v))
				return -1;
		} else if (json_is_object(v) && !atomic_key(key)) {
			/* Nothing there to merge into: a fresh object, so the
			 * patch's nulls (resets of what is not set) are dropped,
			 * never stored (a stored null would later remove the
			 * site's or the default's value on every read). */
			json_t *fresh = json_object();
			if (!fresh)
				return -1;
			if (merge_into(fresh, v)) {
				json_decref(fresh);
				return -1;
			}
			if (json_object_set_new(dst, key, fresh))
				return -1;
		} else if (json_object_set(dst, key, v)) {
			return -1;
		}
	}
	return 0;
}

/* Parse stored JSON text (NULL: none) and lay it over *base. */
static int lay_over(json_t *base, const char *stored)
{
	json_t *st;
	int rc;

	if (!stored || strcmp(stored, "{}") == 0)
		return 0;
	if (!(st = json_loads(stored, 0, NULL)) || !json_is_object(st)) {
		json_decref(st);
		return -1;
	}
	rc = merge_into(base, st);
	json_decref(st);
	return rc;
}

/* The defaults, parsed once and then only read (deep-copied before a merge):
 * jansson reads of a shared value are safe across threads. */
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;
static json_t *defaults_parsed;

static void parse_defaults(void)
{
	defaults_parsed = json_loads(customization_defaults, 0, NULL);
}

static bool layer_empty(const char *stored)
{
	return !stored || strcmp(stored, "{}") == 0;
}

static int write_customization(struct jw *g, const char *site, const char *override, int has_overrides)
{
	json_t *def = NULL;
	char *text = NULL;
	int rc = -1;

	/* Most sites keep the defaults: their text is the answer (it is compact
	 * JSON already), with hasOverrides put before its closing brace. */
	if (layer_empty(site) && layer_empty(override)) {
		if (has_overrides < 0) {
			jw_raw(g, customization_defaults);
		} else {
			jw_rawn(g, customization_defaults, sizeof(customization_defaults) - 2);
			jw_put(g, has_overrides ? ",\"hasOverrides\":true}" : ",\"hasOverrides\":false}",
			       has_overrides ? 21 : 22);
		}
		return 0;
	}
	if (pthread_once(&defaults_once, parse_defaults) || !defaults_parsed)
		goto out;
	if (!(def = json_deep_copy(defaults_parsed)) || lay_over(def, site) || lay_over(def, override))
		goto out;
	if (has_overrides >= 0 && json_object_set_new(def, "hasOverrides", json_boolean(has_overrides)))
		goto out;
	if (!(text = json_dumps(def, JSON_COMPACT | JSON_PRESERVE_ORDER)))
		goto out;
	jw_raw(g, text);
	rc = 0;
out:
	free(text);
	json_decref(def);
	return rc ? err_set(ERR_INTERNAL, "site customization: stored text is not a JSON object") : 0;
}

int site_customization_to_json(struct jw *g, const char *stored)
{
	return write_customization(g, stored, NULL, -1);
}

int site_space_customization_to_json(struct jw *g, const char *site, const char *override)
{
	return write_customization(g, site, override, override != NULL);
}

/* Remove empty objects below v (an override whose every field was reset). */
static void prune_empty(json_t *v)
{
	const char *key;
	json_t *c;
	void *tmp;

	json_object_foreach_safe(v, tmp, key, c) {
		if (!json_is_object(c) || atomic_key(key))
			continue;
		prune_empty(c);
		if (json_object_size(c) == 0)
			json_object_del(v, key);
	}
}

int site_customization_override(const char *existing, json_t *patch, char **out)
{
	json_t *cur = NULL;
	int rc = -1;

	*out = NULL;
	if (existing) {
		if (!(cur = json_loads(existing, 0, NULL)) || !json_is_object(cur))
			goto done;
	} else if (!(cur = json_object())) {
		goto done;
	}
	if (merge_into(cur, patch))
		goto done;
	prune_empty(cur);
	if (json_object_size(cur) > 0 && !(*out = json_dumps(cur, JSON_COMPACT | JSON_PRESERVE_ORDER)))
		goto done;
	rc = 0;
done:
	json_decref(cur);
	return rc ? err_set(ERR_INTERNAL, "site space customization: cannot merge the override") : 0;
}

/* ---- the check of a customization against GitBook's schema ----
 *
 * A table per object of SiteCustomizationSettings, as the OpenAPI document
 * has it (0.143.2). Groups that have defaults (customization_defaults) do not
 * require their fields: a PUT may name only what differs, the rest comes from
 * the defaults when read. Objects without defaults (a color pair, a link, a
 * font definition, the announcement) require what the schema requires, so
 * every response validates. Unknown fields are refused at every level. */

enum ckind {
	CK_OBJ,      /* fields */
	CK_STR,      /* min..max characters; values: one of them */
	CK_BOOL,
	CK_INT,      /* min..max */
	CK_ARR,      /* items; min items */
	CK_COLOR,    /* ^#([0-9a-fA-F]{3}){1,2}$ */
	CK_URL,      /* an absolute URI, at most 2048 */
	CK_COND,     /* an Expression (model/condition.h) */
	CK_FONT,     /* one of values, or a font definition */
	CK_FAVICON,  /* {icon: ThemedURL} | {emoji} | {} */
	CK_REF,      /* ContentRef; nullable: also null */
};

#define CF_REQ 1       /* required */
#define CF_SITE_ONLY 2 /* not part of a site space's override */

/* How a check runs: the body of an override (site-only fields refused), and
 * whether null (an override's reset) is accepted here: in an override, for
 * any field outside an array. */
#define CM_OVERRIDE 1
#define CM_NULLS 2

struct cfield;
struct cspec {
	enum ckind kind;
	long min, max;
	const char *const *values;
	const struct cfield *fields;
	const struct cspec *items;
};
struct cfield {
	const char *name;
	const struct cspec *spec;
	int flags;
};

static const char *const v_theme[] = { "clean", "muted", "bold", "gradient", NULL };
static const char *const v_corners[] = { "straight", "rounded", "circular", NULL };
static const char *const v_depth[] = { "subtle", "flat", NULL };
static const char *const v_links[] = { "default", "accent", NULL };
static const char *const v_font[] = { "ABCFavorit", "Inter", "Roboto", "RobotoSlab", "OpenSans", "SourceSansPro",
				      "Lato", "Ubuntu", "Raleway", "Merriweather", "Overpass", "NotoSans",
				      "IBMPlexSerif", "Poppins", "FiraSans", NULL };
static const char *const v_mono[] = { "FiraCode", "IBMPlexMono", "JetBrainsMono", "SourceCodePro", "RobotoMono",
				      "SpaceMono", "DMMono", "Inconsolata", NULL };
static const char *const v_background[] = { "plain", "match", NULL };
static const char *const v_icons[] = { "regular", "solid", "duotone", "light", "thin", NULL };
static const char *const v_sidebar_bg[] = { "default", "filled", NULL };
static const char *const v_sidebar_list[] = { "default", "pill", "line", NULL };
static const char *const v_search[] = { "prominent", "subtle", NULL };
static const char *const v_locale[] = { "en", "fr", "es", "zh", "ja", "de", "nl", "no", "pt-br", "ru", NULL };
static const char *const v_preset[] = { "default", "bold", "contrast", "custom", "none", NULL };
static const char *const v_item_style[] = { "link", "button-primary", "button-secondary", NULL };
static const char *const v_ann_style[] = { "info", "warning", "danger", "success", NULL };
static const char *const v_mode[] = { "light", "dark", NULL };
static const char *const v_ai[] = { "none", "search", "assistant", NULL };
static const char *const v_target[] = { "self", "blank", NULL };
static const char *const v_font_format[] = { "woff2", "woff", NULL };

static const struct cspec s_str = { CK_STR, 0, 100000, NULL, NULL, NULL };
static const struct cspec s_bool = { CK_BOOL, 0, 0, NULL, NULL, NULL };
static const struct cspec s_color = { CK_COLOR, 0, 0, NULL, NULL, NULL };
static const struct cspec s_url = { CK_URL, 1, 2048, NULL, NULL, NULL };
static const struct cspec s_cond = { CK_COND, 0, 1024, NULL, NULL, NULL };
static const struct cspec s_ref = { CK_REF, 0, 0, NULL, NULL, NULL };
#define ENUM(v) { CK_STR, 0, 64, v, NULL, NULL }
#define OBJ(f) { CK_OBJ, 0, 0, NULL, f, NULL }

static const struct cfield themed_color_f[] = { { "light", &s_color, CF_REQ }, { "dark", &s_color, CF_REQ }, { NULL, NULL, 0 } };
static const struct cspec s_themed_color = OBJ(themed_color_f);
static const struct cfield themed_url_f[] = { { "light", &s_url, CF_REQ }, { "dark", &s_url, CF_REQ }, { NULL, NULL, 0 } };
static const struct cspec s_themed_url = OBJ(themed_url_f);
static const struct cfield tint_f[] = { { "color", &s_themed_color, CF_REQ }, { NULL, NULL, 0 } };
static const struct cspec s_tint = OBJ(tint_f);

static const struct cspec s_weight = { CK_INT, 1, 1000, NULL, NULL, NULL };
static const struct cspec s_font_format = ENUM(v_font_format);
static const struct cfield font_source_f[] = { { "url", &s_url, CF_REQ }, { "format", &s_font_format, 0 }, { NULL, NULL, 0 } };
static const struct cspec s_font_source = OBJ(font_source_f);
static const struct cspec s_font_sources = { CK_ARR, 1, 0, NULL, NULL, &s_font_source };
static const struct cfield font_face_f[] = { { "weight", &s_weight, CF_REQ }, { "sources", &s_font_sources, CF_REQ }, { NULL, NULL, 0 } };
static const struct cspec s_font_face = OBJ(font_face_f);
static const struct cspec s_font_faces = { CK_ARR, 1, 0, NULL, NULL, &s_font_face };
static const struct cspec s_family = { CK_STR, 1, 50, NULL, NULL, NULL };
static const struct cfield font_def_f[] = { { "id", &s_str, CF_REQ }, { "custom", &s_bool, CF_REQ },
					    { "fontFamily", &s_family, CF_REQ }, { "fontFaces", &s_font_faces, CF_REQ },
					    { NULL, NULL, 0 } };
static const struct cspec s_font_def = OBJ(font_def_f);
static const struct cspec s_font = { CK_FONT, 0, 64, v_font, NULL, &s_font_def };
static const struct cspec s_mono = { CK_FONT, 0, 64, v_mono, NULL, &s_font_def };

static const struct cspec s_theme = ENUM(v_theme), s_corners = ENUM(v_corners), s_depth = ENUM(v_depth),
			  s_links_style = ENUM(v_links), s_background = ENUM(v_background), s_icons = ENUM(v_icons),
			  s_sidebar_bg = ENUM(v_sidebar_bg), s_sidebar_list = ENUM(v_sidebar_list),
			  s_search = ENUM(v_search), s_locale = ENUM(v_locale), s_preset = ENUM(v_preset),
			  s_item_style = ENUM(v_item_style), s_ann_style = ENUM(v_ann_style), s_mode = ENUM(v_mode),
			  s_ai_mode = ENUM(v_ai), s_target = ENUM(v_target);

static const struct cfield sidebar_f[] = { { "background", &s_sidebar_bg, 0 }, { "list", &s_sidebar_list, 0 },
					   { NULL, NULL, 0 } };
static const struct cspec s_sidebar = OBJ(sidebar_f);
static const struct cfield styling_f[] = {
	{ "theme", &s_theme, 0 },		{ "primaryColor", &s_themed_color, 0 },
	{ "tint", &s_tint, 0 },		{ "infoColor", &s_themed_color, 0 },
	{ "successColor", &s_themed_color, 0 }, { "warningColor", &s_themed_color, 0 },
	{ "dangerColor", &s_themed_color, 0 }, { "corners", &s_corners, 0 },
	{ "depth", &s_depth, 0 },		{ "links", &s_links_style, 0 },
	{ "font", &s_font, CF_SITE_ONLY },	{ "monospaceFont", &s_mono, CF_SITE_ONLY },
	{ "background", &s_background, 0 }, { "icons", &s_icons, 0 },
	{ "sidebar", &s_sidebar, 0 },		{ "search", &s_search, 0 },
	{ NULL, NULL, 0 },
};
static const struct cspec s_styling = OBJ(styling_f);
static const struct cfield i18n_f[] = { { "locale", &s_locale, 0 }, { NULL, NULL, 0 } };
static const struct cspec s_i18n = OBJ(i18n_f);
static const struct cspec s_favicon = { CK_FAVICON, 0, 0, NULL, NULL, NULL };

static const struct cspec s_link_title = { CK_STR, 0, 64, NULL, NULL, NULL };
static const struct cfield content_link_f[] = { { "title", &s_link_title, CF_REQ }, { "to", &s_ref, CF_REQ }, { NULL, NULL, 0 } };
static const struct cspec s_content_link = OBJ(content_link_f);
static const struct cspec s_content_links = { CK_ARR, 0, 0, NULL, NULL, &s_content_link };
static const struct cspec s_ref_or_null = { CK_REF, 1, 0, NULL, NULL, NULL };
static const struct cfield header_item_f[] = { { "title", &s_str, CF_REQ },	     { "style", &s_item_style, 0 },
					       { "to", &s_ref_or_null, CF_REQ },     { "links", &s_content_links, CF_REQ },
					       { "condition", &s_cond, 0 },	     { NULL, NULL, 0 } };
static const struct cspec s_header_item = OBJ(header_item_f);
static const struct cspec s_header_items = { CK_ARR, 0, 0, NULL, NULL, &s_header_item };
static const struct cfield header_f[] = { { "preset", &s_preset, 0 },	  { "logo", &s_themed_url, 0 },
					  { "backgroundColor", &s_themed_color, 0 }, { "linkColor", &s_themed_color, 0 },
					  { "links", &s_header_items, 0 },	  { NULL, NULL, 0 } };
static const struct cspec s_header = OBJ(header_f);
static const struct cfield footer_group_f[] = { { "title", &s_str, CF_REQ }, { "links", &s_content_links, CF_REQ },
						{ NULL, NULL, 0 } };
static const struct cspec s_footer_group = OBJ(footer_group_f);
static const struct cspec s_footer_groups = { CK_ARR, 0, 0, NULL, NULL, &s_footer_group };
static const struct cspec s_copyright = { CK_STR, 0, 300, NULL, NULL, NULL };
static const struct cfield footer_f[] = { { "logo", &s_themed_url, 0 }, { "groups", &s_footer_groups, 0 },
					  { "copyright", &s_copyright, 0 }, { NULL, NULL, 0 } };
static const struct cspec s_footer = OBJ(footer_f);
static const struct cspec s_ann_message = { CK_STR, 2, 128, NULL, NULL, NULL };
static const struct cfield announcement_f[] = { { "enabled", &s_bool, CF_REQ }, { "message", &s_ann_message, CF_REQ },
						{ "link", &s_content_link, 0 },	 { "style", &s_ann_style, CF_REQ },
						{ NULL, NULL, 0 } };
static const struct cspec s_announcement = OBJ(announcement_f);
static const struct cfield themes_f[] = { { "default", &s_mode, 0 }, { "toggeable", &s_bool, 0 }, { NULL, NULL, 0 } };
static const struct cspec s_themes = OBJ(themes_f);
static const struct cfield nullable_enabled_f[] = { { "enabled", &s_bool, 0 }, { NULL, NULL, 0 } };
static const struct cspec s_enabled = OBJ(nullable_enabled_f);
static const struct cfield ai_f[] = { { "mode", &s_ai_mode, 0 }, { NULL, NULL, 0 } };
static const struct cspec s_ai = OBJ(ai_f);
static const struct cfield git_f[] = { { "showEditLink", &s_bool, 0 }, { NULL, NULL, 0 } };
static const struct cspec s_git = OBJ(git_f);
static const struct cfield page_actions_f[] = { { "externalAI", &s_bool, 0 }, { "markdown", &s_bool, 0 }, { "mcp", &s_bool, 0 },
						{ NULL, NULL, 0 } };
static const struct cspec s_page_actions = OBJ(page_actions_f);
static const struct cfield external_links_f[] = { { "target", &s_target, 0 }, { NULL, NULL, 0 } };
static const struct cspec s_external_links = OBJ(external_links_f);
static const struct cfield url_f[] = { { "url", &s_url, 0 }, { NULL, NULL, 0 } };
static const struct cspec s_url_group = OBJ(url_f);
static const struct cfield insights_f[] = { { "trackingCookie", &s_bool, 0 }, { NULL, NULL, 0 } };
static const struct cspec s_insights = OBJ(insights_f);
static const struct cspec s_title = { CK_STR, 2, 128, NULL, NULL, NULL };

static const struct cfield customization_f[] = {
	{ "title", &s_title, 0 },
	{ "styling", &s_styling, 0 },
	{ "internationalization", &s_i18n, 0 },
	{ "favicon", &s_favicon, 0 },
	{ "header", &s_header, 0 },
	{ "footer", &s_footer, 0 },
	{ "announcement", &s_announcement, 0 },
	{ "themes", &s_themes, 0 },
	{ "pdf", &s_enabled, 0 },
	{ "feedback", &s_enabled, 0 },
	{ "ai", &s_ai, CF_SITE_ONLY },
	{ "advancedCustomization", &s_enabled, CF_SITE_ONLY },
	{ "git", &s_git, 0 },
	{ "pageActions", &s_page_actions, CF_SITE_ONLY },
	{ "externalLinks", &s_external_links, 0 },
	{ "pagination", &s_enabled, 0 },
	{ "trademark", &s_enabled, 0 },
	{ "privacyPolicy", &s_url_group, 0 },
	{ "socialPreview", &s_url_group, 0 },
	{ "insights", &s_insights, CF_SITE_ONLY },
	{ NULL, NULL, 0 },
};
static const struct cspec s_customization = OBJ(customization_f);

/* ContentRef kinds: the field each requires and the ones it may have. */
static const struct {
	const char *kind, *required, *optional[2];
} ref_kinds[] = {
	{ "file", "file", { NULL, NULL } },
	{ "url", "url", { NULL, NULL } },
	{ "page", "page", { "space", NULL } },
	{ "anchor", "anchor", { "space", "page" } },
	{ "user", "user", { NULL, NULL } },
	{ "collection", "collection", { NULL, NULL } },
	{ "space", "space", { NULL, NULL } },
	{ "reusable-content", "reusableContent", { "space", NULL } },
	{ "openapi", "spec", { NULL, NULL } },
};

struct cpath {
	char buf[256];
	size_t len;
};

static size_t path_push(struct cpath *p, const char *name)
{
	size_t old = p->len;
	int n = snprintf(p->buf + p->len, sizeof(p->buf) - p->len, "%s%s", p->len ? "." : "", name);

	if (n > 0)
		p->len = p->len + (size_t)n < sizeof(p->buf) ? p->len + (size_t)n : sizeof(p->buf) - 1;
	return old;
}

static size_t path_index(struct cpath *p, size_t i)
{
	size_t old = p->len;
	int n = snprintf(p->buf + p->len, sizeof(p->buf) - p->len, "[%zu]", i);

	if (n > 0)
		p->len = p->len + (size_t)n < sizeof(p->buf) ? p->len + (size_t)n : sizeof(p->buf) - 1;
	return old;
}

static void path_pop(struct cpath *p, size_t old)
{
	p->len = old;
	p->buf[old] = '\0';
}

static int bad(const struct cpath *p, const char *what)
{
	return err_set(ERR_INVALID, "%s: %s", p->len ? p->buf : "body", what);
}

/* A JSON string without NUL, its length in characters within min..max. */
static int check_text(const struct cpath *p, const json_t *v, long min, long max)
{
	const char *s;
	long chars = 0;

	if (!json_is_string(v))
		return bad(p, json_is_null(v) ? "must not be null" : "must be a string");
	s = json_string_value(v);
	if (strlen(s) != json_string_length(v))
		return bad(p, "must not contain NUL characters");
	for (; *s; s++)
		chars += ((unsigned char)*s & 0xC0) != 0x80;
	if (chars < min || chars > max)
		return err_set(ERR_INVALID, "%s: must be %ld to %ld characters long", p->buf, min, max);
	return 0;
}

static bool is_color(const char *s)
{
	size_t n = strlen(s);

	if (s[0] != '#' || (n != 4 && n != 7))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* An absolute URI: a scheme, ':', then no space or control character. */
static bool is_uri(const char *s)
{
	const char *c = s;

	if (!isalpha((unsigned char)*c))
		return false;
	while (isalnum((unsigned char)*c) || *c == '+' || *c == '-' || *c == '.')
		c++;
	if (*c != ':' || !c[1])
		return false;
	for (; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			return false;
	return true;
}

static int check_value(const struct cspec *sp, const json_t *v, struct cpath *p, int mode);

static int check_object(const struct cfield *fields, const json_t *v, struct cpath *p, int mode)
{
	const char *key;
	json_t *c;
	int rc;

	if (!json_is_object(v))
		return bad(p, "must be an object");
	json_object_foreach((json_t *)v, key, c) {
		const struct cfield *f = fields;
		size_t old;

		while (f->name && strcmp(f->name, key) != 0)
			f++;
		old = path_push(p, key);
		if (!f->name)
			return bad(p, "unknown field");
		if ((mode & CM_OVERRIDE) && (f->flags & CF_SITE_ONLY))
			return bad(p, "is not a field of a site space's customization");
		/* An override resets a field with null. */
		if (!(json_is_null(c) && (mode & CM_NULLS)) && (rc = check_value(f->spec, c, p, mode)))
			return rc;
		path_pop(p, old);
	}
	for (const struct cfield *f = fields; f->name; f++) {
		if (!(f->flags & CF_REQ) || json_object_get(v, f->name))
			continue;
		size_t old = path_push(p, f->name);
		rc = bad(p, "is required");
		path_pop(p, old);
		return rc;
	}
	return 0;
}

static int check_ref(const json_t *v, struct cpath *p, bool nullable)
{
	const json_t *kind = json_object_get(v, "kind"), *c;
	const char *key;
	size_t i, old;
	int rc;

	if (!json_is_object(v))
		return bad(p, nullable ? "must be a content reference {kind, ...} or null"
				       : "must be a content reference {kind, ...}");
	if (!json_is_string(kind))
		return err_set(ERR_INVALID, "%s.kind: is required (file, url, page, anchor, user, collection, space, "
			       "reusable-content or openapi)", p->buf);
	for (i = 0; i < sizeof(ref_kinds) / sizeof(ref_kinds[0]); i++)
		if (strcmp(json_string_value(kind), ref_kinds[i].kind) == 0)
			break;
	if (i == sizeof(ref_kinds) / sizeof(ref_kinds[0]))
		return err_set(ERR_INVALID, "%s.kind: '%s' is not a kind of content reference", p->buf,
			       json_string_value(kind));
	json_object_foreach((json_t *)v, key, c) {
		if (strcmp(key, "kind") == 0)
			continue;
		old = path_push(p, key);
		if (strcmp(key, ref_kinds[i].required) != 0 &&
		    !(ref_kinds[i].optional[0] && strcmp(key, ref_kinds[i].optional[0]) == 0) &&
		    !(ref_kinds[i].optional[1] && strcmp(key, ref_kinds[i].optional[1]) == 0))
			return bad(p, "unknown field for this kind of content reference");
		if ((rc = check_text(p, c, 1, 2048)))
			return rc;
		path_pop(p, old);
	}
	if (!json_object_get(v, ref_kinds[i].required)) {
		old = path_push(p, ref_kinds[i].required);
		rc = bad(p, "is required");
		path_pop(p, old);
		return rc;
	}
	return 0;
}

static int check_favicon(const json_t *v, struct cpath *p, int mode)
{
	const json_t *icon, *emoji;
	size_t old;
	int rc;

	if (!json_is_object(v))
		return bad(p, "must be {icon: {light, dark}}, {emoji} or {}");
	icon = json_object_get(v, "icon");
	emoji = json_object_get(v, "emoji");
	if (json_object_size(v) != (size_t)((icon != NULL) + (emoji != NULL)) || (icon && emoji))
		return bad(p, "must be {icon: {light, dark}}, {emoji} or {}");
	old = path_push(p, icon ? "icon" : "emoji");
	rc = icon ? check_value(&s_themed_url, icon, p, mode) : emoji ? check_text(p, emoji, 1, 50) : 0;
	path_pop(p, old);
	return rc;
}

static int check_value(const struct cspec *sp, const json_t *v, struct cpath *p, int mode)
{
	size_t i, old;
	int rc;

	switch (sp->kind) {
	case CK_OBJ:
		return check_object(sp->fields, v, p, mode);
	case CK_FONT:
		if (json_is_object(v))
			return check_object(sp->items->fields, v, p, mode);
		/* a font of the list */
		/* fall through */
	case CK_STR:
		if ((rc = check_text(p, v, sp->min, sp->max)))
			return rc;
		if (sp->values) {
			for (i = 0; sp->values[i]; i++)
				if (strcmp(sp->values[i], json_string_value(v)) == 0)
					return 0;
			return err_set(ERR_INVALID, "%s: '%s' is not one of the allowed values", p->buf,
				       json_string_value(v));
		}
		return 0;
	case CK_BOOL:
		return json_is_boolean(v) ? 0 : bad(p, "must be true or false");
	case CK_INT:
		if (!json_is_integer(v) || json_integer_value(v) < sp->min || json_integer_value(v) > sp->max)
			return err_set(ERR_INVALID, "%s: must be an integer from %ld to %ld", p->buf, sp->min, sp->max);
		return 0;
	case CK_ARR:
		if (!json_is_array(v))
			return bad(p, "must be an array");
		if ((long)json_array_size(v) < sp->min)
			return err_set(ERR_INVALID, "%s: must have at least %ld items", p->buf, sp->min);
		for (i = 0; i < json_array_size(v); i++) {
			old = path_index(p, i);
			if ((rc = check_value(sp->items, json_array_get(v, i), p, mode & ~CM_NULLS)))
				return rc;
			path_pop(p, old);
		}
		return 0;
	case CK_COLOR:
		if (!json_is_string(v) || !is_color(json_string_value(v)))
			return bad(p, "must be a color #RGB or #RRGGBB");
		return 0;
	case CK_URL:
		if ((rc = check_text(p, v, sp->min, sp->max)))
			return rc;
		return is_uri(json_string_value(v)) ? 0 : bad(p, "must be an absolute URL");
	case CK_COND:
		if ((rc = check_text(p, v, sp->min, sp->max)))
			return rc;
		return cond_check(p->buf, json_string_value(v));
	case CK_FAVICON:
		return check_favicon(v, p, mode);
	case CK_REF:
		if (json_is_null(v) && sp->min)
			return 0;
		return check_ref(v, p, sp->min != 0);
	}
	return bad(p, "is not valid");
}

int site_customization_check(const json_t *v, bool override)
{
	struct cpath p = { { 0 }, 0 };

	return check_value(&s_customization, v, &p, override ? CM_OVERRIDE | CM_NULLS : 0);
}

void site_share_link_to_json(struct jw *g, const char *site_base, const struct site *s, const struct site_share_link *l)
{
	char url[640];

	jw_obj_open(g);
	jw_kstr(g, "object", "share-link");
	jw_kstr(g, "id", l->id);
	jw_kts(g, "createdAt", l->created_at);
	jw_kstr_opt(g, "name", l->name);
	jw_kbool(g, "active", l->active);
	jw_key(g, "urls");
	jw_obj_open(g);
	site_published_url(url, sizeof(url) - 128, site_base, s);
	snprintf(url + strlen(url), sizeof(url) - strlen(url), "/~share/%s", l->key);
	jw_kstr(g, "published", url);
	jw_obj_close(g);
	jw_obj_close(g);
}

void site_adaptive_schema_to_json(struct jw *g, const struct site *s)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "site-adaptive-schema");
	jw_key(g, "jsonSchema");
	jw_raw(g, s->adaptive_schema);
	jw_kts(g, "updatedAt", s->adaptive_updated_at);
	jw_obj_close(g);
}

void site_publishing_auth_to_json(struct jw *g, const char *backend, const char *fallback_url, const char *private_key)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "publishing-auth");
	jw_kstr(g, "backend", backend);
	jw_kstr(g, "privateKey", private_key);
	jw_kstr_opt(g, "fallbackURL", fallback_url);
	jw_obj_close(g);
}

void site_template_conditions_to_json(struct jw *g, const struct template_condition *items, int n)
{
	jw_obj_open(g);
	jw_key(g, "items");
	jw_arr_open(g);
	for (int i = 0; i < n; i++) {
		jw_obj_open(g);
		jw_kstr(g, "description", items[i].description);
		jw_kstr(g, "condition", items[i].condition);
		jw_obj_close(g);
	}
	jw_arr_close(g);
	jw_obj_close(g);
}
