/* seq-pages-pass.h - the page pass of the sequence diagram (seq-pages.c)
 * as a consumer of the preparse's one read (internal: not part of the
 * public API).
 *
 * Made for source's trace and rules (which, and pages, outlive it):
 * event() for each event in the order of a full read, with the state
 * before it when the loaders need one (needs_state(): NULL otherwise),
 * then end() once the whole trace was read (the pages are then
 * complete).  The pass appends to pages as it goes. */
#ifndef TRACENAV_CORE_SEQ_PAGES_PASS_H
#define TRACENAV_CORE_SEQ_PAGES_PASS_H

#include <stdbool.h>

#include "tracenav/error.h"
#include "tracenav/seek.h"
#include "tracenav/seq-pages.h"
#include "tracenav/seq-window.h"
#include "tracenav/state.h"

struct tn_seq_pages_pass;

struct tn_seq_pages_pass *tn_seq_pages_pass_new(
		const struct tn_seq_source *source, struct tn_seq_pages *pages);
bool tn_seq_pages_pass_needs_state(const struct tn_seq_pages_pass *pass);
/* Append to wants (struct tn_field_want) what its loaders read. */
void tn_seq_pages_pass_add_wants(const struct tn_seq_pages_pass *pass,
		struct _GArray *wants);
/* 0, or -1 with err. */
int tn_seq_pages_pass_event(struct tn_seq_pages_pass *pass,
		const struct tn_row *row, const struct tn_state *state,
		struct tn_error *err);
void tn_seq_pages_pass_end(struct tn_seq_pages_pass *pass);
void tn_seq_pages_pass_free(struct tn_seq_pages_pass *pass);

#endif
