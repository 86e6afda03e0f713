/*
 * templates.c - applyTemplateToSpace (the templates are domain/templates.c's).
 */
#include "api/content.h"
#include "domain/content.h"

int api_content_template_apply(struct req *r)
{
	const char *id = NULL;
	json_t *params = json_object_get(r->json, "params");
	int rc;

	if ((rc = body_string(r, "id", F_REQUIRED, 1, 64, &id)) < 0)
		return rc;
	if (params && !json_is_null(params) && !json_is_object(params))
		return err_set(ERR_INVALID, "params: must be an object");
	if ((rc = dom_template_apply(&r->dom, req_param(r, "spaceId"), id, json_is_object(params) ? params : NULL)))
		return rc;
	return resp_empty(r, 201);
}
