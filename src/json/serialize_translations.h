/*
 * serialize_translations.h - the JSON of a translation (GitBook's
 * Translation schema), built in this one place.
 */
#ifndef DOCSD_JSON_SERIALIZE_TRANSLATIONS_H
#define DOCSD_JSON_SERIALIZE_TRANSLATIONS_H

#include <stdbool.h>

#include "json/jsonw.h"
#include "model/translation.h"

/* A Translation; permissions.edit is t->editable. `result` only once a run
 * wrote one. */
void translation_to_json(struct jw *g, const char *base, const struct translation *t);

#endif
