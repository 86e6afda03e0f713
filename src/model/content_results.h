/*
 * content_results.h - what content operations return beyond the objects
 * themselves: a content batch's outcome, a merge's result, a change request's
 * changes and a link's target. The domain (domain/content.h,
 * domain/change_requests.c) fills them; the serializers (json/serialize_cr.h)
 * write them. They live in model/ so that the domain includes no serializer
 * header (scripts/check-layers.sh).
 */
#ifndef DOCSD_MODEL_CONTENT_RESULTS_H
#define DOCSD_MODEL_CONTENT_RESULTS_H

#include "model/merge_rules.h"
#include "model/model.h"
#include "model/revision.h"
#include "model/tree_merge.h"

/* What a batch of content changes did: the pages and files it touched. */
#define CONTENT_MAX_OUTCOMES 64
struct content_change {
	const char *kind; /* created_page | updated_page | deleted_page */
	const char *page_id;
	const char *ref;
};
struct content_outcome {
	struct content_change items[CONTENT_MAX_OUTCOMES];
	int n;
	struct rev_file files[CONTENT_MAX_OUTCOMES];
	int nfiles;
	/* The download URL of each of files[], when the domain signed them
	 * (dom_cr_content_apply with urls). */
	const char *file_urls[CONTENT_MAX_OUTCOMES];
};

/* What a merge or an update of a change request answers. */
struct cr_merge_result {
	const char *revision; /* the new revision, or the head when nothing was written */
	const char *result;   /* "merge" | "update" | "conflicts" */
	struct merge_conflict *conflicts;
	int nconflicts;
};
/* getChangeRequestChanges: what differs between a change request's base and
 * its head (RevisionSemanticChanges). Pages point into the revision they are
 * shown from (created, edited, moved: the head; deleted: the base), `was`
 * into the base. */
enum cr_change_kind {
	CR_PAGE_CREATED,
	CR_PAGE_EDITED,
	CR_PAGE_DELETED,
	CR_PAGE_MOVED,
	CR_FILE_CREATED,
	CR_FILE_EDITED,
	CR_FILE_DELETED,
};
struct cr_change {
	enum cr_change_kind kind;
	const struct rev_page *page, *was;
	const struct rev_page *parent_before, *parent_after; /* moved; NULL: top level */
	const struct rev_file *file, *file_was;
	const char *url, *url_was; /* download URLs of file and file_was */
};
struct cr_changes {
	struct cr_change *items;
	int n;
	int more; /* changes left out above the limit */
};
/* A link of a page and where it points (dom_links). */
enum link_kind { LINK_PAGE, LINK_FILE, LINK_URL, LINK_ANCHOR };
struct link_target {
	enum link_kind kind;
	const char *status; /* ok | broken | in-app */
	const struct rev_page *page;
	const struct rev_file *file;
	const char *file_url; /* file's download URL (dom_links signs it), else NULL */
	const char *url;
};

#endif
