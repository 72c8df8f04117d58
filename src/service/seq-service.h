/* seq-service.h - the sequence diagram of a session: the user's rules,
 * the hide patterns and the index of pages the preparse makes.
 *
 * Threads: the rules are set before the session starts, then only read.
 * The hide patterns are the commands' (the job's) to replace (lease.h);
 * a set never changes, so that a pane's job may hold a reference.  Once
 * set, the pages' pointer stays until a reload, and any thread may read
 * through it.
 */
#ifndef TRACENAV_SERVICE_SEQ_SERVICE_H
#define TRACENAV_SERVICE_SEQ_SERVICE_H

#include <stdbool.h>

#include "tracenav/seq-hide.h"
#include "tracenav/seq-pages.h"
#include "tracenav/seq-rules.h"
#include "tracenav/seq-window.h"
#include "tracenav/state-history.h"
#include "tracenav/trace.h"

struct tn_seq_service {
	struct tn_seq_rules *rules;	/* --seq-rules, or NULL */
	struct tn_seq_hide *hide;	/* seq-hide, seq-unhide; or NULL */
	struct tn_seq_pages *pages;	/* filled by the preparse, or NULL */
	/* --no-seq-index: no page pass, pages by windows that grow (set
	 * before the session starts). */
	bool no_index;
};

/* What the diagram of trace reads now: the rules, snapshots (the
 * state's, as far as the preparse took them; may be NULL) and the
 * pages.  A copy that a job may keep: what it points to lives as long
 * as the session. */
struct tn_seq_source tn_seq_service_get_source(
		const struct tn_seq_service *seq, const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots);

/* Whether the diagram of trace has pages to index: a loader applies to
 * it, and no_index is not set. */
bool tn_seq_service_has_pages(const struct tn_seq_service *seq,
		const struct tn_trace *trace);

/* Empty pages for the preparse to fill, kept by the service; NULL when
 * it has some already or the trace has none to index. */
struct tn_seq_pages *tn_seq_service_start_pages(struct tn_seq_service *seq,
		const struct tn_trace *trace);

/* Free the pages (another trace comes; the preparse stopped). */
void tn_seq_service_reset(struct tn_seq_service *seq);

/* Free everything (the preparse stopped). */
void tn_seq_service_fini(struct tn_seq_service *seq);

#endif
