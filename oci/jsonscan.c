/* oci/jsonscan.h: recursive descent over the text, one function per JSON production. */
#include "oci/jsonscan.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct scan {
	const unsigned char *p, *end;
	size_t len;    /* of the whole text: no decoded string is longer */
	char *scratch; /* decoded strings with escapes, made on the first one */
	const yajl_callbacks *cb;
	void *ctx;
};

static bool scan_value(struct scan *s, int depth);

/* A comment at p, as yajl's tree reader takes them: "//" to the end of the line, or
 * slash-star to star-slash; either may run to the end of the text (yajl accepts that after
 * a complete value). False, p unmoved, when p starts no comment. */
static bool skip_comment(struct scan *s)
{
	if (s->end - s->p < 2 || s->p[0] != '/' || (s->p[1] != '/' && s->p[1] != '*'))
		return false;
	bool line = s->p[1] == '/';
	for (s->p += 2; s->p < s->end; s->p++) {
		if (line && *s->p == '\n')
			break;
		if (!line && *s->p == '*' && s->end - s->p >= 2 && s->p[1] == '/') {
			s->p++;
			break;
		}
	}
	if (s->p < s->end)
		s->p++;
	return true;
}

/* JSON's white space and, as yajl takes them, '\v', '\f' and comments */
static void skip_space(struct scan *s)
{
	do {
		while (s->p < s->end && (*s->p == ' ' || (*s->p >= '\t' && *s->p <= '\r')))
			s->p++;
	} while (skip_comment(s));
}

/* The next character is c (after white space): consumed. */
static bool take(struct scan *s, char c)
{
	skip_space(s);
	if (s->p == s->end || *s->p != (unsigned char)c)
		return false;
	s->p++;
	return true;
}

static bool is_digit(const struct scan *s)
{
	return s->p < s->end && *s->p >= '0' && *s->p <= '9';
}

/* The length of the UTF-8 sequence at p, 0 when there is none: a lead byte and its
 * continuation bytes, checked no further than yajl does (an overlong form or an encoded
 * surrogate passes), since the full reader of the same file is yajl's. */
static size_t utf8_length(const unsigned char *p, const unsigned char *end)
{
	size_t n;
	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0)
		n = 2;
	else if ((p[0] & 0xf0) == 0xe0)
		n = 3;
	else if ((p[0] & 0xf8) == 0xf0)
		n = 4;
	else
		return 0;
	if ((size_t)(end - p) < n)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static char *put_utf8(char *d, uint32_t cp)
{
	if (cp < 0x80) {
		*d++ = (char)cp;
	} else if (cp < 0x800) {
		*d++ = (char)(0xc0 | cp >> 6);
		*d++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*d++ = (char)(0xe0 | cp >> 12);
		*d++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*d++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*d++ = (char)(0xf0 | cp >> 18);
		*d++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*d++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*d++ = (char)(0x80 | (cp & 0x3f));
	}
	return d;
}

/* Four hex digits after "\u". */
static bool hex4(struct scan *s, uint32_t *out)
{
	if (s->end - s->p < 4)
		return false;
	uint32_t v = 0;
	for (int i = 0; i < 4; i++) {
		unsigned char c = *s->p++;
		unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
						    : 16;
		if (d == 16)
			return false;
		v = v << 4 | d;
	}
	*out = v;
	return true;
}

/* After "\u": one code point, decoded as yajl does it: a high surrogate takes the low ten
 * bits of the \u escape right after it, whatever that is, and becomes '?' (U+003F) without
 * one; a low surrogate alone is encoded as it is. */
static bool unicode_escape(struct scan *s, uint32_t *cp)
{
	uint32_t low;
	if (!hex4(s, cp))
		return false;
	if ((*cp & 0xfc00) != 0xd800)
		return true;
	if (s->end - s->p < 2 || s->p[0] != '\\' || s->p[1] != 'u') {
		*cp = '?';
		return true;
	}
	s->p += 2;
	if (!hex4(s, &low))
		return false;
	*cp = 0x10000 + ((*cp & 0x3ff) << 10) + (low & 0x3ff);
	return true;
}

/* After a backslash: the escaped character written at *d. */
static bool escape(struct scan *s, char **d)
{
	static const char simple_in[] = "\"\\/bfnrt", simple_out[] = "\"\\/\b\f\n\r\t";
	if (s->p == s->end)
		return false;
	unsigned char c = *s->p++;
	const char *at = c ? strchr(simple_in, c) : NULL;
	if (at) {
		*(*d)++ = simple_out[at - simple_in];
		return true;
	}
	uint32_t cp;
	if (c != 'u' || !unicode_escape(s, &cp))
		return false;
	*d = put_utf8(*d, cp);
	return true;
}

/* A string's text from p, decoded at *d, up to its closing quote or the end of the text,
 * whichever comes first; false at an invalid escape, UTF-8 sequence or control character. */
static bool decode_until_quote(struct scan *s, char **d)
{
	while (s->p < s->end && *s->p != '"') {
		if (*s->p == '\\') {
			s->p++;
			if (!escape(s, d))
				return false;
			continue;
		}
		size_t n = *s->p < 0x20 ? 0 : utf8_length(s->p, s->end);
		if (!n)
			return false;
		memcpy(*d, s->p, n);
		*d += n;
		s->p += n;
	}
	return true;
}

/* From `from` (inside a string whose text so far needed no decoding) to the closing quote,
 * decoded into the scratch buffer. */
static bool decode_string(struct scan *s, const unsigned char *from, const char **out, size_t *len)
{
	if (!s->scratch && !(s->scratch = malloc(s->len ? s->len : 1)))
		return false;
	size_t plain = (size_t)(s->p - from);
	memcpy(s->scratch, from, plain);
	char *d = s->scratch + plain;
	if (!decode_until_quote(s, &d) || s->p == s->end)
		return false;
	s->p++;
	*out = s->scratch;
	*len = (size_t)(d - s->scratch);
	return true;
}

/* Whether one of the 8 bytes of w needs a closer look: a quote, a backslash, a control
 * character or part of a multi-byte UTF-8 sequence (the classic "has a zero byte" test,
 * which may say yes wrongly next to a real hit but never misses one). */
static bool word_needs_look(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
	uint64_t hit = ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) |
		       ((w - ones * 0x20) & ~w) | w;
	return (hit & highs) != 0;
}

/* Moves to the first quote, backslash or control character of a string's text, checking
 * the UTF-8 on the way (eight plain ASCII bytes at a time: state.json is mostly paths). */
static bool skip_plain(struct scan *s)
{
	for (;;) {
		uint64_t w;
		while (s->end - s->p >= 8 && (memcpy(&w, s->p, 8), !word_needs_look(w)))
			s->p += 8;
		if (s->p == s->end || *s->p == '"' || *s->p == '\\' || *s->p < 0x20)
			return true;
		size_t n = utf8_length(s->p, s->end);
		if (!n)
			return false;
		s->p += n;
	}
}

/* At the opening quote: the string's bytes, in the text itself while no escape needs
 * decoding. */
static bool scan_string(struct scan *s, const char **out, size_t *len)
{
	const unsigned char *from = ++s->p;
	if (!skip_plain(s))
		return false;
	if (s->p < s->end && *s->p == '"') {
		*out = (const char *)from;
		*len = (size_t)(s->p++ - from);
		return true;
	}
	return decode_string(s, from, out, len);
}

static bool scan_digits(struct scan *s)
{
	if (!is_digit(s))
		return false;
	while (is_digit(s))
		s->p++;
	return true;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, handed over as text */
static bool scan_number(struct scan *s)
{
	const unsigned char *start = s->p;
	if (*s->p == '-')
		s->p++;
	if (s->p < s->end && *s->p == '0')
		s->p++;
	else if (!scan_digits(s))
		return false;
	if (s->p < s->end && *s->p == '.') {
		s->p++;
		if (!scan_digits(s))
			return false;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (!scan_digits(s))
			return false;
	}
	return s->cb->yajl_number(s->ctx, (const char *)start, (size_t)(s->p - start));
}

static bool scan_word(struct scan *s, const char *word, size_t n)
{
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return false;
	s->p += n;
	return true;
}

/* A member's key and its colon. */
static bool scan_key(struct scan *s)
{
	const char *key;
	size_t len;
	skip_space(s);
	return s->p != s->end && *s->p == '"' && scan_string(s, &key, &len) &&
	       s->cb->yajl_map_key(s->ctx, (const unsigned char *)key, len) && take(s, ':');
}

/* An object (key: value members) or an array (values), at its opening bracket. */
static bool scan_container(struct scan *s, int depth, bool object)
{
	const char close = object ? '}' : ']';
	s->p++;
	if (!(object ? s->cb->yajl_start_map(s->ctx) : s->cb->yajl_start_array(s->ctx)))
		return false;
	if (!take(s, close)) {
		do {
			if ((object && !scan_key(s)) || !scan_value(s, depth))
				return false;
		} while (take(s, ','));
		if (!take(s, close))
			return false;
	}
	return object ? s->cb->yajl_end_map(s->ctx) : s->cb->yajl_end_array(s->ctx);
}

/* One value; depth counts the objects and arrays around it. */
static bool scan_value(struct scan *s, int depth)
{
	skip_space(s);
	if (s->p == s->end)
		return false;
	const char *str;
	size_t len;
	switch (*s->p) {
	case '{':
	case '[':
		return depth < OCI_JSON_SCAN_MAX_DEPTH &&
		       scan_container(s, depth + 1, *s->p == '{');
	case '"':
		return scan_string(s, &str, &len) &&
		       s->cb->yajl_string(s->ctx, (const unsigned char *)str, len);
	case 't':
		return scan_word(s, "true", 4) && s->cb->yajl_boolean(s->ctx, 1);
	case 'f':
		return scan_word(s, "false", 5) && s->cb->yajl_boolean(s->ctx, 0);
	case 'n':
		return scan_word(s, "null", 4) && s->cb->yajl_null(s->ctx);
	default:
		return (*s->p == '-' || is_digit(s)) && scan_number(s);
	}
}

/* After a whole value yajl takes a string left open at the end of the text: it lexes the
 * text and one more space, which leaves such a string an unfinished token, not garbage. So
 * the rest is one: a quote, then only what a string may hold (escapes whole, UTF-8 whole,
 * no control character), and no closing quote. */
static bool only_an_open_string_left(struct scan *s)
{
	if (s->p == s->end || *s->p != '"')
		return false;
	if (!s->scratch && !(s->scratch = malloc(s->len ? s->len : 1)))
		return false;
	s->p++;
	char *d = s->scratch; /* decoded, not kept */
	return decode_until_quote(s, &d) && s->p == s->end;
}

int oci_json_scan(const char *text, size_t len, const yajl_callbacks *cb, void *ctx)
{
	struct scan s = {.p = (const unsigned char *)text,
			 .end = (const unsigned char *)text + len,
			 .len = len,
			 .cb = cb,
			 .ctx = ctx};
	bool ok = scan_value(&s, 0);
	skip_space(&s);
	ok = ok && (s.p == s.end || only_an_open_string_left(&s));
	free(s.scratch);
	return ok ? 0 : -1;
}
