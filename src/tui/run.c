/* run.c - commands typed in the event list run as background jobs.
 *
 * A command that reads the trace (every move, jump and print) is queued
 * (cmdq.h) and run on a job's thread, followed by the open panes'
 * cursor_moved, which compute what they will show.  The input loop goes
 * on meanwhile: it redraws from the panes' current caches, queues what
 * is typed (five page-downs become one move of five pages), and Esc or
 * Ctrl-C cancel.  When the job ended, its output is shown and the new
 * caches replace the old ones.  A job that ends within a few
 * milliseconds (moves inside the decoded rows) is finished at once, so
 * that nothing flickers.
 *
 * While a job runs, the UI thread does not touch the session (see
 * session.h): the index's progress is read from a copy taken between
 * jobs.
 *
 * Once a move has ended and nothing else runs or waits, the list reads
 * the rows of its next and previous pages in a job of its own (the
 * prefetch), so that paging on reads nothing: with a rare filter, each
 * row may cost a jump.  It is nobody's wait: the status bar does not
 * show it, and whatever needs the session (a key that reads, an update)
 * cancels it; the rows it read stay.
 */
#include <string.h>

#include "tui-private.h"

/* A job that ends within this is finished before the next drawing. */
#define QUICK_JOB_MS 15

/* The panes' inputs and results of one job. */
struct tn_tui_update {
	size_t count;
	struct {
		struct tn_pane *pane;	/* only the UI thread uses it */
		const struct tn_pane_class *cls;
		const void *old_cache;
		struct tn_pane_view view;
		void *new_cache;
	} panes[];		/* as many as the TUI has */
};

static struct tn_tui_update *update_new(struct tn_tui *tui,
		enum tn_tui_follow follow, bool may_read)
{
	struct tn_tui_update *update = g_malloc0(sizeof(*update) +
		tui->panes.count * sizeof(update->panes[0]));

	for (size_t i = 0; i < tui->panes.count; i++) {
		struct tn_pane *pane = &tui->panes.panes[i];

		if (!pane->open || !pane->win || !pane->cls->cursor_moved)
			continue;
		update->panes[update->count].pane = pane;
		update->panes[update->count].cls = pane->cls;
		update->panes[update->count].old_cache = pane->cache;
		update->panes[update->count].view = (struct tn_pane_view) {
			tui->session, may_read, pane->rect.h, pane->rect.w,
			follow, TN_PANE_READ_BUDGET_US,
		};
		update->count++;
	}
	return update;
}

/* On the thread that owns the session: compute every pane's cache. */
static void update_run(struct tn_session *session, void *data)
{
	struct tn_tui_update *update = data;

	(void) session;
	for (size_t i = 0; i < update->count; i++)
		update->panes[i].new_cache = update->panes[i].cls->cursor_moved(
			update->panes[i].old_cache, &update->panes[i].view);
}

/* The new caches replace the panes' (and update forgets them). */
static void update_apply(struct tn_tui *tui, struct tn_tui_update *update)
{
	for (size_t i = 0; i < update->count; i++) {
		tn_pane_set_cache(update->panes[i].pane,
			update->panes[i].new_cache);
		update->panes[i].new_cache = NULL;
	}
	tui->dirty |= TN_TUI_DIRTY_PANES | TN_TUI_DIRTY_STATUS;
}

static void update_free(struct tn_tui_update *update)
{
	if (!update)
		return;
	for (size_t i = 0; i < update->count; i++)
		if (update->panes[i].new_cache &&
		    update->panes[i].cls->cache_free)
			update->panes[i].cls->cache_free(
				update->panes[i].new_cache);
	g_free(update);
}

bool tn_tui_job_running(const struct tn_tui *tui)
{
	return tn_lease_is_held(&tui->session->lease);
}

/* The copy of the filters' state the status bar shows; only between
 * jobs. */
static void note_filters(struct tn_tui *tui)
{
	struct tn_session *session = tui->session;
	struct tn_tui_filter_status *filters = &tui->filters;

	filters->enabled = session->filters.stack ?
		tn_filter_stack_get_enabled_count(session->filters.stack) : 0;
	filters->counted = session->filters.counts != NULL;
	filters->serial = session->filters.serial;
	filters->matches = session->filters.counts ?
		session->filters.counts->before[
			session->filters.counts->interval_count] : 0;
	filters->counting = tn_filter_service_get_progress(&session->filters,
		&filters->progress);
}

/* What the preparse makes, for the status bar. */
static void note_preparse(struct tn_tui *tui)
{
	struct tn_job_progress progress;
	const char *what = NULL;

	tn_preparse_service_get_progress(&tui->session->preparse, &progress,
		&what);
	g_strlcpy(tui->index.preparse_what, what ? what : "",
		sizeof(tui->index.preparse_what));
}

/* The copy of the index's state the status bar shows; only between
 * jobs. */
static void note_index(struct tn_tui *tui)
{
	struct tn_session *session = tui->session;

	tn_lease_check(&session->lease, "the status bar's copy");
	tui->index.has_index = session->indexing.index != NULL;
	tui->index.event_count = session->indexing.index ?
		session->indexing.index->event_count : 0;
	tui->index.building = tn_session_get_index_progress(session,
		&tui->index.progress);
	tui->index.computing_state = tn_session_get_state_progress(session,
		&tui->index.state_progress);
	note_preparse(tui);
	tn_tui_selection_note(tui);
	note_filters(tui);
}

/* The strongest of two ways to follow: a jump beats a page move, which
 * beats a line move. */
static enum tn_tui_follow stronger(enum tn_tui_follow a, enum tn_tui_follow b)
{
	return a > b ? a : b;
}

static enum tn_tui_follow follow_of(const struct tn_command *command,
		enum tn_tui_follow follow)
{
	if (follow != TN_TUI_FOLLOW_BY_COMMAND)
		return follow;
	if (command->flags & TN_CMD_JUMPS)
		return TN_TUI_FOLLOW_JUMP;
	if (command->flags & TN_CMD_MOVES_PAGES)
		return TN_TUI_FOLLOW_KEEP_ROW;
	return TN_TUI_FOLLOW_SCROLL;
}

static void finish_job(struct tn_tui *tui);
static void stop_prefetch(struct tn_tui *tui);

static void start_pending(struct tn_tui *tui)
{
	struct tn_session *session = tui->session;
	struct tn_tui_update *update;
	struct tn_error err;
	struct tn_job *job;

	update = update_new(tui, tui->pending_follow, true);
	if (tn_cmdq_start(tui->pending, update_run, update, &job, &err)) {
		tui->pending = NULL;
		update_free(update);
		tn_tui_message_set(tui, true, err.message);
		return;
	}
	tn_lease_give(&session->lease, job);
	tui->pending = NULL;
	tui->pending_follow = TN_TUI_FOLLOW_BY_COMMAND;
	tui->update = update;
	tui->needs_update = false;
	tui->job_started_us = g_get_monotonic_time();
	tui->dirty |= TN_TUI_DIRTY_STATUS;
	if (tn_job_wait_for(session->lease.job, QUICK_JOB_MS))
		finish_job(tui);
}

static struct tn_cmdq *pending_queue(struct tn_tui *tui)
{
	if (!tui->pending) {
		tui->pending = tn_cmdq_create(tui->session,
			MAX(tn_pane_body_rows(tn_panes_main(&tui->panes)), 1),
			tui->help_keys);
		tui->pending_follow = TN_TUI_FOLLOW_SCROLL;
	}
	return tui->pending;
}

/* The panes that show what command does are opened (before the job,
 * so that it computes them). */
static void open_panes_of(struct tn_tui *tui, const struct tn_command *command)
{
	bool opened = false;

	for (size_t i = 0; i < tui->panes.count; i++) {
		struct tn_pane *pane = &tui->panes.panes[i];

		if ((pane->cls->shown_by & command->flags) && !pane->open) {
			tn_panes_toggle(&tui->panes, pane);
			opened = true;
		}
	}
	if (opened) {
		tn_tui_place_windows(tui);
		tn_tui_request_update(tui);
	}
}

/* Queue a command that reads; start it unless a job runs. */
static void enqueue(struct tn_tui *tui, struct tn_parsed_command *parsed,
		enum tn_tui_follow follow)
{
	struct tn_pane_status status;
	struct tn_cmdq *queue;

	/* What the screen shows now, for the commands that act on it
	 * (before a pane opens and the list shrinks). */
	tn_pane_get_status(tn_panes_main(&tui->panes), &status);
	open_panes_of(tui, parsed->command);
	queue = pending_queue(tui);
	tn_cmdq_set_screen(queue, status.has_shown_span,
		status.shown_begin_ns, status.shown_end_ns);

	tui->pending_follow = stronger(tui->pending_follow,
		follow_of(parsed->command, follow));
	tn_cmdq_add(queue, parsed);
	if (!tn_tui_job_running(tui))
		start_pending(tui);
	else
		stop_prefetch(tui);
}

/* The text lines that commands wrote, in a text view (which replaces
 * the one open: J in a detail view shows the next event's); command is
 * the one that wrote them, or NULL. */
static void open_text_view(struct tn_tui *tui,
		const struct tn_command *command)
{
	if (tui->block->len) {
		tn_tui_pager_destroy(tui->pager);
		tui->pager = tn_tui_pager_create(tui->block_title ?
			tui->block_title : "output", tui->block,
			tui->block_whole);
		tui->view_command = command &&
			(command->flags & TN_CMD_SHOWS_CURRENT) ? command : NULL;
		tui->dirty |= TN_TUI_DIRTY_OVERLAY;
	}
	g_ptr_array_set_size(tui->block, 0);
	g_clear_pointer(&tui->block_title, g_free);
	tui->block_whole = false;
}

/* A command that touches nothing of the session but what it is given
 * (help, quit) runs at once, even while a job runs. */
static void run_now(struct tn_tui *tui, struct tn_parsed_command *parsed)
{
	struct tn_command_context ctx = {
		.session = tui->session,
		.out = &tui->out,
		.page_rows = MAX(tn_pane_body_rows(tn_panes_main(&tui->panes)),
			1),
		.help_prefix = tui->help_keys,
		.has_screen = true,
	};
	const struct tn_command *command = parsed->command;
	struct tn_error err;

	if (tn_command_exec(&ctx, parsed, &err))
		tn_tui_message_set(tui, true, err.message);
	tn_parsed_command_clear(parsed);
	open_text_view(tui, command);
}

static void run_parsed(struct tn_tui *tui, struct tn_parsed_command *parsed,
		enum tn_tui_follow follow)
{
	if (parsed->command->flags & TN_CMD_READS)
		enqueue(tui, parsed, follow);
	else
		run_now(tui, parsed);
}

void tn_tui_run_line(struct tn_tui *tui, const char *line,
		enum tn_tui_follow follow)
{
	struct tn_parsed_command parsed;
	struct tn_error err;

	tn_tui_message_set(tui, false, "");
	switch (tn_command_parse(line, &parsed, &err)) {
	case 1:
		run_parsed(tui, &parsed, follow);
		break;
	case -1:
		tn_tui_message_set(tui, true, err.message);
		break;
	default:
		break;
	}
}

void tn_tui_run_command(struct tn_tui *tui, const char *name,
		const struct tn_tui_key *key)
{
	struct tn_parsed_command parsed = { tn_command_find(name), { 0 } };

	tn_tui_message_set(tui, false, "");
	if (!parsed.command)
		return;
	/* A count typed before the key goes to commands that take one. */
	if (key && key->has_count && parsed.command->count != TN_COUNT_NONE) {
		parsed.args.has_count = true;
		parsed.args.count = key->count;
	}
	run_parsed(tui, &parsed, TN_TUI_FOLLOW_BY_COMMAND);
}

void tn_tui_request_update(struct tn_tui *tui)
{
	tui->needs_update = true;
	if (tn_tui_job_running(tui)) {
		stop_prefetch(tui);
		return;		/* when it ended */
	}
	pending_queue(tui);
	tui->pending_follow = TN_TUI_FOLLOW_KEEP_ROW;
	start_pending(tui);
}

/* ---- reading ahead while idle ---- */

/* What the prefetch job reads: offsets from the current row. */
struct tn_tui_prefetch {
	int64_t before, after;
};

/* On the job's thread. */
static void prefetch_run(struct tn_session *session, void *data)
{
	const struct tn_tui_prefetch *prefetch = data;
	struct tn_error err;

	/* An error (a damaged trace, a cancel) is said by the move that
	 * reads the row, not here. */
	tn_cursor_prefetch(session->cursor, prefetch->before,
		prefetch->after, &err);
}

void tn_tui_prefetch(struct tn_tui *tui, bool panes_busy)
{
	struct tn_pane *list = tn_panes_main(&tui->panes);
	struct tn_pane_status status;
	struct tn_cmdq *queue;
	struct tn_error err;
	struct tn_job *job;
	int rows;

	if (!tui->wants_prefetch || tn_tui_job_running(tui) || tui->pending ||
	    tui->needs_update || panes_busy)
		return;
	tui->wants_prefetch = false;
	rows = tn_pane_body_rows(list);
	if (!list->open || rows <= 0 ||
	    !tn_pane_get_status(list, &status) || status.shown == 0)
		return;
	/* A page down shows the rows from rows - top to 2 rows - 1 - top
	 * of the current one; a page up those from -rows - top to
	 * -top - 1. */
	tui->prefetch = g_new(struct tn_tui_prefetch, 1);
	tui->prefetch->before = status.top + rows;
	tui->prefetch->after = 2 * (int64_t) rows - 1 - status.top;
	queue = tn_cmdq_create(tui->session, rows, tui->help_keys);
	if (tn_cmdq_start(queue, prefetch_run, tui->prefetch, &job, &err)) {
		g_clear_pointer(&tui->prefetch, g_free);
		return;
	}
	tn_lease_give(&tui->session->lease, job);
	tui->prefetching = true;
}

/* A command or an update needs the session: the prefetch stops (what
 * it read stays), and when it has ended, what waits starts. */
static void stop_prefetch(struct tn_tui *tui)
{
	if (!tui->prefetching)
		return;
	tn_job_cancel(tui->session->lease.job);
	if (tn_job_wait_for(tui->session->lease.job, QUICK_JOB_MS))
		finish_job(tui);
}

static void finish_prefetch(struct tn_tui *tui)
{
	struct tn_error err;

	tn_cmdq_finish(tui->session->lease.job, NULL, &err);
	tn_lease_end(&tui->session->lease);
	tui->prefetching = false;
	g_clear_pointer(&tui->prefetch, g_free);
	if (tui->pending)
		start_pending(tui);
	else if (tui->needs_update)
		tn_tui_request_update(tui);
}

/* The list left rows unread for its time budget (list-rows.c): it is
 * computed again, unless a key comes first. */
static void list_incomplete(struct tn_tui *tui)
{
	struct tn_pane_status status;

	if (tn_pane_get_status(tn_panes_main(&tui->panes), &status) &&
	    status.incomplete)
		tui->needs_update = true;
}

bool tn_tui_user_job_running(const struct tn_tui *tui)
{
	return tn_tui_job_running(tui) && !tui->prefetching;
}

unsigned tn_tui_idle_serial(const struct tn_tui *tui)
{
	return tui->idle_serial;
}

static void finish_job(struct tn_tui *tui)
{
	struct tn_session *session = tui->session;
	struct tn_tui_update *update = tui->update;
	struct tn_cmdq_result result;
	struct tn_error err;

	if (tui->prefetching) {
		finish_prefetch(tui);
		return;
	}
	tui->update = NULL;
	result = tn_cmdq_finish(session->lease.job, &tui->out, &err);
	tn_lease_end(&session->lease);
	/* Not after a cancel: the reading was too long for someone. */
	tui->wants_prefetch = result.after_done;
	if (result.after_done) {
		update_apply(tui, update);
		list_incomplete(tui);
	} else {
		/* Cancelled: show what the cursor holds, reading nothing. */
		update_free(update);
		update = update_new(tui, TN_TUI_FOLLOW_KEEP_ROW, false);
		update_run(session, update);
		update_apply(tui, update);
	}
	update_free(update);
	if (err.message[0])
		tn_tui_message_set(tui, true, err.message);
	else if (!result.after_done)
		tn_tui_message_set(tui, false, "cancelled: the list shows what "
			"was read (the next move reads the rest)");
	open_text_view(tui, result.text_command);
	if (tn_session_poll_index(session, &tui->out) &&
	    session->indexing.index && !tui->index.has_index)
		tui->needs_update = true;	/* event numbers now */
	if (tn_session_poll_count(session, &tui->out) &&
	    session->filters.serial != tui->filters.serial)
		tui->needs_update = true;	/* match numbers now */
	note_index(tui);
	tui->dirty |= TN_TUI_DIRTY_STATUS | TN_TUI_DIRTY_MESSAGE;
	if (tui->pending)
		start_pending(tui);
	else if (tui->needs_update)
		tn_tui_request_update(tui);
	if (!tn_tui_job_running(tui))
		tui->idle_serial++;
}

/* The list showed no span while the packets' range was being found:
 * whether it is found now (the list is then computed again). */
static bool span_found(struct tn_tui *tui)
{
	struct tn_pane_status status;

	return tn_pane_get_status(tn_panes_main(&tui->panes), &status) &&
		status.span_pending &&
		!tn_trace_time_range_pending(tui->session->trace);
}

bool tn_tui_poll_jobs(struct tn_tui *tui)
{
	struct tn_session *session = tui->session;
	bool had_index = tui->index.has_index;
	uint64_t serial = tui->filters.serial;
	bool index_changed, count_changed, state_changed;

	if (tn_tui_job_running(tui)) {
		if (!tn_job_has_ended(session->lease.job))
			return false;
		finish_job(tui);
		return true;
	}
	if (span_found(tui)) {
		tn_tui_request_update(tui);	/* a job: the session is its */
		return true;
	}
	index_changed = tn_session_poll_index(session, &tui->out);
	count_changed = tn_session_poll_count(session, &tui->out);
	state_changed = tn_preparse_service_computes_state(&session->preparse);
	if (!index_changed && !count_changed && !state_changed)
		return false;
	note_index(tui);
	tui->dirty |= TN_TUI_DIRTY_STATUS;
	/* The index arrived: the list learns the event numbers (with
	 * filters, the match numbers once counted). */
	if ((tui->index.has_index && !had_index) ||
	    tui->filters.serial != serial)
		tn_tui_request_update(tui);
	return true;
}

bool tn_tui_cancel_jobs(struct tn_tui *tui)
{
	bool running = tn_tui_user_job_running(tui);

	if (tn_tui_job_running(tui))
		tn_job_cancel(tui->session->lease.job);
	tn_cmdq_destroy(tui->pending);
	tui->pending = NULL;
	return running;
}

void tn_tui_run_fini(struct tn_tui *tui)
{
	tn_tui_cancel_jobs(tui);
	if (tui->session->lease.job) {
		struct tn_error err;

		tn_cmdq_finish(tui->session->lease.job, NULL, &err);
		tn_lease_end(&tui->session->lease);
	}
	tui->prefetching = false;
	g_clear_pointer(&tui->prefetch, g_free);
	update_free(tui->update);
	tui->update = NULL;
}
