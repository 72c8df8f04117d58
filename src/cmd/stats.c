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

/* The span to zoom the histogram strip on, and what it is: the
 * selection being made, else the range, else the screen's events. */
static const char *zoom_span(struct tn_command_context *ctx, int64_t *begin,
		int64_t *end, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const struct tn_row *row;

	if (session->view.selecting) {
		if (!(row = tn_cursor_row(session->cursor, 0, err)))
			return NULL;
		*begin = MIN(session->view.select_anchor.ns, row->pos.ns);
		*end = MAX(session->view.select_anchor.ns, row->pos.ns);
		return "the selection";
	}
	if (session->view.has_range) {
		*begin = session->view.range_begin_ns;
		*end = session->view.range_end_ns;
		return "the range";
	}
	if (ctx->has_screen_span) {
		*begin = MIN(ctx->screen_begin_ns, ctx->screen_end_ns);
		*end = MAX(ctx->screen_begin_ns, ctx->screen_end_ns);
		return "the screen's events";
	}
	tn_error_set(err, "histogram: no event on the screen to zoom on");
	return NULL;
}

/* In the event list: zoom the strip on the selection, the range or
 * the screen, or (whole) show the whole trace again. */
static int zoom(struct tn_command_context *ctx, bool whole,
		struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const char *what;
	GString *from, *to;
	int64_t begin, end;

	if (whole) {
		session->view.zoomed = false;
		tn_output_message(ctx->out, "histogram: the whole trace");
		return 0;
	}
	if (!(what = zoom_span(ctx, &begin, &end, err)))
		return -1;
	session->view.zoomed = true;
	session->view.zoom_begin_ns = begin;
	session->view.zoom_end_ns = end;
	from = g_string_new(NULL);
	to = g_string_new(NULL);
	tn_time_format_wall(from, begin, session->view.gmt, false);
	tn_time_format_wall(to, end, session->view.gmt, false);
	tn_output_message(ctx->out, "histogram of %s, %s to %s (Z: the whole "
		"trace)", what, from->str, to->str);
	g_string_free(from, TRUE);
	g_string_free(to, TRUE);
	return 0;
}

static int exec_histogram(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const struct tn_stats_counts *counts;
	bool whole = has_word(args, "whole");
	const struct tn_command_args *rest = args;
	struct tn_command_args without_word;
	int64_t begin, end, *starts;
	uint64_t *bin_counts;
	size_t bins, used;
	GString *line;

	if (whole) {
		/* BINS follows the word. */
		without_word = *args;
		without_word.argc = args->argc - 1;
		memmove(without_word.argv, args->argv + 1,
			sizeof(char *) * (size_t) without_word.argc);
		rest = &without_word;
	}
	/* The event list shows bins in its strip: as many as columns. */
	if (ctx->has_screen && rest->argc == 0)
		return zoom(ctx, whole, err);
	if (parse_bins(rest, &bins, err))
		return -1;
	if (whole) {
		const struct tn_index *index = session->indexing.index;

		if (!index || index->event_count == 0)
			return 0;
		begin = index->first_event_ns;
		end = index->last_event_ns;
	} else if (!tn_session_get_range(session, &begin, &end)) {
		return 0;	/* no event: no bins */
	}
	/* The counts of the range, made once for stats and histogram,
	 * give its ends' ranks. */
	if (tn_session_count(session, begin, end, &counts, err))
		return -1;
	bin_counts = g_new0(uint64_t, bins);
	starts = g_new0(int64_t, bins);
	if (tn_stats_histogram(session->trace, session->indexing.index, begin,
			end, counts, bins, bin_counts, starts, &used, err)) {
		g_free(bin_counts);
		g_free(starts);
		return -1;
	}
	line = g_string_new(NULL);
	for (size_t i = 0; i < used; i++) {
		g_string_assign(line, "[");
		tn_time_format_wall(line, starts[i], session->view.gmt, false);
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

static const char *const whole_choice[] = { "whole", NULL };

const struct tn_command tn_cmd_histogram = {
	"histogram", NULL, {
		{ TN_ARG_WORD, "whole", true, whole_choice },
		{ TN_ARG_TEXT, "BINS", true, NULL },
	},
	"print the events of the range (or the whole trace; whole: the "
	"whole trace even with a range) in BINS bins of equal time (20 by "
	"default): one line per bin, [START] COUNT, exact counts (a wide "
	"bin's inner edges on the index's time bins); in the event list, "
	"without BINS: zoom the histogram strip on the selection, the "
	"range or the screen's events (key z; whole: the whole trace "
	"again, key Z)",
	TN_CMD_READS | TN_CMD_NEEDS_INDEX | TN_CMD_SHOWS_TEXT |
	TN_CMD_SHOWS_HISTOGRAM, TN_COUNT_NONE, exec_histogram,
};
