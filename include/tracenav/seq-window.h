/* seq-window.h - the sequence diagram around a position of a trace: a
 * page of messages read from a window of events, and the search for
 * the next message whose signal or lifelines match a regex.
 *
 * Both read the trace with a walk (seek.h) opened at a time before the
 * position, so that the sends of the messages received after it are
 * seen: the window before the position grows (from a millisecond, by
 * four at a time) until it holds enough messages, reaches the trace's
 * start, or holds the most events the limits allow.
 *
 * When a loader needs the state system (the kernel's: which thread
 * runs on a CPU), the window feeds the state providers too, from the
 * state at its start: restored from the state snapshots of the source
 * (the nearest one before the window, and the events from it to the
 * window replayed), or empty without them (a wake-up is then left out
 * until the window has seen a sched_switch on its CPU).
 *
 * Both may run in a job: they stop with "cancelled" when the job that
 * runs them is asked to stop (tn_job_current_is_cancelled()), and
 * publish their progress on it.
 *
 * Both leave out what hide patterns hide (seq-hide.h): a page counts
 * and selects the messages shown only, and a hidden message is never
 * found.
 */
#ifndef TRACENAV_SEQ_WINDOW_H
#define TRACENAV_SEQ_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/job.h"
#include "tracenav/regex.h"
#include "tracenav/seek.h"
#include "tracenav/seq-hide.h"
#include "tracenav/seq.h"
#include "tracenav/trace.h"

struct tn_seq_pages;
struct tn_seq_rules;
struct tn_state_snapshots;

/* What the diagram is read from: the trace, and what helps reading it.
 * Everything it points to outlives the loads and searches given it. */
struct tn_seq_source {
	const struct tn_trace *trace;
	/* The user's rules (seq-rules.h), or NULL. */
	const struct tn_seq_rules *rules;
	/* The state snapshots of the trace (state-history.h), complete or
	 * still being taken, or NULL: for the loaders that need the state. */
	const struct tn_state_snapshots *snapshots;
	/* The index of pages (seq-pages.h), complete or still being made,
	 * or NULL: where it has passed the position, a page and a search
	 * start reading at the page before the one that holds it, instead
	 * of in windows that grow. */
	const struct tn_seq_pages *pages;
};

/* How much a page reads and keeps. */
struct tn_seq_limits {
	/* Events read, at most about, before and after the position (the
	 * window before it may read up to twice as many at its last
	 * growth). */
	uint64_t events_before;
	uint64_t events_after;
	/* Messages kept before the selected one, and from it on (it
	 * included). */
	size_t messages_before;
	size_t messages_after;
};

/* The limits of seqdiag: 8 messages before, 24 from the selected one,
 * reading at most about 200 000 events either side. */
extern const struct tn_seq_limits tn_seq_default_limits;

struct tn_seq_page {
	struct tn_seq_model *model;	/* owned; NULL after fini */
	/* The message the position selects: the one with an end at the
	 * position, else the first one after it, else the last one before
	 * it; none when the page has no message. */
	bool has_selected;
	size_t selected;
	/* Where the read began and ended: at the trace's first event (no
	 * message was left out before the page), at its last. */
	bool from_start;
	bool to_end;
	uint64_t events_read;		/* over every growth of the window */
	char *loaders;			/* the loaders that ran ("" none) */
};

/* Load the page of messages around the event at pos (or the first one
 * after it) into *page (fini it), without what hide hides (NULL:
 * nothing).  Returns 0, or -1 with err (reading failed, or
 * "cancelled"): *page is then empty. */
int tn_seq_page_load_from(const struct tn_seq_source *source,
		const struct tn_position *pos, const struct tn_seq_limits *limits,
		struct tn_seq_hide *hide, struct tn_seq_page *page,
		struct tn_error *err);

/* The same from the trace alone (no rules, no state snapshots). */
int tn_seq_page_load(const struct tn_trace *trace,
		const struct tn_position *pos, const struct tn_seq_limits *limits,
		struct tn_seq_hide *hide, struct tn_seq_page *page,
		struct tn_error *err);

void tn_seq_page_fini(struct tn_seq_page *page);

/* A page loaded in a job (job.h): fill the inputs, start the job with
 * tn_seq_page_job and this as its data; once it is done, the page is
 * the result.  The job's free function finis the page, drops hide and
 * frees the request (g_malloc it): take page.model (set it to NULL) to
 * keep it. */
struct tn_seq_page_request {
	const struct tn_trace *trace;
	/* What the page is read from when source.trace is set (`trace`
	 * is not used then; the session's: tn_session_get_seq_source());
	 * else the trace alone. */
	struct tn_seq_source source;
	struct tn_position pos;
	struct tn_seq_limits limits;
	struct tn_seq_hide *hide;	/* a reference, or NULL */
	struct tn_seq_page page;	/* the result */
};

extern const struct tn_job_class tn_seq_page_job;

/* The search for a message (seqdiag-find). */
struct tn_seq_find_request {
	const struct tn_trace *trace;
	/* What it reads when source.trace is set (as in
	 * tn_seq_page_request). */
	struct tn_seq_source source;
	const struct tn_regex *regex;
	/* The search starts after the event at from (the cursor). */
	struct tn_position from;
	/* At the end of the trace, go on from its start up to from
	 * (included). */
	bool wrap;
	/* Events read before from so that the receives after it pair with
	 * their sends (0: TN_SEQ_FIND_PRIME_EVENTS).  A receive whose send
	 * is further back counts as a message of its own. */
	uint64_t prime_events;
	/* The previous message rather than the next: the last one before
	 * from, and when it wraps the last one of the trace (from
	 * included). */
	bool backward;
	/* What is never found (NULL: nothing hidden). */
	struct tn_seq_hide *hide;
};

#define TN_SEQ_FIND_PRIME_EVENTS 20000

struct tn_seq_find_result {
	bool found;
	bool wrapped;		/* found after going round */
	struct tn_position pos;	/* the first end of the message found */
};

/* Find the first message after req->from (backward: the last one
 * before it), in the order of first ends (a send, or the receive of a
 * message whose send was not seen), whose signal, sender or receiver
 * lifeline matches req->regex and that req->hide does not hide.
 * Backward, the windows read before from reach four times further each
 * time, so that a match close by is found at once.  Returns 0 with
 * *result (found or not), or -1 with err. */
int tn_seq_find(const struct tn_seq_find_request *req,
		struct tn_seq_find_result *result, struct tn_error *err);

/* A search run in a job: fill find (its regex and hide are set from
 * the fields below), start the job with tn_seq_find_job and this as
 * its data; once it is done, result holds the answer.  The job's free
 * function destroys regex, drops hide and frees the request (g_malloc
 * it). */
struct tn_seq_find_job_request {
	struct tn_seq_find_request find;
	struct tn_regex *regex;		/* owned */
	struct tn_seq_hide *hide;	/* a reference, or NULL */
	struct tn_seq_find_result result;
};

extern const struct tn_job_class tn_seq_find_job;

#endif
