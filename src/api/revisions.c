/* placeholder */
#include "api/api.h"

int content_revision_get(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_pages_list(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_files_list(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_file_get(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_file_backlinks(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_page_get(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_page_links(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_page_backlinks(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_page_by_path(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_template_apply(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_space_links(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_space_pdf(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_cr_pdf(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_blob_get(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}

int content_pdf_get(struct req *r)
{
	return err_set(ERR_NOT_FOUND, "not implemented yet");
}
