/* view.c - what a front end views the trace through (see view.h). */
#include <glib.h>
#include <stddef.h>

#include "view.h"

bool tn_view_get_range(const struct tn_view *view,
		const struct tn_index *index, int64_t *begin_ns,
		int64_t *end_ns)
{
	if (view->has_range) {
		*begin_ns = view->range_begin_ns;
		*end_ns = view->range_end_ns;
		return true;
	}
	if (!index || index->event_count == 0)
		return false;
	*begin_ns = index->first_event_ns;
	*end_ns = index->last_event_ns;
	return true;
}

bool tn_view_get_timeline_span(const struct tn_view *view,
		const struct tn_index *index, int64_t *begin_ns,
		int64_t *end_ns)
{
	if (!tn_view_get_range(view, index, begin_ns, end_ns))
		return false;
	if (view->timeline_zoomed && view->timeline_begin_ns <= *end_ns &&
	    view->timeline_end_ns >= *begin_ns) {
		*begin_ns = MAX(*begin_ns, view->timeline_begin_ns);
		*end_ns = MIN(*end_ns, view->timeline_end_ns);
	}
	return true;
}

int tn_view_count(struct tn_view *view, struct tn_trace *trace,
		const struct tn_index *index, int64_t begin_ns,
		int64_t end_ns, const struct tn_stats_counts **counts,
		struct tn_error *err)
{
	struct tn_stats_counts *counted;

	if (!view->counts || view->counts_begin_ns != begin_ns ||
	    view->counts_end_ns != end_ns) {
		if (tn_stats_count(trace, index, begin_ns, end_ns, &counted,
				err))
			return -1;
		tn_stats_counts_destroy(view->counts);
		view->counts = counted;
		view->counts_begin_ns = begin_ns;
		view->counts_end_ns = end_ns;
	}
	*counts = view->counts;
	return 0;
}

void tn_view_drop_counts(struct tn_view *view)
{
	tn_stats_counts_destroy(view->counts);
	view->counts = NULL;
}

void tn_view_fini(struct tn_view *view)
{
	tn_view_drop_counts(view);
	tn_regex_destroy(view->search_regex);
	view->search_regex = NULL;
}
