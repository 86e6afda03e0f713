/*
 * templates.c - built-in space templates (applyTemplateToSpace).
 *
 * A template is data: starter pages as markdown, in order, each optionally
 * under an earlier page of the same template. Applying one appends its pages
 * to the space's current content as a new revision, through the same change
 * machinery as change requests (domain/content_changes.c), so pages get real
 * ids, slugs, bodies, links and search entries. params.contentRefs places the
 * given files: each becomes an image on the template's first page, and a
 * template page may also link one by name (`./<name>`).
 */
#include "domain/content.h"
#include "domain/spaces.h"
#include "util/alloc.h"
#include "util/err.h"
#include "model/tree_edit.h"
#include "util/util.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tpl_page {
	const char *ref;    /* batch ref, so later pages can sit under it */
	const char *parent; /* ref of an earlier page, or NULL */
	const char *title;
	const char *markdown;
};

struct tpl {
	const char *id;
	const struct tpl_page *pages;
};

static const struct tpl_page blank[] = {
	{ "home", NULL, "Untitled", "# Untitled\n\nStart writing here.\n" },
	{ NULL },
};

static const struct tpl_page product_docs[] = {
	{ "overview", NULL, "Overview",
	  "# Overview\n\nWhat the product does, who it is for, and where to start.\n\n"
	  "## Features\n\n- First feature\n- Second feature\n\n"
	  "Next: [Quickstart](./quickstart.md)\n" },
	{ "quickstart", NULL, "Quickstart",
	  "# Quickstart\n\nGet up and running in a few minutes.\n\n"
	  "1. Create an account\n2. Install the product\n3. Make your first request\n\n"
	  "```bash\ncurl https://example.com/api/health\n```\n" },
	{ "basics", NULL, "Basics", "# Basics\n\nThe concepts you need to know.\n" },
	{ "editor", "basics", "Editor", "# Editor\n\nHow to use the editor.\n" },
	{ "markdown", "basics", "Markdown", "# Markdown\n\n| Syntax | Result |\n| --- | --- |\n| `**bold**` | **bold** |\n| `*italic*` | *italic* |\n" },
	{ NULL },
};

static const struct tpl_page api_reference[] = {
	{ "intro", NULL, "Introduction",
	  "# Introduction\n\nThis API is organized around REST. Requests and responses are JSON.\n\n"
	  "Base URL: `https://api.example.com/v1`\n" },
	{ "auth", NULL, "Authentication",
	  "# Authentication\n\nSend your token in the `Authorization` header:\n\n"
	  "```http\nAuthorization: Bearer <token>\n```\n" },
	{ "endpoints", NULL, "Endpoints", "# Endpoints\n\nThe resources of the API.\n" },
	{ "users", "endpoints", "Users",
	  "# Users\n\n## Get a user\n\n`GET /users/{id}`\n\n| Parameter | Type | Description |\n| --- | --- | --- |\n"
	  "| id | string | The user's id |\n" },
	{ "errors", NULL, "Errors",
	  "# Errors\n\nErrors use HTTP status codes and a JSON body:\n\n"
	  "```json\n{\"error\": {\"code\": 404, \"message\": \"Not found\"}}\n```\n" },
	{ NULL },
};

static const struct tpl_page knowledge_base[] = {
	{ "welcome", NULL, "Welcome", "# Welcome\n\nFind answers to common questions and step-by-step guides.\n" },
	{ "faq", NULL, "FAQ",
	  "# FAQ\n\n## How do I reset my password?\n\nUse the *Forgot password* link on the sign-in page.\n\n"
	  "## How do I contact support?\n\nWrite to support from the help menu.\n" },
	{ "howto", NULL, "How-to guides", "# How-to guides\n\nTask-oriented guides.\n" },
	{ "first-steps", "howto", "First steps", "# First steps\n\n1. Sign in\n2. Create a project\n3. Invite your team\n" },
	{ "troubleshooting", NULL, "Troubleshooting",
	  "# Troubleshooting\n\n> If something does not work, check the status page first.\n\n- Clear the cache\n- Try again\n" },
	{ NULL },
};

static const struct tpl_page changelog[] = {
	{ "changelog", NULL, "Changelog",
	  "# Changelog\n\nAll notable changes, newest first.\n\n## 1.1.0\n\n- Added: a new feature\n- Fixed: a bug\n\n"
	  "## 1.0.0\n\n- First release\n" },
	{ NULL },
};

static const struct tpl templates[] = {
	{ "blank", blank },
	{ "product-docs", product_docs },
	{ "api-reference", api_reference },
	{ "knowledge-base", knowledge_base },
	{ "changelog", changelog },
	{ NULL, NULL },
};

/* params.contentRefs: name -> {kind: "file", file: id}, files of rv. */
static int read_refs(struct dom *d, json_t *params, const struct revision *rv, json_t **refs)
{
	json_t *cr, *v;
	const char *name;

	*refs = json_object();
	if (!*refs)
		return err_set(ERR_INTERNAL, "out of memory");
	if (!params)
		return 0;
	cr = json_object_get(params, "contentRefs");
	if (!cr || json_is_null(cr))
		return 0;
	if (!json_is_object(cr))
		return err_set(ERR_INVALID, "params.contentRefs: must be an object of name to {kind: \"file\", file}");
	json_object_foreach(cr, name, v)
	{
		json_t *kind = json_object_get(v, "kind"), *file = json_object_get(v, "file");
		if (!json_is_object(v) || !json_is_string(kind) || strcmp(json_string_value(kind), "file") != 0 ||
		    !json_is_string(file))
			return err_set(ERR_INVALID, "params.contentRefs.%s: must be {kind: \"file\", file: <file id>}", name);
		if (!revision_file(rv, json_string_value(file)))
			return err_set(ERR_INVALID, "params.contentRefs.%s: no such file in the space", name);
		const char *target = arena_printf(d->arena, "/files/%s", json_string_value(file));
		if (json_object_set_new(*refs, name, json_string(target)))
			return err_set(ERR_INTERNAL, "out of memory");
	}
	return 0;
}

/* The template as a batch of insert_page changes. */
static int template_changes(const struct tpl *t, json_t *refs, json_t **out)
{
	json_t *changes = json_array();
	const char *name;
	json_t *v;

	if (!changes)
		return err_set(ERR_INTERNAL, "out of memory");
	for (const struct tpl_page *p = t->pages; p->title; p++) {
		json_t *c = json_object();
		char *md = NULL;
		if (p == t->pages) {
			/* Each given file shows on the first page, after its heading. */
			size_t cap = strlen(p->markdown) + 64;
			json_object_foreach(refs, name, v) cap += 2 * strlen(name) + 16;
			md = xmalloc(cap);
			const char *nl = strchr(p->markdown, '\n');
			size_t head = nl ? (size_t)(nl - p->markdown) + 1 : strlen(p->markdown), k = head;
			memcpy(md, p->markdown, head);
			json_object_foreach(refs, name, v) k += (size_t)snprintf(md + k, cap - k, "\n![%s](./%s)\n", name, name);
			snprintf(md + k, cap - k, "%s", p->markdown + head);
		}
		if (!c || json_object_set_new(c, "operation", json_string("insert_page")) ||
		    json_object_set_new(c, "title", json_string(p->title)) ||
		    json_object_set_new(c, "document", json_pack("{s:s}", "markdown", md ? md : p->markdown)) ||
		    (p->ref && json_object_set_new(c, "ref", json_string(p->ref))) ||
		    (p->parent && json_object_set_new(c, "into", json_string(p->parent))) ||
		    json_array_append_new(changes, c)) {
			free(md);
			json_decref(changes);
			return err_set(ERR_INTERNAL, "out of memory");
		}
		free(md);
	}
	*out = changes;
	return 0;
}

int dom_template_apply(struct dom *d, const char *space_id, const char *id, json_t *params)
{
	struct space s;
	const struct revision *cur, *next;
	const struct tpl *t = NULL;
	struct tree_work w;
	json_t *refs = NULL, *changes = NULL;
	int rc;

	if ((rc = dom_space_get_locked(d, space_id, ROLE_EDIT, &s)) || (rc = dom_space_editable(&s)))
		return rc;
	for (int i = 0; templates[i].id; i++)
		if (strcmp(templates[i].id, id) == 0)
			t = &templates[i];
	if (!t)
		return err_set(ERR_INVALID, "id: unknown template; built-in templates are blank, product-docs, "
					    "api-reference, knowledge-base, changelog");
	if ((rc = store_revision_get(d->tx, s.revision, &cur)) || (rc = read_refs(d, params, cur, &refs)) ||
	    (rc = template_changes(t, refs, &changes)) || (rc = tree_work_init(&w, d->arena, cur, clock_now_ms())) ||
	    (rc = dom_apply_changes(d, &w, changes, cur, refs, NULL, NULL)) || (rc = dom_write_edits(d, &s, &w, cur, &next)))
		goto out;
	rc = dom_space_advance_by(d, &s, next, SPACE_ADVANCED_BY_TEMPLATE, NULL);
out:
	json_decref(refs);
	json_decref(changes);
	return rc;
}
