/*
 * api.h - what handlers share: the public URL, the caller's org standing, and
 * the helpers that end a handler with a serialized object.
 */
#ifndef DOCSD_API_API_H
#define DOCSD_API_API_H

#include "api/routes.h"
#include "json/jsonw.h"
#include "json/serialize.h"
#include "http/http.h"
#include "store/store.h"
#include "util/err.h"

static inline const char *api_base(const struct req *r)
{
	return r->srv->public_url;
}

/* Respond with a member through its serializer. */
int api_send_member(struct req *r, const struct member *m);

/* mergeRules: {"type":"none"}, {"type":"rules","rules":[{"rule":...}...]}, and
 * for a space also {"type":"inherit"} (the organization's rules). 1 when
 * present (*out: compact JSON in the request arena), 0 when absent. */
int api_body_merge_rules(struct req *r, bool allow_inherit, const char **out);

/* Whether the caller may see members' email addresses (members of the org can). */
static inline bool api_sees_emails(const struct req *r)
{
	return r->dom.actor.org.role >= ROLE_READ;
}

#endif
