/* regex.c - PCRE2 patterns with smart case (see regex.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <glib.h>
#include <pcre2.h>
#include <string.h>

#include "tracenav/regex.h"

struct tn_regex {
	char *pattern;
	pcre2_code *code;
	bool caseless;
	bool jit;	/* compiled to machine code */
};

struct tn_regex_matcher {
	const struct tn_regex *re;
	pcre2_match_data *data;
};

/* The character after the one at p (g_utf8_next_char() casts const
 * away). */
static const char *next_char(const char *p)
{
	return p + g_utf8_skip[(guchar) *p];
}

/* Whether pattern has an upper-case letter of its own: the letter after
 * a backslash names an escape (\S, \W, \D), and \p{...} and \P{...} name
 * properties, so neither counts. */
static bool has_upper_case(const char *pattern)
{
	const char *p = pattern;

	while (*p) {
		gunichar c = g_utf8_get_char_validated(p, -1);

		if (c == (gunichar) -1 || c == (gunichar) -2) {
			p++;	/* an invalid byte: no letter */
			continue;
		}
		if (c == '\\' && p[1]) {
			gunichar escaped = g_utf8_get_char_validated(p + 1,
				-1);

			if ((p[1] == 'p' || p[1] == 'P') && p[2] == '{') {
				const char *close = strchr(p + 3, '}');

				p = close ? close + 1 : p + 2;
			} else if (escaped == (gunichar) -1 ||
				   escaped == (gunichar) -2) {
				/* An invalid byte: the length its first byte
				 * claims may run past the end. */
				p += 2;
			} else {
				p = next_char(p + 1);
			}
			continue;
		}
		if (g_unichar_isupper(c))
			return true;
		p = next_char(p);
	}
	return false;
}

int tn_regex_compile(const char *pattern, struct tn_regex **out,
		struct tn_error *err)
{
	bool caseless = !has_upper_case(pattern);
	uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF |
		(caseless ? PCRE2_CASELESS : 0);
	int code_err;
	PCRE2_SIZE offset;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR) pattern,
		PCRE2_ZERO_TERMINATED, options, &code_err, &offset, NULL);
	struct tn_regex *re;

	if (!code) {
		PCRE2_UCHAR message[256];
		long column;

		pcre2_get_error_message(code_err, message, sizeof(message));
		/* offset is in bytes, and may fall inside a character
		 * (after a \p that reads one byte of it); a column counts
		 * the whole characters before it. */
		column = g_utf8_validate(pattern, -1, NULL) ?
			g_utf8_strlen(pattern, (gssize) offset) + 1 :
			(long) offset + 1;
		tn_error_set(err, "bad regex: column %ld: %s", column,
			(const char *) message);
		return -1;
	}
	re = g_new0(struct tn_regex, 1);
	/* Without JIT (not built in, no executable memory) the
	 * interpreter does the same, slower. */
	re->jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
	re->pattern = g_strdup(pattern);
	re->code = code;
	re->caseless = caseless;
	*out = re;
	return 0;
}

void tn_regex_destroy(struct tn_regex *re)
{
	if (!re)
		return;
	pcre2_code_free(re->code);
	g_free(re->pattern);
	g_free(re);
}

const char *tn_regex_get_pattern(const struct tn_regex *re)
{
	return re->pattern;
}

bool tn_regex_is_caseless(const struct tn_regex *re)
{
	return re->caseless;
}

struct tn_regex_matcher *tn_regex_matcher_new(const struct tn_regex *re)
{
	struct tn_regex_matcher *matcher = g_new0(struct tn_regex_matcher, 1);

	matcher->re = re;
	matcher->data = pcre2_match_data_create_from_pattern(re->code, NULL);
	return matcher;
}

void tn_regex_matcher_free(struct tn_regex_matcher *matcher)
{
	if (!matcher)
		return;
	pcre2_match_data_free(matcher->data);
	g_free(matcher);
}

bool tn_regex_find(struct tn_regex_matcher *matcher, const char *text,
		size_t len, size_t offset, size_t *start, size_t *end)
{
	const struct tn_regex *re = matcher->re;
	PCRE2_SIZE *ovector;
	int status;

	if (offset > len)
		return false;
	/* The JIT code directly: pcre2_match() runs it after checks that
	 * cost up to a third of a line's match, and gives its answer
	 * (errors included); neither checks the UTF-8 (invalid bytes are
	 * matched, not refused: PCRE2_MATCH_INVALID_UTF). */
	status = re->jit ? pcre2_jit_match(re->code, (PCRE2_SPTR) text, len,
			offset, 0, matcher->data, NULL) :
		pcre2_match(re->code, (PCRE2_SPTR) text, len, offset, 0,
			matcher->data, NULL);
	if (status < 0)
		return false;
	ovector = pcre2_get_ovector_pointer(matcher->data);
	if (start)
		*start = ovector[0];
	if (end)
		*end = ovector[1] < ovector[0] ? ovector[0] : ovector[1];
	return true;
}

bool tn_regex_matches(struct tn_regex_matcher *matcher, const char *text)
{
	return tn_regex_find(matcher, text, strlen(text), 0, NULL, NULL);
}
