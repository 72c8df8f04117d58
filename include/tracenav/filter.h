/* filter.h - the filters of the event list: a stack of regex filters
 * (keep, or hide, the events whose line matches) and field expressions,
 * each enabled or not.  The enabled ones together (all must pass)
 * decide which events the list shows and `count` counts.
 *
 * What a regex filter sees is the event's line as --dump prints it,
 * without the delta: "[10:15:02.123456789] host sched_switch: { cpu_id
 * = 0 }, { prev_comm = ... }".  The delta depends on the event before,
 * which a reader started in the middle of the trace does not know, and
 * a filter must give one answer wherever reading started.  Expressions
 * are described in src/core/filter-expr.h and the man page.
 *
 * Threads: a stack belongs to one thread.  A set (what a stack holds
 * enabled at one moment) is immutable and reference-counted, so any
 * thread may hold one; each thread matches with a matcher of its own.
 */
#ifndef TRACENAV_FILTER_H
#define TRACENAV_FILTER_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/event.h"
#include "tracenav/index.h"
#include "tracenav/job.h"
#include "tracenav/seek.h"
#include "tracenav/trace.h"

enum tn_filter_kind {
	TN_FILTER_IN,		/* keep the events whose line matches */
	TN_FILTER_OUT,		/* hide them */
	TN_FILTER_EXPR,		/* keep the events the expression holds for */
};

struct tn_filter_stack;
struct tn_filter_set;
struct tn_filter_matcher;

/* ---- the stack ---- */

struct tn_filter_stack *tn_filter_stack_create(void);
void tn_filter_stack_destroy(struct tn_filter_stack *stack);

/* A stack holding the same filters (shared, compiled once), to change
 * without touching stack: a change that cannot be applied is then
 * dropped whole.  stack may be NULL (an empty copy). */
struct tn_filter_stack *tn_filter_stack_copy(
		const struct tn_filter_stack *stack);

/* Compile text (a regex, or an expression) and push it, enabled, on
 * top.  Returns 0, or -1 with err naming the problem and its column
 * ("bad regex: column 3: missing closing parenthesis", "bad expression:
 * column 12: expected a value after '=='"); the stack is unchanged
 * then. */
int tn_filter_stack_push(struct tn_filter_stack *stack,
		enum tn_filter_kind kind, const char *text,
		struct tn_error *err);

/* How many filters the stack holds (enabled or not), and how many are
 * enabled. */
size_t tn_filter_stack_get_count(const struct tn_filter_stack *stack);
size_t tn_filter_stack_get_enabled_count(const struct tn_filter_stack *stack);

/* Filter i (0: the first pushed) of the stack; i < the count. */
enum tn_filter_kind tn_filter_stack_get_kind(
		const struct tn_filter_stack *stack, size_t i);
const char *tn_filter_stack_get_text(const struct tn_filter_stack *stack,
		size_t i);
bool tn_filter_stack_is_enabled(const struct tn_filter_stack *stack,
		size_t i);
void tn_filter_stack_set_enabled(struct tn_filter_stack *stack, size_t i,
		bool enabled);

/* Remove filter i (i < the count), or all of them. */
void tn_filter_stack_remove(struct tn_filter_stack *stack, size_t i);
void tn_filter_stack_clear(struct tn_filter_stack *stack);

/* "filter-in", "filter-out", "filter": the command of a kind. */
const char *tn_filter_kind_name(enum tn_filter_kind kind);

/* ---- sets ---- */

/* The enabled filters of stack, as one set; times in regex filters'
 * lines in UTC if gmt.  NULL when none is enabled (every event
 * passes).  Release it with tn_filter_set_unref(). */
struct tn_filter_set *tn_filter_stack_snapshot(
		const struct tn_filter_stack *stack, bool gmt);

struct tn_filter_set *tn_filter_set_ref(struct tn_filter_set *set);
void tn_filter_set_unref(struct tn_filter_set *set);

/* Whether the set looks at the events' names only (expressions on
 * `name` alone): then whether an event passes depends on its name, and
 * the index's counts per name tell how many events of an interval
 * pass without reading them. */
bool tn_filter_set_is_name_only(const struct tn_filter_set *set);

/* ---- matching (one matcher per thread) ---- */

/* A matcher of set for the calling thread (it holds a reference). */
struct tn_filter_matcher *tn_filter_matcher_new(struct tn_filter_set *set);
void tn_filter_matcher_free(struct tn_filter_matcher *matcher);

/* Whether event ev passes every filter of the set (a notice never). */
bool tn_filter_matcher_match(struct tn_filter_matcher *matcher,
		const struct tn_event *ev);

/* Format the lines of regex filters with memo (tn_format_host_memo_new(),
 * borrowed; NULL: no memo): only while every event matched comes from
 * readers that live longer than the memo, as during one walk. */
void tn_filter_matcher_set_host_memo(struct tn_filter_matcher *matcher,
		GHashTable *memo);

/* For a name-only set: whether the events called name pass. */
bool tn_filter_matcher_match_name(struct tn_filter_matcher *matcher,
		const char *name);

/* Fill filter so that the seek helpers and the cursor use matcher;
 * only from the matcher's thread, while it lives. */
void tn_filter_matcher_bind(struct tn_filter_matcher *matcher,
		struct tn_filter *filter);

/* Fill filter to match set from any number of threads at once (each
 * gets a matcher of its own on first use, kept until it matches
 * another set or exits), for code that starts worker threads (a
 * search).  set must outlive every use of filter. */
void tn_filter_set_bind(struct tn_filter_set *set, struct tn_filter *filter);

/* ---- counts (filter-count.c) ---- */

/* How many events pass a set in each checkpoint interval of an index:
 * interval i runs from checkpoint i up to checkpoint i + 1 (the last
 * one to the end of the trace).  Immutable once made. */
struct tn_match_counts {
	size_t interval_count;	/* the index's checkpoint_count */
	/* interval_count + 1 entries: the matches before interval i;
	 * before[interval_count] is the total. */
	uint64_t *before;
};

void tn_match_counts_destroy(struct tn_match_counts *counts);

/* The interval holding match number rank (0-based): the largest i with
 * before[i] <= rank.  rank < the total. */
size_t tn_match_counts_interval_of(const struct tn_match_counts *counts,
		uint64_t rank);

/* For a name-only set: the counts from the index's events per name in
 * each interval, reading nothing.  NULL when the index lacks them. */
struct tn_match_counts *tn_match_counts_from_names(
		const struct tn_index *index, struct tn_filter_set *set);

/* The count pass: a job (class name "counting") whose worker threads
 * (0: one per core, at most 3) read disjoint runs of checkpoint
 * intervals of index in parallel, each with its own reader and
 * matcher, and count the events of set in each interval.  trace, index
 * must outlive the job (it holds a reference to set).  Progress:
 * fraction of the events read.  Returns 0 and sets *out (destroy with
 * tn_job_destroy()), or -1 with err. */
int tn_match_counts_start(const struct tn_trace *trace,
		const struct tn_index *index, struct tn_filter_set *set,
		unsigned workers, struct tn_job **out, struct tn_error *err);

/* The counts, once the job is DONE: ownership passes to the caller;
 * NULL otherwise or for another kind of job. */
struct tn_match_counts *tn_match_counts_take(struct tn_job *job);

/* Count the events that pass matcher reading the whole trace on the
 * calling thread (a job's: it publishes its progress there as
 * "counting", and stops when the job is cancelled).  Returns the count,
 * or -1 with err. */
int64_t tn_filter_count_all(const struct tn_trace *trace,
		struct tn_filter_matcher *matcher, struct tn_error *err);

#endif
