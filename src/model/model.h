/*
 * model.h - the domain objects as the store returns them and the serializers
 * read them. Strings point into the request's arena (or another owner named by
 * the function that filled the struct); timestamps are epoch milliseconds, 0
 * meaning "not set".
 */
#ifndef DOCSD_MODEL_MODEL_H
#define DOCSD_MODEL_MODEL_H

#include <stdint.h>
#include <string.h>

#include "model/roles.h"

struct user {
	const char *id;
	const char *email;
	const char *display_name;
	const char *photo_url; /* NULL when unset */
	int64_t created_at;
};

struct org {
	const char *id;
	const char *title;
	int64_t created_at;
	const char *email_domains; /* JSON array text, e.g. ["a.com"] */
	const char *hostname;      /* NULL when unset */
	const char *type;          /* business | community */
	const char *use_case;      /* NULL when unset */
	const char *community_type;
	enum role default_role;    /* ROLE_GUEST for null */
	const char *default_site;  /* defaultContent.site or NULL */
	const char *logo;
	int sso, ai, invite_links;
	const char *plan;
	const char *merge_rules;   /* JSON object text */
};

/* The caller's standing in an organization, loaded once per request. */
struct membership {
	enum role role;     /* ROLE_NONE when not a member */
	int owns_team;      /* owner of at least one team */
	int64_t generation; /* the organization's member-list generation (store_org_bump) */
	enum role org_default; /* the organization's defaultRole (ROLE_GUEST for null) */
	int64_t token_gen;  /* the member's token generation, read with the row (http/tokens.c); -1: not read */
};

struct member {
	struct user user;
	enum role role;
	int disabled;
	int sso;
	int64_t joined_at;
	int64_t last_seen_at;
	int64_t spaces;
	int64_t teams;
};

struct team {
	const char *id;
	const char *org_id;
	const char *title;
	int64_t created_at;
	int64_t members;
	int64_t spaces;
};

enum team_role { TEAM_MEMBER = 0, TEAM_OWNER = 1 };

struct collection {
	const char *id;
	const char *org_id;
	const char *parent_id; /* NULL at the top level */
	const char *title;
	const char *description;
	int default_level; /* LEVEL_INHERIT, ROLE_GUEST (null) or a role */
	int64_t position;
	int64_t created_at;
	int64_t updated_at;
	enum role access; /* the caller's effective role, set by the API layer */
};

struct space {
	const char *id;
	const char *org_id;
	const char *parent_id; /* NULL at the top level */
	const char *title;
	const char *emoji;     /* NULL when unset */
	const char *icon;      /* NULL when unset */
	const char *visibility;
	const char *edit_mode; /* live | locked */
	const char *language;  /* NULL when unset */
	int default_level; /* LEVEL_INHERIT, ROLE_GUEST (null) or a role */
	const char *revision;
	const char *merge_rules; /* JSON object text */
	int64_t position;
	int64_t created_at;
	int64_t updated_at;
	int64_t deleted_at;    /* 0 when live */
	int64_t comments, change_requests, change_requests_open, change_requests_draft;
	const char *git_sync; /* GitBook's GitSyncState JSON text (Git sync's link); NULL when none */
	enum role access; /* the caller's effective role, set by the API layer */
};

/* A role granted on a space or collection to a user or a team. */
struct grant_row {
	enum role role;
	int64_t created_at;
	struct user user;  /* user grants */
	struct team team;  /* team grants */
};

struct invite {
	const char *id;
	const char *org_id;
	enum role role;
	int64_t created_at;
};

/* A SAML identity provider of an organization. */
struct saml_provider {
	const char *id;
	const char *org_id;
	const char *label;
	const char *entity_id;    /* NULL when unset */
	const char *certificate;  /* PEM X.509; NULL when unset */
	const char *sso_url;      /* NULL when unset */
	const char *default_team; /* team id, NULL when none */
	struct team team;         /* the default team when the store read it */
	enum role default_role;   /* ROLE_GUEST for null */
	int64_t created_at;
};

/* A change request: a branch of a space's content (model/revision.c). Its base
 * is revision_merged_ancestor once updated, else revision_initial. */
struct change_request {
	const char *id;
	const char *space_id;
	int64_t number;
	const char *status; /* draft | open | archived | merged */
	const char *subject;
	const char *agent_task_id; /* NULL when unset */
	struct user created_by;
	int64_t created_at;
	int64_t updated_at;
	const char *revision;
	const char *revision_initial;
	const char *revision_merged_ancestor; /* NULL until updated */
	const char *revision_merged;          /* NULL until merged */
	int64_t comments;                     /* open comments */
	const char *description;              /* JSONDocument as compact JSON text; NULL when unset */
};

static inline const char *change_request_base(const struct change_request *cr)
{
	return cr->revision_merged_ancestor ? cr->revision_merged_ancestor : cr->revision_initial;
}

/* A comment (parent_id NULL) or a reply (parent_id set) on a space, or on a
 * change request when change_request_id is set. */
struct comment {
	const char *id;
	const char *space_id;
	const char *change_request_id;
	const char *parent_id;
	struct user posted_by;
	int64_t posted_at;
	int64_t edited_at; /* 0 when never edited */
	const char *markdown;
	const char *status; /* open | resolved */
	int64_t resolved_at;
	struct user resolved_by; /* id NULL when not resolved */
	const char *revision;
	const char *target_page;       /* page id or NULL */
	const char *target_node;       /* node id or NULL */
	const char *target_preview;    /* NULL when none */
	const char *target_table_cell; /* JSON {record, definition} or NULL */
	const char *target_review;     /* the review it was posted with, or NULL */
	int64_t replies;
	/* Filled by store_comment_reactions: every (emoji, user) reaction, oldest first. */
	const struct comment_reaction {
		const char *emoji;
		struct user user;
		int64_t reacted_at;
	} *reactions;
	int nreactions;
};

/* ---- docs sites (migration 6; domain/sites.h) ---- */

/* A docs site. JSON-valued fields are compact JSON text. */
struct site {
	const char *id;
	const char *org_id;
	const char *type;       /* basic | premium | ultimate | sponsored | legacy-basic | legacy-premium */
	const char *title;
	const char *visibility; /* public | unlisted | share-link | visitor-auth */
	int published;
	const char *basename;   /* NULL when unset: URLs use the id */
	const char *hostname;   /* NULL when unset */
	const char *proxy;      /* the proxy URL text, NULL when unset */
	const char *icon;       /* CustomizationFavicon JSON or NULL */
	int adaptive_enabled;
	const char *agents_context;  /* included | excluded */
	const char *adaptive_schema; /* SiteAdaptiveJSONSchema JSON or NULL */
	int64_t adaptive_updated_at;
	const char *customization;   /* SiteCustomizationSettings JSON as stored ("{}": defaults) */
	const char *visitor_key;     /* secret that signs visitor-auth JWTs */
	int64_t site_spaces;         /* count of its site spaces */
	int64_t generation;          /* bumped by every change of the site or its structure */
	int64_t created_at;
	int64_t updated_at;
	enum role access; /* the caller's role on the site */
};

/* A space shown on a site, at the root (section_id NULL) or in a section. */
struct site_space {
	const char *id;
	const char *site_id;
	const char *section_id;    /* NULL at the root */
	const char *space_id;
	const char *path;
	const char *condition;     /* NULL when unset */
	const char *customization; /* override JSON or NULL (no override) */
	int is_default;
	int64_t position;
	int64_t created_at;
	struct space space;        /* the space it shows (title, revision, ...) */
};

struct site_section {
	const char *id;
	const char *site_id;
	const char *group_id;    /* NULL when in no group */
	const char *title;
	const char *description; /* NULL when unset */
	const char *path;
	const char *condition;   /* NULL when unset */
	const char *icon;        /* NULL when unset */
	int is_default;
	int64_t position;
	int64_t created_at;
	struct site_space *spaces; /* in order; filled by structure reads */
	int nspaces;
};

struct site_section_group {
	const char *id;
	const char *site_id;
	const char *title;
	const char *icon; /* NULL when unset */
	int64_t position;
	int64_t created_at;
};

/* The whole structure of a site in display order: its sections (each with
 * its site spaces), its groups, and the site spaces at the root (a site
 * without sections). Top-level order: groups and ungrouped sections by
 * position; a group's sections by position. */
struct site_structure {
	struct site_section *sections;
	int nsections;
	struct site_section_group *groups;
	int ngroups;
	struct site_space *root;
	int nroot;
};

/* The site's top level in order: groups and ungrouped sections merged by
 * (position, id); sections and groups come sorted by (position, id). Walk it
 * with gi = si = 0: SITE_TOP_GROUP is st->groups[*gi - 1], SITE_TOP_SECTION
 * st->sections[*si - 1], SITE_TOP_END the end. */
enum site_top { SITE_TOP_END, SITE_TOP_GROUP, SITE_TOP_SECTION };
static inline enum site_top site_top_next(const struct site_structure *st, int *gi, int *si)
{
	while (*si < st->nsections && st->sections[*si].group_id)
		(*si)++;
	if (*gi < st->ngroups &&
	    (*si >= st->nsections || st->groups[*gi].position < st->sections[*si].position ||
	     (st->groups[*gi].position == st->sections[*si].position &&
	      strcmp(st->groups[*gi].id, st->sections[*si].id) < 0))) {
		(*gi)++;
		return SITE_TOP_GROUP;
	}
	if (*si < st->nsections) {
		(*si)++;
		return SITE_TOP_SECTION;
	}
	return SITE_TOP_END;
}

struct site_share_link {
	const char *id;
	const char *site_id;
	const char *name; /* NULL when unset */
	const char *key;  /* the secret in share-link URLs */
	int active;
	int64_t created_at;
};

/* An OpenAPI specification of an organization (GitBook's OpenAPISpec) and
 * its processing (domain/openapi.c draws the states). */
struct openapi_spec {
	const char *id;
	const char *org_id;
	const char *slug;
	const char *source_url;       /* a URL source; NULL for a text source */
	const char *source_text;      /* a text source, only read by the job (NULL elsewhere) */
	const char *visibility;       /* private | public */
	const char *processing_state; /* pending | progress | complete */
	const char *last_version;     /* NULL before a first good version */
	const char *last_error_code;  /* FETCH_TIMEOUT | FETCH_ERROR | PARSE_ERROR; NULL after a success */
	const char *last_errors;      /* JSON array of {message, code?}; NULL after a success */
	int64_t last_processed_at;    /* 0: never */
	int64_t generation;           /* counts its sources (store/openapi.h) */
	int64_t created_at, updated_at;
};

/* A processed version of a spec (GitBook's OpenAPISpecVersion). */
struct openapi_version {
	const char *id;
	const char *spec_id;
	const char *url;          /* where the specification is reachable */
	const char *content_hash; /* SHA-256 of filesystem */
	const char *filesystem;   /* JSON object text (format/openapi_doc.h); NULL unless asked for */
	int64_t created_at;
};

/* ---- search results (store/search.h ranks them, json/serialize_search.c writes them) ---- */

/* A section of a result page: where the hit is, and an excerpt of about
 * SEARCH_EXCERPT (store/search.h) characters around the first hit, cut at word boundaries
 * ("…" marks a cut). id and title are "" for the text before the first
 * heading. */
struct search_section {
	const char *id;
	const char *title;
	const char *body;
};

struct search_page {
	const char *space_id;
	const char *id;
	const char *title;
	const char *path;
	int words;                         /* query words the page holds */
	struct search_section *sections;   /* the best SEARCH_SECTIONS sections with a hit, best first; */
	int nsections;                     /* the first section when none shows a hit */
};

struct search_space {
	const char *id;
	const char *title;
	struct search_page *pages; /* its best SEARCH_ORG_PAGES pages, best first */
	int npages;
};

#endif
