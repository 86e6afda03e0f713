/*
 * pages_write.h - writing through change requests (pages_write.c) and its
 * assets (assets_edit.c: /~app/edit.js, /~app/edit.css). Internal to
 * src/app/.
 */
#ifndef DOCSD_APP_PAGES_WRITE_H
#define DOCSD_APP_PAGES_WRITE_H

#include "app/pages.h"

struct space;
struct change_request;

/* Routes (app.c's table, APP_WRITE on the POSTs but write_preview). */
int write_cr_new(struct app_page *p);
int write_edit_index(struct app_page *p);
int write_page_new(struct app_page *p);
int write_edit(struct app_page *p);
int write_save(struct app_page *p);
int write_move(struct app_page *p);
int write_delete(struct app_page *p);
int write_preview(struct app_page *p);
int write_upload(struct app_page *p); /* multipart: checks its own CSRF part */
int write_serve_js(struct app_page *p);
int write_serve_css(struct app_page *p);

/* A part of a multipart/form-data body, pointing into the request's body. */
struct app_part {
	const char *name;     /* the field's name */
	const char *filename; /* NULL for a plain field */
	const char *type;     /* the part's Content-Type, NULL when none */
	const char *data;
	size_t len;
};
/* Split r's multipart/form-data body into at most max parts: 0 with *n, or
 * ERR_INVALID (a message for the form) when it is not one, is too large
 * (r->body_too_large) or has more parts. Used by write_upload and the
 * OpenAPI upload (pages_openapi.c), each checking its own "csrf" part. */
int app_multipart(struct app_page *p, struct app_part *parts, int max, int *n);

/* The assets' URLs, with a hash of their bytes (cached for a year). */
const char *app_edit_js_url(void);
const char *app_write_css_url(void);

/* Controls for other pages, shown only to a member who may edit the space
 * (permissions.edit): the "start a change request" form of a space, the
 * "Edit pages" link of an open or draft change request. */
void app_write_space_form(struct app_page *p, const struct space *s);
void app_write_cr_link(struct app_page *p, const struct space *s, const struct change_request *cr);
/* "Edit this page" on a page of an open or draft change request. */
struct content_src;
struct rev_page;
void app_write_page_link(struct app_page *p, const struct content_src *src, const struct rev_page *pg);

#endif
