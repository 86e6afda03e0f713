/*
 * condition.c - the condition language of sites: a bounded recursive-descent
 * parser that type-checks as it builds, and a total evaluator.
 *
 * DESIGN
 *   lexer    next_token() reads one token at a time from the NUL-terminated
 *            source (at most COND_MAX_LEN bytes, checked before lexing);
 *            strings are unescaped into the arena with their length (a \0 or
 *            \u0000 may sit inside).
 *   parser   or := and ('||' and)* ; and := unary ('&&' unary)* ;
 *            unary := '!' unary | cmp ; cmp := primary [op primary] ;
 *            primary := literal | '[' literals ']' | member | '(' or ')'.
 *            Every '!' and '(' passes through parse_unary(), which counts the
 *            depth and refuses more than COND_MAX_DEPTH: recursion is bounded
 *            by the depth, never by the input. && and || chains are n-ary
 *            nodes, so evaluation recursion is bounded the same way.
 *   types    each node carries its static type; operands of && || ! and the
 *            whole expression must be T_BOOL or T_CLAIM (truthy-tested).
 *   eval     values are a small tagged union over literals and jansson
 *            values; a missing claim is V_UNDEF.
 */
#include "model/condition.h"

#include "util/err.h"
#include "util/text.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum tok {
	TK_EOF,
	TK_LPAREN,
	TK_RPAREN,
	TK_LBRACK,
	TK_RBRACK,
	TK_COMMA,
	TK_DOT,
	TK_QDOT, /* ?. (optional chaining: a missing claim is undefined anyway) */
	TK_MINUS,
	TK_AND,
	TK_OR,
	TK_NOT,
	TK_EQ,  /* == */
	TK_NE,  /* != */
	TK_SEQ, /* === */
	TK_SNE, /* !== */
	TK_LT,
	TK_LE,
	TK_GT,
	TK_GE,
	TK_IN,
	TK_TRUE,
	TK_FALSE,
	TK_NULL,
	TK_NUMBER,
	TK_STRING,
	TK_IDENT,
};

/* Static types: what a node is known to produce before evaluation. */
enum type { T_BOOL, T_NUMBER, T_STRING, T_NULL, T_ARRAY, T_CLAIM };

enum node_kind { N_LIT, N_ARRAY, N_CLAIM, N_NOT, N_AND, N_OR, N_CMP, N_IN };

enum lit_kind { L_NULL, L_BOOL, L_NUMBER, L_STRING };

struct lit {
	enum lit_kind kind;
	bool b;
	double num;
	const char *str;
	size_t len;
};

/* One step of a claim path: a key (.name or ["name"]) or an index ([0]). */
struct seg {
	const char *key; /* NULL for an index */
	size_t len;
	size_t index;
};

struct cond {
	enum node_kind kind;
	enum type type;
	int pos;
	enum tok op; /* N_CMP */
	struct lit lit;            /* N_LIT */
	const struct lit *items;   /* N_ARRAY */
	const struct seg *segs;    /* N_CLAIM (after visitor.claims) */
	const struct cond **kids;  /* N_NOT: 1, N_AND/N_OR: n, N_CMP/N_IN: 2 */
	int n;                     /* items, segs or kids */
};

#define COND_MAX_LEN 1024
#define COND_MAX_DEPTH 64

struct token {
	enum tok t;
	int pos;
	const char *start; /* source text of the token */
	int srclen;
	const char *str; /* TK_STRING: unescaped value; TK_IDENT: the name */
	size_t len;
	double num;
};

struct parser {
	struct arena *a;
	const char *src;
	int len;
	int at; /* next byte to lex */
	struct token tok;
	int depth;
	struct cond_error *err;
	bool failed;
};

static int fail(struct parser *p, int pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, int pos, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return -1;
	p->failed = true;
	p->err->position = pos;
	va_start(ap, fmt);
	vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_ident_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static bool is_ident_char(unsigned char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* "unexpected X" for the current token, never echoing a non-ASCII byte. */
static int unexpected(struct parser *p, const char *hint)
{
	const struct token *t = &p->tok;

	if (t->t == TK_EOF)
		return fail(p, t->pos, "unexpected end of expression%s%s", hint ? ", " : "", hint ? hint : "");
	if (t->t == TK_STRING)
		return fail(p, t->pos, "unexpected string%s%s", hint ? ", " : "", hint ? hint : "");
	return fail(p, t->pos, "unexpected '%.*s'%s%s", t->srclen > 40 ? 40 : t->srclen, t->start,
		    hint ? ", " : "", hint ? hint : "");
}

/* n hex digits at s (all present: the caller checked the length). */
static long hexn(const char *s, int n)
{
	long v = 0;

	for (int i = 0; i < n; i++) {
		int h = hex_digit(s[i]);

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* A quoted string starting at p->at (the quote). The unescaped value is never
 * longer than its source text, so one allocation of that size suffices. */
static int lex_string(struct parser *p, struct token *t)
{
	char q = p->src[p->at];
	int i = p->at + 1, j = i;
	char *d;
	size_t n = 0;

	while (j < p->len && p->src[j] != q)
		j += p->src[j] == '\\' ? 2 : 1;
	d = arena_alloc(p->a, (size_t)((j < p->len ? j : p->len) - p->at) + 1);
	for (;;) {
		unsigned char c = (unsigned char)p->src[i];

		if (i >= p->len || c == '\n' || c == '\r')
			return fail(p, t->pos, "unterminated string");
		if (c == (unsigned char)q) {
			i++;
			break;
		}
		if (c != '\\') {
			d[n++] = (char)c;
			i++;
			continue;
		}
		if (i + 1 >= p->len)
			return fail(p, t->pos, "unterminated string");
		c = (unsigned char)p->src[i + 1];
		switch (c) {
		case 'n': d[n++] = '\n'; i += 2; break;
		case 't': d[n++] = '\t'; i += 2; break;
		case 'r': d[n++] = '\r'; i += 2; break;
		case 'b': d[n++] = '\b'; i += 2; break;
		case 'f': d[n++] = '\f'; i += 2; break;
		case 'v': d[n++] = '\v'; i += 2; break;
		case '0':
			if (is_digit((unsigned char)p->src[i + 2]))
				return fail(p, i, "invalid escape sequence");
			d[n++] = '\0';
			i += 2;
			break;
		case 'x': {
			long v = i + 4 <= p->len ? hexn(p->src + i + 2, 2) : -1;

			if (v < 0)
				return fail(p, i, "invalid escape sequence");
			n += utf8_encode(d + n, (unsigned long)v); /* <= 0xFF: encodes */
			i += 4;
			break;
		}
		case 'u': {
			long v = i + 6 <= p->len ? hexn(p->src + i + 2, 4) : -1;

			if (v < 0)
				return fail(p, i, "invalid escape sequence");
			i += 6;
			if (v >= 0xD800 && v <= 0xDBFF) {
				long lo = i + 6 <= p->len && p->src[i] == '\\' && p->src[i + 1] == 'u'
						  ? hexn(p->src + i + 2, 4)
						  : -1;

				if (lo < 0xDC00 || lo > 0xDFFF)
					return fail(p, i - 6, "invalid escape sequence (lone surrogate)");
				v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
				i += 6;
			} else if (v >= 0xDC00 && v <= 0xDFFF) {
				return fail(p, i - 6, "invalid escape sequence (lone surrogate)");
			}
			/* No lone surrogate reaches here and a pair is at
			 * most U+10FFFF: utf8_encode cannot refuse it. */
			n += utf8_encode(d + n, (unsigned long)v);
			break;
		}
		case '\n':
		case '\r':
			return fail(p, t->pos, "unterminated string");
		default:
			/* \" \' \\ \/ and, as in JavaScript, any other character
			 * stands for itself. */
			d[n++] = (char)c;
			i += 2;
			break;
		}
	}
	d[n] = '\0';
	t->t = TK_STRING;
	t->str = d;
	t->len = n;
	p->at = i;
	return 0;
}

static int lex_number(struct parser *p, struct token *t)
{
	int i = p->at;
	char buf[COND_MAX_LEN + 1];
	char *end;

	while (is_digit((unsigned char)p->src[i]))
		i++;
	if (p->src[i] == '.') {
		i++;
		if (!is_digit((unsigned char)p->src[i]))
			return fail(p, t->pos, "invalid number");
		while (is_digit((unsigned char)p->src[i]))
			i++;
	}
	if (p->src[i] == 'e' || p->src[i] == 'E') {
		int j = i + 1;

		if (p->src[j] == '+' || p->src[j] == '-')
			j++;
		if (!is_digit((unsigned char)p->src[j]))
			return fail(p, t->pos, "invalid number");
		while (is_digit((unsigned char)p->src[j]))
			j++;
		i = j;
	}
	if (is_ident_char((unsigned char)p->src[i]) || p->src[i] == '.')
		return fail(p, t->pos, "invalid number");
	/* The text is digits, '.', 'e' and signs only, so strtod reads it the
	 * same in every locale that uses '.'; copy to stop it at i. */
	memcpy(buf, p->src + p->at, (size_t)(i - p->at));
	buf[i - p->at] = '\0';
	t->num = strtod(buf, &end);
	t->t = TK_NUMBER;
	p->at = i;
	return 0;
}

static const struct {
	const char *word;
	enum tok t;
} keywords[] = {
	{ "true", TK_TRUE },
	{ "false", TK_FALSE },
	{ "null", TK_NULL },
	{ "in", TK_IN },
};

/* Reads the next token into p->tok. */
static int next_token(struct parser *p)
{
	struct token *t = &p->tok;
	const char *s = p->src;
	unsigned char c;

	while (p->at < p->len && (s[p->at] == ' ' || s[p->at] == '\t' || s[p->at] == '\n' || s[p->at] == '\r'))
		p->at++;
	memset(t, 0, sizeof(*t));
	t->pos = p->at;
	t->start = s + p->at;
	if (p->at >= p->len) {
		t->t = TK_EOF;
		return 0;
	}
	c = (unsigned char)s[p->at];
	if (c == '"' || c == '\'') {
		if (lex_string(p, t))
			return -1;
	} else if (is_digit(c) || (c == '.' && is_digit((unsigned char)s[p->at + 1]))) {
		if (lex_number(p, t))
			return -1;
	} else if (is_ident_start(c)) {
		int i = p->at;

		while (is_ident_char((unsigned char)s[i]))
			i++;
		t->t = TK_IDENT;
		t->str = s + p->at;
		t->len = (size_t)(i - p->at);
		for (size_t k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++)
			if (strlen(keywords[k].word) == t->len && !memcmp(keywords[k].word, t->str, t->len))
				t->t = keywords[k].t;
		p->at = i;
	} else {
		const char *r = s + p->at;

#define OP(text, tk) (!strncmp(r, text, strlen(text)) ? (t->t = tk, p->at += (int)strlen(text), 1) : 0)
		if (!(OP("===", TK_SEQ) || OP("!==", TK_SNE) || OP("==", TK_EQ) || OP("!=", TK_NE) ||
		      OP("<=", TK_LE) || OP(">=", TK_GE) || OP("&&", TK_AND) || OP("||", TK_OR) ||
		      OP("<", TK_LT) || OP(">", TK_GT) || OP("!", TK_NOT) || OP("(", TK_LPAREN) ||
		      OP(")", TK_RPAREN) || OP("[", TK_LBRACK) || OP("]", TK_RBRACK) || OP(",", TK_COMMA) ||
		      OP("?.", TK_QDOT) || OP(".", TK_DOT) || OP("-", TK_MINUS))) {
			if (c == '=')
				return fail(p, t->pos, "unexpected '=' (use '==' to compare)");
			if (c == '&')
				return fail(p, t->pos, "unexpected '&' (use '&&')");
			if (c == '|')
				return fail(p, t->pos, "unexpected '|' (use '||')");
			if (c >= 0x21 && c < 0x7F)
				return fail(p, t->pos, "unexpected character '%c'", c);
			return fail(p, t->pos, "unexpected byte 0x%02X", c);
		}
#undef OP
	}
	t->srclen = p->at - t->pos;
	return 0;
}

static struct cond *node(struct parser *p, enum node_kind kind, enum type type, int pos)
{
	struct cond *c = arena_alloc(p->a, sizeof(*c));

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->type = type;
	c->pos = pos;
	return c;
}

static bool is_boolish(const struct cond *c)
{
	return c->type == T_BOOL || c->type == T_CLAIM;
}

static int need_bool(struct parser *p, const struct cond *c)
{
	return is_boolish(c) ? 0 : fail(p, c->pos, "does not evaluate to a boolean");
}

static const struct cond *parse_or(struct parser *p);
static const struct cond *parse_member(struct parser *p);
static const struct cond *parse_primary(struct parser *p);

/* A literal at the current token (true, false, null, -?number, string);
 * 1 when the token is not one. */
static int parse_literal(struct parser *p, struct lit *out)
{
	struct token *t = &p->tok;

	memset(out, 0, sizeof(*out));
	switch (t->t) {
	case TK_TRUE:
	case TK_FALSE:
		out->kind = L_BOOL;
		out->b = t->t == TK_TRUE;
		break;
	case TK_NULL:
		out->kind = L_NULL;
		break;
	case TK_NUMBER:
		out->kind = L_NUMBER;
		out->num = t->num;
		break;
	case TK_STRING:
		out->kind = L_STRING;
		out->str = t->str;
		out->len = t->len;
		break;
	case TK_MINUS:
		if (next_token(p))
			return -1;
		if (t->t != TK_NUMBER)
			return unexpected(p, "expected a number after '-'");
		out->kind = L_NUMBER;
		out->num = -t->num;
		break;
	default:
		return 1;
	}
	return next_token(p);
}

static enum type lit_type(const struct lit *l)
{
	switch (l->kind) {
	case L_NULL: return T_NULL;
	case L_BOOL: return T_BOOL;
	case L_NUMBER: return T_NUMBER;
	default: return T_STRING;
	}
}

/* '[' literal (',' literal)* ','? ']' with the current token at '['. */
static const struct cond *parse_array(struct parser *p)
{
	struct cond *c = node(p, N_ARRAY, T_ARRAY, p->tok.pos);
	struct lit *items;
	int cap;

	/* Each item takes at least one byte of source. */
	cap = (p->len - p->tok.pos) / 2 + 1;
	items = arena_alloc(p->a, (size_t)cap * sizeof(*items));
	if (next_token(p))
		return NULL;
	while (p->tok.t != TK_RBRACK) {
		int r;

		if (c->n >= cap) {
			fail(p, p->tok.pos, "array literal too long");
			return NULL;
		}
		r = parse_literal(p, &items[c->n]);
		if (r < 0)
			return NULL;
		if (r > 0) {
			unexpected(p, "expected a literal (an array holds only true, false, null, numbers and strings)");
			return NULL;
		}
		c->n++;
		if (p->tok.t == TK_COMMA) {
			if (next_token(p))
				return NULL;
		} else if (p->tok.t != TK_RBRACK) {
			unexpected(p, "expected ',' or ']'");
			return NULL;
		}
	}
	c->items = items;
	return next_token(p) ? NULL : c;
}

/* recv.includes(arg) with the current token at "includes" (a '(' next):
 * JavaScript's Array.prototype.includes / String.prototype.includes, the
 * one call the language knows (GitBook's documented conditions use it). It
 * is `arg in recv` without the object-key meaning of `in`. arg is a literal
 * or a claim, never a parenthesized expression, so no recursion escapes the
 * depth count. */
static const struct cond *parse_includes(struct parser *p, const struct cond *recv)
{
	const struct cond *arg = NULL;
	const struct cond **kids;
	struct cond *c;
	int pos = p->tok.pos;

	if (recv->type != T_ARRAY && recv->type != T_CLAIM && recv->type != T_STRING) {
		fail(p, pos, "includes() needs an array, a string or a claim before it");
		return NULL;
	}
	if (next_token(p) || next_token(p)) /* "includes", then "(" */
		return NULL;
	if (p->tok.t == TK_IDENT)
		arg = parse_member(p);
	else if (p->tok.t != TK_LPAREN && p->tok.t != TK_LBRACK)
		arg = parse_primary(p);
	else
		unexpected(p, "expected a literal or a claim in includes()");
	if (!arg)
		return NULL;
	if (arg->type == T_BOOL && arg->kind != N_LIT) {
		fail(p, arg->pos, "expected a literal or a claim in includes()");
		return NULL;
	}
	if (p->tok.t != TK_RPAREN) {
		unexpected(p, "expected ')' (includes() takes one argument)");
		return NULL;
	}
	if (next_token(p))
		return NULL;
	c = node(p, N_IN, T_BOOL, recv->pos);
	kids = arena_alloc(p->a, 2 * sizeof(*kids));
	c->op = TK_QDOT; /* marks includes(): no object keys */
	kids[0] = arg;
	kids[1] = recv;
	c->kids = kids;
	c->n = 2;
	return c;
}

/* After an array or string literal: .includes(…) or nothing. */
static const struct cond *maybe_includes(struct parser *p, const struct cond *recv)
{
	if (!recv || p->tok.t != TK_DOT)
		return recv;
	if (next_token(p))
		return NULL;
	if (p->tok.t != TK_IDENT || p->tok.len != 8 || memcmp(p->tok.str, "includes", 8)) {
		unexpected(p, "only .includes(…) may follow a literal");
		return NULL;
	}
	{
		int at = p->at;
		while (at < p->len && (p->src[at] == ' ' || p->src[at] == '\t'))
			at++;
		if (at >= p->len || p->src[at] != '(') {
			unexpected(p, "expected '(' after includes");
			return NULL;
		}
	}
	return parse_includes(p, recv);
}

/* visitor.claims followed by .name, ["name"] or [index] steps. */
static const struct cond *parse_member(struct parser *p)
{
	struct cond *c = node(p, N_CLAIM, T_CLAIM, p->tok.pos);
	struct seg *segs;
	int cap;

	if (p->tok.len != 7 || memcmp(p->tok.str, "visitor", 7)) {
		fail(p, p->tok.pos, "unknown identifier '%.*s' (only visitor.claims.\xE2\x80\xA6 is allowed)",
		     p->tok.len > 40 ? 40 : (int)p->tok.len, p->tok.str);
		return NULL;
	}
	if (next_token(p))
		return NULL;
	if (p->tok.t != TK_DOT) {
		unexpected(p, "expected '.claims' after 'visitor'");
		return NULL;
	}
	if (next_token(p))
		return NULL;
	if (p->tok.t == TK_EOF || p->tok.len != 6 || !p->tok.str || memcmp(p->tok.str, "claims", 6) ||
	    p->tok.t == TK_STRING) {
		if (p->tok.t == TK_IDENT)
			fail(p, p->tok.pos, "unknown member '%.*s' of visitor (only visitor.claims.\xE2\x80\xA6 is allowed)",
			     p->tok.len > 40 ? 40 : (int)p->tok.len, p->tok.str);
		else
			unexpected(p, "expected 'claims'");
		return NULL;
	}
	if (next_token(p))
		return NULL;
	cap = (p->len - p->tok.pos) / 2 + 1;
	segs = arena_alloc(p->a, (size_t)cap * sizeof(*segs));
	for (;;) {
		struct seg *s = &segs[c->n];

		if (p->tok.t == TK_QDOT) {
			/* a?.b is a.b, a?.[0] is a[0]: a missing step is undefined. */
			if (next_token(p))
				return NULL;
			if (p->tok.t != TK_LBRACK && p->tok.t != TK_IDENT && p->tok.t != TK_TRUE &&
			    p->tok.t != TK_FALSE && p->tok.t != TK_NULL && p->tok.t != TK_IN) {
				unexpected(p, "expected a name or '[' after '?.'");
				return NULL;
			}
		} else if (p->tok.t != TK_DOT && p->tok.t != TK_LBRACK) {
			break;
		} else if (p->tok.t == TK_DOT) {
			if (next_token(p))
				return NULL;
			if (p->tok.t == TK_LBRACK) {
				unexpected(p, "expected a name after '.'");
				return NULL;
			}
		}
		if (c->n >= cap) {
			fail(p, p->tok.pos, "member path too long");
			return NULL;
		}
		if (p->tok.t != TK_LBRACK) {
			/* After '.', any identifier, keywords included (a.in). */
			if (p->tok.t != TK_IDENT && p->tok.t != TK_TRUE && p->tok.t != TK_FALSE &&
			    p->tok.t != TK_NULL && p->tok.t != TK_IN) {
				unexpected(p, "expected a name after '.'");
				return NULL;
			}
			s->key = p->tok.start;
			s->len = (size_t)p->tok.srclen;
			if (s->len == 8 && !memcmp(s->key, "includes", 8)) {
				/* .includes( starts a call on the path so far. */
				int at = p->at;
				while (at < p->len && (p->src[at] == ' ' || p->src[at] == '\t'))
					at++;
				if (at < p->len && p->src[at] == '(') {
					c->segs = segs;
					return parse_includes(p, c);
				}
			}
		} else {
			if (next_token(p))
				return NULL;
			if (p->tok.t == TK_STRING) {
				s->key = p->tok.str;
				s->len = p->tok.len;
			} else if (p->tok.t == TK_NUMBER && p->tok.num >= 0 && p->tok.num <= 1e15 &&
				   p->tok.num == (double)(size_t)p->tok.num) {
				s->key = NULL;
				s->index = (size_t)p->tok.num;
			} else {
				unexpected(p, "expected a string or an index in '[ ]'");
				return NULL;
			}
			if (next_token(p))
				return NULL;
			if (p->tok.t != TK_RBRACK) {
				unexpected(p, "expected ']'");
				return NULL;
			}
		}
		c->n++;
		if (next_token(p))
			return NULL;
	}
	c->segs = segs;
	return c;
}

static const struct cond *parse_primary(struct parser *p)
{
	struct token *t = &p->tok;
	struct cond *c;
	const struct cond *inner;
	int r;

	switch (t->t) {
	case TK_LPAREN:
		if (next_token(p))
			return NULL;
		inner = parse_or(p);
		if (!inner)
			return NULL;
		if (t->t != TK_RPAREN) {
			unexpected(p, "expected ')'");
			return NULL;
		}
		return next_token(p) ? NULL : inner;
	case TK_LBRACK:
		return maybe_includes(p, parse_array(p));
	case TK_IDENT:
		return parse_member(p);
	default:
		break;
	}
	c = node(p, N_LIT, T_NULL, t->pos);
	r = parse_literal(p, &c->lit);
	if (r < 0)
		return NULL;
	if (r > 0) {
		unexpected(p, NULL);
		return NULL;
	}
	c->type = lit_type(&c->lit);
	return c->type == T_STRING ? maybe_includes(p, c) : c;
}

static bool is_cmp(enum tok t)
{
	return t == TK_EQ || t == TK_NE || t == TK_SEQ || t == TK_SNE || t == TK_LT || t == TK_LE ||
	       t == TK_GT || t == TK_GE || t == TK_IN;
}

static const struct cond *parse_cmp(struct parser *p)
{
	const struct cond *l = parse_primary(p), *r;
	const struct cond **kids;
	struct cond *c;
	enum tok op;

	if (!l || !is_cmp(p->tok.t))
		return l;
	op = p->tok.t;
	if (next_token(p))
		return NULL;
	r = parse_primary(p);
	if (!r)
		return NULL;
	if (is_cmp(p->tok.t)) {
		unexpected(p, "comparisons cannot be chained (use parentheses and '&&')");
		return NULL;
	}
	if (l->type == T_ARRAY) {
		fail(p, l->pos, "an array literal is only allowed on the right of 'in'");
		return NULL;
	}
	if (op == TK_IN) {
		if (r->type != T_ARRAY && r->type != T_CLAIM && r->type != T_STRING) {
			fail(p, r->pos, "the right side of 'in' must be an array, a string or a claim");
			return NULL;
		}
	} else if (r->type == T_ARRAY) {
		fail(p, r->pos, "an array literal is only allowed on the right of 'in'");
		return NULL;
	}
	c = node(p, op == TK_IN ? N_IN : N_CMP, T_BOOL, l->pos);
	kids = arena_alloc(p->a, 2 * sizeof(*kids));
	c->op = op;
	kids[0] = l;
	kids[1] = r;
	c->kids = kids;
	c->n = 2;
	return c;
}

static const struct cond *parse_unary(struct parser *p)
{
	const struct cond *r = NULL, *inner;
	const struct cond **kids;
	struct cond *c;
	int pos = p->tok.pos;

	if (p->tok.t != TK_NOT && p->tok.t != TK_LPAREN)
		return parse_cmp(p);
	if (++p->depth > COND_MAX_DEPTH) {
		fail(p, pos, "too deeply nested (more than %d levels)", COND_MAX_DEPTH);
		return NULL;
	}
	if (p->tok.t == TK_LPAREN) {
		r = parse_cmp(p);
	} else if (!next_token(p) && (inner = parse_unary(p)) && !need_bool(p, inner)) {
		c = node(p, N_NOT, T_BOOL, pos);
		kids = arena_alloc(p->a, sizeof(*kids));
		kids[0] = inner;
		c->kids = kids;
		c->n = 1;
		r = c;
	}
	p->depth--;
	return r;
}

/* sub ( op sub )* as one n-ary node when there is more than one operand. */
static const struct cond *parse_chain(struct parser *p, enum tok op, enum node_kind kind,
				      const struct cond *(*sub)(struct parser *))
{
	const struct cond *first = sub(p);
	const struct cond **kids;
	struct cond *c;
	int cap;

	if (!first || p->tok.t != op)
		return first;
	if (need_bool(p, first))
		return NULL;
	c = node(p, kind, T_BOOL, first->pos);
	/* Each further operand takes at least three bytes ("&&x"). */
	cap = (p->len - p->tok.pos) / 3 + 2;
	kids = arena_alloc(p->a, (size_t)cap * sizeof(*kids));
	kids[c->n++] = first;
	while (p->tok.t == op) {
		const struct cond *k;

		if (next_token(p))
			return NULL;
		k = sub(p);
		if (!k || need_bool(p, k))
			return NULL;
		if (c->n >= cap) {
			fail(p, k->pos, "too many operands");
			return NULL;
		}
		kids[c->n++] = k;
	}
	c->kids = kids;
	return c;
}

static const struct cond *parse_and(struct parser *p)
{
	return parse_chain(p, TK_AND, N_AND, parse_unary);
}

static const struct cond *parse_or(struct parser *p)
{
	return parse_chain(p, TK_OR, N_OR, parse_and);
}

int cond_parse(struct arena *a, const char *src, const struct cond **out, struct cond_error *err)
{
	struct parser p;
	const struct cond *c;
	size_t len;

	*out = NULL;
	memset(err, 0, sizeof(*err));
	if (!src)
		src = "";
	len = strnlen(src, COND_MAX_LEN + 1);
	if (len > COND_MAX_LEN) {
		err->position = COND_MAX_LEN;
		snprintf(err->message, sizeof(err->message), "too long (more than %d bytes)", COND_MAX_LEN);
		return -1;
	}
	memset(&p, 0, sizeof(p));
	p.a = a;
	p.src = src;
	p.len = (int)len;
	p.err = err;
	if (next_token(&p))
		return -1;
	if (p.tok.t == TK_EOF)
		return fail(&p, 0, "empty expression");
	c = parse_or(&p);
	if (!c)
		return -1;
	if (p.tok.t != TK_EOF)
		return unexpected(&p, NULL);
	if (need_bool(&p, c))
		return -1;
	*out = c;
	return 0;
}

int cond_check(const char *field, const char *src)
{
	struct arena a;
	const struct cond *c;
	struct cond_error e;
	int rc = 0;

	if (!src || !*src)
		return 0;
	arena_init(&a);
	if (cond_parse(&a, src, &c, &e))
		rc = err_set(ERR_INVALID, "%s: %s at position %d", field, e.message, e.position);
	arena_free(&a);
	return rc;
}

/* ---- evaluation ---- */

enum vkind { V_UNDEF, V_NULL, V_BOOL, V_NUM, V_STR, V_ARRAY_LIT, V_ARRAY, V_OBJECT };

struct val {
	enum vkind k;
	bool b;
	double num;
	const char *s;
	size_t len;
	const json_t *j;      /* V_ARRAY, V_OBJECT */
	const struct cond *c; /* V_ARRAY_LIT */
};

static struct val lit_val(const struct lit *l)
{
	struct val v = { 0 };

	switch (l->kind) {
	case L_NULL: v.k = V_NULL; break;
	case L_BOOL: v.k = V_BOOL; v.b = l->b; break;
	case L_NUMBER: v.k = V_NUM; v.num = l->num; break;
	case L_STRING: v.k = V_STR; v.s = l->str; v.len = l->len; break;
	}
	return v;
}

static struct val json_val(const json_t *j)
{
	struct val v = { 0 };

	switch (j ? json_typeof(j) : JSON_NULL) {
	case JSON_NULL: v.k = j ? V_NULL : V_UNDEF; break;
	case JSON_TRUE: v.k = V_BOOL; v.b = true; break;
	case JSON_FALSE: v.k = V_BOOL; v.b = false; break;
	case JSON_INTEGER:
	case JSON_REAL: v.k = V_NUM; v.num = json_number_value(j); break;
	case JSON_STRING: v.k = V_STR; v.s = json_string_value(j); v.len = json_string_length(j); break;
	case JSON_ARRAY: v.k = V_ARRAY; v.j = j; break;
	case JSON_OBJECT: v.k = V_OBJECT; v.j = j; break;
	}
	return v;
}

static const json_t *claim_lookup(const struct cond *c, const json_t *visitor)
{
	const json_t *j = visitor && json_is_object(visitor) ? json_object_get(visitor, "claims") : NULL;

	for (int i = 0; j && i < c->n; i++) {
		const struct seg *s = &c->segs[i];

		if (s->key)
			j = json_is_object(j) ? json_object_getn(j, s->key, s->len) : NULL;
		else
			j = json_is_array(j) ? json_array_get(j, s->index) : NULL;
	}
	return j;
}

static bool truthy(struct val v)
{
	switch (v.k) {
	case V_UNDEF:
	case V_NULL: return false;
	case V_BOOL: return v.b;
	case V_NUM: return v.num != 0 && v.num == v.num;
	case V_STR: return v.len > 0;
	default: return true;
	}
}

/* Strict equality; loose adds undefined == null (JavaScript's ==). Arrays
 * and objects are never equal to anything (JavaScript compares references). */
static bool equal(struct val a, struct val b, bool loose)
{
	if (loose && (a.k == V_UNDEF || a.k == V_NULL) && (b.k == V_UNDEF || b.k == V_NULL))
		return true;
	if (a.k != b.k)
		return false;
	switch (a.k) {
	case V_NULL: return true;
	case V_BOOL: return a.b == b.b;
	case V_NUM: return a.num == b.num;
	case V_STR: return a.len == b.len && !memcmp(a.s, b.s, a.len);
	default: return false;
	}
}

static int bytecmp(struct val a, struct val b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int r = memcmp(a.s, b.s, n);

	if (r)
		return r;
	return a.len < b.len ? -1 : a.len > b.len;
}

static bool order(enum tok op, struct val a, struct val b)
{
	int r;

	if (a.k == V_NUM && b.k == V_NUM) {
		if (a.num != a.num || b.num != b.num)
			return false;
		r = a.num < b.num ? -1 : a.num > b.num;
	} else if (a.k == V_STR && b.k == V_STR) {
		r = bytecmp(a, b);
	} else {
		return false;
	}
	switch (op) {
	case TK_LT: return r < 0;
	case TK_LE: return r <= 0;
	case TK_GT: return r > 0;
	default: return r >= 0;
	}
}

static bool contains(struct val needle, struct val hay, bool keys)
{
	if (needle.k == V_UNDEF)
		return false;
	switch (hay.k) {
	case V_ARRAY_LIT:
		for (int i = 0; i < hay.c->n; i++)
			if (equal(needle, lit_val(&hay.c->items[i]), false))
				return true;
		return false;
	case V_ARRAY: {
		size_t i;
		const json_t *e;

		json_array_foreach(hay.j, i, e)
			if (equal(needle, json_val(e), false))
				return true;
		return false;
	}
	case V_STR:
		return needle.k == V_STR && memmem(hay.s, hay.len, needle.s, needle.len) != NULL;
	case V_OBJECT:
		/* JavaScript's "key" in object. */
		return keys && needle.k == V_STR && json_object_getn(hay.j, needle.s, needle.len) != NULL;
	default:
		return false;
	}
}

static struct val eval(const struct cond *c, const json_t *visitor);

static bool eval_bool(const struct cond *c, const json_t *visitor)
{
	return truthy(eval(c, visitor));
}

static struct val eval(const struct cond *c, const json_t *visitor)
{
	struct val v = { .k = V_BOOL };
	struct val l, r;

	switch (c->kind) {
	case N_LIT:
		return lit_val(&c->lit);
	case N_ARRAY:
		v.k = V_ARRAY_LIT;
		v.c = c;
		return v;
	case N_CLAIM:
		return json_val(claim_lookup(c, visitor));
	case N_NOT:
		v.b = !eval_bool(c->kids[0], visitor);
		return v;
	case N_AND:
		v.b = true;
		for (int i = 0; i < c->n && v.b; i++)
			v.b = eval_bool(c->kids[i], visitor);
		return v;
	case N_OR:
		v.b = false;
		for (int i = 0; i < c->n && !v.b; i++)
			v.b = eval_bool(c->kids[i], visitor);
		return v;
	case N_IN:
		v.b = contains(eval(c->kids[0], visitor), eval(c->kids[1], visitor), c->op == TK_IN);
		return v;
	case N_CMP:
		l = eval(c->kids[0], visitor);
		r = eval(c->kids[1], visitor);
		switch (c->op) {
		case TK_EQ: v.b = equal(l, r, true); break;
		case TK_NE: v.b = !equal(l, r, true); break;
		case TK_SEQ: v.b = equal(l, r, false); break;
		case TK_SNE: v.b = !equal(l, r, false); break;
		default: v.b = order(c->op, l, r); break;
		}
		return v;
	}
	return v;
}

bool cond_eval(const struct cond *c, const json_t *visitor)
{
	return c ? eval_bool(c, visitor) : true;
}

bool cond_visible(const char *src, const json_t *visitor)
{
	struct arena a;
	const struct cond *c;
	struct cond_error e;
	bool r = false;

	if (!src || !*src)
		return true;
	arena_init(&a);
	if (cond_parse(&a, src, &c, &e) == 0)
		r = cond_eval(c, visitor);
	arena_free(&a);
	return r;
}
