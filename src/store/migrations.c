/*
 * migrations.c - the numbered schema migrations, applied in order at start.
 *
 * Rules: never edit a migration that has shipped; add the next number. The DDL is
 * written in the subset both SQLite 3.40 and PostgreSQL 15 accept: TEXT ids,
 * BIGINT epoch-millisecond timestamps, INTEGER 0/1 booleans, JSON kept as TEXT.
 *
 * WITHOUT_ROWID marks tables keyed by a text id: on SQLite they are stored
 * clustered by that key (one b-tree seek per lookup instead of index + table;
 * measured 30% less time on the member page's join). It is SQLite-only SQL
 * (driver.h): PostgreSQL reads a comment, the SQLite driver uncomments it.
 */
#include "store/migrations.h"

#include <stddef.h>

#define WITHOUT_ROWID MIGRATION_ROWID_HINT

static const char m0001_foundation[] =
	"CREATE TABLE settings ("
	"  name TEXT PRIMARY KEY,"
	"  value TEXT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE TABLE users ("
	"  id TEXT PRIMARY KEY,"
	"  email TEXT NOT NULL UNIQUE,"
	"  display_name TEXT NOT NULL,"
	"  photo_url TEXT,"
	"  created_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE TABLE tokens ("
	"  hash TEXT PRIMARY KEY,"
	"  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
	"  created_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX tokens_user ON tokens (user_id);"
	/* Covering: list pages join users by id and read only these columns, so the
	 * join is one index seek instead of an index seek plus a table lookup. */
	"CREATE INDEX users_cover ON users (id, display_name, email, photo_url, created_at);"
	"CREATE TABLE orgs ("
	"  id TEXT PRIMARY KEY,"
	"  title TEXT NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  email_domains TEXT NOT NULL DEFAULT '[]',"
	"  hostname TEXT UNIQUE,"
	"  type TEXT NOT NULL DEFAULT 'business',"
	"  use_case TEXT,"
	"  community_type TEXT,"
	"  default_role TEXT,"
	"  default_site TEXT,"
	"  logo TEXT,"
	"  sso INTEGER NOT NULL DEFAULT 0,"
	"  ai INTEGER NOT NULL DEFAULT 0,"
	"  invite_links INTEGER NOT NULL DEFAULT 1,"
	"  plan TEXT NOT NULL DEFAULT 'free_2024',"
	"  generation BIGINT NOT NULL DEFAULT 0," /* bumped by every change to its member list (store_org_bump) */
	"  merge_rules TEXT NOT NULL DEFAULT '{\"type\":\"none\"}') " WITHOUT_ROWID ";"
	"CREATE TABLE org_email_domains ("
	"  domain TEXT NOT NULL,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  PRIMARY KEY (domain, org_id)) " WITHOUT_ROWID ";"
	"CREATE INDEX org_email_domains_org ON org_email_domains (org_id);"
	"CREATE TABLE members ("
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
	"  role TEXT,"
	"  disabled INTEGER NOT NULL DEFAULT 0,"
	"  sso INTEGER NOT NULL DEFAULT 0,"
	"  joined_at BIGINT NOT NULL,"
	"  last_seen_at BIGINT,"
	"  teams BIGINT NOT NULL DEFAULT 0," /* = team_members rows of (org_id, user_id); teams.c keeps it */
	"  PRIMARY KEY (org_id, user_id)) " WITHOUT_ROWID ";"
	/* Covering indexes for the two member list orders (keyset on the first
	 * three columns): a page is read from the index alone. */
	"CREATE INDEX members_joined ON members (org_id, joined_at, user_id, role, disabled, sso, last_seen_at, teams);"
	"CREATE INDEX members_seen ON members (org_id, last_seen_at, user_id, role, disabled, sso, joined_at, teams);"
	"CREATE INDEX members_user ON members (user_id, org_id);"
	"CREATE TABLE teams ("
	"  id TEXT PRIMARY KEY,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  title TEXT NOT NULL,"
	"  created_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX teams_org ON teams (org_id, created_at, id);"
	"CREATE TABLE team_members ("
	"  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,"
	"  org_id TEXT NOT NULL,"
	"  user_id TEXT NOT NULL,"
	"  role TEXT NOT NULL DEFAULT 'member',"
	"  added_at BIGINT NOT NULL,"
	"  PRIMARY KEY (team_id, user_id),"
	"  FOREIGN KEY (org_id, user_id) REFERENCES members(org_id, user_id) ON DELETE CASCADE) " WITHOUT_ROWID ";"
	"CREATE INDEX team_members_user ON team_members (org_id, user_id, team_id);"
	"CREATE TABLE invites ("
	"  id TEXT PRIMARY KEY,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  role TEXT,"
	"  created_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX invites_org ON invites (org_id, created_at, id);";

/*
 * Content: collections, spaces, the grants on them, SAML providers.
 *
 * Levels (collections.default_level, spaces.default_level, grants.role) are
 * integers so the highest one is MAX(): -1 inherit, 0 none (null on the wire),
 * 1 read .. 6 admin (enum role in model/roles.h).
 *
 * position orders the items of one parent (spaces and collections together);
 * positions have gaps so a move writes one row (store/content.c).
 */
static const char m0002_content[] =
	"CREATE TABLE collections ("
	"  id TEXT PRIMARY KEY,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  parent_id TEXT REFERENCES collections(id) ON DELETE CASCADE,"
	"  title TEXT NOT NULL,"
	"  description TEXT,"
	"  default_level INTEGER NOT NULL DEFAULT -1,"
	"  position BIGINT NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  updated_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX collections_org ON collections (org_id, created_at, id);"
	"CREATE INDEX collections_parent ON collections (org_id, parent_id, position, id);"
	"CREATE INDEX collections_child ON collections (parent_id);"
	"CREATE TABLE spaces ("
	"  id TEXT PRIMARY KEY,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  parent_id TEXT REFERENCES collections(id) ON DELETE SET NULL,"
	"  title TEXT NOT NULL,"
	"  emoji TEXT,"
	"  icon TEXT,"
	"  visibility TEXT NOT NULL DEFAULT 'private',"
	"  edit_mode TEXT NOT NULL DEFAULT 'live',"
	"  language TEXT,"
	"  default_level INTEGER NOT NULL DEFAULT -1,"
	"  revision TEXT NOT NULL,"
	"  merge_rules TEXT NOT NULL DEFAULT '{\"type\":\"inherit\"}',"
	"  position BIGINT NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  updated_at BIGINT NOT NULL,"
	"  deleted_at BIGINT,"
	"  comments BIGINT NOT NULL DEFAULT 0,"
	"  change_requests BIGINT NOT NULL DEFAULT 0,"
	"  change_requests_open BIGINT NOT NULL DEFAULT 0,"
	"  change_requests_draft BIGINT NOT NULL DEFAULT 0) " WITHOUT_ROWID ";"
	/* Live spaces only: lists never see deleted ones, and the purge job reads
	 * its own index of deletion times. */
	"CREATE INDEX spaces_org ON spaces (org_id, created_at, id) WHERE deleted_at IS NULL;"
	"CREATE INDEX spaces_parent ON spaces (org_id, parent_id, position, id) WHERE deleted_at IS NULL;"
	"CREATE INDEX spaces_in ON spaces (parent_id);"
	"CREATE INDEX spaces_deleted ON spaces (deleted_at) WHERE deleted_at IS NOT NULL;"
	/* A grant of a role on a space or collection (target) to a user or team
	 * (principal). The typed columns exist for their foreign keys: a grant goes
	 * with its space, collection, team, or the user's membership. */
	"CREATE TABLE grants ("
	"  target_id TEXT NOT NULL,"
	"  principal_id TEXT NOT NULL,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  space_id TEXT REFERENCES spaces(id) ON DELETE CASCADE,"
	"  collection_id TEXT REFERENCES collections(id) ON DELETE CASCADE,"
	"  user_id TEXT,"
	"  team_id TEXT REFERENCES teams(id) ON DELETE CASCADE,"
	"  role INTEGER NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  PRIMARY KEY (target_id, principal_id),"
	"  FOREIGN KEY (org_id, user_id) REFERENCES members(org_id, user_id) ON DELETE CASCADE) " WITHOUT_ROWID ";"
	"CREATE INDEX grants_principal ON grants (org_id, principal_id, target_id, role);"
	"CREATE INDEX grants_list ON grants (target_id, created_at, principal_id);"
	"CREATE INDEX grants_space ON grants (space_id);"
	"CREATE INDEX grants_collection ON grants (collection_id);"
	/* Also covers the member list's count of spaces granted to each member. */
	"CREATE INDEX grants_user ON grants (org_id, user_id, space_id);"
	"CREATE INDEX grants_team ON grants (team_id);"
	"CREATE TABLE saml_providers ("
	"  id TEXT PRIMARY KEY,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  label TEXT NOT NULL,"
	"  entity_id TEXT,"
	"  certificate TEXT,"
	"  sso_url TEXT,"
	"  default_team TEXT REFERENCES teams(id) ON DELETE SET NULL,"
	"  default_role TEXT,"
	"  created_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX saml_providers_org ON saml_providers (org_id, created_at, id);"
	"CREATE INDEX saml_providers_team ON saml_providers (default_team);";

/* Content (DESIGN.md, "Content model"). Page bodies and file bytes are stored
 * once per distinct content, addressed by their SHA-256. A revision row holds
 * either a full manifest of the space's pages and files (a snapshot) or only
 * the entries that changed against its parent (a delta); model/revision.c
 * builds the tree from the nearest snapshot and the deltas after it. */
static const char m0003_revisions[] =
	"CREATE TABLE page_bodies ("
	"  hash TEXT PRIMARY KEY,"
	"  markdown TEXT NOT NULL,"
	"  created_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	/* Links as written in a body (taken once, when the body is first stored);
	 * their status is decided against the revision that reads them. */
	"CREATE TABLE page_links ("
	"  body_hash TEXT NOT NULL REFERENCES page_bodies(hash) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  target TEXT NOT NULL,"
	"  line INTEGER NOT NULL,"
	"  PRIMARY KEY (body_hash, seq)) " WITHOUT_ROWID ";"
	"CREATE INDEX page_links_target ON page_links (target, body_hash);"
	"CREATE TABLE file_blobs ("
	"  hash TEXT PRIMARY KEY,"
	"  size BIGINT NOT NULL,"
	"  content_type TEXT NOT NULL,"
	"  data TEXT NOT NULL," /* base64: one TEXT column both engines bind alike */
	"  created_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE TABLE revisions ("
	"  id TEXT PRIMARY KEY,"
	"  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
	"  parent_id TEXT," /* the revision this one's delta applies to; NULL for a snapshot */
	"  parents TEXT NOT NULL DEFAULT '[]',"
	"  type TEXT NOT NULL,"
	"  merged_from TEXT,"
	"  created_by TEXT,"
	"  created_at BIGINT NOT NULL,"
	"  chain INTEGER NOT NULL DEFAULT 0," /* deltas since the nearest snapshot */
	"  chain_bytes BIGINT NOT NULL DEFAULT 0,"
	"  manifest TEXT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX revisions_space ON revisions (space_id, created_at);"
	"INSERT INTO revisions (id, space_id, parents, type, created_at, manifest) "
	"  SELECT revision, id, '[]', 'edits', created_at, '{\"pages\":[],\"files\":[]}' FROM spaces;"
	"CREATE TABLE change_requests ("
	"  id TEXT PRIMARY KEY,"
	"  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
	"  number INTEGER NOT NULL,"
	"  status TEXT NOT NULL,"
	"  subject TEXT NOT NULL DEFAULT '',"
	"  agent_task_id TEXT,"
	"  created_by TEXT NOT NULL REFERENCES users(id),"
	"  created_at BIGINT NOT NULL,"
	"  updated_at BIGINT NOT NULL,"
	"  revision TEXT NOT NULL,"
	"  revision_initial TEXT NOT NULL,"
	"  revision_merged_ancestor TEXT,"
	"  revision_merged TEXT,"
	"  comments INTEGER NOT NULL DEFAULT 0," /* open comments */
	"  UNIQUE (space_id, number)) " WITHOUT_ROWID ";"
	"CREATE INDEX change_requests_list ON change_requests (space_id, status, created_at, id);"
	"CREATE TABLE change_request_contributors ("
	"  change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,"
	"  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
	"  PRIMARY KEY (change_request_id, user_id)) " WITHOUT_ROWID ";"
	"CREATE INDEX change_request_contributors_user ON change_request_contributors (user_id);"
	"ALTER TABLE spaces ADD COLUMN change_request_seq INTEGER NOT NULL DEFAULT 0;"
	/* Comments and replies (parent_id set) on a space or a change request. */
	"CREATE TABLE comments ("
	"  id TEXT PRIMARY KEY,"
	"  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
	"  change_request_id TEXT REFERENCES change_requests(id) ON DELETE CASCADE,"
	"  parent_id TEXT REFERENCES comments(id) ON DELETE CASCADE,"
	"  posted_by TEXT NOT NULL REFERENCES users(id),"
	"  posted_at BIGINT NOT NULL,"
	"  edited_at BIGINT,"
	"  markdown TEXT NOT NULL,"
	"  status TEXT NOT NULL DEFAULT 'open',"
	"  resolved_at BIGINT,"
	"  resolved_by TEXT REFERENCES users(id),"
	"  revision TEXT NOT NULL,"
	"  target_page TEXT,"
	"  target_node TEXT,"
	"  target_preview TEXT,"
	"  target_table_cell TEXT," /* JSON {record, definition} */
	"  replies INTEGER NOT NULL DEFAULT 0) " WITHOUT_ROWID ";"
	"CREATE INDEX comments_list ON comments (space_id, change_request_id, parent_id, posted_at, id);"
	"CREATE INDEX comments_parent ON comments (parent_id, posted_at, id);"
	"CREATE TABLE comment_reactions ("
	"  comment_id TEXT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,"
	"  emoji TEXT NOT NULL,"
	"  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
	"  reacted_at BIGINT NOT NULL,"
	"  PRIMARY KEY (comment_id, emoji, user_id)) " WITHOUT_ROWID ";";

/* The key that signs file and PDF download URLs, made where the randomness is. */
static const char m0003_sqlite[] =
	"INSERT INTO settings (name, value) VALUES ('files', lower(hex(randomblob(32)))) ON CONFLICT DO NOTHING;";
static const char m0003_postgres[] =
	"INSERT INTO settings (name, value) VALUES ('files', replace(gen_random_uuid()::text, '-', '') || "
	"replace(gen_random_uuid()::text, '-', '')) ON CONFLICT DO NOTHING;";

/* Search: one row per page of each space's current revision (its sections as
 * JSON for excerpts); the full-text index is the engine's own. */
static const char m0004_search[] =
	"CREATE TABLE search_pages ("
	"  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
	"  page_id TEXT NOT NULL,"
	"  org_id TEXT NOT NULL,"
	"  title TEXT NOT NULL,"
	"  path TEXT NOT NULL,"
	"  body TEXT NOT NULL,"
	"  sections TEXT NOT NULL,"
	"  UNIQUE (space_id, page_id));"
	"CREATE INDEX search_pages_org ON search_pages (org_id);";
/* FTS5 with the table as external content, kept in step by triggers (a
 * cascade from spaces fires the delete trigger too). */
static const char m0004_sqlite[] =
	"CREATE VIRTUAL TABLE search_fts USING fts5(title, body, content='search_pages', content_rowid='rowid', "
	"  tokenize='unicode61 remove_diacritics 2');"
	"CREATE TRIGGER search_pages_ai AFTER INSERT ON search_pages BEGIN "
	"  INSERT INTO search_fts(rowid, title, body) VALUES (new.rowid, new.title, new.body); END;"
	"CREATE TRIGGER search_pages_ad AFTER DELETE ON search_pages BEGIN "
	"  INSERT INTO search_fts(search_fts, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body); END;"
	"CREATE TRIGGER search_pages_au AFTER UPDATE ON search_pages BEGIN "
	"  INSERT INTO search_fts(search_fts, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);"
	"  INSERT INTO search_fts(rowid, title, body) VALUES (new.rowid, new.title, new.body); END;";
static const char m0004_postgres[] =
	"ALTER TABLE search_pages ADD COLUMN tsv tsvector GENERATED ALWAYS AS "
	"  (setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', body), 'B')) STORED;"
	"CREATE INDEX search_pages_tsv ON search_pages USING GIN (tsv);";

/* Search, the index store/search.c reads (its DESIGN comment): one row per
 * page, sections packed in `body` (title US text, RS between sections) and
 * `anchors`, an integer key for the engines' row ids. It replaces migration
 * 4's table, whose rows are carried over. */
static const char m0005_search_index[] =
	"CREATE TABLE search_index ("
	"  id INTEGER PRIMARY KEY,"
	"  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
	"  page_id TEXT NOT NULL,"
	"  org_id TEXT NOT NULL,"
	"  title TEXT NOT NULL,"
	"  path TEXT NOT NULL,"
	"  anchors TEXT NOT NULL,"
	"  body TEXT NOT NULL,"
	"  UNIQUE (space_id, page_id));";
/* FTS5 over the table as external content, kept in step by triggers (which
 * fire on the cascade from spaces too). space_id and org_id are indexed so a
 * MATCH can select a space's or an organization's pages. prefix: the index
 * answers 2- and 3-character prefixes of search-as-you-type directly. */
static const char m0005_sqlite[] =
	"DROP TRIGGER search_pages_ai;"
	"DROP TRIGGER search_pages_ad;"
	"DROP TRIGGER search_pages_au;"
	"DROP TABLE search_fts;"
	"CREATE VIRTUAL TABLE search_fts USING fts5(space_id, org_id, title, body, content='search_index', "
	"  content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3');"
	"CREATE TRIGGER search_index_ai AFTER INSERT ON search_index BEGIN "
	"  INSERT INTO search_fts(rowid, space_id, org_id, title, body) "
	"  VALUES (new.id, new.space_id, new.org_id, new.title, new.body); END;"
	"CREATE TRIGGER search_index_ad AFTER DELETE ON search_index BEGIN "
	"  INSERT INTO search_fts(search_fts, rowid, space_id, org_id, title, body) "
	"  VALUES ('delete', old.id, old.space_id, old.org_id, old.title, old.body); END;"
	"CREATE TRIGGER search_index_au AFTER UPDATE ON search_index BEGIN "
	"  INSERT INTO search_fts(search_fts, rowid, space_id, org_id, title, body) "
	"  VALUES ('delete', old.id, old.space_id, old.org_id, old.title, old.body);"
	"  INSERT INTO search_fts(rowid, space_id, org_id, title, body) "
	"  VALUES (new.id, new.space_id, new.org_id, new.title, new.body); END;"
	"CREATE TRIGGER search_index_org AFTER UPDATE OF org_id ON spaces WHEN new.org_id IS NOT old.org_id BEGIN "
	"  UPDATE search_index SET org_id = new.org_id WHERE space_id = new.id; END;"
	"INSERT INTO search_index (space_id, page_id, org_id, title, path, anchors, body) "
	"  SELECT v.space_id, v.page_id, v.org_id, v.title, v.path, "
	"  COALESCE((SELECT group_concat(json_extract(e.value, '$.id'), char(30)) FROM json_each(v.sections) e), ''), "
	"  COALESCE((SELECT group_concat(json_extract(e.value, '$.title') || char(31) || json_extract(e.value, '$.body'), "
	"  char(30)) FROM json_each(v.sections) e), '') FROM search_pages v;"
	"DROP TABLE search_pages;";
/* A generated tsvector (title weight A, text D) under a GIN index; org_id
 * follows a transferred space through a trigger. */
static const char m0005_postgres[] =
	"ALTER TABLE search_index ALTER COLUMN id SET DATA TYPE BIGINT;"
	"ALTER TABLE search_index ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY;"
	"ALTER TABLE search_index ADD COLUMN tsv tsvector GENERATED ALWAYS AS "
	"  (setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', body), 'D')) STORED;"
	"CREATE INDEX search_index_tsv ON search_index USING GIN (tsv);"
	"CREATE INDEX search_index_org ON search_index (org_id);"
	"CREATE FUNCTION search_index_follow_org() RETURNS trigger LANGUAGE plpgsql AS "
	"  $$BEGIN UPDATE search_index SET org_id = NEW.org_id WHERE space_id = NEW.id; RETURN NULL; END$$;"
	"CREATE TRIGGER search_index_org AFTER UPDATE OF org_id ON spaces FOR EACH ROW "
	"  WHEN (OLD.org_id IS DISTINCT FROM NEW.org_id) EXECUTE FUNCTION search_index_follow_org();"
	"INSERT INTO search_index (space_id, page_id, org_id, title, path, anchors, body) "
	"  SELECT v.space_id, v.page_id, v.org_id, v.title, v.path, "
	"  COALESCE((SELECT string_agg(e.value->>'id', chr(30) ORDER BY e.n) "
	"  FROM json_array_elements(CAST(v.sections AS JSON)) WITH ORDINALITY AS e(value, n)), ''), "
	"  COALESCE((SELECT string_agg(concat(e.value->>'title', chr(31), e.value->>'body'), chr(30) ORDER BY e.n) "
	"  FROM json_array_elements(CAST(v.sections AS JSON)) WITH ORDINALITY AS e(value, n)), '') FROM search_pages v;"
	"DROP TABLE search_pages;";

/* Docs sites (domain/sites.c, domain/site_structure.c). A site shows spaces
 * (site spaces) at the root or inside sections; sections may belong to a
 * section group. Invariants the domain keeps: when a site has sections,
 * exactly one is default and no site space sits at the root; each section
 * (or the root) with site spaces has exactly one default site space; a site
 * space's path is unique within its section (the index below, with '' for
 * the root) and a section's path within its site. position orders the
 * siblings of one parent (groups and ungrouped sections share the site's
 * top level; sections of a group order inside it). generation is bumped by
 * every change of the site, its structure, customization or share links: the
 * published-site renderer keys its cache on it (with the spaces' revisions).
 * JSON columns hold compact JSON text. visitor_key signs visitor-auth JWTs
 * (publishing/auth). */
static const char m0006_sites[] =
	"CREATE TABLE sites ("
	"  id TEXT PRIMARY KEY,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  type TEXT NOT NULL DEFAULT 'basic',"
	"  title TEXT NOT NULL,"
	"  visibility TEXT NOT NULL DEFAULT 'public',"
	"  published INTEGER NOT NULL DEFAULT 0,"
	"  basename TEXT UNIQUE,"
	"  hostname TEXT UNIQUE,"
	"  proxy TEXT,"
	"  icon TEXT,"
	"  adaptive_enabled INTEGER NOT NULL DEFAULT 0,"
	"  agents_context TEXT NOT NULL DEFAULT 'included',"
	"  adaptive_schema TEXT,"
	"  adaptive_updated_at BIGINT NOT NULL DEFAULT 0,"
	"  customization TEXT NOT NULL DEFAULT '{}',"
	"  visitor_key TEXT NOT NULL,"
	"  generation BIGINT NOT NULL DEFAULT 0,"
	"  created_at BIGINT NOT NULL,"
	"  updated_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX sites_org ON sites (org_id, created_at, id);"
	"CREATE TABLE site_section_groups ("
	"  id TEXT PRIMARY KEY,"
	"  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,"
	"  title TEXT NOT NULL,"
	"  icon TEXT,"
	"  position BIGINT NOT NULL,"
	"  created_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX site_section_groups_site ON site_section_groups (site_id, position, id);"
	"CREATE TABLE site_sections ("
	"  id TEXT PRIMARY KEY,"
	"  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,"
	"  group_id TEXT REFERENCES site_section_groups(id) ON DELETE SET NULL,"
	"  title TEXT NOT NULL,"
	"  description TEXT,"
	"  path TEXT NOT NULL,"
	"  condition TEXT,"
	"  icon TEXT,"
	"  is_default INTEGER NOT NULL DEFAULT 0,"
	"  position BIGINT NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  UNIQUE (site_id, path)) " WITHOUT_ROWID ";"
	"CREATE INDEX site_sections_site ON site_sections (site_id, position, id);"
	"CREATE TABLE site_spaces ("
	"  id TEXT PRIMARY KEY,"
	"  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,"
	"  section_id TEXT REFERENCES site_sections(id) ON DELETE CASCADE,"
	"  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
	"  path TEXT NOT NULL,"
	"  condition TEXT,"
	"  is_default INTEGER NOT NULL DEFAULT 0,"
	"  customization TEXT,"
	"  position BIGINT NOT NULL,"
	"  created_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX site_spaces_site ON site_spaces (site_id, section_id, position, id);"
	"CREATE INDEX site_spaces_space ON site_spaces (space_id);"
	"CREATE UNIQUE INDEX site_spaces_path ON site_spaces (site_id, COALESCE(section_id, ''), path);"
	"CREATE TABLE site_share_links ("
	"  id TEXT PRIMARY KEY,"
	"  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,"
	"  name TEXT,"
	"  key TEXT NOT NULL UNIQUE,"
	"  active INTEGER NOT NULL DEFAULT 1,"
	"  created_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX site_share_links_site ON site_share_links (site_id, created_at, id);";

/* Publishing auth of a site (domain/sites.c): the visitor-auth backend
 * (custom: the site's owner signs visitor JWTs with visitor_key; integration:
 * an installed integration does) and the URL visitors go to when their token
 * is missing or invalid. */
static const char m0007_site_auth[] =
	"ALTER TABLE sites ADD COLUMN visitor_auth_backend TEXT NOT NULL DEFAULT 'custom';"
	"ALTER TABLE sites ADD COLUMN visitor_auth_fallback_url TEXT;";

/* Reviews of change requests and the reviewers requested (store/reviews.c).
 * superseded: the same reviewer reviewed again, or was requested again, since. */
static const char m0008_reviews[] =
	"CREATE TABLE cr_reviews ("
	"  id TEXT PRIMARY KEY,"
	"  change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,"
	"  reviewer_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
	"  requested_by TEXT REFERENCES users(id) ON DELETE SET NULL,"
	"  status TEXT NOT NULL,"
	"  revision TEXT NOT NULL,"
	"  superseded INTEGER NOT NULL DEFAULT 0,"
	"  comment_id TEXT REFERENCES comments(id) ON DELETE SET NULL," /* posted with the review */
	"  position BIGINT NOT NULL," /* 1, 2, ... in the change request: the list's order */
	"  created_at BIGINT NOT NULL,"
	"  updated_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX cr_reviews_cr ON cr_reviews (change_request_id, position, id);"
	"CREATE TABLE cr_requested_reviewers ("
	"  change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,"
	"  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
	"  requested_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
	"  revision TEXT NOT NULL,"
	"  position BIGINT NOT NULL," /* 1, 2, ... in the change request: the list's order */
	"  created_at BIGINT NOT NULL,"
	"  PRIMARY KEY (change_request_id, user_id)) " WITHOUT_ROWID ";"
	"CREATE INDEX cr_requested_reviewers_order ON cr_requested_reviewers (change_request_id, position, user_id);";
/* Change requests (issue 12): a description (a JSONDocument kept as JSON
 * text), and per contributor how many edits they made and when the last was
 * (UserContributor); rows from before count one edit at the change request's
 * last update. */
static const char m0009_change_requests[] =
	"ALTER TABLE change_requests ADD COLUMN description TEXT;"
	"ALTER TABLE change_request_contributors ADD COLUMN edits BIGINT NOT NULL DEFAULT 1;"
	"ALTER TABLE change_request_contributors ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0;"
	"UPDATE change_request_contributors SET updated_at = (SELECT c.updated_at FROM change_requests c "
	"  WHERE c.id = change_request_contributors.change_request_id);"
	"CREATE INDEX change_requests_creator ON change_requests (created_by, created_at, id);"
	"CREATE INDEX comments_change_request ON comments (change_request_id, posted_by);";

/* A comment's review (Comment.target.review) is found by the comment's id. */
static const char m0010_review_comments[] = "CREATE INDEX cr_reviews_comment ON cr_reviews (comment_id);";

/* The durable job queue (store/jobs.c, jobs/jobs.c). state: queued, running,
 * done, failed. dedup = 1: at most one such job queued per kind and subject
 * (jobs_dedup). lease_until: a running job whose lease passed is claimed
 * again (its process died). */
static const char m0011_jobs[] =
	"CREATE TABLE jobs ("
	"  id TEXT PRIMARY KEY,"
	"  kind TEXT NOT NULL,"
	"  subject TEXT NOT NULL DEFAULT '',"
	"  payload TEXT NOT NULL DEFAULT '{}',"
	"  state TEXT NOT NULL DEFAULT 'queued',"
	"  dedup INTEGER NOT NULL DEFAULT 0,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  run_after BIGINT NOT NULL,"
	"  lease_until BIGINT,"
	"  worker TEXT,"
	"  last_error TEXT,"
	"  result TEXT,"
	"  created_at BIGINT NOT NULL,"
	"  updated_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX jobs_due ON jobs (state, run_after);"
	"CREATE INDEX jobs_kind ON jobs (kind, subject, state);"
	"CREATE UNIQUE INDEX jobs_dedup ON jobs (kind, subject) WHERE state = 'queued' AND dedup = 1;";

/* Git sync (issue 13; store/git_sync.c, domain/git_sync.c). git_syncs: a
 * space's link to a repository: the remote without credentials, the
 * credentials sealed (util/seal.h), the request's options, what the last
 * applied sync recorded (import_commit, export_commit, synced_revision,
 * summary, last_timestamp, applied_job: the job whose effect that was) and the last operation's status (op_*).
 * spaces.git_sync: the link as GitBook's GitSyncState JSON (with the last
 * operation), written with every change of the row so that a space read
 * needs no join. revisions.git: GitBook's GitSyncCommit JSON of the commit a
 * revision was imported from. */
static const char m0012_git_sync[] =
	"CREATE TABLE git_syncs ("
	"  space_id TEXT PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,"
	"  url TEXT NOT NULL,"
	"  credentials TEXT,"
	"  ref TEXT NOT NULL,"
	"  provider TEXT,"
	"  info_url TEXT,"
	"  tree_url TEXT,"
	"  commit_url TEXT,"
	"  project_dir TEXT,"
	"  cache_id TEXT,"
	"  repo_name TEXT NOT NULL,"
	"  updated_at BIGINT NOT NULL,"
	"  import_commit TEXT,"
	"  import_key TEXT,"
	"  export_commit TEXT,"
	"  synced_revision TEXT,"
	"  summary_oid TEXT,"
	"  summary_hash TEXT,"
	"  last_timestamp BIGINT NOT NULL DEFAULT 0,"
	"  applied_job TEXT,"
	"  op_state TEXT,"
	"  op_direction TEXT,"
	"  op_stage TEXT,"
	"  op_error TEXT,"
	"  op_note TEXT,"
	"  op_commit TEXT,"
	"  op_revision TEXT,"
	"  op_job TEXT,"
	"  op_completed_tasks INTEGER NOT NULL DEFAULT 0,"
	"  op_started_at BIGINT NOT NULL DEFAULT 0,"
	"  op_updated_at BIGINT NOT NULL DEFAULT 0,"
	"  op_completed_at BIGINT NOT NULL DEFAULT 0) " WITHOUT_ROWID ";"
	"ALTER TABLE spaces ADD COLUMN git_sync TEXT;"
	"ALTER TABLE revisions ADD COLUMN git TEXT;";

/* OpenAPI specifications of an organization and their versions
 * (store/openapi.c, domain/openapi.c). A spec's source is a URL or a text;
 * `generation` counts its sources, so the processing job writes its result
 * only while the source it read is still the spec's. A version keeps the
 * processed files (GitBook's OpenAPISpecContent.filesystem, JSON) and the
 * SHA-256 of that JSON, compared with the last version's before a new one is
 * added: a version only when the content changed. */
static const char m0013_openapi[] =
	"CREATE TABLE openapi_specs ("
	"  id TEXT PRIMARY KEY,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  slug TEXT NOT NULL,"
	"  source_url TEXT,"
	"  source_text TEXT,"
	"  visibility TEXT NOT NULL DEFAULT 'private',"
	"  processing_state TEXT NOT NULL DEFAULT 'pending',"
	"  last_version TEXT,"
	"  last_processed_at BIGINT,"
	"  last_error_code TEXT,"
	"  last_errors TEXT,"
	"  generation BIGINT NOT NULL DEFAULT 1,"
	"  created_at BIGINT NOT NULL,"
	"  updated_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE UNIQUE INDEX openapi_specs_slug ON openapi_specs (org_id, slug);"
	"CREATE INDEX openapi_specs_org ON openapi_specs (org_id, created_at, id);"
	"CREATE TABLE openapi_versions ("
	"  id TEXT PRIMARY KEY,"
	"  spec_id TEXT NOT NULL REFERENCES openapi_specs(id) ON DELETE CASCADE,"
	"  url TEXT NOT NULL,"
	"  content_hash TEXT NOT NULL,"
	"  filesystem TEXT NOT NULL,"
	"  created_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX openapi_versions_spec ON openapi_versions (spec_id, created_at, id);";

/* Translations (store/translations.c, model/translation.h). status is what the
 * last run left (pending | completed); while a run's job (job_id) is queued,
 * running or failed, its state decides what the API shows. applied_run: the
 * job whose result is written, set in the transaction that writes it, so a
 * run killed after that commit does not write a second result. Per page of
 * the source, translation_pages keeps a key of what was translated (the
 * page's type, title, description, body and link), so the next run
 * translates only pages whose key changed. The result space outlives its
 * translation; a purged source takes its translations with it. */
static const char m0014_translations[] =
	"CREATE TABLE translations ("
	"  id TEXT PRIMARY KEY,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  source_space TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
	"  source_language TEXT NOT NULL,"
	"  language TEXT NOT NULL,"
	"  instructions TEXT NOT NULL,"
	"  status TEXT NOT NULL DEFAULT 'pending',"
	"  job_id TEXT,"
	"  applied_run TEXT,"
	"  result_space TEXT REFERENCES spaces(id) ON DELETE SET NULL,"
	"  result_revision TEXT,"
	"  source_revision TEXT,"
	"  runs BIGINT NOT NULL DEFAULT 0,"
	"  total_words BIGINT NOT NULL DEFAULT 0,"
	"  total_pages BIGINT NOT NULL DEFAULT 0,"
	"  total_duration BIGINT NOT NULL DEFAULT 0,"
	"  latest_run_duration BIGINT NOT NULL DEFAULT 0,"
	"  latest_pages BIGINT NOT NULL DEFAULT 0,"
	"  latest_words BIGINT NOT NULL DEFAULT 0,"
	"  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,"
	"  created_at BIGINT NOT NULL,"
	"  updated_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX translations_org ON translations (org_id, created_at, id);"
	"CREATE INDEX translations_source ON translations (source_space);"
	"CREATE INDEX translations_result ON translations (result_space);"
	"CREATE TABLE translation_pages ("
	"  translation_id TEXT NOT NULL REFERENCES translations(id) ON DELETE CASCADE,"
	"  page_id TEXT NOT NULL,"
	"  source_key TEXT NOT NULL,"
	"  PRIMARY KEY (translation_id, page_id)) " WITHOUT_ROWID ";";

/* Site basenames without case: /sites/SITEC and /sites/sitec are one URL
 * (store_site_by_name compares lower() of both), so two sites may not have
 * basenames that differ only in case; the unique index on lower(basename)
 * makes it so. Rows that already collide keep the basename on the oldest
 * site (created_at, then id) and lose it on the others (NULL: they stay
 * reachable at /sites/{id}): renaming them could collide again, while NULL
 * cannot, so the migration succeeds on any data, on both engines (basenames
 * are ASCII, [A-Za-z0-9._-], where both lower()s agree). */
static const char m0015_site_basename_nocase[] =
	"UPDATE sites SET basename = NULL WHERE basename IS NOT NULL AND EXISTS ("
	"  SELECT 1 FROM sites o WHERE o.basename IS NOT NULL AND lower(o.basename) = lower(sites.basename)"
	"  AND (o.created_at < sites.created_at OR (o.created_at = sites.created_at AND o.id < sites.id)));"
	"CREATE UNIQUE INDEX sites_basename_nocase ON sites (lower(basename));";

/* Redirects of published sites (store/site_redirects.c, domain/site_redirects.c).
 * site_redirects: GitBook's SiteRedirect, a source path of the site and a
 * destination (a section, a site space or a page of a site space), unique by
 * source. space_page_paths: the paths a space's pages had before a revision
 * changed them (renamed, moved), recorded when the space's content advances,
 * so the site answers the old URL with a 301 to the page's current one; one
 * row per (space, old path), the latest page to leave it wins.
 * revision_redirects: .gitbook.yaml's `redirects` of a Git import, stored
 * with the revision they came with (source: a path under the space's root;
 * target: the repository file path of the page, matched with pages'
 * git_path). */
static const char m0016_site_redirects[] =
	"CREATE TABLE site_redirects ("
	"  id TEXT PRIMARY KEY,"
	"  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,"
	"  source TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  section_id TEXT,"
	"  site_space_id TEXT,"
	"  page_id TEXT,"
	"  created_at BIGINT NOT NULL,"
	"  UNIQUE (site_id, source)) " WITHOUT_ROWID ";"
	"CREATE INDEX site_redirects_site ON site_redirects (site_id, created_at, id);"
	"CREATE TABLE space_page_paths ("
	"  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
	"  path TEXT NOT NULL,"
	"  page_id TEXT NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  PRIMARY KEY (space_id, path)) " WITHOUT_ROWID ";"
	"CREATE TABLE revision_redirects ("
	"  revision_id TEXT NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,"
	"  source TEXT NOT NULL,"
	"  target TEXT NOT NULL,"
	"  PRIMARY KEY (revision_id, source)) " WITHOUT_ROWID ";";

/* Integrations (store/integrations.c, domain/integrations.c). An
 * integration is owned by an organization and acts through its own user row
 * (user_id: what GET /v1/user answers for its tokens). Each publish adds a
 * version with its script; `version` on the integration is the latest.
 * secrets: the sealed JSON map (util/seal.h), never returned. Installations
 * are per organization (one per integration and organization), with their
 * space and site installations. Tokens keep only their SHA-256, like API
 * tokens, and die with their installation. Events keep their payload and,
 * per delivery attempt, the trace lines; seq orders an integration's
 * events (each installation's are delivered in that order). */
static const char m0017_integrations[] =
	"CREATE TABLE integrations ("
	"  id TEXT PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  user_id TEXT NOT NULL REFERENCES users(id),"
	"  version BIGINT NOT NULL,"
	"  runtime TEXT NOT NULL,"
	"  title TEXT NOT NULL,"
	"  description TEXT NOT NULL,"
	"  summary TEXT,"
	"  visibility TEXT NOT NULL,"
	"  target TEXT NOT NULL,"
	"  scopes TEXT NOT NULL,"
	"  categories TEXT NOT NULL,"
	"  blocks TEXT NOT NULL,"
	"  content_sources TEXT NOT NULL,"
	"  external_links TEXT NOT NULL,"
	"  configurations TEXT NOT NULL,"
	"  csp TEXT,"
	"  secrets TEXT,"
	"  icon TEXT,"
	"  preview_images TEXT NOT NULL,"
	"  dev_tunnel TEXT,"
	"  dev_all INTEGER NOT NULL DEFAULT 0,"
	"  created_at BIGINT NOT NULL,"
	"  updated_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX integrations_org ON integrations (org_id);"
	"CREATE TABLE integration_versions ("
	"  integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,"
	"  version BIGINT NOT NULL,"
	"  script TEXT NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  PRIMARY KEY (integration_id, version)) " WITHOUT_ROWID ";"
	"CREATE TABLE integration_installations ("
	"  id TEXT PRIMARY KEY,"
	"  integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,"
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  status TEXT NOT NULL,"
	"  space_selection TEXT NOT NULL,"
	"  site_selection TEXT NOT NULL,"
	"  configuration TEXT NOT NULL,"
	"  external_ids TEXT NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  updated_at BIGINT NOT NULL,"
	"  UNIQUE (integration_id, org_id)) " WITHOUT_ROWID ";"
	"CREATE INDEX integration_installations_org ON integration_installations (org_id, created_at, id);"
	"CREATE INDEX integration_installations_list ON integration_installations (integration_id, created_at, id);"
	"CREATE TABLE integration_targets ("
	"  installation_id TEXT NOT NULL REFERENCES integration_installations(id) ON DELETE CASCADE,"
	"  kind TEXT NOT NULL,"
	"  target_id TEXT NOT NULL,"
	"  status TEXT NOT NULL,"
	"  configuration TEXT NOT NULL,"
	"  external_ids TEXT NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  updated_at BIGINT NOT NULL,"
	"  PRIMARY KEY (installation_id, kind, target_id)) " WITHOUT_ROWID ";"
	"CREATE INDEX integration_targets_target ON integration_targets (kind, target_id);"
	"CREATE TABLE integration_tokens ("
	"  hash TEXT PRIMARY KEY,"
	"  integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,"
	"  installation_id TEXT REFERENCES integration_installations(id) ON DELETE CASCADE,"
	"  created_at BIGINT NOT NULL,"
	"  expires_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX integration_tokens_installation ON integration_tokens (installation_id);"
	"CREATE TABLE integration_events ("
	"  id TEXT PRIMARY KEY,"
	"  integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,"
	"  installation_id TEXT,"
	"  org_id TEXT NOT NULL,"
	"  seq BIGINT NOT NULL,"
	"  payload TEXT NOT NULL,"
	"  status TEXT NOT NULL,"
	"  attempts BIGINT NOT NULL DEFAULT 0,"
	"  created_at BIGINT NOT NULL,"
	"  finished_at BIGINT) " WITHOUT_ROWID ";"
	"CREATE INDEX integration_events_list ON integration_events (integration_id, created_at, id);"
	"CREATE INDEX integration_events_order ON integration_events (installation_id, seq);"
	"CREATE TABLE integration_event_logs ("
	"  event_id TEXT NOT NULL REFERENCES integration_events(id) ON DELETE CASCADE,"
	"  n BIGINT NOT NULL,"
	"  level TEXT NOT NULL,"
	"  message TEXT NOT NULL,"
	"  ts BIGINT NOT NULL,"
	"  PRIMARY KEY (event_id, n)) " WITHOUT_ROWID ";";

/* 18: the web interface's sign-in (issue 25, app/session.c): passwords
 * (argon2id strings from libsodium, one per user), sessions (id: SHA-256 of
 * the cookie's random token, never the token itself; in_org: whether the user
 * belonged to an organization when it began, so that leaving the last one
 * ends it) and sign-in attempts (one row per attempt and bucket, "a:<email>" or
 * "i:<address>", counted over a window for the rate limit). */
static const char m0018_sessions[] =
	"CREATE TABLE user_passwords ("
	"  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,"
	"  hash TEXT NOT NULL,"
	"  updated_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE TABLE sessions ("
	"  id TEXT PRIMARY KEY,"
	"  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
	"  csrf TEXT NOT NULL,"
	"  in_org INTEGER NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  expires_at BIGINT NOT NULL,"
	"  last_seen_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX sessions_user ON sessions (user_id);"
	"CREATE INDEX sessions_expires ON sessions (expires_at);"
	"CREATE TABLE signin_attempts ("
	"  bucket TEXT NOT NULL,"
	"  at BIGINT NOT NULL);"
	"CREATE INDEX signin_attempts_bucket ON signin_attempts (bucket, at);";

/* SAML sign-in (app/saml.c): the AuthnRequests docsd issued (single use,
 * ten minutes) and the assertions it accepted (refused again until they
 * expire). Both go with their provider. */
static const char m0019_saml_sso[] =
	"CREATE TABLE saml_requests ("
	"  id TEXT PRIMARY KEY,"
	"  provider_id TEXT NOT NULL REFERENCES saml_providers(id) ON DELETE CASCADE,"
	"  next TEXT,"
	"  created_at BIGINT NOT NULL,"
	"  expires_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX saml_requests_expires ON saml_requests (expires_at);"
	"CREATE INDEX saml_requests_provider ON saml_requests (provider_id);"
	"CREATE TABLE saml_assertions ("
	"  provider_id TEXT NOT NULL REFERENCES saml_providers(id) ON DELETE CASCADE,"
	"  assertion_id TEXT NOT NULL,"
	"  expires_at BIGINT NOT NULL,"
	"  PRIMARY KEY (provider_id, assertion_id)) " WITHOUT_ROWID ";"
	"CREATE INDEX saml_assertions_expires ON saml_assertions (expires_at);";

/* Personal API tokens get a name (the web interface's /settings/tokens lists
 * them by name and creation date; tokens made before, by `docsd token`, have
 * none). */
static const char m0020_token_names[] = "ALTER TABLE tokens ADD COLUMN name TEXT NOT NULL DEFAULT '';";

/* 21: SAML's trust model (issue 30, domain/saml_sso.h). saml_identities:
 * which docsd user an identity of a provider is (subject: the NameID, an
 * address lower-cased), written when the provider created the account
 * ('created') or when a signed-in user linked it ('linked'); one identity
 * per user and provider. org_domain_verifications: the token docsd issued
 * for an organization's email domain, and when docsd found it published on
 * that domain. saml_requests gains the SHA-256 of the browser nonce its
 * cookie carries (login CSRF) and, for a link, the user who started it. */
static const char m0021_saml_identities[] =
	"CREATE TABLE saml_identities ("
	"  provider_id TEXT NOT NULL REFERENCES saml_providers(id) ON DELETE CASCADE,"
	"  subject TEXT NOT NULL,"
	"  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
	"  how TEXT NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  PRIMARY KEY (provider_id, subject)) " WITHOUT_ROWID ";"
	"CREATE UNIQUE INDEX saml_identities_user ON saml_identities (user_id, provider_id);"
	"CREATE TABLE org_domain_verifications ("
	"  org_id TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,"
	"  domain TEXT NOT NULL,"
	"  token TEXT NOT NULL,"
	"  created_at BIGINT NOT NULL,"
	"  verified_at BIGINT,"
	"  PRIMARY KEY (org_id, domain)) " WITHOUT_ROWID ";"
	"ALTER TABLE saml_requests ADD COLUMN nonce_hash TEXT;"
	"ALTER TABLE saml_requests ADD COLUMN link_user_id TEXT;";
/* The sign-in throttle (domain/sessions.h, issue 30 item 5): one row per
 * bucket (an account, an address, an address on one account) with its
 * failures and the last one's time, replacing signin_attempts' row per
 * attempt; rows whose last failure is older than DOM_SIGNIN_FORGET_MS are
 * deleted (last_at's index finds them). users.token_gen is bumped in the
 * transaction of every revocation of the user's API tokens, so the token
 * cache of every process checks its entries against the store
 * (http/tokens.c, issue 30 item 6b). */
static const char m0022_signin_throttle[] =
	"DROP TABLE signin_attempts;"
	"CREATE TABLE signin_throttle ("
	"  bucket TEXT PRIMARY KEY,"
	"  failures BIGINT NOT NULL,"
	"  last_at BIGINT NOT NULL) " WITHOUT_ROWID ";"
	"CREATE INDEX signin_throttle_last ON signin_throttle (last_at);"
	"ALTER TABLE users ADD COLUMN token_gen BIGINT NOT NULL DEFAULT 0;";
/* 23: the job queue's per-key order (issue 31, store/jobs.c). A job with an
 * order_key runs only after every job of that key with a lower order_seq
 * has finished (done or failed): the claim itself skips it, so a job that
 * must wait is never claimed and pushed back. NULL key: no order.
 * jobs_order serves the enqueue's MAX(order_seq); jobs_order_open the
 * claim's NOT EXISTS probe, which must not walk a key's finished jobs (an
 * installation keeps thousands for a week). */
static const char m0023_job_order[] =
	"ALTER TABLE jobs ADD COLUMN order_key TEXT;"
	"ALTER TABLE jobs ADD COLUMN order_seq BIGINT NOT NULL DEFAULT 0;"
	"CREATE INDEX jobs_order ON jobs (order_key, order_seq);"
	"CREATE INDEX jobs_order_open ON jobs (order_key, state, order_seq);"
	/* A delivery's token mint deletes the integration's expired tokens
	 * first: found by this index, not by a scan of every token. */
	"CREATE INDEX integration_tokens_expiry ON integration_tokens (integration_id, expires_at);"
	/* An event's number (MAX(seq) of its integration) and a delivery's
	 * "an older event of the installation is pending" are index lookups,
	 * not walks over every event the integration ever had. */
	"CREATE INDEX integration_events_seq ON integration_events (integration_id, seq);"
	"CREATE INDEX integration_events_pending ON integration_events (installation_id, status, seq);";

const struct migration migrations[] = {
	{ 1, "foundation", m0001_foundation, NULL, NULL },
	{ 2, "content", m0002_content, NULL, NULL },
	{ 3, "revisions", m0003_revisions, m0003_sqlite, m0003_postgres },
	{ 4, "search", m0004_search, m0004_sqlite, m0004_postgres },
	{ 5, "search index", m0005_search_index, m0005_sqlite, m0005_postgres },
	{ 6, "sites", m0006_sites, NULL, NULL },
	{ 7, "site publishing auth", m0007_site_auth, NULL, NULL },
	{ 8, "change request reviews", m0008_reviews, NULL, NULL },
	{ 9, "change request descriptions and contributors", m0009_change_requests, NULL, NULL },
	{ 10, "review comments", m0010_review_comments, NULL, NULL },
	{ 11, "job queue", m0011_jobs, NULL, NULL },
	{ 12, "git sync", m0012_git_sync, NULL, NULL },
	{ 13, "openapi specs", m0013_openapi, NULL, NULL },
	{ 14, "translations", m0014_translations, NULL, NULL },
	{ 15, "site basenames without case", m0015_site_basename_nocase, NULL, NULL },
	{ 16, "site redirects and old page paths", m0016_site_redirects, NULL, NULL },
	{ 17, "integrations", m0017_integrations, NULL, NULL },
	{ 18, "web interface sessions and passwords", m0018_sessions, NULL, NULL },
	{ 19, "SAML requests and used assertions", m0019_saml_sso, NULL, NULL },
	{ 20, "token names", m0020_token_names, NULL, NULL },
	{ 21, "SAML identities and verified email domains", m0021_saml_identities, NULL, NULL },
	{ 22, "sign-in throttle and token generations", m0022_signin_throttle, NULL, NULL },
	{ 23, "job order keys", m0023_job_order, NULL, NULL },
};
const int migrations_count = (int)(sizeof(migrations) / sizeof(migrations[0]));
