/*
 * merge3.c - three-way line merge; see merge3.h for the semantics.
 *
 * Steps: cut the three texts into lines; give equal lines one integer id (a
 * hash table over all lines), so the diffs compare integers; diff base->ours
 * and base->theirs into match arrays (base line -> line of the other text, or
 * -1); walk the two match arrays as diff3 does, once to count the conflicts and
 * the merged length, and once more to write the text when there is no conflict.
 *
 * The diff is Myers' "An O(ND) Difference Algorithm and Its Variations" (1986),
 * section 4b: linear space, recursive on the middle snake. Diagonal k holds the
 * points with x - y == k; fd[k] is the furthest x a forward path of the current
 * cost reaches on it, bd[k] the smallest x a backward path reaches.
 */
#include "model/merge3.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/fnv.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

struct line {
	const char *p;
	size_t len; /* including the "\n", when there is one */
};

struct text {
	struct line *line;
	long *id; /* equal lines have equal ids */
	long n;
};

/* The state of one diff: the two id sequences and their "changed" marks. */
struct myers {
	const long *a, *b;
	char *ca, *cb;
	long *fd, *bd; /* indexable from -(m + 1) to n + 1 */
	long limit;    /* edit steps searched before settling for a heuristic split */
};

/* n * size bytes; a product past SIZE_MAX is a request no memory can meet. */
static void *alloc_n(struct arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		oom_abort("merge3 array", SIZE_MAX);
	return arena_alloc(a, n * size);
}

static void *zalloc_n(struct arena *a, size_t n, size_t size)
{
	void *p = alloc_n(a, n, size);

	memset(p, 0, n * size);
	return p;
}

static int too_large(void)
{
	return err_set(ERR_INTERNAL, "merge: the texts are too large");
}

static int same_bytes(const char *x, size_t xlen, const char *y, size_t ylen)
{
	return xlen == ylen && (xlen == 0 || memcmp(x, y, xlen) == 0);
}

/* ---- lines ------------------------------------------------------------- */

static long count_lines(const char *s, size_t len)
{
	const char *p = s, *end, *nl;
	long n = 0;

	if (len == 0)
		return 0;
	end = s + len;
	while (p < end) {
		n++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		p = nl + 1;
	}
	return n;
}

static int split_lines(struct arena *a, const char *s, size_t len, struct text *t)
{
	const char *p = s, *end, *nl;
	long i = 0;

	t->n = count_lines(s, len);
	t->line = alloc_n(a, (size_t)t->n, sizeof(*t->line));
	t->id = alloc_n(a, (size_t)t->n, sizeof(*t->id));
	if (len == 0)
		return 0;
	end = s + len;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		t->line[i].p = p;
		t->line[i].len = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);
		i++;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

static uint64_t hash_line(const struct line *l)
{
	uint64_t h = fnv1a(l->p, l->len);

	return h ^ (h >> 29);
}

/* Give every line of the texts an id, equal for equal lines, dense from 0.
 * Sets *nids to the number of distinct lines. */
static int intern_lines(struct arena *a, struct text *t, int nt, long *nids)
{
	size_t total = 0, cap = 16, mask, s;
	const struct line **uniq;
	uint64_t *uhash, h;
	long *slot, n = 0;

	for (int k = 0; k < nt; k++)
		total += (size_t)t[k].n;
	if (total > (size_t)LONG_MAX / 4)
		return too_large();
	while (cap < 2 * total)
		cap *= 2;
	mask = cap - 1;
	slot = alloc_n(a, cap, sizeof(*slot));
	uniq = alloc_n(a, total, sizeof(*uniq));
	uhash = alloc_n(a, total, sizeof(*uhash));
	for (s = 0; s < cap; s++)
		slot[s] = -1;
	for (int k = 0; k < nt; k++) {
		for (long i = 0; i < t[k].n; i++) {
			const struct line *l = &t[k].line[i];
			long u;

			h = hash_line(l);
			for (s = (size_t)h & mask; (u = slot[s]) >= 0; s = (s + 1) & mask) {
				if (uhash[u] == h && same_bytes(uniq[u]->p, uniq[u]->len, l->p, l->len))
					break;
			}
			if (u < 0) {
				u = n++;
				slot[s] = u;
				uniq[u] = l;
				uhash[u] = h;
			}
			t[k].id[i] = u;
		}
	}
	*nids = n;
	return 0;
}

/* ---- diff ------------------------------------------------------------- */

/*
 * Find a point where an optimal path from (xoff, yoff) to (xlim, ylim) may be
 * cut in two, the first line of each sequence differing and both non-empty.
 * Returns 0 when no usable point was found (the caller marks the whole box).
 */
static int middle_snake(struct myers *m, long xoff, long xlim, long yoff, long ylim, long *sx, long *sy)
{
	const long *a = m->a, *b = m->b;
	long *fd = m->fd, *bd = m->bd;
	long dmin = xoff - ylim, dmax = xlim - yoff;
	long fmid = xoff - yoff, bmid = xlim - ylim;
	long fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
	int odd = (fmid - bmid) % 2 != 0;
	long x, y, k;

	fd[fmid] = xoff;
	bd[bmid] = xlim;
	for (long c = 1;; c++) {
		/* forward: one more edit step on every diagonal in range */
		if (fmin > dmin)
			fd[--fmin - 1] = -1;
		else
			fmin++;
		if (fmax < dmax)
			fd[++fmax + 1] = -1;
		else
			fmax--;
		for (k = fmax; k >= fmin; k -= 2) {
			x = fd[k - 1] >= fd[k + 1] ? fd[k - 1] + 1 : fd[k + 1];
			y = x - k;
			while (x < xlim && y < ylim && a[x] == b[y])
				x++, y++;
			fd[k] = x;
			if (odd && bmin <= k && k <= bmax && bd[k] <= x) {
				*sx = x;
				*sy = y;
				goto found;
			}
		}
		/* backward, from the far corner */
		if (bmin > dmin)
			bd[--bmin - 1] = LONG_MAX;
		else
			bmin++;
		if (bmax < dmax)
			bd[++bmax + 1] = LONG_MAX;
		else
			bmax--;
		for (k = bmax; k >= bmin; k -= 2) {
			x = bd[k - 1] < bd[k + 1] ? bd[k - 1] : bd[k + 1] - 1;
			y = x - k;
			while (x > xoff && y > yoff && a[x - 1] == b[y - 1])
				x--, y--;
			bd[k] = x;
			if (!odd && fmin <= k && k <= fmax && x <= fd[k]) {
				*sx = x;
				*sy = y;
				goto found;
			}
		}
		if (c >= m->limit)
			break;
	}

	/* Too expensive: cut at whichever path, forward or backward, got further
	 * (clamped to the box: values near its edges may step past it). */
	{
		long fbest = -1, fx = 0, fy = 0, bbest = LONG_MAX, bx = 0, by = 0;

		for (k = fmax; k >= fmin; k -= 2) {
			x = fd[k] < xlim ? fd[k] : xlim;
			y = x - k;
			if (y > ylim)
				x = ylim + k, y = ylim;
			if (x + y > fbest)
				fbest = x + y, fx = x, fy = y;
		}
		for (k = bmax; k >= bmin; k -= 2) {
			x = bd[k] > xoff ? bd[k] : xoff;
			y = x - k;
			if (y < yoff)
				x = yoff + k, y = yoff;
			if (x + y < bbest)
				bbest = x + y, bx = x, by = y;
		}
		if (fbest - (xoff + yoff) >= (xlim + ylim) - bbest)
			*sx = fx, *sy = fy;
		else
			*sx = bx, *sy = by;
	}
found:
	if (*sx < xoff || *sx > xlim || *sy < yoff || *sy > ylim)
		return 0;
	if ((*sx == xoff && *sy == yoff) || (*sx == xlim && *sy == ylim))
		return 0;
	return 1;
}

/* Mark in ca/cb the lines of a[xoff, xlim) and b[yoff, ylim) outside a common
 * subsequence (a longest one unless the search was cut short). */
static void compare(struct myers *m, long xoff, long xlim, long yoff, long ylim)
{
	long x, y;

	while (xoff < xlim && yoff < ylim && m->a[xoff] == m->b[yoff])
		xoff++, yoff++;
	while (xoff < xlim && yoff < ylim && m->a[xlim - 1] == m->b[ylim - 1])
		xlim--, ylim--;
	if (xoff == xlim || yoff == ylim) {
		memset(m->ca + xoff, 1, (size_t)(xlim - xoff));
		memset(m->cb + yoff, 1, (size_t)(ylim - yoff));
		return;
	}
	if (!middle_snake(m, xoff, xlim, yoff, ylim, &x, &y)) {
		memset(m->ca + xoff, 1, (size_t)(xlim - xoff));
		memset(m->cb + yoff, 1, (size_t)(ylim - yoff));
		return;
	}
	compare(m, xoff, x, yoff, y);
	compare(m, x, xlim, y, ylim);
}

static long isqrt(long v)
{
	long r = 0;

	while ((r + 1) * (r + 1) <= v)
		r++;
	return r;
}

/*
 * Diff base against other: match[i] is the line of other that base line i is
 * kept as, or -1 when it was deleted or changed. occ[id] has bit base_bit set
 * when a line with that id occurs in base, other_bit when it occurs in other.
 */
static int diff_lines(struct arena *ar, const struct text *base, const struct text *other,
		      const unsigned char *occ, unsigned base_bit, unsigned other_bit, long *match)
{
	long nb = base->n, no = other->n, rn = 0, rm = 0, i, j;
	char *achg = zalloc_n(ar, (size_t)nb, 1), *bchg = zalloc_n(ar, (size_t)no, 1);
	long *ra = alloc_n(ar, (size_t)nb, sizeof(long)), *amap = alloc_n(ar, (size_t)nb, sizeof(long));
	long *rb = alloc_n(ar, (size_t)no, sizeof(long)), *bmap = alloc_n(ar, (size_t)no, sizeof(long));
	long *fbuf = alloc_n(ar, (size_t)(nb + no + 3), sizeof(long));
	long *bbuf = alloc_n(ar, (size_t)(nb + no + 3), sizeof(long));
	struct myers m;

	m.ca = zalloc_n(ar, (size_t)nb, 1);
	m.cb = zalloc_n(ar, (size_t)no, 1);

	/* A line missing from the other text is changed whatever the alignment. */
	for (i = 0; i < nb; i++) {
		if (occ[base->id[i]] & other_bit) {
			ra[rn] = base->id[i];
			amap[rn++] = i;
		} else {
			achg[i] = 1;
		}
	}
	for (j = 0; j < no; j++) {
		if (occ[other->id[j]] & base_bit) {
			rb[rm] = other->id[j];
			bmap[rm++] = j;
		} else {
			bchg[j] = 1;
		}
	}

	m.a = ra;
	m.b = rb;
	m.fd = fbuf + rm + 1;
	m.bd = bbuf + rm + 1;
	m.limit = 4 * isqrt(rn + rm);
	if (m.limit < 1024)
		m.limit = 1024;
	compare(&m, 0, rn, 0, rm);
	for (i = 0; i < rn; i++)
		achg[amap[i]] |= m.ca[i];
	for (j = 0; j < rm; j++)
		bchg[bmap[j]] |= m.cb[j];

	/* The unchanged lines of both sides pair up in order. */
	for (i = 0, j = 0; i < nb; i++) {
		if (achg[i]) {
			match[i] = -1;
			continue;
		}
		while (j < no && bchg[j])
			j++;
		match[i] = j < no ? j++ : -1;
	}
	return 0;
}

/* ---- diff3 walk -------------------------------------------------------- */

static int same_lines(const struct text *x, long xlo, long xhi, const struct text *y, long ylo, long yhi)
{
	if (xhi - xlo != yhi - ylo)
		return 0;
	for (long i = 0; i < xhi - xlo; i++) {
		if (x->id[xlo + i] != y->id[ylo + i])
			return 0;
	}
	return 1;
}

/* Add lines [lo, hi) of t to the merged length and, when out is set, copy them. */
static void emit(const struct text *t, long lo, long hi, char *out, size_t *len)
{
	for (long i = lo; i < hi; i++) {
		if (out)
			memcpy(out + *len, t->line[i].p, t->line[i].len);
		*len += t->line[i].len;
	}
}

/*
 * Walk the stable runs and unstable chunks (merge3.h). Returns the number of
 * conflicting chunks; *len receives the merged length, and out (when not NULL)
 * the merged text, meaningful only when there is no conflict.
 */
static int walk(const struct text *b, const struct text *o, const struct text *t, const long *mo,
		const long *mt, char *out, size_t *len)
{
	long ib = 0, io = 0, it = 0, k, j, jo, jt;
	int conflicts = 0;

	*len = 0;
	while (ib < b->n || io < o->n || it < t->n) {
		for (k = 0; ib + k < b->n && mo[ib + k] == io + k && mt[ib + k] == it + k; k++)
			;
		if (k > 0) {
			emit(b, ib, ib + k, out, len);
			ib += k, io += k, it += k;
			continue;
		}
		/* Unstable: up to the next base line kept by both sides, or the end. */
		for (j = ib; j < b->n && (mo[j] < 0 || mt[j] < 0); j++)
			;
		jo = j < b->n ? mo[j] : o->n;
		jt = j < b->n ? mt[j] : t->n;
		if (same_lines(o, io, jo, b, ib, j))
			emit(t, it, jt, out, len);
		else if (same_lines(t, it, jt, b, ib, j) || same_lines(o, io, jo, t, it, jt))
			emit(o, io, jo, out, len);
		else
			conflicts++;
		ib = j, io = jo, it = jt;
	}
	return conflicts;
}

/* ---- entry point ------------------------------------------------------- */

static int take(struct arena *a, const char *s, size_t len, struct merge3_result *out)
{
	char *d;

	if (len == SIZE_MAX)
		return too_large();
	d = arena_alloc(a, len + 1);
	if (len)
		memcpy(d, s, len);
	d[len] = '\0';
	out->text = d;
	out->len = len;
	return 0;
}

int merge3_text(struct arena *a, const char *base, size_t blen, const char *ours, size_t olen,
		const char *theirs, size_t tlen, struct merge3_result *out)
{
	struct text t[3]; /* base, ours, theirs */
	unsigned char *occ;
	long *mo, *mt, nids = 0;
	size_t len;
	char *text;
	int err;

	out->text = NULL;
	out->len = 0;
	out->conflicts = 0;
	if (same_bytes(ours, olen, base, blen))
		return take(a, theirs, tlen, out);
	if (same_bytes(theirs, tlen, base, blen) || same_bytes(ours, olen, theirs, tlen))
		return take(a, ours, olen, out);
	/* The merged text never exceeds ours + theirs: each of its lines comes from one of them. */
	if (tlen >= SIZE_MAX - 1 || olen > SIZE_MAX - 1 - tlen)
		return too_large();

	if ((err = split_lines(a, base, blen, &t[0])) < 0 || (err = split_lines(a, ours, olen, &t[1])) < 0 ||
	    (err = split_lines(a, theirs, tlen, &t[2])) < 0 || (err = intern_lines(a, t, 3, &nids)) < 0)
		return err;
	occ = zalloc_n(a, (size_t)nids, 1);
	mo = alloc_n(a, (size_t)t[0].n, sizeof(*mo));
	mt = alloc_n(a, (size_t)t[0].n, sizeof(*mt));
	for (int k = 0; k < 3; k++) {
		for (long i = 0; i < t[k].n; i++)
			occ[t[k].id[i]] |= (unsigned char)(1u << k);
	}
	if ((err = diff_lines(a, &t[0], &t[1], occ, 1u, 2u, mo)) < 0 ||
	    (err = diff_lines(a, &t[0], &t[2], occ, 1u, 4u, mt)) < 0)
		return err;

	out->conflicts = walk(&t[0], &t[1], &t[2], mo, mt, NULL, &len);
	if (out->conflicts)
		return 0;
	text = arena_alloc(a, len + 1);
	walk(&t[0], &t[1], &t[2], mo, mt, text, &len);
	text[len] = '\0';
	out->text = text;
	out->len = len;
	return 0;
}
