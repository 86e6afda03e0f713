/* placeholder until comments land */
#include "api/api.h"

int comment_list(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int comment_create(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int comment_get(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int comment_update(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int comment_delete(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int reply_list(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int reply_create(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int reply_get(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int reply_update(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int reply_delete(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int commenter_list(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

