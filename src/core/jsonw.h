/*
 * jsonw.h - small helpers over yajl's generator, so serializers read as a list
 * of fields. yajl writes straight into its buffer: no JSON tree is built for a
 * response (see "What the hot path costs" in DESIGN.md).
 */
#ifndef DOCSD_CORE_JSONW_H
#define DOCSD_CORE_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <yajl/yajl_gen.h>

static inline void jw_key(yajl_gen g, const char *k)
{
	yajl_gen_string(g, (const unsigned char *)k, strlen(k));
}

static inline void jw_str(yajl_gen g, const char *v)
{
	if (v)
		yajl_gen_string(g, (const unsigned char *)v, strlen(v));
	else
		yajl_gen_null(g);
}

static inline void jw_kstr(yajl_gen g, const char *k, const char *v)
{
	jw_key(g, k);
	jw_str(g, v);
}

/* Only when v is set: optional fields are omitted rather than null. */
static inline void jw_kstr_opt(yajl_gen g, const char *k, const char *v)
{
	if (v)
		jw_kstr(g, k, v);
}

static inline void jw_kint(yajl_gen g, const char *k, int64_t v)
{
	jw_key(g, k);
	yajl_gen_integer(g, (long long)v);
}

static inline void jw_kbool(yajl_gen g, const char *k, bool v)
{
	jw_key(g, k);
	yajl_gen_bool(g, v);
}

static inline void jw_knull(yajl_gen g, const char *k)
{
	jw_key(g, k);
	yajl_gen_null(g);
}

/* Emit a JSON text that docsd itself produced and validated (stored compact),
 * verbatim. yajl_gen_number writes its argument as-is and counts as a value. */
static inline void jw_raw(yajl_gen g, const char *json)
{
	yajl_gen_number(g, json, strlen(json));
}

void jw_kts(yajl_gen g, const char *k, int64_t ms);
/* "<base><path>" as a string value under key k. */
void jw_kurl(yajl_gen g, const char *k, const char *base, const char *path1, const char *path2);

#endif
