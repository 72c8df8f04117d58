/* timeline.c - the timelines of the range (or the whole trace), as text:
 * `timeline threads|cpus [BUCKETS] [ns|tree|names]`.  Without ns, one line per
 * thread or CPU: its id (and a thread's name), then a letter per bucket
 * for the state that took most of it; with tree, the threads in the
 * order of their process tree, as the threads pane shows them; with
 * names, a CPU's running threads' names over its letters, as the CPUs
 * pane shows them; with ns, a line per row and bucket with time in it,
 * the time of each state (timeline.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tracenav/timeline.h"

#define DEFAULT_BUCKETS 20


/* What the words after threads or cpus ask for: "[BUCKETS]
 * [ns|tree|names]". */
static int parse_options(const char *text, unsigned *buckets, bool *ns,
		bool *tree, bool *names, struct tn_error *err)
{
	gchar **words = g_strsplit_set(text ? text : "", " \t", -1);
	int status = 0;

	*buckets = DEFAULT_BUCKETS;
	*ns = false;
	*tree = false;
	*names = false;
	for (gchar **w = words; *w && status == 0; w++) {
		char *end;
		unsigned long n;

		if (!**w)
			continue;
		if (strcmp(*w, "ns") == 0 || strcmp(*w, "tree") == 0 ||
		    strcmp(*w, "names") == 0) {
			*(strcmp(*w, "ns") == 0 ? ns : **w == 't' ? tree :
				names) = true;
			continue;
		}
		errno = 0;
		n = strtoul(*w, &end, 10);
		if (errno || *end || (*w)[0] == '-' || n == 0 ||
		    n > TN_TIMELINE_MAX_BUCKETS) {
			tn_error_set(err, "timeline: \"%s\" is neither a "
				"number of buckets (1 to %d) nor ns, tree or "
				"names",
				*w, TN_TIMELINE_MAX_BUCKETS);
			status = -1;
		}
		*buckets = (unsigned) n;
	}
	if (status == 0 && *ns + *tree + *names > 1) {
		tn_error_set(err, "timeline: one of ns, tree and names");
		status = -1;
	}
	g_strfreev(words);
	return status;
}

/* The rows of table in its `ns` form: its cells, tab-separated, the
 * name left out, after word (NULL: none). */
static void write_ns(struct tn_command_context *ctx,
		const struct tn_analysis_table *table, size_t name_column,
		const char *word)
{
	GString *line = g_string_new(NULL);

	for (size_t r = 0; table && r < table->row_count; r++) {
		g_string_assign(line, word ? word : "");
		for (size_t c = 0; c < table->column_count; c++) {
			if (c == name_column)
				continue;
			if (line->len)
				g_string_append_c(line, '\t');
			g_string_append_printf(line, "%" PRId64,
				tn_analysis_cell_at(table, r, c)->u.i);
		}
		tn_output_text(ctx->out, "timeline", line->str);
	}
	g_string_free(line, TRUE);
}

/* The grid form: one line per thread or CPU, its label as the panes
 * show it, then a letter per bucket (with names, a CPU's running
 * threads' names over them, as the pane shows); in the order of tree
 * (NULL: by id). */
static void write_grid(struct tn_command_context *ctx,
		const struct tn_timeline_grid *grid,
		const struct tn_timeline_tree *tree, bool names)
{
	GString *line = g_string_new(NULL);

	for (size_t r = 0; r < grid->row_count; r++) {
		const struct tn_timeline_row *row =
			&grid->rows[tree ? tree->order[r] : r];

		g_string_truncate(line, 0);
		tn_timeline_append_label(line, row, tree, r);
		if (!names || !row->names)
			g_string_append_len(line, row->letters, grid->buckets);
		for (unsigned c = 0; names && row->names && c < grid->buckets;
		     c++)
			g_string_append_c(line, row->names[c] != ' ' ?
				row->names[c] : row->letters[c]);
		tn_output_text(ctx->out, "timeline", line->str);
	}
	g_string_free(line, TRUE);
}

static void say_empty(struct tn_command_context *ctx, bool threads)
{
	tn_output_message(ctx->out, "timeline: no %s in this range (the "
		"kernel's scheduling events are needed)", threads ?
		"thread ran or waited" : "CPU was seen");
}

/* The grid form, as the panes draw it (from the preparse's summary when
 * the span is wide). */
static int run_grid(struct tn_command_context *ctx,
		enum tn_timeline_kind kind, int64_t begin, int64_t end,
		unsigned buckets, bool as_tree, bool names,
		struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	struct tn_timeline_tree tree = { 0 };
	struct tn_timeline_grid *grid;
	uint64_t events;

	if (tn_timeline_grid_run(session->trace, session->state.snapshots,
			session->indexing.index, kind, begin, end, buckets,
			g_get_num_processors(), &grid, &events, err))
		return -1;
	if (as_tree)
		tn_timeline_tree_make(grid, NULL, NULL, NULL, &tree);
	if (grid->row_count == 0)
		say_empty(ctx, kind == TN_TIMELINE_THREADS);
	else
		write_grid(ctx, grid, as_tree ? &tree : NULL, names);
	tn_timeline_tree_fini(&tree);
	if (grid->row_count && grid->summary_ns)
		tn_output_message(ctx->out, "timeline: from the summary the "
			"index keeps (buckets of %.3g ms: a column's edges are "
			"the nearest ones; with ns, exact)",
			(double) grid->summary_ns / 1e6);
	tn_timeline_grid_destroy(grid);
	return 0;
}

static int exec_timeline(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	bool threads = strcmp(args->argv[0], "threads") == 0;
	struct tn_analysis_result *result;
	const struct tn_analysis_table *table;
	unsigned buckets;
	int64_t begin, end;
	bool ns, tree, names;

	if (parse_options(args->argc > 1 ? args->argv[1] : NULL, &buckets,
			&ns, &tree, &names, err))
		return -1;
	if (tree && !threads) {
		tn_error_set(err, "timeline: tree is for threads (a CPU has "
			"no parent)");
		return -1;
	}
	if (names && threads) {
		tn_error_set(err, "timeline: names is for cpus (a thread's "
			"row has its name)");
		return -1;
	}
	if (!tn_session_get_range(session, &begin, &end))
		return 0;	/* no event: no timeline */
	if (!ns)
		return run_grid(ctx, threads ? TN_TIMELINE_THREADS :
			TN_TIMELINE_CPUS, begin, end, buckets, tree, names,
			err);
	if (tn_timeline_run(session->trace, session->state.snapshots, begin,
			end, buckets, g_get_num_processors(), &result, err))
		return -1;
	table = tn_analysis_result_find(result, threads ? "threads" : "cpus");
	if (!table || table->row_count == 0) {
		say_empty(ctx, threads);
	} else {
		write_ns(ctx, table, threads ? 1 : SIZE_MAX, NULL);
		if (!threads) {
			write_ns(ctx, tn_analysis_result_find(result, "irqs"),
				SIZE_MAX, "irq");
			write_ns(ctx, tn_analysis_result_find(result,
				"softirqs"), SIZE_MAX, "softirq");
		}
	}
	tn_analysis_result_destroy(result);
	return 0;
}

static const char *const timeline_choices[] = { "threads", "cpus", NULL };

const struct tn_command tn_cmd_timeline = {
	"timeline", NULL, {
		{ TN_ARG_WORD, "threads|cpus", false, timeline_choices },
		{ TN_ARG_TEXT, "BUCKETS [ns|tree|names]", true, NULL },
	},
	"the range (or the whole trace) in BUCKETS equal buckets (20): per "
	"thread (TID NAME) or per CPU, a letter per bucket for the state "
	"that took most of it (threads: U user mode, S system call, I "
	"interrupted, W waiting for a CPU, B blocked; CPUs: R busy, I irq, "
	"S softirq, - idle; . no time); with tree, the threads under their "
	"parents (PPID), a name indented a column a level; with names, a "
	"CPU's running threads' names over its letters where the zoom "
	"allows; with ns, a "
	"line per row and bucket: "
	"TID BUCKET USER SYSCALL INTERRUPTED WAIT_CPU BLOCKED, or CPU BUCKET "
	"BUSY IRQ SOFTIRQ IDLE (ns, tab-separated)",
	TN_CMD_READS | TN_CMD_NEEDS_INDEX | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE,
	exec_timeline,
};

/* ---- timeline-zoom: the span the timeline panes show ---- */

/* The shortest span a zoom shows. */
#define MIN_SPAN_NS 1000

/* The time of the list's current event, else the span's middle. */
static int64_t zoom_center(struct tn_session *session, int64_t begin,
		int64_t end)
{
	const struct tn_row *row = tn_cursor_is_empty(session->cursor) ? NULL :
		tn_cursor_peek_row(session->cursor, 0);

	if (row && row->pos.ns >= begin && row->pos.ns <= end)
		return row->pos.ns;
	return begin + (end - begin) / 2;
}

/* Set the zoom to [begin, end] moved inside [lo, hi] (the whole span:
 * no zoom). */
static void set_span(struct tn_view *view, int64_t begin, int64_t end,
		int64_t lo, int64_t hi)
{
	int64_t width = end - begin;

	if (width >= hi - lo) {
		view->timeline_zoomed = false;
		return;
	}
	if (begin < lo) {
		begin = lo;
		end = lo + width;
	}
	if (end > hi) {
		end = hi;
		begin = hi - width;
	}
	view->timeline_zoomed = true;
	view->timeline_begin_ns = begin;
	view->timeline_end_ns = end;
}

static int exec_timeline_zoom(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	struct tn_view *view = &session->view;
	const char *how = args->argv[0];
	int64_t lo, hi, begin, end, width, center;

	if (!tn_session_get_range(session, &lo, &hi) ||
	    !tn_view_get_timeline_span(view, session->indexing.index,
			&begin, &end)) {
		tn_error_set(err, "timeline-zoom: no event to zoom on");
		return -1;
	}
	width = end - begin;
	if (strcmp(how, "reset") == 0) {
		view->timeline_zoomed = false;
	} else if (strcmp(how, "in") == 0) {
		center = zoom_center(session, begin, end);
		width = MAX(width / 2, MIN_SPAN_NS);
		set_span(view, center - width / 2, center - width / 2 + width,
			lo, hi);
	} else if (strcmp(how, "out") == 0) {
		center = zoom_center(session, begin, end);
		width = width > (hi - lo) / 2 ? hi - lo : width * 2;
		set_span(view, center - width / 2, center - width / 2 + width,
			lo, hi);
	} else {
		int64_t step = MAX(width / 4, 1) * (how[0] == 'l' ? -1 : 1);

		set_span(view, begin + step, end + step, lo, hi);
	}
	if (!view->timeline_zoomed)
		tn_output_message(ctx->out, "timelines: the %s",
			view->has_range ? "range" : "whole trace");
	return 0;
}

static const char *const zoom_choices[] = {
	"in", "out", "left", "right", "reset", NULL,
};

const struct tn_command tn_cmd_timeline_zoom = {
	"timeline-zoom", NULL, {
		{ TN_ARG_WORD, "in|out|left|right|reset", false,
			zoom_choices },
	},
	"zoom the timeline panes in (half the span, around the current "
	"event) or out (twice), pan left or right (a quarter), or show the "
	"range (or the whole trace) again",
	TN_CMD_READS | TN_CMD_NEEDS_INDEX, TN_COUNT_NONE, exec_timeline_zoom,
};
