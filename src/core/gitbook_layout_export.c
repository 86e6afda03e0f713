/*
 * gitbook_layout_export.c - a revision into the files of a GitBook-layout
 * repository (the export half of gitbook_layout.h). Work in progress: this
 * first version answers ERR_INTERNAL so callers link and fail cleanly.
 */
#include "core/gitbook_layout.h"

#include <string.h>

#include "util/err.h"

int layout_export(struct arena *a, const struct layout_export_in *in, struct layout_export_out *out)
{
	(void)a;
	(void)in;
	memset(out, 0, sizeof(*out));
	return err_set(ERR_INTERNAL, "layout export: not implemented yet");
}
