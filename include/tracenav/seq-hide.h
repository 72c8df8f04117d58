/* seq-hide.h - the sequence diagram's hide patterns: regexes that hide
 * the lifelines whose name matches, and the messages whose signal
 * matches or that join a hidden lifeline.
 *
 * A set of patterns never changes once made: adding or removing one
 * makes a new set.  Sets are counted references that any thread may
 * hold and read (the session's, a pane's job's); each thread matches
 * with a matcher of its own.  NULL stands for the empty set everywhere.
 */
#ifndef TRACENAV_SEQ_HIDE_H
#define TRACENAV_SEQ_HIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "tracenav/error.h"
#include "tracenav/seq.h"

struct tn_seq_hide;

/* Another reference to hide (NULL: NULL). */
struct tn_seq_hide *tn_seq_hide_ref(struct tn_seq_hide *hide);
/* Drop a reference; the last one frees the set.  NULL-safe. */
void tn_seq_hide_unref(struct tn_seq_hide *hide);

/* The set of hide's patterns and pattern (PCRE2, smart case), after
 * them.  Returns 1 with *out (a new set, hide unchanged), 0 when hide
 * has that pattern already (*out untouched), or -1 with err for a bad
 * regex ("bad regex: column 3: ..."). */
int tn_seq_hide_add(const struct tn_seq_hide *hide, const char *pattern,
		struct tn_seq_hide **out, struct tn_error *err);

/* The set of hide's patterns but pattern (NULL: every one): *out gets
 * a new set (NULL when empty).  Returns how many were removed. */
size_t tn_seq_hide_remove(const struct tn_seq_hide *hide, const char *pattern,
		struct tn_seq_hide **out);

/* How many patterns, and each one as given, in the order added. */
size_t tn_seq_hide_get_count(const struct tn_seq_hide *hide);
const char *tn_seq_hide_get_pattern(const struct tn_seq_hide *hide,
		size_t index);

/* Whether a and b hold the same patterns in the same order. */
bool tn_seq_hide_equal(const struct tn_seq_hide *a,
		const struct tn_seq_hide *b);

/* ---- matching, on one thread ---- */

struct tn_seq_hide_matcher;

/* A matcher of hide (which it holds a reference to) for the calling
 * thread.  Never fails. */
struct tn_seq_hide_matcher *tn_seq_hide_matcher_create(
		struct tn_seq_hide *hide);
void tn_seq_hide_matcher_destroy(struct tn_seq_hide_matcher *matcher);

/* Whether the matcher's set is empty: it hides nothing. */
bool tn_seq_hide_matcher_is_empty(const struct tn_seq_hide_matcher *matcher);

/* Whether a lifeline called name is hidden: a pattern matches it. */
bool tn_seq_hide_lifeline(struct tn_seq_hide_matcher *matcher,
		const char *name);

/* Whether message (of model) is hidden: a pattern matches its signal,
 * or its sender or receiver is hidden. */
bool tn_seq_hide_message(struct tn_seq_hide_matcher *matcher,
		const struct tn_seq_model *model,
		const struct tn_seq_message *message);

/* A copy of model without its hidden lifelines and messages (and the
 * activations of hidden lifelines), in the same order.  Never fails. */
struct tn_seq_model *tn_seq_hide_filter(struct tn_seq_hide_matcher *matcher,
		const struct tn_seq_model *model);

#endif
