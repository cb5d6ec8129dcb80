/* Typed D-Bus values written as text (libct/dbus/literal.h): a recursive descent, each value
 * parsed against the type asked for, or its own type inferred when none is. */
#include "libct/dbus/literal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/dbus/message.h"

struct parser {
	const char *text, *p;
	int depth;
	struct ct_error *err;
};

static int fail(struct parser *ps, const char *what)
{
	return ct_error_plain(ps->err, EINVAL, "value \"%s\": %s at offset %zu", ps->text, what,
			      (size_t)(ps->p - ps->text));
}

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static int parse_value(struct parser *ps, const char *want, struct ct_dbus_lit *v);

static const struct keyword {
	const char *word;
	char type;
} keywords[] = {
	{"byte", 'y'},	  {"int16", 'n'},  {"uint16", 'q'},	{"int32", 'i'},
	{"uint32", 'u'},  {"int64", 'x'},  {"uint64", 't'},	{"double", 'd'},
	{"boolean", 'b'}, {"string", 's'}, {"objectpath", 'o'}, {"signature", 'g'},
};

/* The complete type that want starts with, as a string of its own in out. */
static bool first_type(const char *want, char *out)
{
	size_t n = ct_dbus_complete_type_len(want, strlen(want));
	if (!n)
		return false;
	memcpy(out, want, n);
	out[n] = '\0';
	return true;
}

static bool set_sig(struct ct_dbus_lit *v, const char *sig)
{
	size_t n = strlen(sig);
	if (n > CT_DBUS_SIGNATURE_MAX)
		return false;
	memcpy(v->sig, sig, n + 1);
	return true;
}

/* An integer in the range of type, or a double. */
static int number(struct parser *ps, char type, struct ct_dbus_lit *v)
{
	const char *start = ps->p;
	size_t len = strspn(start, "0123456789abcdefABCDEFxX+-.");
	char buf[64];
	if (!len || len >= sizeof(buf))
		return fail(ps, "a number expected");
	memcpy(buf, start, len);
	buf[len] = '\0';
	bool floating = !strchr(buf, 'x') && !strchr(buf, 'X') && strpbrk(buf, ".eE");
	if (!type)
		type = floating ? 'd' : 'i';
	char *end;
	errno = 0;
	if (type == 'd') {
		v->d = strtod(buf, &end);
		if (*end || errno || !isfinite(v->d))
			return fail(ps, "not a finite double");
	} else if (strchr("nix", type)) {
		v->i = strtoll(buf, &end, 0);
		int64_t lo = type == 'n' ? INT16_MIN : type == 'i' ? INT32_MIN : INT64_MIN;
		int64_t hi = type == 'n' ? INT16_MAX : type == 'i' ? INT32_MAX : INT64_MAX;
		if (*end || errno || v->i < lo || v->i > hi)
			return fail(ps, "an integer out of range for its type");
	} else if (strchr("yqut", type)) {
		v->u = strtoull(buf, &end, 0);
		uint64_t hi = type == 'y'   ? UINT8_MAX
			      : type == 'q' ? UINT16_MAX
			      : type == 'u' ? UINT32_MAX
					    : UINT64_MAX;
		if (*end || errno || buf[0] == '-' || v->u > hi)
			return fail(ps, "an unsigned integer out of range for its type");
	} else {
		return fail(ps, "a number where the type is not numeric");
	}
	ps->p += len;
	char sig[2] = {type, '\0'};
	set_sig(v, sig);
	return 0;
}

static int escape(struct parser *ps, char *out, size_t *n)
{
	static const char from[] = "\\'\"abfnrtv", to[] = "\\'\"\a\b\f\n\r\t\v";
	const char *hit = *ps->p ? strchr(from, *ps->p) : NULL;
	if (!hit)
		return fail(ps, "an unknown escape");
	out[(*n)++] = to[hit - from];
	ps->p++;
	return 0;
}

static int string(struct parser *ps, char type, struct ct_dbus_lit *v)
{
	char sig[2] = {type ? type : 's', '\0'};
	if (!strchr("sog", sig[0]))
		return fail(ps, "a string where the type is not one");
	char quote = *ps->p++;
	char *out = malloc(strlen(ps->p) + 1);
	size_t n = 0;
	if (!out)
		return ct_error_sys(ps->err, ENOMEM, "parse a value");
	while (*ps->p && *ps->p != quote) {
		if (*ps->p == '\\') {
			ps->p++;
			if (escape(ps, out, &n) < 0) {
				free(out);
				return -1;
			}
		} else {
			out[n++] = *ps->p++;
		}
	}
	out[n] = '\0';
	v->s = out;
	set_sig(v, sig);
	if (*ps->p != quote)
		return fail(ps, "a string without its closing quote");
	ps->p++;
	if (!ct_dbus_utf8_valid(out, n))
		return fail(ps, "a string that is not UTF-8");
	if (sig[0] == 'o' && !ct_dbus_object_path_valid(out))
		return fail(ps, "not an object path");
	if (sig[0] == 'g' && !ct_dbus_signature_valid(out))
		return fail(ps, "not a signature");
	return 0;
}

static int add_item(struct parser *ps, struct ct_dbus_lit *v, struct ct_dbus_lit **item)
{
	struct ct_dbus_lit *grown = realloc(v->items, (v->n_items + 1) * sizeof(*grown));
	if (!grown)
		return ct_error_sys(ps->err, ENOMEM, "parse a value");
	v->items = grown;
	*item = memset(&v->items[v->n_items++], 0, sizeof(**item));
	return 0;
}

/* "[" items "]": the element type from want ("aT"), else from the first element. */
static int array(struct parser *ps, const char *want, struct ct_dbus_lit *v)
{
	char elem[CT_DBUS_SIGNATURE_MAX + 1] = "";
	if (want && (want[0] != 'a' || !first_type(want + 1, elem)))
		return fail(ps, "an array where the type is not one");
	ps->p++;
	skip_space(ps);
	while (*ps->p != ']') {
		struct ct_dbus_lit *item;
		if (v->n_items && (*ps->p++ != ',' || (skip_space(ps), false)))
			return fail(ps, "',' or ']' expected");
		if (add_item(ps, v, &item) < 0 || parse_value(ps, *elem ? elem : NULL, item) < 0)
			return -1;
		if (!*elem)
			strcpy(elem, item->sig);
		skip_space(ps);
	}
	ps->p++;
	if (!*elem)
		return fail(ps, "an empty array needs its type (\"@as []\")");
	char sig[CT_DBUS_SIGNATURE_MAX + 2];
	snprintf(sig, sizeof(sig), "a%s", elem);
	return set_sig(v, sig) && ct_dbus_signature_single(v->sig) ? 0 : fail(ps, "type too deep");
}

/* "(" members ")": their types from want ("(T...)"), else their own. */
static int tuple(struct parser *ps, const char *want, struct ct_dbus_lit *v)
{
	if (want && want[0] != '(')
		return fail(ps, "a tuple where the type is not one");
	const char *next = want ? want + 1 : NULL;
	char sig[CT_DBUS_SIGNATURE_MAX + 2] = "(";
	ps->p++;
	skip_space(ps);
	while (*ps->p != ')') {
		struct ct_dbus_lit *item;
		char member[CT_DBUS_SIGNATURE_MAX + 1];
		if (v->n_items && (*ps->p++ != ',' || (skip_space(ps), false)))
			return fail(ps, "',' or ')' expected");
		if (next && (*next == ')' || !first_type(next, member)))
			return fail(ps, "more members than the tuple's type has");
		if (add_item(ps, v, &item) < 0 || parse_value(ps, next ? member : NULL, item) < 0)
			return -1;
		if (next)
			next += strlen(member);
		if (strlen(sig) + strlen(item->sig) + 2 > sizeof(sig))
			return fail(ps, "type too long");
		strcat(sig, item->sig);
		skip_space(ps);
	}
	ps->p++;
	if (!v->n_items || (next && *next != ')'))
		return fail(ps, "a tuple with fewer members than its type");
	strcat(sig, ")");
	return set_sig(v, sig) && ct_dbus_signature_single(v->sig) ? 0 : fail(ps, "type too deep");
}

/* "@T value" */
static int annotated(struct parser *ps, const char *want, struct ct_dbus_lit *v)
{
	char sig[CT_DBUS_SIGNATURE_MAX + 1];
	ps->p++;
	size_t n = ct_dbus_complete_type_len(ps->p, strnlen(ps->p, CT_DBUS_SIGNATURE_MAX));
	if (!n)
		return fail(ps, "a type after '@' expected");
	memcpy(sig, ps->p, n);
	sig[n] = '\0';
	if (want && strcmp(want, sig) != 0)
		return fail(ps, "a type other than the one expected");
	ps->p += n;
	skip_space(ps);
	return parse_value(ps, sig, v);
}

/* A word: true, false, or a type keyword and its value. */
static int word(struct parser *ps, const char *want, struct ct_dbus_lit *v)
{
	size_t n = strspn(ps->p, "abcdefghijklmnopqrstuvwxyz0123456789");
	if ((n == 4 && strncmp(ps->p, "true", 4) == 0) || (n == 5 && !strncmp(ps->p, "false", 5))) {
		if (want && strcmp(want, "b") != 0)
			return fail(ps, "a boolean where the type is not one");
		v->u = n == 4;
		ps->p += n;
		set_sig(v, "b");
		return 0;
	}
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		const struct keyword *k = &keywords[i];
		if (strlen(k->word) != n || strncmp(ps->p, k->word, n) != 0)
			continue;
		char sig[2] = {k->type, '\0'};
		if (want && strcmp(want, sig) != 0)
			return fail(ps, "a type other than the one expected");
		ps->p += n;
		skip_space(ps);
		return parse_value(ps, sig, v);
	}
	return fail(ps, "an unknown word");
}

static int parse_value(struct parser *ps, const char *want, struct ct_dbus_lit *v)
{
	if (++ps->depth > CT_DBUS_NESTING_MAX)
		return fail(ps, "values nested too deep");
	skip_space(ps);
	char c = *ps->p;
	int rc;
	if (c == '@')
		rc = annotated(ps, want, v);
	else if (c == '[')
		rc = array(ps, want, v);
	else if (c == '(')
		rc = tuple(ps, want, v);
	else if (c == '\'' || c == '"')
		rc = string(ps, want ? want[0] : 0, v);
	else if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.')
		rc = want && want[1] ? fail(ps, "a number where the type is not one")
				     : number(ps, want ? want[0] : 0, v);
	else if (c >= 'a' && c <= 'z')
		rc = word(ps, want, v);
	else
		rc = fail(ps, c ? "an unexpected character" : "a value expected");
	ps->depth--;
	return rc;
}

int ct_dbus_literal_parse(const char *text, struct ct_dbus_lit *out, struct ct_error *err)
{
	struct parser ps = {.text = text, .p = text, .err = err};
	memset(out, 0, sizeof(*out));
	if (strlen(text) > CT_DBUS_LITERAL_MAX)
		return ct_error_plain(err, EINVAL, "value longer than %d bytes",
				      CT_DBUS_LITERAL_MAX);
	int rc = parse_value(&ps, NULL, out);
	if (rc == 0) {
		skip_space(&ps);
		if (*ps.p)
			rc = fail(&ps, "text after the value");
	}
	if (rc < 0)
		ct_dbus_literal_free(out);
	return rc;
}

void ct_dbus_literal_free(struct ct_dbus_lit *v)
{
	for (size_t i = 0; i < v->n_items; i++)
		ct_dbus_literal_free(&v->items[i]);
	free(v->items);
	if (strchr("sog", v->sig[0]) && v->sig[0])
		free(v->s);
	memset(v, 0, sizeof(*v));
}

void ct_dbus_literal_write(const struct ct_dbus_lit *v, struct ct_dbus_writer *w)
{
	switch (v->sig[0]) {
	case 'd':
		ct_dbus_put_double(w, v->d);
		break;
	case 's':
	case 'o':
		ct_dbus_put_string(w, v->s);
		break;
	case 'g':
		ct_dbus_put_signature(w, v->s);
		break;
	case 'a': {
		struct ct_dbus_array_mark m = ct_dbus_array_open(w, v->sig[1]);
		for (size_t i = 0; i < v->n_items; i++)
			ct_dbus_literal_write(&v->items[i], w);
		ct_dbus_array_close(w, m);
		break;
	}
	case '(':
		ct_dbus_struct_open(w);
		for (size_t i = 0; i < v->n_items; i++)
			ct_dbus_literal_write(&v->items[i], w);
		break;
	default:
		if (ct_dbus_fixed_size(v->sig[0])) /* y b n q i u x t: d is above */
			ct_dbus_put_fixed(w, v->sig[0], v->u);
		break;
	}
}
