/* analysis.c - the kernel analyses of the range (or the whole trace):
 * cputop, syscallstats, irqstats, schedtop.  Each prints its first
 * table one row a line, then each other table under a "# NAME COLUMNS"
 * line, and makes it the analysis the analysis pane shows
 * (session->view.analysis_name); `analysis NAME` only chooses it, and
 * `analysis next` or `prev` the one after or before it; `analysis`
 * says which is chosen. */
#include <inttypes.h>
#include <string.h>

#include "cmd.h"
#include "tracenav/analysis.h"

static void format_cell(GString *out, const struct tn_analysis_cell *cell)
{
	switch (cell->type) {
	case TN_CELL_NONE:
		g_string_append_c(out, '-');
		break;
	case TN_CELL_TEXT:
		g_string_append(out, cell->u.text);
		break;
	case TN_CELL_INT:
		g_string_append_printf(out, "%" PRId64, cell->u.i);
		break;
	case TN_CELL_NS:
		g_string_append_printf(out, "%.0f", cell->u.d);
		break;
	case TN_CELL_PERCENT:
		g_string_append_printf(out, "%.2f", cell->u.d);
		break;
	}
}

static void write_table(struct tn_command_context *ctx, const char *what,
		const struct tn_analysis_table *table, bool header)
{
	GString *line = g_string_new(NULL);

	if (header) {
		g_string_printf(line, "# %s", table->name);
		for (size_t c = 0; c < table->column_count; c++)
			g_string_append_printf(line, " %s",
				table->columns[c].name);
		tn_output_text(ctx->out, what, line->str);
	}
	for (size_t r = 0; r < table->row_count; r++) {
		g_string_truncate(line, 0);
		for (size_t c = 0; c < table->column_count; c++) {
			if (c)
				g_string_append_c(line, ' ');
			format_cell(line,
				tn_analysis_cell_at(table, r, c));
		}
		tn_output_text(ctx->out, what, line->str);
	}
	g_string_free(line, TRUE);
}

/* Run analysis `name` (one of tn_analysis_names()) and print it; the
 * analysis pane shows it from then on. */
static int run_analysis(struct tn_command_context *ctx, const char *name,
		struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	struct tn_analysis_result *result;
	int64_t begin, end;
	size_t rows = 0;

	if (!tn_session_get_range(session, &begin, &end))
		return 0;	/* no event: nothing to analyse */
	if (tn_analysis_run(session->trace, session->state.snapshots, name,
			begin, end, g_get_num_processors(), &result, err))
		return -1;
	for (size_t i = 0; i < result->table_count; i++) {
		write_table(ctx, name, &result->tables[i], i > 0);
		rows += result->tables[i].row_count;
	}
	tn_analysis_result_destroy(result);
	if (rows == 0 && !tn_analysis_applies(session->trace))
		tn_output_message(ctx->out, "%s: the analyses read the events "
			"of an LTTng kernel trace, which this one is not", name);
	return 0;
}

/* Print analysis `name` (one of tn_analysis_names()); the analysis
 * pane shows it from then on. */
static int choose(struct tn_command_context *ctx, const char *name,
		struct tn_error *err)
{
	ctx->session->view.analysis_name = name;
	return run_analysis(ctx, name, err);
}

/* The analysis `step` (1 or -1) places from the one chosen now, in
 * tn_analysis_names()'s order, round. */
static const char *step_from_chosen(const struct tn_session *session,
		int step)
{
	const char *const *names = tn_analysis_names();
	size_t count = 0, at = 0;

	while (names[count])
		count++;
	for (size_t i = 0; i < count; i++)
		if (session->view.analysis_name == names[i])
			at = i;
	return names[(at + count + (size_t) step) % count];
}

/* Only choose: the analysis pane runs it (in the job, after this).
 * `next` and `prev` step from the one chosen when the command runs, so
 * that keys typed faster than the pane shows them all count. */
static int exec_analysis(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	const char *word;

	if (args->argc == 0) {
		const char *shown = ctx->session->view.analysis_name;

		tn_output_text(ctx->out, "analysis",
			shown ? shown : tn_analysis_names()[0]);
		return 0;
	}
	word = args->argv[0];
	if (strcmp(word, "next") == 0 || strcmp(word, "prev") == 0) {
		ctx->session->view.analysis_name = step_from_chosen(
			ctx->session, word[0] == 'n' ? 1 : -1);
		return 0;
	}
	for (const char *const *n = tn_analysis_names(); *n; n++) {
		if (strcmp(*n, word) == 0) {
			ctx->session->view.analysis_name = *n;
			return 0;
		}
	}
	tn_error_set(err, "analysis: no analysis called \"%s\"", word);
	return -1;
}

/* cputop, syscallstats, irqstats, schedtop: the analysis of the name. */
static int exec_named(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	(void) args;
	for (const char *const *n = tn_analysis_names(); *n; n++)
		if (strcmp(*n, ctx->command->name) == 0)
			return choose(ctx, *n, err);
	tn_error_set(err, "no analysis called \"%s\"", ctx->command->name);
	return -1;
}

#define ANALYSIS_FLAGS (TN_CMD_READS | TN_CMD_NEEDS_INDEX | \
	TN_CMD_SHOWS_TEXT)

const struct tn_command tn_cmd_cputop = {
	"cputop", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"CPU time of the range (or the whole trace) per thread, TID NAME NS "
	"PERCENT sorted by NS (swapper, tid 0, left out; PERCENT of the "
	"range's duration), then # cpus CPU NS PERCENT",
	ANALYSIS_FLAGS, TN_COUNT_NONE, exec_named,
};

const struct tn_command tn_cmd_syscallstats = {
	"syscallstats", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"system calls that end in the range (or the whole trace) per name, "
	"SYSCALL COUNT MIN MEAN MAX STDDEV (durations in ns) sorted by "
	"COUNT, then # threads TID NAME SYSCALL COUNT MIN MEAN MAX STDDEV",
	ANALYSIS_FLAGS, TN_COUNT_NONE, exec_named,
};

const struct tn_command tn_cmd_irqstats = {
	"irqstats", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"interrupt handlers that end in the range (or the whole trace), IRQ "
	"NAME COUNT MIN MEAN MAX STDDEV (ns), then # softirqs VEC NAME COUNT "
	"MIN MEAN MAX STDDEV RAISES RAISE_MIN RAISE_MEAN RAISE_MAX "
	"RAISE_STDDEV",
	ANALYSIS_FLAGS, TN_COUNT_NONE, exec_named,
};

const struct tn_command tn_cmd_schedtop = {
	"schedtop", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"wake-up to switch-in latency of the range (or the whole trace) per "
	"thread, TID NAME COUNT MIN MEAN MAX STDDEV (ns) sorted by MAX",
	ANALYSIS_FLAGS, TN_COUNT_NONE, exec_named,
};

static const char *const analysis_choices[] = {
	"cputop", "syscallstats", "irqstats", "schedtop", "next", "prev",
	NULL,
};

const struct tn_command tn_cmd_analysis = {
	"analysis", NULL, {
		{ TN_ARG_WORD, "NAME", true, analysis_choices },
	},
	"show the analysis NAME (cputop, syscallstats, irqstats or "
	"schedtop; next or prev: the one after or before the one chosen, "
	"keys ] and [) in the analysis pane (key A), which runs it; prints "
	"nothing (the command NAME prints it); without NAME, prints the "
	"name of the one chosen",
	TN_CMD_READS, TN_COUNT_NONE, exec_analysis,
};
