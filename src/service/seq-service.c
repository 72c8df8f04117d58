/* seq-service.c - the sequence diagram of a session (see
 * seq-service.h). */
#include <stddef.h>

#include "seq-service.h"
#include "tracenav/seq-loader.h"

struct tn_seq_source tn_seq_service_get_source(
		const struct tn_seq_service *seq, const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots)
{
	struct tn_seq_source source = {
		.trace = trace,
		.rules = seq->rules,
		.snapshots = snapshots,
		.pages = seq->pages,
	};

	return source;
}

bool tn_seq_service_has_pages(const struct tn_seq_service *seq,
		const struct tn_trace *trace)
{
	struct tn_seq_loaders *loaders;
	bool some;

	if (seq->no_index)
		return false;
	loaders = tn_seq_loaders_create_with_rules(trace, seq->rules);
	some = tn_seq_loaders_get_count(loaders) > 0;
	tn_seq_loaders_destroy(loaders);
	return some;
}

struct tn_seq_pages *tn_seq_service_start_pages(struct tn_seq_service *seq,
		const struct tn_trace *trace)
{
	if (seq->pages || !tn_seq_service_has_pages(seq, trace))
		return NULL;
	seq->pages = tn_seq_pages_create();
	return seq->pages;
}

void tn_seq_service_reset(struct tn_seq_service *seq)
{
	tn_seq_pages_destroy(seq->pages);
	seq->pages = NULL;
}

void tn_seq_service_fini(struct tn_seq_service *seq)
{
	tn_seq_service_reset(seq);
	tn_seq_rules_destroy(seq->rules);
	seq->rules = NULL;
	tn_seq_hide_unref(seq->hide);
	seq->hide = NULL;
}
