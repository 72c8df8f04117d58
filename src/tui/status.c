/* status.c - the status bar (trace, cursor time, time range, a
 * scrollbar) and "terminal too small"; the message line is
 * message.c. */
#include <inttypes.h>
#include <string.h>

#include "tracenav/time.h"
#include "draw.h"
#include "text.h"
#include "tui-private.h"

/* Columns of a UTF-8 string once decoded. */
static int columns(const char *s)
{
	GArray *tmp = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int w = tn_tui_text_decode(tmp, s, -1, -1);

	g_array_free(tmp, TRUE);
	return w;
}

/* "[=====|------]": where the cursor's time is in the trace's range.
 * inner is the number of cells between the brackets. */
static void append_bar(GString *out, double fraction, int inner)
{
	int at = (int) (fraction * (inner - 1) + 0.5);

	g_string_append_c(out, '[');
	for (int i = 0; i < inner; i++)
		g_string_append_c(out, i < at ? '=' : i == at ? '|' : '-');
	g_string_append_c(out, ']');
}

static const char *trace_name(const struct tn_tui *tui)
{
	const char *path = tn_trace_get_path(tui->session->trace);
	const char *slash;
	size_t len = strlen(path);

	if (tui->session->live_name)
		return tui->session->live_name;

	/* The last component of the path, without a trailing slash. */
	while (len > 1 && path[len - 1] == '/')
		len--;
	for (slash = path + len; slash > path && slash[-1] != '/'; slash--)
		;
	return slash;
}

size_t tn_tui_damaged_count(const struct tn_trace *trace, bool following)
{
	size_t count = tn_trace_get_damage_count(trace);
	size_t damaged = count;

	for (size_t i = 0; following && i < count; i++)
		if (tn_trace_get_damage_is_incomplete(trace, i))
			damaged--;
	return damaged;
}

/* What the command job does, once it has run for 100 ms: "seeking...",
 * or what the code it runs says ("searching 42%..."). */
static void append_job(struct tn_tui *tui, GString *out)
{
	struct tn_job_progress progress;

	if (!tn_tui_user_job_running(tui) || g_get_monotonic_time() -
			tui->job_started_us <= 100000)
		return;
	tn_job_get_progress(tui->session->lease.job, &progress);
	if (!progress.activity[0]) {
		g_string_append(out, "  seeking... (Esc cancels)");
		return;
	}
	g_string_append_printf(out, "  %s", progress.activity);
	if (progress.fraction >= 0)
		g_string_append_printf(out, " %d%%",
			(int) (progress.fraction * 100));
	g_string_append(out, "...");
	if (progress.items_per_second > 0)
		g_string_append_printf(out, " %.1fM ev/s",
			progress.items_per_second / 1e6);
	g_string_append(out, " (Esc cancels)");
}

/* "  event K of N" once the index is there (and *fraction from the
 * rank), "  indexing NN% ..." while it is being built, and what a
 * background job does. */
static void append_state(struct tn_tui *tui, GString *out,
		const struct tn_pane_status *list, bool *has_rank,
		double *fraction)
{
	const struct tn_tui_index_status *index = &tui->index;
	const struct tn_tui_filter_status *filters = &tui->filters;

	append_job(tui, out);
	tn_tui_follow_append_status(tui, out);
	tn_tui_selection_append_status(tui, out);
	/* The state computed with the index: the indexing line says it. */
	if (index->computing_state && !index->building)
		g_string_append_printf(out, "  state %d%%",
			(int) (index->state_progress.fraction * 100));
	if (filters->enabled)
		g_string_append_printf(out, "  %zu filter%s", filters->enabled,
			filters->enabled == 1 ? "" : "s");
	if (filters->enabled && filters->counting)
		g_string_append_printf(out, "  counting %d%%",
			(int) (filters->progress.fraction * 100));
	else if (filters->enabled && !filters->counted)
		g_string_append(out, "  matches not counted yet");
	if (filters->enabled && filters->counted && list->has_rank) {
		uint64_t count = filters->matches;

		g_string_append_printf(out, "  match %" PRIu64 " of %" PRIu64,
			list->rank + 1, count);
		*has_rank = true;
		*fraction = count > 1 ?
			(double) list->rank / (double) (count - 1) : 1;
		return;
	}
	if (filters->enabled && filters->counted && filters->matches == 0) {
		g_string_append(out, "  no match");
		return;
	}
	if (index->has_index && list->has_rank && !filters->enabled) {
		uint64_t count = index->event_count;

		g_string_append_printf(out, "  event %" PRIu64 " of %" PRIu64,
			list->rank + 1, count);
		*has_rank = true;
		*fraction = count > 1 ?
			(double) list->rank / (double) (count - 1) : 1;
		return;
	}
	if (!index->building)
		return;
	g_string_append_printf(out, "  indexing %d%%",
		(int) (index->progress.fraction * 100));
	/* One read makes more than the index: say what. */
	if (index->preparse_what[0] && strcmp(index->preparse_what, "index"))
		g_string_append_printf(out, " (%s)", index->preparse_what);
	if (index->progress.items_per_second > 0)
		g_string_append_printf(out, " %.1fM ev/s",
			index->progress.items_per_second / 1e6);
	if (index->progress.eta_seconds >= 0)
		g_string_append_printf(out, " ETA %.0fs",
			index->progress.eta_seconds);
}

void tn_tui_status_draw(struct tn_tui *tui)
{
	WINDOW *win = tui->status_win;
	int width = tui->layout.status.w;
	const char *hint = tn_tui_prompt_hint(tui->prompt);
	GString *left = g_string_new(" ");
	GString *range = g_string_new(NULL);
	GString *right = g_string_new(NULL);
	struct tn_pane_status list;
	int64_t begin = 0, end = 0;
	bool has_range, has_rank = false;
	double fraction = 0;
	size_t left_out, damaged;
	int bar = 0;

	if (!win)
		goto out;
	wattrset(win, tn_tui_attr(tui, TN_TUI_COLOR_STATUS));
	if (hint) {
		/* Tab at the prompt lists the choices here. */
		tn_tui_draw_utf8(win, 0, 0, hint, width);
		goto done;
	}
	tn_pane_get_status(tn_panes_main(&tui->panes), &list);
	/* The span of NN%: the first and last events' times once known,
	 * the packets' time range before.  It stays after indexing. */
	has_range = list.has_span;
	begin = list.span_begin;
	end = list.span_end;
	g_string_append(left, trace_name(tui));
	if (list.has_current_ns) {
		g_string_append(left, "  ");
		tn_time_format_wall(left, list.current_ns,
			tui->session->view.gmt, false);
	}
	/* sync on: every time shown is on the reference host's clock. */
	if (tn_trace_get_sync(tui->session->trace))
		g_string_append(left, "  times corrected");
	left_out = tn_trace_get_left_out_count(tui->session->trace);
	if (left_out)
		g_string_append_printf(left, "  %zu left out", left_out);
	damaged = tn_tui_damaged_count(tui->session->trace,
		tui->follow.mode != TN_FOLLOW_OFF);
	if (damaged)
		g_string_append_printf(left, "  %zu damaged", damaged);
	append_state(tui, left, &list, &has_rank, &fraction);
	if (has_range) {
		bool gmt = tui->session->view.gmt;

		tn_time_format_wall(range, begin, gmt, false);
		g_string_append(range, " - ");
		tn_time_format_wall(range, end, gmt, false);
		g_string_append(range, "  ");
	}
	if (has_range && !has_rank) {
		if (list.has_current_ns && end > begin)
			fraction = CLAMP((double) (list.current_ns - begin) /
				(double) (end - begin), 0.0, 1.0);
		else if (list.has_current_ns && list.current_ns > begin)
			fraction = 1;
	}
	/* Right part: range, bar, percentage and mode, dropping the range
	 * and then shrinking the bar when the line is short.  The bar is
	 * time-based until the index gives event numbers. */
	const char *mode = has_rank ? " rank " : " time ";
	int avail = width - columns(left->str) - 2;
	int tail = (int) strlen(" 100%") + (int) strlen(mode);

	if ((has_range || has_rank) && list.has_current_ns) {
		int with_range = avail - (int) range->len - tail - 2;

		if (with_range >= 10) {
			bar = MIN(with_range, 30);
			g_string_append(right, range->str);
		} else {
			bar = MIN(avail - tail - 2, 30);
		}
		if (bar >= 5) {
			append_bar(right, fraction, bar);
			g_string_append_printf(right, " %3d%%",
				(int) (fraction * 100 + 0.5));
		}
		g_string_append(right, mode);
	}
	int pad = width - columns(left->str) - columns(right->str);

	if (pad < 1) {
		tn_tui_draw_utf8(win, 0, 0, left->str, width);
	} else {
		for (int i = 0; i < pad; i++)
			g_string_append_c(left, ' ');
		g_string_append(left, right->str);
		tn_tui_draw_utf8(win, 0, 0, left->str, width);
	}
done:
	wattrset(win, A_NORMAL);
	wnoutrefresh(win);
out:
	g_string_free(left, TRUE);
	g_string_free(range, TRUE);
	g_string_free(right, TRUE);
}

void tn_tui_too_small_draw(struct tn_tui *tui)
{
	static const char *const texts[] = {
		"terminal too small", "too small", "small", "!",
	};
	int lines, cols;
	size_t i = 0;

	(void) tui;
	getmaxyx(stdscr, lines, cols);
	werase(stdscr);
	while (i + 1 < G_N_ELEMENTS(texts) && (int) strlen(texts[i]) > cols)
		i++;
	if (lines > 0 && cols > 0)
		tn_tui_draw_utf8(stdscr, lines / 2, 0, texts[i], cols);
	wnoutrefresh(stdscr);
}
