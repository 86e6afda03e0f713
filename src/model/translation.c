/*
 * translation.c - GitBook's translation languages (translation.h).
 */
#include "model/translation.h"

#include <string.h>

const char *const translation_languages[] = {
	"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr",
	"sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr",
	"lt", "lv", "et", "sl", NULL,
};

bool translation_language_valid(const char *code)
{
	for (int i = 0; code && translation_languages[i]; i++)
		if (strcmp(code, translation_languages[i]) == 0)
			return true;
	return false;
}
