/* seq-pages.h - the index of the sequence diagram's pages: one read of
 * the whole trace in the background (the page pass) numbers the
 * messages in the order of their first ends and notes where every page
 * of TN_SEQ_PAGE_MESSAGES of them starts, so that the page around any
 * event opens at once: reading starts a little before the page that
 * holds it instead of in windows that grow until they hold enough
 * messages.  Before the pass got to a position, the diagram pages by
 * time window around it, as it does without the index.
 *
 * Seeded by Trace Compass's reference loader, which pages its messages
 * (10 000 a page) in the same way; tracenav's pages are smaller (its
 * pane scrolls on from one to the next).
 */
#ifndef TRACENAV_SEQ_PAGES_H
#define TRACENAV_SEQ_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/job.h"
#include "tracenav/seek.h"
#include "tracenav/seq-window.h"

/* Messages a page: a fraction of what a screen of the diagram shows
 * (seqdiag shows 32), so that the page around an event is read from
 * just enough messages before it, whatever their density. */
#define TN_SEQ_PAGE_MESSAGES 8

/* One page: its first message, and where to read it from. */
struct tn_seq_page_entry {
	uint64_t first;			/* the number of its first message */
	struct tn_position start;	/* that message's first end */
	/* Where reading starts so that the receives of the page pair with
	 * their sends: the first end of the oldest message of the page
	 * before that still missed an end when this page began (start
	 * when none did). */
	struct tn_position prime;
};

/* The pages of one trace.  Thread-safe: the pass appends while other
 * threads look up (a mutex inside). */
struct tn_seq_pages;

struct tn_seq_pages *tn_seq_pages_create(void);
void tn_seq_pages_destroy(struct tn_seq_pages *pages);

/* How many pages, and whether the pass read the whole trace (then
 * *messages, when not NULL, is the number of messages). */
size_t tn_seq_pages_get_count(const struct tn_seq_pages *pages);
bool tn_seq_pages_is_complete(const struct tn_seq_pages *pages,
		uint64_t *messages);

/* The page that holds the event at pos: the last one that starts at
 * or before it.  false when the pass has not read past pos yet (the
 * page may not be complete), or there is none.  *next (may be NULL)
 * gets whether a page follows, and its start in *next_start. */
bool tn_seq_pages_find(const struct tn_seq_pages *pages,
		const struct tn_position *pos, struct tn_seq_page_entry *entry,
		bool *has_next, struct tn_position *next_start);

/* Page number i (< the count). */
void tn_seq_pages_get(const struct tn_seq_pages *pages, size_t i,
		struct tn_seq_page_entry *entry);

/* Start the page pass over source (whose trace and rules, and pages,
 * must outlive the job; its snapshots are not used: the pass reads
 * from the start): read the whole trace once, feed the loaders, and
 * append to pages (empty, as created) an entry every
 * TN_SEQ_PAGE_MESSAGES messages; mark it complete at the end.  A job
 * (class name "indexing the diagram").  Returns 0 and *out, or -1 with
 * err. */
int tn_seq_pages_pass_start(const struct tn_seq_source *source,
		struct tn_seq_pages *pages, struct tn_job **out,
		struct tn_error *err);

#endif
