/* three-way line merge (model/merge3) */
#include "model/merge3.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* Merge NUL-terminated texts; the result's text is in the arena. */
static struct merge3_result merge(struct arena *a, const char *base, const char *ours, const char *theirs)
{
	struct merge3_result r;
	int rc = merge3_text(a, base, strlen(base), ours, strlen(ours), theirs, strlen(theirs), &r);

	CHECK(rc == 0);
	if (r.text)
		CHECK(r.len == strlen(r.text));
	return r;
}

static int conflicts(const char *base, const char *ours, const char *theirs)
{
	struct arena a;
	struct merge3_result r;

	arena_init(&a);
	r = merge(&a, base, ours, theirs);
	CHECK(r.conflicts == 0 || r.text == NULL);
	arena_free(&a);
	return r.conflicts;
}

/* Check merge(base, ours, theirs) == want, and the same with the sides swapped. */
static void check_merge(const char *base, const char *ours, const char *theirs, const char *want)
{
	struct arena a;
	struct merge3_result r;

	arena_init(&a);
	r = merge(&a, base, ours, theirs);
	CHECK(r.conflicts == 0);
	CHECK_STR(r.text, want);
	r = merge(&a, base, theirs, ours);
	CHECK(r.conflicts == 0);
	CHECK_STR(r.text, want);
	arena_free(&a);
}

UNIT_TEST(merge3_edits_to_different_lines_merge)
{
	const char *base = "# Title\none\ntwo\nthree\nfour\nfive\n";

	check_merge(base, "# Title\nONE\ntwo\nthree\nfour\nfive\n", "# Title\none\ntwo\nthree\nfour\nFIVE\n",
		    "# Title\nONE\ntwo\nthree\nfour\nFIVE\n");
	/* several hunks each side, interleaved */
	check_merge("a\nb\nc\nd\ne\nf\ng\nh\ni\n", "A\nb\nc\nd\nE\nf\ng\nh\ni\n", "a\nb\nC\nd\ne\nf\nG\nh\ni\n",
		    "A\nb\nC\nd\nE\nf\nG\nh\ni\n");
}

UNIT_TEST(merge3_same_line_changed_differently_conflicts)
{
	struct arena a;
	struct merge3_result r;

	arena_init(&a);
	r = merge(&a, "a\nb\nc\n", "a\nX\nc\n", "a\nY\nc\n");
	CHECK(r.conflicts == 1);
	CHECK(r.text == NULL);
	CHECK(r.len == 0);
	/* two separate conflicting regions count twice */
	r = merge(&a, "a\nb\nc\nd\ne\n", "A1\nb\nc\nd\nE1\n", "A2\nb\nc\nd\nE2\n");
	CHECK(r.conflicts == 2);
	CHECK(r.text == NULL);
	arena_free(&a);
}

UNIT_TEST(merge3_same_change_on_both_sides_is_taken_once)
{
	check_merge("a\nb\nc\n", "a\nB\nc\n", "a\nB\nc\n", "a\nB\nc\n");
	/* the same change plus an unrelated one on one side */
	check_merge("a\nb\nc\nd\ne\n", "a\nB\nc\nd\nE\n", "a\nB\nc\nd\ne\n", "a\nB\nc\nd\nE\n");
	/* identical insertions at the same point merge once */
	check_merge("a\nb\nc\nd\n", "a\nnew\nb\nc\nD\n", "a\nnew\nb\nc\nd\n", "a\nnew\nb\nc\nD\n");
	/* the same line deleted on both sides */
	check_merge("a\nb\nc\nd\ne\n", "a\nc\nd\nE\n", "a\nc\nd\ne\n", "a\nc\nd\nE\n");
}

UNIT_TEST(merge3_different_insertions_at_one_point_conflict)
{
	CHECK(conflicts("a\nb\n", "a\nours\nb\n", "a\ntheirs\nb\n") == 1);
	CHECK(conflicts("a\nb\n", "a\nb\nours\n", "a\nb\ntheirs\n") == 1);
	CHECK(conflicts("a\nb\n", "ours\na\nb\n", "theirs\na\nb\n") == 1);
}

UNIT_TEST(merge3_insert_on_one_side_delete_elsewhere_on_the_other)
{
	const char *base = "1\n2\n3\n4\n5\n6\n7\n";

	check_merge(base, "1\nnew\n2\n3\n4\n5\n6\n7\n", "1\n2\n3\n4\n5\n7\n", "1\nnew\n2\n3\n4\n5\n7\n");
	check_merge(base, "1\n2\n3\n4\n5\n6\n7\nend\n", "2\n3\n4\n5\n6\n7\n", "2\n3\n4\n5\n6\n7\nend\n");
	/* deleting a block on one side, inserting before it with a line between */
	check_merge(base, "1\n2\n3\n7\n", "1\nx\n2\n3\n4\n5\n6\n7\n", "1\nx\n2\n3\n7\n");
}

UNIT_TEST(merge3_delete_on_one_side_edit_of_that_line_on_the_other_conflicts)
{
	CHECK(conflicts("a\nb\nc\n", "a\nc\n", "a\nB\nc\n") == 1);
	CHECK(conflicts("a\nb\nc\n", "a\nB\nc\n", "a\nc\n") == 1);
	CHECK(conflicts("a\nb\nc\n", "a\nb\n", "a\nb\nC\n") == 1);
}

/* The choice documented in merge3.h: like git, edits whose base ranges touch conflict. */
UNIT_TEST(merge3_edits_on_adjacent_lines_conflict_like_git)
{
	const char *base = "1\n2\n3\n4\n5\n6\n";

	CHECK(conflicts(base, "1\n2\nX\n4\n5\n6\n", "1\n2\n3\nY\n5\n6\n") == 1);
	/* an insertion right after a line the other side changed touches it */
	CHECK(conflicts(base, "1\n2\nX\n4\n5\n6\n", "1\n2\n3\nnew\n4\n5\n6\n") == 1);
	CHECK(conflicts(base, "1\n2\nX\n4\n5\n6\n", "1\n2\nnew\n3\n4\n5\n6\n") == 1);
	/* one unchanged line between the edits is enough to merge */
	check_merge(base, "1\n2\nX\n4\n5\n6\n", "1\n2\n3\n4\nY\n6\n", "1\n2\nX\n4\nY\n6\n");
	check_merge(base, "1\nX\n3\n4\n5\n6\n", "1\n2\n3\nnew\n4\n5\n6\n", "1\nX\n3\nnew\n4\n5\n6\n");
}

UNIT_TEST(merge3_empty_base)
{
	check_merge("", "a\nb\n", "", "a\nb\n");
	check_merge("", "a\nb\n", "a\nb\n", "a\nb\n");
	CHECK(conflicts("", "a\n", "b\n") == 1);
	check_merge("", "", "", "");
	/* everything deleted on one side, nothing changed on the other */
	check_merge("a\nb\n", "", "a\nb\n", "");
	/* NULL is accepted for an empty text */
	{
		struct arena a;
		struct merge3_result r;

		arena_init(&a);
		CHECK(merge3_text(&a, NULL, 0, "x\n", 2, NULL, 0, &r) == 0);
		CHECK(r.conflicts == 0);
		CHECK_STR(r.text, "x\n");
		CHECK(merge3_text(&a, NULL, 0, NULL, 0, NULL, 0, &r) == 0);
		CHECK_STR(r.text, "");
		CHECK(r.len == 0);
		arena_free(&a);
	}
}

UNIT_TEST(merge3_text_without_trailing_newline_round_trips)
{
	check_merge("a\nb\nc", "A\nb\nc", "a\nb\nC", "A\nb\nC");
	check_merge("a\nb\nc", "A\nb\nc", "a\nb\nc\nd", "A\nb\nc\nd");
	/* adding the final newline is a change of the last line */
	check_merge("a\nb\nc", "a\nb\nc\n", "A\nb\nc", "A\nb\nc\n");
	check_merge("a\nb\nc\n", "a\nb\nc", "A\nb\nc\n", "A\nb\nc");
	CHECK(conflicts("a\nb\nc", "a\nb\nc\n", "a\nb\nC") == 1);
	/* no newline at all */
	check_merge("x", "x", "y", "y");
	CHECK(conflicts("x", "y", "z") == 1);
}

UNIT_TEST(merge3_crlf_lines_are_kept_as_is)
{
	check_merge("a\r\nb\r\nc\r\nd\r\n", "A\r\nb\r\nc\r\nd\r\n", "a\r\nb\r\nc\r\nD\r\n", "A\r\nb\r\nc\r\nD\r\n");
	/* mixed endings survive */
	check_merge("a\r\nb\nc\r\nd\n", "A\r\nb\nc\r\nd\n", "a\r\nb\nc\r\nD\n", "A\r\nb\nc\r\nD\n");
	/* "\r\n" -> "\n" is a change of its own */
	CHECK(conflicts("a\r\nb\r\n", "a\nb\r\n", "A\r\nb\r\n") == 1);
	check_merge("a\r\nb\r\nc\r\n", "a\nb\r\nc\r\n", "a\r\nb\r\nC\r\n", "a\nb\r\nC\r\n");
}

UNIT_TEST(merge3_lines_with_nul_bytes)
{
	struct arena a;
	struct merge3_result r;
	static const char base[] = "a\0\nb\nc\n", ours[] = "A\0\nb\nc\n", theirs[] = "a\0\nb\nC\n";

	arena_init(&a);
	CHECK(merge3_text(&a, base, sizeof(base) - 1, ours, sizeof(ours) - 1, theirs, sizeof(theirs) - 1, &r) == 0);
	CHECK(r.conflicts == 0);
	CHECK(r.len == 7);
	CHECK(r.text && memcmp(r.text, "A\0\nb\nC\n", 8) == 0);
	arena_free(&a);
}

/* ---- large inputs -------------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Lines "<prefix><i>\n" for i in [lo, hi), with line `edit` (if in range) as "edited\n". */
static size_t put_lines(char *p, const char *prefix, long lo, long hi, long edit)
{
	size_t n = 0;

	for (long i = lo; i < hi; i++)
		n += (size_t)(i == edit ? sprintf(p + n, "edited %ld\n", i) : sprintf(p + n, "%s%ld\n", prefix, i));
	return n;
}

UNIT_TEST(merge3_20000_lines_edited_at_both_ends_is_fast)
{
	enum { N = 20000 };
	char *base = malloc(N * 32), *ours = malloc(N * 32), *theirs = malloc(N * 32), *want = malloc(N * 32);
	size_t bl, ol, tl, wl;
	struct arena a;
	struct merge3_result r;
	double t0;

	CHECK(base && ours && theirs && want);
	if (!base || !ours || !theirs || !want)
		goto cleanup;
	bl = put_lines(base, "line ", 0, N, -1);
	/* ours: edits the first line and inserts near the start; theirs: edits the end */
	ol = put_lines(ours, "line ", 0, 10, 0);
	ol += (size_t)sprintf(ours + ol, "inserted\n");
	ol += put_lines(ours + ol, "line ", 10, N, -1);
	tl = put_lines(theirs, "line ", 0, N - 5, -1);
	tl += put_lines(theirs + tl, "line ", N - 5, N, N - 1);
	tl += (size_t)sprintf(theirs + tl, "appended");
	wl = put_lines(want, "line ", 0, 10, 0);
	wl += (size_t)sprintf(want + wl, "inserted\n");
	wl += put_lines(want + wl, "line ", 10, N, N - 1);
	wl += (size_t)sprintf(want + wl, "appended");

	arena_init(&a);
	t0 = now_s();
	CHECK(merge3_text(&a, base, bl, ours, ol, theirs, tl, &r) == 0);
	CHECK(now_s() - t0 < 0.5);
	CHECK(r.conflicts == 0);
	CHECK(r.len == wl);
	CHECK(r.text && memcmp(r.text, want, wl) == 0);

	/* scattered edits: every 50th line on one side, every 50th + 25 on the other */
	ol = tl = wl = 0;
	for (long i = 0; i < N; i++) {
		ol += (size_t)sprintf(ours + ol, i % 50 == 0 ? "ours %ld\n" : "line %ld\n", i);
		tl += (size_t)sprintf(theirs + tl, i % 50 == 25 ? "theirs %ld\n" : "line %ld\n", i);
		wl += (size_t)sprintf(want + wl, i % 50 == 0 ? "ours %ld\n" : i % 50 == 25 ? "theirs %ld\n" : "line %ld\n", i);
	}
	t0 = now_s();
	CHECK(merge3_text(&a, base, bl, ours, ol, theirs, tl, &r) == 0);
	CHECK(now_s() - t0 < 0.5);
	CHECK(r.conflicts == 0);
	CHECK(r.len == wl);
	CHECK(r.text && memcmp(r.text, want, wl) == 0);

	/* worst case for the diff: ours is base reversed (no two lines keep their
	 * order); the cost bound keeps it fast, and theirs' edit conflicts */
	ol = 0;
	for (long i = N - 1; i >= 0; i--)
		ol += (size_t)sprintf(ours + ol, "line %ld\n", i);
	tl = put_lines(theirs, "line ", 0, N, N / 2);
	t0 = now_s();
	CHECK(merge3_text(&a, base, bl, ours, ol, theirs, tl, &r) == 0);
	CHECK(now_s() - t0 < 2.0);
	CHECK(r.conflicts > 0);
	CHECK(r.text == NULL);

	/* and three unrelated texts over a two-line alphabet: thousands of edits
	 * on lines that all occur everywhere, so nothing can be discarded early */
	bl = ol = tl = 0;
	for (long i = 0; i < N; i++) {
		bl += (size_t)sprintf(base + bl, "%c\n", "ab"[(i * 7 + i / 3) % 2]);
		ol += (size_t)sprintf(ours + ol, "%c\n", "ab"[(i * i / 5) % 2]);
		tl += (size_t)sprintf(theirs + tl, "%c\n", "ab"[(i / 2 + i / 7) % 2]);
	}
	t0 = now_s();
	CHECK(merge3_text(&a, base, bl, ours, ol, theirs, tl, &r) == 0);
	CHECK(now_s() - t0 < 2.0);
	CHECK(r.conflicts > 0);
	arena_free(&a);
cleanup:
	free(base);
	free(ours);
	free(theirs);
	free(want);
}

/* ---- fuzz ----------------------------------------------------------------- */

struct rng {
	uint64_t s;
};

static unsigned rng_next(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (unsigned)(r->s >> 32);
}

/* Append n random lines from a small alphabet (repeats, blank lines, CRLF). */
static size_t rand_lines(struct rng *r, char *p, int n, const char *tag)
{
	size_t len = 0;

	for (int i = 0; i < n; i++) {
		unsigned v = rng_next(r) % 6;
		const char *eol = rng_next(r) % 5 == 0 ? "\r\n" : "\n";

		len += (size_t)(v == 0 ? sprintf(p + len, "%s", eol) : sprintf(p + len, "%s%u%s", tag, v, eol));
	}
	return len;
}

/* Copy src with random line edits (delete, replace, insert), each line kept as
 * is with odds (keep - 3) in keep. */
static size_t mutate(struct rng *r, char *dst, const char *src, size_t slen, const char *tag, unsigned keep)
{
	size_t len = 0, i = 0;

	while (i < slen) {
		const char *nl = memchr(src + i, '\n', slen - i);
		size_t ll = nl ? (size_t)(nl + 1 - (src + i)) : slen - i;
		unsigned op = rng_next(r) % keep;

		if (op == 0) {
			len += rand_lines(r, dst + len, 1 + (int)(rng_next(r) % 2), tag);
		} else if (op == 1) {
			len += rand_lines(r, dst + len, 1, tag);
			memcpy(dst + len, src + i, ll);
			len += ll;
		} else if (op != 2) {
			memcpy(dst + len, src + i, ll);
			len += ll;
		}
		i += ll;
	}
	if (rng_next(r) % 4 == 0)
		len += rand_lines(r, dst + len, 1 + (int)(rng_next(r) % 3), tag);
	if (len && rng_next(r) % 6 == 0 && dst[len - 1] == '\n')
		len--; /* drop the final newline */
	return len;
}

static int merges_to(struct arena *a, const char *b, size_t bl, const char *x, size_t xl, const char *y,
		     size_t yl, const char *want, size_t wl)
{
	struct merge3_result r;

	if (merge3_text(a, b, bl, x, xl, y, yl, &r) != 0)
		return 0;
	return r.conflicts == 0 && r.text && r.len == wl && memcmp(r.text, want, wl) == 0 && r.text[wl] == '\0';
}

UNIT_TEST(merge3_fuzz_one_sided_and_identical_changes)
{
	struct rng r = { 0x9e3779b97f4a7c15u };
	static char base[4096], x[8192];
	struct arena a;
	int bad = 0;

	for (int it = 0; it < 3000; it++) {
		size_t bl = rand_lines(&r, base, (int)(rng_next(&r) % 40), "b"), xl;

		if (bl && rng_next(&r) % 5 == 0)
			bl--;
		xl = mutate(&r, x, base, bl, it % 2 ? "x" : "b", 8);
		arena_init(&a);
		if (!merges_to(&a, base, bl, x, xl, base, bl, x, xl) ||
		    !merges_to(&a, base, bl, base, bl, x, xl, x, xl) || !merges_to(&a, base, bl, x, xl, x, xl, x, xl))
			bad++;
		arena_free(&a);
	}
	CHECK(bad == 0);
}

/*
 * The cases above take the fast paths; these go through the diffs. Base is
 * P S Q with S a line found nowhere else: ours edits only P, theirs only Q, so
 * the merge must be P' S Q'. And merging is symmetric in ours and theirs.
 */
UNIT_TEST(merge3_fuzz_edits_on_both_sides_of_a_separator)
{
	struct rng r = { 12345 };
	static char p[2048], q[2048], pm[4096], qm[4096], base[4096], ours[8192], theirs[8192], want[8192];
	struct arena a;
	struct merge3_result m1, m2;
	int bad = 0, asym = 0, merged = 0;

	for (int it = 0; it < 3000; it++) {
		size_t pl = rand_lines(&r, p, (int)(rng_next(&r) % 25), "l");
		size_t ql = rand_lines(&r, q, (int)(rng_next(&r) % 25), "l");
		size_t pml, qml, bl, ol, tl, wl;
		static const char sep[] = "--- separator ---\n";

		if (ql && rng_next(&r) % 5 == 0)
			ql--;
		/* P' keeps its final newline: the separator must stay a line of its own */
		do
			pml = mutate(&r, pm, p, pl, it % 3 ? "l" : "o", 8);
		while (pml && pm[pml - 1] != '\n');
		qml = mutate(&r, qm, q, ql, it % 3 ? "l" : "t", 8);
#define CAT3(dst, n, a1, l1, a2, l2, a3, l3) \
	(memcpy(dst, a1, l1), memcpy(dst + l1, a2, l2), memcpy(dst + l1 + l2, a3, l3), n = l1 + l2 + l3)
		CAT3(base, bl, p, pl, sep, sizeof(sep) - 1, q, ql);
		CAT3(ours, ol, pm, pml, sep, sizeof(sep) - 1, q, ql);
		CAT3(theirs, tl, p, pl, sep, sizeof(sep) - 1, qm, qml);
		CAT3(want, wl, pm, pml, sep, sizeof(sep) - 1, qm, qml);
#undef CAT3
		arena_init(&a);
		if (!merges_to(&a, base, bl, ours, ol, theirs, tl, want, wl) ||
		    !merges_to(&a, base, bl, theirs, tl, ours, ol, want, wl))
			bad++;
		/* a random pair of edits: whatever happens, the same both ways round */
		ol = mutate(&r, ours, base, bl, "o", 30);
		tl = mutate(&r, theirs, base, bl, it % 2 ? "t" : "o", 30);
		if (merge3_text(&a, base, bl, ours, ol, theirs, tl, &m1) != 0 ||
		    merge3_text(&a, base, bl, theirs, tl, ours, ol, &m2) != 0 || m1.conflicts != m2.conflicts ||
		    (m1.conflicts == 0 && (!m1.text || !m2.text || m1.len != m2.len || memcmp(m1.text, m2.text, m1.len))) ||
		    (m1.conflicts > 0 && (m1.text || m2.text)))
			asym++;
		merged += m1.conflicts == 0;
		arena_free(&a);
	}
	CHECK(bad == 0);
	CHECK(asym == 0);
	CHECK(merged > 100); /* the random pairs do not all conflict */
}

/*
 * A rewrite too large for an exact diff (thousands of edits, so the search
 * stops at its cost bound and splits heuristically) must still give a valid
 * diff: ours rewrites the first 5,000 lines, theirs edits after a separator.
 */
UNIT_TEST(merge3_large_rewrite_merges_with_an_edit_beyond_it)
{
	enum { N = 5000 };
	struct rng r = { 777 };
	char *base = malloc(N * 8), *ours = malloc(N * 8), *theirs = malloc(N * 8), *want = malloc(N * 8);
	size_t bl = 0, ol = 0, tl = 0, wl = 0, pl, ql;
	struct arena a;

	CHECK(base && ours && theirs && want);
	if (!base || !ours || !theirs || !want)
		goto cleanup;
	for (int i = 0; i < N; i++) {
		bl += (size_t)sprintf(base + bl, "%u\n", rng_next(&r) % 5);
		ol += (size_t)sprintf(ours + ol, "%u\n", rng_next(&r) % 5);
	}
	pl = (size_t)sprintf(base + bl, "--- separator ---\n");
	memcpy(ours + ol, base + bl, pl);
	bl += pl, ol += pl;
	memcpy(theirs, base, bl);
	tl = bl;
	memcpy(want, ours, ol);
	wl = ol;
	for (int i = 0; i < 100; i++) {
		ql = (size_t)sprintf(base + bl, "tail %d\n", i);
		bl += ql;
		memcpy(ours + ol, base + bl - ql, ql);
		ol += ql;
		ql = (size_t)sprintf(theirs + tl, i == 50 ? "edited %d\n" : "tail %d\n", i);
		memcpy(want + wl, theirs + tl, ql);
		tl += ql, wl += ql;
	}
	arena_init(&a);
	CHECK(merges_to(&a, base, bl, ours, ol, theirs, tl, want, wl));
	CHECK(merges_to(&a, base, bl, theirs, tl, ours, ol, want, wl));
	arena_free(&a);
cleanup:
	free(base);
	free(ours);
	free(theirs);
	free(want);
}
