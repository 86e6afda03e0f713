/* placeholder until search lands */
#include "api/api.h"

int search_space(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int search_org(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

