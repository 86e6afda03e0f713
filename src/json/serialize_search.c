/*
 * serialize_search.c - SearchPageResult and SearchSpaceResult
 * (serialize_search.h).
 */
#include "json/serialize_search.h"
#include "model/model.h"
#include "util/alloc.h"
#include "util/text.h"

#include <stdlib.h>
#include <string.h>

/* s percent-encoded but for [A-Za-z0-9-._~/], straight into the open string
 * value: what comes out needs no JSON escape. */
static void put_encoded(struct jw *g, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~/", c)) {
			jw_put(g, (const char *)&c, 1);
		} else {
			char e[3];
			pct_encode_byte(e, c);
			jw_put(g, e, 3);
		}
	}
}

/* "urls": {"app": "<base>/s/<space>/<path>[#<anchor>]"}. The base is the
 * operator's --public-url and the space id docsd's own (jw_kurl): neither
 * holds a character JSON needs escaped. */
static void urls(struct jw *g, const char *base, const char *space_id, const char *path, const char *anchor)
{
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_key(g, "app");
	jw_put(g, "\"", 1);
	jw_put(g, base, strlen(base));
	jw_put(g, "/s/", 3);
	jw_put(g, space_id, strlen(space_id));
	jw_put(g, "/", 1);
	put_encoded(g, path);
	if (anchor && *anchor) {
		jw_put(g, "#", 1);
		put_encoded(g, anchor);
	}
	jw_put(g, "\"", 1);
	g->comma = true;
	jw_obj_close(g);
}

/* "path": "<page path>#<anchor>", escaped as one string. */
static void anchored_path(struct jw *g, const char *path, const char *anchor)
{
	size_t np = strlen(path), na = strlen(anchor);
	char *s = xmalloc(np + na + 2);

	memcpy(s, path, np);
	s[np] = '#';
	memcpy(s + np + 1, anchor, na + 1);
	jw_key(g, "path");
	jw_strn(g, s, np + na + 1);
	free(s);
}

void search_page_to_json(struct jw *g, const char *base, const struct search_page *p)
{
	jw_obj_open(g);
	jw_kstr(g, "id", p->id);
	jw_kstr(g, "title", p->title);
	jw_kstr(g, "path", p->path);
	jw_key(g, "sections");
	jw_arr_open(g);
	for (int i = 0; i < p->nsections; i++) {
		const struct search_section *s = &p->sections[i];
		jw_obj_open(g);
		jw_kstr(g, "id", *s->id ? s->id : p->id);
		jw_kstr(g, "title", s->title);
		if (*s->id)
			anchored_path(g, p->path, s->id);
		else
			jw_kstr(g, "path", p->path);
		jw_kstr(g, "body", s->body);
		urls(g, base, p->space_id, p->path, s->id);
		jw_obj_close(g);
	}
	jw_arr_close(g);
	urls(g, base, p->space_id, p->path, NULL);
	jw_obj_close(g);
}

void search_space_to_json(struct jw *g, const char *base, const struct search_space *s)
{
	jw_obj_open(g);
	jw_kstr(g, "id", s->id);
	jw_kstr(g, "title", s->title);
	jw_key(g, "pages");
	jw_arr_open(g);
	for (int j = 0; j < s->npages; j++)
		search_page_to_json(g, base, &s->pages[j]);
	jw_arr_close(g);
	jw_obj_close(g);
}
