/* placeholder */
#include "api/api.h"

int cr_list(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int cr_create(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int cr_get(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int cr_update(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int cr_merge(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int cr_update_from_main(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int cr_content_update(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

