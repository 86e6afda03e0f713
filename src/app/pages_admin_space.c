/*
 * pages_admin_space.c - a space's settings in the web interface (issue 25,
 * "space settings (title, emoji, visibility, edit mode ...)"):
 * /s/{spaceId}/~/settings.
 *
 * GET shows the settings, as a form when space_permissions() (the function
 * behind the API's space `permissions`) says admin; POST parses the fields
 * as updateSpaceById's handler does (api/spaces.c: title 0..50 characters,
 * emoji 1..50 or empty to remove it, visibility and editMode from GitBook's
 * lists) and calls dom_space_update, the same domain function, which decides
 * access and the rest. 303 back on success; a refusal is rolled back and
 * the form shown again with the status and message.
 *
 * Merge rules (issue 25, "space settings (... merge rules)"): the rules in
 * force in words for everyone who reads the settings, and for the space's
 * admins a form posted to /s/{spaceId}/~/merge-rules: inherit (the
 * organization's), none, or rules ticked from the ones docsd evaluates, the
 * three rules with users listing members ticked from the first 100 (and any
 * other id the rule lists, kept unless unticked). The form builds GitBook's
 * MergeRulesSpaceConfiguration (the JSON updateSpaceById's mergeRules
 * carries; api/orgs.c body_merge_rules) and calls dom_space_update, as the
 * API does. Rules only the API sets (require_agent_review, custom) are shown
 * and kept as they are while the type stays "rules". The section and its
 * parse take a target (pages.h: app_merge_rules_section,
 * app_merge_rules_parse): the organization's settings page
 * (pages_admin_org.c) uses the same code for the organization's rules,
 * without "inherit" and with none as the default.
 *
 * Below, the space's permissions (app/grants_form.c, shared with a
 * collection's settings): the grants to users and to teams, and for the
 * space's admins a Grant form and a Remove button per grant.
 */
#include "app/app.h"
#include "app/grants_form.h"
#include "app/pages.h"
#include "domain/git_sync.h"
#include "domain/members.h"
#include "domain/orgs.h"
#include "domain/spaces.h"
#include "http/form.h"
#include "model/access.h"
#include "site/site.h"
#include "util/err.h"
#include "util/text.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const edit_modes[] = { "live", "locked", NULL };
static const char *const visibilities[] = { "public", "unlisted", "share-link", "visitor-auth", "in-collection",
					    "private", NULL };

static int one_of(const char *v, const char *const *allowed)
{
	for (int i = 0; allowed[i]; i++)
		if (strcmp(v, allowed[i]) == 0)
			return 1;
	return 0;
}

static const char *jstr(json_t *o, const char *k)
{
	const char *v = json_string_value(json_object_get(o, k));

	return v && *v ? v : NULL;
}

/* Git sync's link and last operation (dom_git_info, getGitInfo's domain
 * function: GitSyncState JSON), read-only: the job's state as the page is
 * loaded (reload to follow it). */
static int git_status(struct app_page *p, const struct space *s)
{
	const char *text = NULL;
	json_t *root, *op;
	struct jw *b = p->out;
	int rc = dom_git_info(p->d, s->id, &text);

	html_raw(b, "<h2>Git sync</h2><p class=\"actions\"><a href=\"");
	app_text(b, app_path(p, "/s/", s->id, "/~/git"));
	html_raw(b, "\">Git sync: link, import, export</a></p>"); /* pages_git.c */
	if (rc == ERR_NOT_FOUND) {
		err_clear();
		html_raw(b, "<p class=\"empty\">This space is not linked to a Git repository.</p>");
		return 0;
	}
	if (rc)
		return rc;
	root = json_loads(text, 0, NULL);
	if (!root)
		return err_set(ERR_INTERNAL, "unreadable Git sync state");
	html_raw(b, "<dl class=\"meta\"><dt>Repository</dt><dd>");
	app_text(b, jstr(root, "url") ? jstr(root, "url") : jstr(root, "repoName") ? jstr(root, "repoName") : "?");
	html_raw(b, "</dd>");
	op = json_object_get(root, "operation");
	if (json_is_object(op)) {
		const char *state = jstr(op, "state"), *err = jstr(op, "error");
		html_raw(b, "<dt>Last operation</dt><dd>");
		app_text(b, jstr(op, "direction") ? jstr(op, "direction") : "sync");
		html_raw(b, ": <strong>");
		app_text(b, state ? state : "?");
		html_raw(b, "</strong>");
		if (state && strcmp(state, "running") == 0 && jstr(op, "stage")) {
			html_raw(b, " (");
			app_text(b, jstr(op, "stage"));
			html_raw(b, "; reload to follow it)");
		}
		html_raw(b, "</dd>");
		if (jstr(op, "updatedAt")) {
			html_raw(b, "<dt>Updated</dt><dd>");
			app_text(b, jstr(op, "updatedAt"));
			html_raw(b, "</dd>");
		}
		if (err) {
			html_raw(b, "<dt>Error</dt><dd class=\"hint hint-danger\">");
			app_text(b, err);
			html_raw(b, "</dd>");
		}
	}
	html_raw(b, "</dl>");
	json_decref(root);
	return 0;
}

/* ---- merge rules (updateSpaceById's mergeRules) ---- */

struct mr_def {
	const char *rule;
	const char *label;
};
/* The rules the form offers; require_agent_review and custom (which docsd
 * cannot evaluate: a merge under them is refused) are only set through the
 * API, shown here and kept as they are when the form is saved. */
static const struct mr_def mr_simple[] = {
	{ "require_at_least_one_review", "At least one current review approves" },
	{ "require_all_reviews_approved", "Every current review approves" },
	{ "require_up_to_date_change_request", "The change request is up to date with the space" },
	{ "require_change_request_subject", "The change request has a subject" },
	{ "require_change_request_description", "The change request has a description" },
	{ NULL, NULL },
};
static const struct mr_def mr_users[] = {
	{ "require_specific_reviewers", "Every one of these members approves" },
	{ "require_one_of_specific_reviewers", "One of these members approves" },
	{ "allow_bypass", "These members may merge whatever the other rules say" },
	{ NULL, NULL },
};
/* Per rule with users, how many user boxes a form shows and may send (the
 * first 100 members, then ids the rule lists beyond them), and the largest
 * body the form may be: each box is a lookup in the body. */
#define MR_MAX_USERS 300
#define MR_MAX_BODY (128 * 1024)

/* The form's words for a rule, or NULL for one it does not offer. */
static const char *mr_label(const char *rule)
{
	for (int k = 0; mr_simple[k].rule; k++)
		if (strcmp(rule, mr_simple[k].rule) == 0)
			return mr_simple[k].label;
	for (int k = 0; mr_users[k].rule; k++)
		if (strcmp(rule, mr_users[k].rule) == 0)
			return mr_users[k].label;
	return NULL;
}

static bool mr_kept(const char *rule)
{
	return mr_label(rule) == NULL;
}

/* The rule object named `rule` in a configuration (NULL when absent). */
static json_t *mr_find(json_t *config, const char *rule)
{
	json_t *rules = json_object_get(config, "rules"), *r;
	size_t i;

	json_array_foreach(rules, i, r) {
		const char *name = json_string_value(json_object_get(r, "rule"));
		if (name && strcmp(name, rule) == 0)
			return r;
	}
	return NULL;
}

static bool mr_lists(json_t *rule, const char *user_id)
{
	json_t *u;
	size_t i;

	json_array_foreach(json_object_get(rule, "users"), i, u) {
		if (json_is_string(u) && strcmp(json_string_value(u), user_id) == 0)
			return true;
	}
	return false;
}

/* One configuration in words: the type, then each rule (its users, a
 * custom rule's expression). org_rules: the organization's configuration
 * text, for a space's inherit (NULL: not readable by the actor). */
static void mr_describe(struct app_page *p, json_t *config, const char *org_rules, const struct member *members,
			int nm)
{
	struct jw *b = p->out;
	const char *type = json_string_value(json_object_get(config, "type"));
	json_t *rules = json_object_get(config, "rules"), *r, *u;
	size_t i, j;

	if (!type || strcmp(type, "inherit") == 0) {
		json_t *org = org_rules ? json_loads(org_rules, 0, NULL) : NULL;
		html_raw(b, org ? "<p>The organization's merge rules:</p>" : "<p>The organization's merge rules.</p>");
		if (org && json_is_string(json_object_get(org, "type")) &&
		    strcmp(json_string_value(json_object_get(org, "type")), "inherit") != 0)
			mr_describe(p, org, NULL, members, nm);
		json_decref(org);
		return;
	}
	if (strcmp(type, "rules") != 0 || json_array_size(rules) == 0) {
		html_raw(b, "<p>No merge rules: whoever may merge merges.</p>");
		return;
	}
	html_raw(b, "<ul class=\"list\">");
	json_array_foreach(rules, i, r) {
		const char *name = json_string_value(json_object_get(r, "rule"));
		const char *label = name ? mr_label(name) : NULL;
		html_raw(b, "<li>");
		if (label) {
			html_raw(b, label);
		} else {
			html_raw(b, "<code>");
			app_text(b, name ? name : "?");
			html_raw(b, "</code>");
		}
		if (json_is_string(json_object_get(r, "expression"))) {
			html_raw(b, ": <code>");
			app_text(b, json_string_value(json_object_get(r, "expression")));
			html_raw(b, "</code>");
		}
		int shown_users = 0;
		json_array_foreach(json_object_get(r, "users"), j, u) {
			const char *id = json_string_value(u), *shown = id;
			if (!id)
				continue;
			for (int k = 0; k < nm; k++)
				if (strcmp(members[k].user.id, id) == 0)
					shown = members[k].user.display_name && *members[k].user.display_name
							? members[k].user.display_name
							: members[k].user.email;
			html_raw(b, shown_users++ ? ", " : ": ");
			app_text(b, shown);
		}
		if (label) {
			html_raw(b, " <span class=\"mute\">(<code>");
			app_text(b, name);
			html_raw(b, "</code>)</span>");
		}
		if (name && (strcmp(name, "require_agent_review") == 0 || strcmp(name, "custom") == 0))
			html_raw(b, " <span class=\"mute\">(not evaluated by this server: merges are refused)</span>");
		html_raw(b, "</li>");
	}
	html_raw(b, "</ul>");
}

static void mr_radio(struct jw *b, const char *value, const char *label, const char *cur)
{
	html_raw(b, "<p><input type=\"radio\" name=\"type\" id=\"mr-type-");
	html_raw(b, value);
	html_raw(b, "\" value=\"");
	html_raw(b, value);
	html_raw(b, strcmp(cur, value) == 0 ? "\" checked> " : "\"> ");
	html_raw(b, "<label for=\"mr-type-");
	html_raw(b, value);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</label></p>");
}

static void mr_user_box(struct app_page *p, const char *rule, int i, const char *user_id, const char *name, bool on)
{
	struct jw *b = p->out;
	char idx[16];

	snprintf(idx, sizeof(idx), "%d", i);
	html_raw(b, "<li><input type=\"checkbox\" id=\"mr-");
	html_raw(b, rule);
	html_raw(b, "-");
	html_raw(b, idx);
	html_raw(b, "\" name=\"");
	html_raw(b, rule);
	html_raw(b, ".");
	html_raw(b, idx);
	html_raw(b, "\" value=\"");
	app_text(b, user_id);
	html_raw(b, on ? "\" checked><label for=\"mr-" : "\"><label for=\"mr-");
	html_raw(b, rule);
	html_raw(b, "-");
	html_raw(b, idx);
	html_raw(b, "\">");
	app_text(b, name);
	html_raw(b, "</label></li>");
}

int app_merge_rules_section(struct app_page *p, const struct app_mr_target *t, bool admin)
{
	struct list_req lr = { .limit = 100 };
	struct member_filter mf = { 0 };
	struct member *members = NULL;
	struct dom_org o;
	const char *org_rules = NULL;
	char *next = NULL;
	int nm = 0, rc;
	struct jw *b = p->out;
	/* A space without rules inherits; an organization's default is none
	 * (model/merge_rules.h). */
	const char *deflt = t->space ? "{\"type\":\"inherit\"}" : "{\"type\":\"none\"}";
	json_t *config = json_loads(t->rules ? t->rules : deflt, 0, NULL), *r;
	const char *type;
	size_t i;
	bool kept = false;

	if (!config)
		return err_set(ERR_INTERNAL, "unreadable merge rules");
	type = json_string_value(json_object_get(config, "type"));
	if (!type)
		type = t->space ? "inherit" : "none";
	/* Names for the users the rules list; a guest may not list members
	 * (the domain's 403): ids are shown then. */
	if ((rc = dom_members_list(p->d, t->org_id, &mf, &lr, &members, &nm, &next)) == ERR_FORBIDDEN) {
		err_clear();
		nm = 0;
	} else if (rc) {
		json_decref(config);
		return rc;
	}
	if (!t->space) {
		/* an organization's rules inherit nothing */
	} else if ((rc = dom_org_get(p->d, t->org_id, &o)) == ERR_FORBIDDEN) {
		err_clear(); /* not the actor's to read: the rules are not shown */
	} else if (rc) {
		json_decref(config);
		return rc;
	} else {
		/* The organization's default is none (model/merge_rules.h). */
		org_rules = o.org.merge_rules ? o.org.merge_rules : "{\"type\":\"none\"}";
	}
	html_raw(b, t->space ? "<h2 id=\"merge-rules\">Merge rules</h2><p class=\"mute\">What a change request needs "
			       "before it is merged into this space.</p><h3>In force</h3>"
			     : "<h2 id=\"merge-rules\">Merge rules</h2><p class=\"mute\">What a change request needs "
			       "before it is merged, in every space of the organization that inherits them (a space "
			       "may set its own).</p><h3>In force</h3>");
	mr_describe(p, config, org_rules, members, nm);
	if (!admin) {
		json_decref(config);
		return 0;
	}
	html_raw(b, "<form method=\"post\" action=\"");
	app_text(b, t->action);
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<fieldset><legend>Rules</legend>");
	if (t->space)
		mr_radio(b, "inherit", "The organization's rules", type);
	mr_radio(b, "none", "No rules", type);
	mr_radio(b, "rules", "These rules:", type);
	html_raw(b, "<ul class=\"list\">");
	for (int k = 0; mr_simple[k].rule; k++) {
		html_raw(b, "<li><input type=\"checkbox\" id=\"mr-");
		html_raw(b, mr_simple[k].rule);
		html_raw(b, "\" name=\"");
		html_raw(b, mr_simple[k].rule);
		html_raw(b, mr_find(config, mr_simple[k].rule) ? "\" value=\"on\" checked>" : "\" value=\"on\">");
		html_raw(b, "<label for=\"mr-");
		html_raw(b, mr_simple[k].rule);
		html_raw(b, "\">");
		html_raw(b, mr_simple[k].label);
		html_raw(b, "</label></li>");
	}
	html_raw(b, "</ul>");
	for (int k = 0; mr_users[k].rule; k++) {
		json_t *cur = mr_find(config, mr_users[k].rule), *u;
		int n = 0;
		char count[16];
		html_raw(b, "<fieldset><legend>");
		html_raw(b, mr_users[k].label);
		html_raw(b, "</legend><ul class=\"list\">");
		for (int m = 0; m < nm; m++, n++)
			mr_user_box(p, mr_users[k].rule, n, members[m].user.id,
				    members[m].user.display_name && *members[m].user.display_name
					    ? members[m].user.display_name
					    : members[m].user.email,
				    cur && mr_lists(cur, members[m].user.id));
		/* Users the rule lists beyond the members shown: by id, kept
		 * unless unticked. */
		json_array_foreach(cur ? json_object_get(cur, "users") : NULL, i, u) {
			const char *id = json_string_value(u);
			bool shown = false;
			for (int m = 0; id && m < nm && !shown; m++)
				shown = strcmp(members[m].user.id, id) == 0;
			if (id && !shown && n < MR_MAX_USERS)
				mr_user_box(p, mr_users[k].rule, n++, id, id, true);
		}
		if (n == 0)
			html_raw(b, "<li class=\"mute\">No member to list.</li>");
		snprintf(count, sizeof(count), "%d", n);
		html_raw(b, "</ul><input type=\"hidden\" name=\"");
		html_raw(b, mr_users[k].rule);
		html_raw(b, ".n\" value=\"");
		html_raw(b, count);
		html_raw(b, "\"></fieldset>");
	}
	json_array_foreach(json_object_get(config, "rules"), i, r) {
		const char *name = json_string_value(json_object_get(r, "rule"));
		kept |= name && mr_kept(name);
	}
	if (kept)
		html_raw(b, "<p class=\"hint\">Rules set through the API that this form does not offer (listed above) "
			    "are kept as they are while the rules are in force.</p>");
	html_raw(b, "</fieldset><p><button type=\"submit\">Save merge rules</button></p></form>");
	json_decref(config);
	return 0;
}

static int render(struct app_page *p, const char *error)
{
	const char *id = req_param(p->r, "spaceId");
	struct space_permissions perm;
	struct app_mr_target mr = { 0 };
	struct space s;
	struct jw *b = p->out;
	int rc;

	if ((rc = dom_space_get(p->d, id, ROLE_READ, &s)))
		return rc;
	space_permissions(&perm, s.access, s.edit_mode && strcmp(s.edit_mode, "locked") == 0);
	mr.org_id = s.org_id;
	mr.rules = s.merge_rules;
	mr.space = true;
	mr.action = app_path(p, "/s/", s.id, "/~/merge-rules");
	{
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { s.title && *s.title ? s.title : "Untitled space", app_path(p, "/s/", s.id, "") },
					      { "Settings", NULL } };
		app_frame_begin(p, "Space settings", crumbs, 3);
	}
	html_raw(b, "<h1>Space settings</h1>");
	app_error_box(b, error);
	if (!perm.admin) {
		html_raw(b, "<dl class=\"meta\"><dt>Title</dt><dd>");
		app_text(b, s.title);
		html_raw(b, "</dd><dt>Visibility</dt><dd>");
		app_text(b, s.visibility);
		html_raw(b, "</dd><dt>Edit mode</dt><dd>");
		app_text(b, s.edit_mode);
		html_raw(b, "</dd></dl><p class=\"mute\">Only an administrator of this space can change its settings.</p>");
		if ((rc = app_merge_rules_section(p, &mr, false)) || (rc = git_status(p, &s)))
			return rc;
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<form method=\"post\" action=\"");
	app_text(b, app_path(p, "/s/", s.id, "/~/settings"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<p><label for=\"set-title\">Title</label><br><input id=\"set-title\" name=\"title\" "
		    "type=\"text\" maxlength=\"50\" value=\"");
	app_text(b, s.title ? s.title : "");
	html_raw(b, "\"></p><p><label for=\"set-emoji\">Emoji (a Unicode code point such as 1f4d8; empty for none)"
		    "</label><br><input id=\"set-emoji\" name=\"emoji\" type=\"text\" maxlength=\"50\" value=\"");
	app_text(b, s.emoji ? s.emoji : "");
	html_raw(b, "\"></p>");
	app_select(b, "set-", "visibility", "Visibility", visibilities, s.visibility);
	app_select(b, "set-", "editMode", "Edit mode (locked: changes only through change requests' merges)", edit_modes,
		  s.edit_mode);
	html_raw(b, "<p><button type=\"submit\">Save settings</button></p></form>");
	if ((rc = app_merge_rules_section(p, &mr, true)) ||
	    (rc = app_grants_section(p, DOM_SPACE, s.id, s.org_id, "space", app_path(p, "/s/", s.id, "/~/permissions"),
				     app_path(p, "/s/", s.id, "/~/settings"))) ||
	    (rc = git_status(p, &s)))
		return rc;
	app_frame_end(p);
	return 0;
}

static int refused(struct app_page *p, int rc);

int page_space_settings(struct app_page *p)
{
	return render(p, NULL);
}

/* A form field: 1 with *out, 0 absent, -1 malformed (then *error says). */
static int field(struct app_page *p, const char *name, const char **out)
{
	return form_field(&p->r->arena, p->r->body, p->r->body_len, name, out);
}

int page_space_settings_save(struct app_page *p)
{
	struct req *r = p->r;
	const char *id = req_param(r, "spaceId"), *title = NULL, *emoji = NULL, *vis = NULL, *mode = NULL;
	struct space_input in = { 0 };
	struct space s;
	const char *bad = NULL;
	int rc, ft = field(p, "title", &title), fe = field(p, "emoji", &emoji), fv = field(p, "visibility", &vis),
		fm = field(p, "editMode", &mode);

	/* The parse of updateSpaceById's body (api/spaces.c), field by field. */
	if (ft < 0 || (ft == 1 && utf8_len(title) > SPACE_TITLE_MAX))
		bad = "title: at most 50 characters";
	else if (fe < 0 || (fe == 1 && utf8_len(emoji) > SPACE_EMOJI_MAX))
		bad = "emoji: at most 50 characters";
	else if (fv < 0 || (fv == 1 && !one_of(vis, visibilities)))
		bad = "visibility: must be one of public, unlisted, share-link, visitor-auth, in-collection, private";
	else if (fm < 0 || (fm == 1 && !one_of(mode, edit_modes)))
		bad = "editMode: must be one of live, locked";
	if (bad) {
		p->status = 400;
		return render(p, bad);
	}
	in.title = ft == 1 ? title : NULL;
	if (fe == 1) {
		in.has_emoji = true;
		in.emoji = *emoji ? emoji : NULL; /* empty: remove it (the API's null) */
	}
	in.visibility = fv == 1 ? vis : NULL;
	in.edit_mode = fm == 1 ? mode : NULL;
	if ((rc = dom_space_update(p->d, id, &in, &s)))
		return refused(p, rc);
	p->location = app_path(p, "/s/", s.id, "/~/settings");
	return 0;
}

/* A refused form: roll back, continue in a read transaction, show why. */
static int refused(struct app_page *p, int rc)
{
	const char *msg = NULL;

	if ((rc = app_form_refused(p, rc, &msg)))
		return rc;
	return render(p, msg);
}

int page_space_grant(struct app_page *p)
{
	const char *id = req_param(p->r, "spaceId");
	int rc = app_grant_submit(p, DOM_SPACE, id);

	if (rc)
		return refused(p, rc);
	p->location = app_path(p, "/s/", id, "/~/settings");
	return 0;
}

int page_space_grant_remove(struct app_page *p)
{
	const char *id = req_param(p->r, "spaceId");
	int rc = app_grant_remove_submit(p, DOM_SPACE, id);

	if (rc)
		return refused(p, rc);
	p->location = app_path(p, "/s/", id, "/~/settings");
	return 0;
}

int page_space_grant_role(struct app_page *p)
{
	const char *id = req_param(p->r, "spaceId");
	int rc = app_grant_role_submit(p, DOM_SPACE, id);

	if (rc)
		return refused(p, rc);
	p->location = app_path(p, "/s/", id, "/~/settings");
	return 0;
}

/* The merge-rules form's configuration (pages.h). */
int app_merge_rules_parse(struct app_page *p, const char *current, bool allow_inherit, const char **out)
{
	const char *type = NULL, *v = NULL;
	json_t *config = NULL, *rules = NULL, *cur = NULL, *r;
	char *text = NULL;
	size_t i;
	int rc = 0, f;

	if (p->r->body_len > MR_MAX_BODY)
		return err_set(ERR_INVALID, "mergeRules: the form is larger than %d bytes", MR_MAX_BODY);
	f = field(p, "type", &type);
	if (f <= 0 || (!(allow_inherit && strcmp(type, "inherit") == 0) && strcmp(type, "none") != 0 &&
		       strcmp(type, "rules") != 0))
		return err_set(ERR_INVALID, "mergeRules.type: must be %s'none' or 'rules'", allow_inherit ? "'inherit', " : "");
	if (strcmp(type, "rules") != 0) {
		*out = type[0] == 'i' ? "{\"type\":\"inherit\"}" : "{\"type\":\"none\"}";
		return 0;
	}
	if (!(config = json_pack("{s:s}", "type", "rules")) || !(rules = json_array()) ||
	    json_object_set_new(config, "rules", rules)) {
		json_decref(rules);
		rc = err_set(ERR_INTERNAL, "out of memory");
		goto cleanup;
	}
	for (int k = 0; mr_simple[k].rule; k++) {
		if ((f = field(p, mr_simple[k].rule, &v)) < 0) {
			rc = err_set(ERR_INVALID, "mergeRules.%s: malformed", mr_simple[k].rule);
			goto cleanup;
		}
		if (f == 1 && json_array_append_new(rules, json_pack("{s:s}", "rule", mr_simple[k].rule))) {
			rc = err_set(ERR_INTERNAL, "out of memory");
			goto cleanup;
		}
	}
	for (int k = 0; mr_users[k].rule; k++) {
		const char *rule = mr_users[k].rule, *count = NULL;
		json_t *users = NULL;
		long n = 0;
		char name[64], *end;
		snprintf(name, sizeof(name), "%s.n", rule);
		if ((f = field(p, name, &count)) < 0 ||
		    (f == 1 && ((n = strtol(count, &end, 10)) < 0 || n > MR_MAX_USERS || *end || end == count))) {
			rc = err_set(ERR_INVALID, "mergeRules.%s: the form's count of users is not one", rule);
			goto cleanup;
		}
		for (long j = 0; j < n; j++) {
			snprintf(name, sizeof(name), "%s.%ld", rule, j);
			if ((f = field(p, name, &v)) == 0)
				continue;
			if (f < 0 || !*v || strlen(v) > 64) {
				rc = err_set(ERR_INVALID, "mergeRules.%s: a user id of 1 to 64 characters", rule);
				json_decref(users);
				goto cleanup;
			}
			if ((!users && !(users = json_array())) || json_array_append_new(users, json_string(v))) {
				rc = err_set(ERR_INTERNAL, "out of memory");
				json_decref(users);
				goto cleanup;
			}
		}
		if (users && json_array_append_new(rules, json_pack("{s:s,s:o}", "rule", rule, "users", users))) {
			rc = err_set(ERR_INTERNAL, "out of memory");
			goto cleanup;
		}
	}
	/* What the form does not offer stays as it was. */
	cur = current ? json_loads(current, 0, NULL) : NULL;
	if (cur && json_is_string(json_object_get(cur, "type")) &&
	    strcmp(json_string_value(json_object_get(cur, "type")), "rules") == 0) {
		json_array_foreach(json_object_get(cur, "rules"), i, r) {
			const char *name = json_string_value(json_object_get(r, "rule"));
			if (name && mr_kept(name) && json_array_append(rules, r)) {
				rc = err_set(ERR_INTERNAL, "out of memory");
				goto cleanup;
			}
		}
	}
	if (json_array_size(rules) > 50) {
		rc = err_set(ERR_INVALID, "mergeRules.rules: at most 50 rules");
		goto cleanup;
	}
	if (!(text = json_dumps(config, JSON_COMPACT)) || !(*out = arena_strdup(&p->r->arena, text)))
		rc = err_set(ERR_INTERNAL, "out of memory");
cleanup:
	free(text);
	json_decref(cur);
	json_decref(config);
	return rc;
}

int page_space_merge_rules_save(struct app_page *p)
{
	const char *id = req_param(p->r, "spaceId");
	struct space_input in = { 0 };
	struct space s;
	int rc;

	/* The current rules, for those the form does not offer, read locked
	 * (PostgreSQL) so that an API update in between cannot be lost; the
	 * update below decides who may change them. */
	if ((rc = dom_space_get_locked(p->d, id, ROLE_READ, &s)))
		return rc;
	if ((rc = app_merge_rules_parse(p, s.merge_rules, true, &in.merge_rules)) ||
	    (rc = dom_space_update(p->d, id, &in, &s)))
		return refused(p, rc);
	p->location = app_path(p, "/s/", s.id, "/~/settings#merge-rules");
	return 0;
}
