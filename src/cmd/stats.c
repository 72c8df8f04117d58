/* stats.c - what the range (or the whole trace) holds: events per name,
 * per CPU, stream and trace, lost events, and a histogram. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tracenav/stats.h"
#include "tracenav/time.h"

#define DEFAULT_BINS 20
#define MAX_BINS 10000

static bool has_word(const struct tn_command_args *args, const char *word)
{
	for (int i = 0; i < args->argc; i++)
		if (strcmp(args->argv[i], word) == 0)
			return true;
	return false;
}

/* "KEY COUNT", or "KEY COUNT PERCENT" (of total, two decimals). */
static void write_entry(struct tn_command_context *ctx, GString *line,
		const struct tn_stats_entry *entry, bool percent, uint64_t total)
{
	g_string_printf(line, "%s %" PRIu64, entry->key, entry->count);
	if (percent)
		g_string_append_printf(line, " %.2f", total ?
			100.0 * (double) entry->count / (double) total : 0.0);
	tn_output_text(ctx->out, "stats", line->str);
}

static void write_section(struct tn_command_context *ctx, GString *line,
		const char *title, const struct tn_stats_entry *entries,
		size_t count, bool percent, uint64_t total)
{
	g_string_printf(line, "# %s", title);
	tn_output_text(ctx->out, "stats", line->str);
	for (size_t i = 0; i < count; i++)
		write_entry(ctx, line, &entries[i], percent, total);
}

static int exec_stats(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	bool percent = has_word(args, "percent");
	const struct tn_stats_counts *counts;
	int64_t begin, end;
	GString *line;

	if (!tn_session_get_range(session, &begin, &end))
		return 0;	/* no event: nothing to count */
	if (tn_session_count(session, begin, end, &counts, err))
		return -1;
	line = g_string_new(NULL);
	for (size_t i = 0; i < counts->name_count; i++)
		write_entry(ctx, line, &counts->names[i], percent,
			counts->event_count);
	if (has_word(args, "all")) {
		write_section(ctx, line, "cpu", counts->cpus,
			counts->cpu_count, percent, counts->event_count);
		write_section(ctx, line, "stream", counts->streams,
			counts->stream_count, percent, counts->event_count);
		write_section(ctx, line, "trace", counts->traces,
			counts->trace_count, percent, counts->event_count);
		tn_output_text(ctx->out, "stats", "# lost");
		g_string_printf(line, "lost %" PRIu64, counts->lost);
		tn_output_text(ctx->out, "stats", line->str);
	}
	g_string_free(line, TRUE);
	return 0;
}

static int parse_bins(const struct tn_command_args *args, size_t *bins,
		struct tn_error *err)
{
	const char *arg = args->argc ? args->argv[0] : NULL;
	unsigned long long value;
	char *stop;

	*bins = DEFAULT_BINS;
	if (!arg)
		return 0;
	errno = 0;
	value = strtoull(arg, &stop, 10);
	if (errno || stop == arg || *stop || *arg == '-' || value == 0 ||
	    value > MAX_BINS) {
		tn_error_set(err, "histogram: \"%s\" is not a number of bins: "
			"give 1 to %d", arg, MAX_BINS);
		return -1;
	}
	*bins = (size_t) value;
	return 0;
}

static int exec_histogram(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const struct tn_stats_counts *counts;
	int64_t begin, end, *starts;
	uint64_t *bin_counts;
	size_t bins, used;
	GString *line;

	if (parse_bins(args, &bins, err))
		return -1;
	if (!tn_session_get_range(session, &begin, &end))
		return 0;	/* no event: no bins */
	/* The counts of the range, made once for stats and histogram,
	 * give its ends' ranks. */
	if (tn_session_count(session, begin, end, &counts, err))
		return -1;
	bin_counts = g_new0(uint64_t, bins);
	starts = g_new0(int64_t, bins);
	if (tn_stats_histogram(session->trace, session->index, begin, end,
			counts, bins, bin_counts, starts, &used, err)) {
		g_free(bin_counts);
		g_free(starts);
		return -1;
	}
	line = g_string_new(NULL);
	for (size_t i = 0; i < used; i++) {
		g_string_assign(line, "[");
		tn_time_format_wall(line, starts[i], session->gmt, false);
		g_string_append_printf(line, "] %" PRIu64, bin_counts[i]);
		tn_output_text(ctx->out, "histogram", line->str);
	}
	g_string_free(line, TRUE);
	g_free(bin_counts);
	g_free(starts);
	return 0;
}

static const char *const all_choice[] = { "all", NULL };
static const char *const percent_choice[] = { "percent", NULL };

const struct tn_command tn_cmd_stats = {
	"stats", NULL, {
		{ TN_ARG_WORD, "all", true, all_choice },
		{ TN_ARG_WORD, "percent", true, percent_choice },
	},
	"print the events of the range (or the whole trace) per name, "
	"NAME COUNT sorted by count then name, from the index; all: then "
	"sections # cpu, # stream, # trace and # lost; percent: a third "
	"column, the share of the events",
	TN_CMD_READS | TN_CMD_NEEDS_INDEX | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE,
	exec_stats,
};

const struct tn_command tn_cmd_histogram = {
	"histogram", NULL, { { TN_ARG_TEXT, "BINS", true, NULL } },
	"print the events of the range (or the whole trace) in BINS bins "
	"of equal time (20 by default): one line per bin, [START] COUNT, "
	"exact counts (a wide bin's inner edges on the index's time bins)",
	TN_CMD_READS | TN_CMD_NEEDS_INDEX | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE,
	exec_histogram,
};
