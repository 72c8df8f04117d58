/* regex.h - the patterns of search and filters: PCRE2 over UTF-8 text
 * (invalid UTF-8 in trace strings is matched, never an error), compiled
 * once, JIT-compiled when the library can, with smart case: a pattern
 * without an upper-case letter (outside escapes such as \S or \p{Lu})
 * ignores case, as in less -i, lnav and ripgrep.
 *
 * A compiled regex is immutable and may be shared by threads; each
 * thread matches with a matcher of its own.
 */
#ifndef TRACENAV_REGEX_H
#define TRACENAV_REGEX_H

#include <stdbool.h>
#include <stddef.h>

#include "tracenav/error.h"

struct tn_regex;
struct tn_regex_matcher;

/* Compile pattern.  Returns 0 and sets *out (tn_regex_destroy() it),
 * or -1 with err naming the problem and its place: "bad regex: column
 * 3: missing closing parenthesis" (columns count characters from 1). */
int tn_regex_compile(const char *pattern, struct tn_regex **out,
		struct tn_error *err);
void tn_regex_destroy(struct tn_regex *re);

/* The pattern as given. */
const char *tn_regex_get_pattern(const struct tn_regex *re);

/* Whether smart case made it ignore case. */
bool tn_regex_is_caseless(const struct tn_regex *re);

/* A matcher of re for one thread (re must outlive it). */
struct tn_regex_matcher *tn_regex_matcher_new(const struct tn_regex *re);
void tn_regex_matcher_free(struct tn_regex_matcher *matcher);

/* Find the first match in text[offset..len): true with its byte range
 * [*start, *end) (either pointer may be NULL), false when there is none
 * (a match that exceeds the library's limits counts as none). */
bool tn_regex_find(struct tn_regex_matcher *matcher, const char *text,
		size_t len, size_t offset, size_t *start, size_t *end);

/* Whether text (NUL-terminated) matches anywhere. */
bool tn_regex_matches(struct tn_regex_matcher *matcher, const char *text);

#endif
