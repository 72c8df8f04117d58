/* timeline.c - the timelines of the range (or the whole trace), as text:
 * `timeline threads|cpus [BUCKETS] [ns]`.  Without ns, one line per
 * thread or CPU: its id (and a thread's name), then a letter per bucket
 * for the state that took most of it; with ns, a line per row and
 * bucket with time in it, the time of each state (timeline.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tracenav/text.h"
#include "tracenav/timeline.h"

#define DEFAULT_BUCKETS 20
#define NAME_COLUMNS 16		/* a thread's name, cut or padded */

/* The letters of the states (enum tn_thread_state, enum tn_cpu_state),
 * and of a bucket without time: not alive, or nothing known. */
static const char thread_letters[TN_THREAD_STATE_COUNT] = "USIWB";
static const char cpu_letters[TN_CPU_STATE_COUNT] = "RIS-";
#define NO_TIME '.'

/* What the words after threads or cpus ask for: "[BUCKETS] [ns]". */
static int parse_options(const char *text, unsigned *buckets, bool *ns,
		struct tn_error *err)
{
	gchar **words = g_strsplit_set(text ? text : "", " \t", -1);
	int status = 0;

	*buckets = DEFAULT_BUCKETS;
	*ns = false;
	for (gchar **w = words; *w && status == 0; w++) {
		char *end;
		unsigned long n;

		if (!**w)
			continue;
		if (strcmp(*w, "ns") == 0) {
			*ns = true;
			continue;
		}
		errno = 0;
		n = strtoul(*w, &end, 10);
		if (errno || *end || (*w)[0] == '-' || n == 0 ||
		    n > TN_TIMELINE_MAX_BUCKETS) {
			tn_error_set(err, "timeline: \"%s\" is neither a "
				"number of buckets (1 to %d) nor ns", *w,
				TN_TIMELINE_MAX_BUCKETS);
			status = -1;
		}
		*buckets = (unsigned) n;
	}
	g_strfreev(words);
	return status;
}

/* The rows of table in its `ns` form: its cells, tab-separated, the
 * name left out. */
static void write_ns(struct tn_command_context *ctx,
		const struct tn_analysis_table *table, size_t name_column)
{
	GString *line = g_string_new(NULL);

	for (size_t r = 0; r < table->row_count; r++) {
		g_string_truncate(line, 0);
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

/* The letter of a bucket: its state with the most time (the first of
 * equal ones), NO_TIME without any. */
static char letter_of(const struct tn_analysis_table *table, size_t r,
		size_t first, const char *letters, size_t states)
{
	int64_t most = 0;
	char letter = NO_TIME;

	for (size_t s = 0; s < states; s++) {
		int64_t ns = tn_analysis_cell_at(table, r, first + s)->u.i;

		if (ns > most) {
			most = ns;
			letter = letters[s];
		}
	}
	return letter;
}

/* The grid form: one line per id (rows come by id, then bucket). */
static void write_grid(struct tn_command_context *ctx,
		const struct tn_analysis_table *table, bool has_name,
		unsigned buckets, const char *letters, size_t states)
{
	size_t bucket_column = has_name ? 2 : 1;
	GString *line = g_string_new(NULL);
	char *grid = g_malloc(buckets + 1);
	size_t r = 0;

	while (r < table->row_count) {
		int64_t id = tn_analysis_cell_at(table, r, 0)->u.i;
		const char *name = has_name ?
			tn_analysis_cell_at(table, r, 1)->u.text : NULL;

		memset(grid, NO_TIME, buckets);
		grid[buckets] = '\0';
		for (; r < table->row_count &&
		     tn_analysis_cell_at(table, r, 0)->u.i == id; r++) {
			int64_t k = tn_analysis_cell_at(table, r,
				bucket_column)->u.i;

			if (k >= 0 && k < (int64_t) buckets)
				grid[k] = letter_of(table, r,
					bucket_column + 1, letters, states);
		}
		if (has_name) {
			int cols;

			g_string_printf(line, "%-7" PRId64 " ", id);
			cols = tn_text_append_safe(line, name && *name ?
				name : "-", NAME_COLUMNS, true);
			g_string_append_printf(line, "%*s %s",
				NAME_COLUMNS - cols, "", grid);
		} else
			g_string_printf(line, "%-4" PRId64 " %s", id, grid);
		tn_output_text(ctx->out, "timeline", line->str);
	}
	g_free(grid);
	g_string_free(line, TRUE);
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
	bool ns;

	if (parse_options(args->argc > 1 ? args->argv[1] : NULL, &buckets,
			&ns, err))
		return -1;
	if (!tn_session_get_range(session, &begin, &end))
		return 0;	/* no event: no timeline */
	if (tn_timeline_run(session->trace, session->state.snapshots, begin,
			end, buckets, g_get_num_processors(), &result, err))
		return -1;
	table = tn_analysis_result_find(result, threads ? "threads" : "cpus");
	if (!table || table->row_count == 0)
		tn_output_message(ctx->out, "timeline: no %s in this range "
			"(the kernel's scheduling events are needed)",
			threads ? "thread ran or waited" : "CPU was seen");
	else if (ns)
		write_ns(ctx, table, threads ? 1 : SIZE_MAX);
	else if (threads)
		write_grid(ctx, table, true, buckets, thread_letters,
			TN_THREAD_STATE_COUNT);
	else
		write_grid(ctx, table, false, buckets, cpu_letters,
			TN_CPU_STATE_COUNT);
	tn_analysis_result_destroy(result);
	return 0;
}

static const char *const timeline_choices[] = { "threads", "cpus", NULL };

const struct tn_command tn_cmd_timeline = {
	"timeline", NULL, {
		{ TN_ARG_WORD, "threads|cpus", false, timeline_choices },
		{ TN_ARG_TEXT, "BUCKETS [ns]", true, NULL },
	},
	"the range (or the whole trace) in BUCKETS equal buckets (20): per "
	"thread (TID NAME) or per CPU, a letter per bucket for the state "
	"that took most of it (threads: U user mode, S system call, I "
	"interrupted, W waiting for a CPU, B blocked; CPUs: R busy, I irq, "
	"S softirq, - idle; . no time); with ns, a line per row and bucket: "
	"TID BUCKET USER SYSCALL INTERRUPTED WAIT_CPU BLOCKED, or CPU BUCKET "
	"BUSY IRQ SOFTIRQ IDLE (ns, tab-separated)",
	TN_CMD_READS | TN_CMD_NEEDS_INDEX | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE,
	exec_timeline,
};
