/*
 * markdown_html.c - URLs inside a page's raw HTML (md_rewrite_html_urls:
 * what Git import and the twins do to <img src>, <a href>, srcset) and
 * GitBook's blocks as plain markdown (md_plain_meaning: the twins and
 * llms-full.txt), in format/markdown.c.
 */
#include "format/markdown.h"
#include "unit.h"

#include <string.h>

/* ".gitbook/assets/<x>" -> "/files/<x>", "page.md" -> "/pages/page"; the rest stays. */
static const char *map(void *ctx, const char *t)
{
	struct arena *a = ctx;

	if (!strncmp(t, ".gitbook/assets/", 16))
		return arena_printf(a, "/files/%s", t + 16);
	if (!strcmp(t, "page.md"))
		return "/pages/page";
	return NULL;
}

UNIT_TEST(md_rewrite_html_urls_maps_tag_attributes)
{
	struct arena a;

	arena_init(&a);
	CHECK_STR(md_rewrite_html_urls(&a, "<figure><img src=\".gitbook/assets/x.png\" alt=\"a.md\"></figure>\n", 63, map, &a),
		  "<figure><img src=\"/files/x.png\" alt=\"a.md\"></figure>\n");
	CHECK_STR(md_rewrite_html_urls(&a, "<a href='page.md' class=\"button\">Go</a>", 39, map, &a),
		  "<a href='/pages/page' class=\"button\">Go</a>");
	CHECK_STR(md_rewrite_html_urls(&a, "<img src=.gitbook/assets/u.png>", 31, map, &a), "<img src=/files/u.png>");
	CHECK_STR(md_rewrite_html_urls(&a, "<source srcset=\".gitbook/assets/d.png 2x, https://x/y.png 1x\" media=\"(x)\">", 74, map,
				       &a),
		  "<source srcset=\"/files/d.png 2x, https://x/y.png 1x\" media=\"(x)\">");
	/* code is code: a fence, a code span */
	const char *code = "```html\n<img src=\".gitbook/assets/x.png\">\n```\n`<img src=\".gitbook/assets/y.png\">` <img src=\".gitbook/assets/z.png\">\n";
	CHECK_STR(md_rewrite_html_urls(&a, code, strlen(code), map, &a),
		  "```html\n<img src=\".gitbook/assets/x.png\">\n```\n`<img src=\".gitbook/assets/y.png\">` <img src=\"/files/z.png\">\n");
	/* not tags: text, a comparison, an autolink keep every byte */
	const char *text = "a < b and <https://x.org> and <br> and src=\".gitbook/assets/q.png\"\n";
	CHECK_STR(md_rewrite_html_urls(&a, text, strlen(text), map, &a), text);
	CHECK_STR(md_rewrite_html_urls(&a, "", 0, map, &a), "");
	CHECK_STR(md_rewrite_html_urls(&a, "<img src=\"", 10, map, &a), "<img src=\"");
	arena_free(&a);
}

UNIT_TEST(md_plain_meaning_of_gitbook_blocks)
{
	struct arena a;
	const char *md = "Intro.\n\n{% hint style=\"warning\" %}\nCareful.\n\n```sh\nrm -rf x\n```\n{% endhint %}\n\n"
			 "{% tabs %}\n{% tab title=\"One\" %}\nFirst.\n{% endtab %}\n{% endtabs %}\n\n"
			 "{% stepper %}\n{% step %}\nA.\n{% endstep %}\n{% step %}\nB.\n{% endstep %}\n{% endstepper %}\n\n"
			 "{% code title=\"a.c\" %}\n```c\nint x;\n```\n{% endcode %}\n\n{% embed url=\"https://v.example/1\" %}\n\n"
			 "{% file src=\".gitbook/assets/m.pdf\" %}\nManual.\n{% endfile %}\n\n{% columns %}\n{% column %}\nLeft.\n"
			 "{% endcolumn %}\n{% endcolumns %}\n\n{% unknown x %}\nKept.\n{% endunknown %}\n";

	arena_init(&a);
	CHECK_STR(md_plain_meaning(&a, md, strlen(md)),
		  "Intro.\n\n> **Warning**\n> \n> Careful.\n> \n> ```sh\n> rm -rf x\n> ```\n\n\n"
		  "**One**\n\nFirst.\n\n"
		  "**Step 1**\n\nA.\n**Step 2**\n\nB.\n\n"
		  "`a.c`:\n\n```c\nint x;\n```\n\n[https://v.example/1](https://v.example/1)\n\n"
		  "[m.pdf](.gitbook/assets/m.pdf)\n\nManual.\n\nLeft.\n\nKept.\n");
	/* a fence holding a tag keeps it; tags in text lines stay */
	CHECK_STR(md_plain_meaning(&a, "```\n{% hint %}\n```\nx {% hint %} y\n", 33), "```\n{% hint %}\n```\nx {% hint %} y\n");
	CHECK_STR(md_plain_meaning(&a, "", 0), "");
	arena_free(&a);
}
