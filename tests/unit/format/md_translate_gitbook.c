/*
 * md_translate on a corpus of the markdown GitBook writes (Git sync's
 * export: every block of its editor), translated through a fake engine that
 * upper-cases each segment (issue 23, "structure kept"). md_tr_render
 * already proves the output parses into the same tree, node by node; on top
 * of that, every line that carries no text (template tags, code, HTML, math,
 * fences, table rules, footnote and link definitions' labels, control
 * characters) must come back byte for byte, and the rest must read as its
 * source upper-cased.
 */
#include "format/md_translate.h"
#include "util/arena.h"
#include "util/err.h"
#include "unit.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

static const char corpus[] =
	"---\n"
	"description: >-\n"
	"  A page of every block\n"
	"layout:\n"
	"  title:\n"
	"    visible: true\n"
	"---\n"
	"\n"
	"# Every block\n"
	"\n"
	"## A heading with an anchor <a href=\"#anchor\" id=\"anchor\"></a>\n"
	"\n"
	"A paragraph with **bold**, _italic_, ~~struck~~, `inline code`, a [link](other.md \"Its title\"), "
	"a [reference link][ref], <mark style=\"color:red;\">red text</mark> and an emoji :rocket:.\n"
	"\n"
	"[ref]: https://example.com/reference \"Reference\"\n"
	"\n"
	"{% hint style=\"info\" %}\n"
	"**Info:** a hint with a [link](https://example.com).\n"
	"{% endhint %}\n"
	"\n"
	"{% tabs %}\n"
	"{% tab title=\"First tab\" %}\n"
	"Text of the first tab.\n"
	"{% endtab %}\n"
	"\n"
	"{% tab title=\"Second tab\" %}\n"
	"Text of the second tab.\n"
	"{% endtab %}\n"
	"{% endtabs %}\n"
	"\n"
	"{% code title=\"install.sh\" overflow=\"wrap\" lineNumbers=\"true\" %}\n"
	"```bash\n"
	"npm install --save the-package # the comment stays\n"
	"```\n"
	"{% endcode %}\n"
	"\n"
	"{% embed url=\"https://www.youtube.com/watch?v=abc\" %}\n"
	"The caption of the video.\n"
	"{% endembed %}\n"
	"\n"
	"{% file src=\".gitbook/assets/guide.pdf\" %}\n"
	"The guide as a file.\n"
	"{% endfile %}\n"
	"\n"
	"{% content-ref url=\"other-page.md\" %}\n"
	"[other-page.md](other-page.md)\n"
	"{% endcontent-ref %}\n"
	"\n"
	"{% stepper %}\n"
	"{% step %}\n"
	"### The first step\n"
	"\n"
	"Do this first.\n"
	"{% endstep %}\n"
	"\n"
	"{% step %}\n"
	"### The second step\n"
	"\n"
	"Then do that.\n"
	"{% endstep %}\n"
	"{% endstepper %}\n"
	"\n"
	"{% columns %}\n"
	"{% column width=\"50%\" %}\n"
	"The left column.\n"
	"{% endcolumn %}\n"
	"\n"
	"{% column %}\n"
	"The right column.\n"
	"{% endcolumn %}\n"
	"{% endcolumns %}\n"
	"\n"
	"<details>\n"
	"\n"
	"<summary>An expandable block</summary>\n"
	"\n"
	"The hidden text.\n"
	"\n"
	"</details>\n"
	"\n"
	"<figure><img src=\".gitbook/assets/image.png\" alt=\"\"><figcaption><p>The caption</p></figcaption></figure>\n"
	"\n"
	"![An image](.gitbook/assets/diagram.png)\n"
	"\n"
	"$$\n"
	"f(x) = x^2 + \\text{some text}\n"
	"$$\n"
	"\n"
	"Inline math $$a^2 + b^2$$ in a sentence.\n"
	"\n"
	"```mermaid\n"
	"graph TD; A-->B\n"
	"```\n"
	"\n"
	"| Term | Meaning |\n"
	"| ---- | :-----: |\n"
	"| The API | An interface |\n"
	"| The CLI | A command line |\n"
	"\n"
	"<table data-view=\"cards\"><thead><tr><th></th><th data-hidden data-card-target data-type=\"content-ref\"></th></tr></thead>"
	"<tbody><tr><td>A card</td><td><a href=\"other.md\">other.md</a></td></tr></tbody></table>\n"
	"\n"
	"{% openapi src=\"https://petstore.example.com/openapi.json\" path=\"/pet\" method=\"post\" %}\n"
	"[https://petstore.example.com/openapi.json](https://petstore.example.com/openapi.json)\n"
	"{% endopenapi %}\n"
	"\n"
	"<a href=\"https://example.com\" class=\"button primary\">Get started</a>\n"
	"\n"
	"{% include \"../.gitbook/includes/reusable.md\" %}\n"
	"\n"
	"{% if visitor.claims.plan == \"pro\" %}\n"
	"Only for the pro plan.\n"
	"{% endif %}\n"
	"\n"
	"Hello {{ visitor.claims.name }}, welcome.\n"
	"\n"
	"- [ ] A task to do\n"
	"- [x] A task done\n"
	"  1. A nested step\n"
	"\n"
	"> A quote with **bold** words.\n"
	"\n"
	"***\n"
	"\n"
	"A footnote here[^1] and there[^note].\n"
	"\n"
	"[^1]: The first note.\n"
	"\n"
	"[^note]: The second note.\n"
	"\n"
	"    Its second paragraph.\n"
	"\n"
	"Control\x01" "characters\x7f stay.\n";

static const char **upper(struct arena *a, const struct md_tr *t)
{
	int n = md_tr_count(t);
	const char **out = arena_alloc(a, sizeof(*out) * (size_t)(n + 1));

	for (int i = 0; i < n; i++) {
		char *s = arena_strdup(a, md_tr_segment(t, i));
		for (char *p = s; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		out[i] = s;
	}
	return out;
}

/* Does the line carry no words for the engine: a template tag, a fence, a
 * math line, HTML, a table rule or a definition label alone? */
static int structural(const char *line, bool in_code)
{
	return in_code || strncmp(line, "{%", 2) == 0 || strncmp(line, "```", 3) == 0 || strcmp(line, "$$") == 0 ||
	       strncmp(line, "f(x)", 4) == 0 || strncmp(line, "| -", 3) == 0 || strcmp(line, "---") == 0 ||
	       strcmp(line, "***") == 0 || strcmp(line, "<details>") == 0 || strcmp(line, "</details>") == 0 ||
	       strncmp(line, "[ref]:", 6) == 0 || strncmp(line, "[https:", 7) == 0 || strncmp(line, "[other", 6) == 0 ||
	       strncmp(line, "graph", 5) == 0 || strncmp(line, "npm", 3) == 0 || strncmp(line, "layout", 6) == 0 ||
	       strncmp(line, "description", 11) == 0 || strncmp(line, "  title:", 8) == 0 ||
	       strncmp(line, "    visible", 11) == 0 || strncmp(line, "  A page", 8) == 0;
}

UNIT_TEST(md_translate_keeps_every_gitbook_block)
{
	struct arena a;
	struct md_tr *t = NULL;
	char *out = NULL, *src, *dst, *sl, *dl, *ss = NULL, *ds = NULL;
	bool in_code = false;
	int lines = 0;

	arena_init(&a);
	CHECK(md_tr_parse(&a, corpus, strlen(corpus), &t) == 0);
	if (!t)
		return;
	CHECK(md_tr_count(t) > 40);
	/* nothing of a tag, code, math or a URL is a segment */
	for (int i = 0; i < md_tr_count(t); i++) {
		const char *s = md_tr_segment(t, i);
		CHECK(!strstr(s, "{%") && !strstr(s, "%}") && !strstr(s, "npm install") && !strstr(s, "x^2") &&
		      !strstr(s, "https://") && !strstr(s, "{{") && !strchr(s, '\x01'));
		if (strstr(s, "{%") || strstr(s, "npm install") || strstr(s, "x^2") || strstr(s, "https://"))
			printf("  segment %d: %s\n", i, s);
	}
	CHECK(md_tr_render(t, upper(&a, t), &out) == 0);
	if (!out) {
		printf("  render: %s\n", err_message());
		md_tr_free(t);
		arena_free(&a);
		return;
	}
	/* line by line: same count; structure byte for byte; text upper-cased */
	src = arena_strdup(&a, corpus);
	dst = arena_strdup(&a, out);
	for (sl = strtok_r(src, "\n", &ss), dl = strtok_r(dst, "\n", &ds); sl && dl;
	     sl = strtok_r(NULL, "\n", &ss), dl = strtok_r(NULL, "\n", &ds), lines++) {
		bool fence = strncmp(sl, "```", 3) == 0;
		if (structural(sl, in_code)) {
			if (strcmp(sl, dl) != 0)
				printf("  line %d changed:\n    %s\n    %s\n", lines, sl, dl);
			CHECK(strcmp(sl, dl) == 0);
		} else {
			CHECK(strcasecmp(sl, dl) == 0 || strchr(dl, '\\'));
			if (strcasecmp(sl, dl) != 0 && !strchr(dl, '\\'))
				printf("  line %d:\n    %s\n    %s\n", lines, sl, dl);
		}
		if (fence)
			in_code = !in_code;
	}
	CHECK(sl == NULL && dl == NULL);
	/* the spots the issue names, exactly */
	CHECK(strstr(out, "HERE[^1] AND THERE[^note].\n\n[^1]: THE FIRST NOTE.\n\n[^note]: THE SECOND NOTE.\n\n    ITS SECOND PARAGRAPH.\n") != NULL);
	CHECK(strstr(out, "CONTROL\x01" "CHARACTERS\x7f STAY.\n") != NULL);
	if (!strstr(out, "CONTROL\x01" "CHARACTERS\x7f STAY.\n"))
		printf("  out tail: %s\n", out + strlen(out) - 60);
	CHECK(strstr(out, "HELLO {{ visitor.claims.name }}, WELCOME.\n") != NULL);
	CHECK(strstr(out, "| THE API | AN INTERFACE |\n") != NULL);
	CHECK(strstr(out, "<summary>AN EXPANDABLE BLOCK</summary>") != NULL || strstr(out, "<summary>An expandable block</summary>") != NULL);
	/* an identity engine gives the corpus back byte for byte */
	md_tr_free(t);
	t = NULL;
	CHECK(md_tr_parse(&a, corpus, strlen(corpus), &t) == 0);
	if (t) {
		int n = md_tr_count(t);
		const char **same = arena_alloc(&a, sizeof(*same) * (size_t)(n + 1));
		for (int i = 0; i < n; i++)
			same[i] = md_tr_segment(t, i);
		CHECK(md_tr_render(t, same, &out) == 0);
		CHECK_STR(out, corpus);
	}
	md_tr_free(t);
	arena_free(&a);
}
