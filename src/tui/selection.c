/* selection.c - the time range selected in the event list with v (the
 * select command): from the event where v was typed (the session's
 * anchor) to the current one, shown in the list, the histogram strip
 * and the status bar while the cursor moves; v again makes it the range
 * that statistics and histogram count, Esc forgets it (tui.c).  The TUI keeps
 * a copy of the session's selection and range, made between jobs. */
#include <inttypes.h>

#include "state-tree.h"
#include "tui-private.h"

static void redraw_all(struct tn_tui *tui)
{
	for (size_t i = 0; i < tui->panes.count; i++)
		tui->panes.panes[i].dirty = true;
	tui->dirty |= TN_TUI_DIRTY_ALL;
}

void tn_tui_selection_note(struct tn_tui *tui)
{
	const struct tn_session *session = tui->session;
	struct tn_pane_status list;
	bool changed = tui->selection.active != session->view.selecting ||
		tui->range.set != session->view.has_range ||
		tui->range.begin_ns != session->view.range_begin_ns ||
		tui->range.end_ns != session->view.range_end_ns;

	/* Just anchored: at the list's current event, whose rank the
	 * list knows. */
	if (session->view.selecting && !tui->selection.active) {
		tui->selection.has_rank = tn_pane_get_status(
			tn_panes_main(&tui->panes), &list) && list.has_rank;
		tui->selection.rank = list.rank;
	}
	tui->selection.active = session->view.selecting;
	tui->selection.anchor = session->view.select_anchor;
	tui->range.set = session->view.has_range;
	tui->range.begin_ns = session->view.range_begin_ns;
	tui->range.end_ns = session->view.range_end_ns;
	if (changed)
		redraw_all(tui);
}

/* The list's current event. */
static bool current(struct tn_tui *tui, struct tn_pane_status *list)
{
	return tn_pane_get_status(tn_panes_main(&tui->panes), list) &&
		list->has_current_pos;
}

bool tn_tui_selection_get(struct tn_tui *tui, int64_t *begin_ns,
		int64_t *end_ns)
{
	struct tn_pane_status list;

	if (tui->selection.active && current(tui, &list)) {
		*begin_ns = MIN(tui->selection.anchor.ns, list.current_pos.ns);
		*end_ns = MAX(tui->selection.anchor.ns, list.current_pos.ns);
		return true;
	}
	if (!tui->range.set)
		return false;
	*begin_ns = tui->range.begin_ns;
	*end_ns = tui->range.end_ns;
	return true;
}

void tn_tui_selection_append_status(struct tn_tui *tui, GString *out)
{
	struct tn_pane_status list;
	int64_t begin, end;

	if (!tn_tui_selection_get(tui, &begin, &end))
		return;
	g_string_append(out, tui->selection.active ? "  sel " : "  range ");
	tn_state_tree_append_duration(out, end - begin);
	if (tui->selection.active && tui->selection.has_rank &&
	    current(tui, &list) && list.has_rank) {
		uint64_t n = (list.rank > tui->selection.rank ?
			list.rank - tui->selection.rank :
			tui->selection.rank - list.rank) + 1;

		g_string_append_printf(out, ", %" PRIu64 " %s", n,
			tui->filters.enabled ? (n == 1 ? "match" : "matches") :
			(n == 1 ? "event" : "events"));
	}
}
