/* range.c - the time range that stats and histogram apply to. */
#include <inttypes.h>
#include <string.h>

#include "cmd.h"
#include "tracenav/stats.h"
#include "tracenav/time.h"

#define RANGE_USAGE "give two times, T1 and T2 (any form goto takes), " \
	"or clear"

/* Write "LABEL  WALL (SEC s)". */
static void write_time(struct tn_command_context *ctx, const char *label,
		int64_t ns)
{
	GString *line = g_string_new(NULL);

	g_string_printf(line, "%-10s ", label);
	tn_time_format_wall(line, ns, ctx->session->view.gmt, true);
	g_string_append(line, " (");
	tn_time_format_seconds(line, ns);
	g_string_append(line, " s)");
	tn_output_text(ctx->out, "range", line->str);
	g_string_free(line, TRUE);
}

/* What the range (or the whole trace) is: its ends, duration and
 * events. */
static int write_range(struct tn_command_context *ctx, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const struct tn_stats_counts *counts;
	int64_t begin, end;
	GString *line;

	if (!tn_session_get_range(session, &begin, &end)) {
		tn_error_set(err, "range: the trace has no event");
		return -1;
	}
	/* The counts too, at the cost of the edges' ranks: for the stats
	 * that are likely to follow. */
	if (tn_session_count(session, begin, end, &counts, err))
		return -1;
	if (!session->view.has_range)
		tn_output_text(ctx->out, "range", "no range: the whole trace, "
			"from its first event to its last");
	write_time(ctx, "begin:", begin);
	write_time(ctx, "end:", end);
	line = g_string_new(NULL);
	g_string_printf(line, "%-10s ", "duration:");
	tn_time_format_seconds(line, end - begin);
	g_string_append(line, " s");
	tn_output_text(ctx->out, "range", line->str);
	g_string_printf(line, "%-10s %" PRIu64, "events:", counts->event_count);
	tn_output_text(ctx->out, "range", line->str);
	g_string_free(line, TRUE);
	return 0;
}

/* Resolve words [from, to) joined by blanks; err only when report. */
static int resolve_words(struct tn_command_context *ctx, char **words,
		int from, int to, int64_t *ns, struct tn_error *err)
{
	char *text, *saved = words[to];
	int status;

	words[to] = NULL;
	text = g_strjoinv(" ", words + from);
	words[to] = saved;
	status = tn_cmd_resolve_time(ctx, "range", text, ns, err);
	g_free(text);
	return status;
}

/* T1 and T2 from the words: the first split where both are times (a
 * time may have blanks: "2023-11-14 22:13:20"). */
static int parse_times(struct tn_command_context *ctx, char **words, int n,
		int64_t *t1, int64_t *t2, struct tn_error *err)
{
	struct tn_error ignored;
	int last_t1 = 0;

	for (int k = 1; k < n; k++) {
		if (resolve_words(ctx, words, 0, k, t1, &ignored))
			continue;
		last_t1 = k;
		if (!resolve_words(ctx, words, k, n, t2, &ignored))
			return 0;
	}
	/* Say what is wrong with T2 after the longest T1, or with T1. */
	if (last_t1)
		return resolve_words(ctx, words, 0, last_t1, t1, err) ? -1 :
			resolve_words(ctx, words, last_t1, n, t2, err);
	return resolve_words(ctx, words, 0, 1, t1, err);
}

static void format_wall(GString *text, struct tn_session *session,
		int64_t ns)
{
	tn_time_format_wall(text, ns, session->view.gmt, true);
}

/* Make [t1, t2] the range, and say what it holds. */
static int apply_range(struct tn_command_context *ctx, int64_t t1,
		int64_t t2, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const struct tn_index *index = session->indexing.index;
	GString *a, *b;
	int status = -1;

	a = g_string_new(NULL);
	b = g_string_new(NULL);
	if (t2 < t1) {
		format_wall(a, session, t1);
		format_wall(b, session, t2);
		tn_error_set(err, "range: T2 (%s) is before T1 (%s)", b->str,
			a->str);
	} else if (t2 < index->first_event_ns || t1 > index->last_event_ns) {
		format_wall(a, session, index->first_event_ns);
		format_wall(b, session, index->last_event_ns);
		tn_error_set(err, "range: outside the trace, whose events run "
			"from %s to %s", a->str, b->str);
	} else {
		session->view.has_range = true;
		session->view.range_begin_ns = t1;
		session->view.range_end_ns = t2;
		status = 0;
	}
	g_string_free(a, TRUE);
	g_string_free(b, TRUE);
	return status ? -1 : write_range(ctx, err);
}

static int set_range(struct tn_command_context *ctx, char **words, int n,
		struct tn_error *err)
{
	int64_t t1, t2;

	if (n < 2) {
		tn_error_set(err, "range: " RANGE_USAGE);
		return -1;
	}
	if (parse_times(ctx, words, n, &t1, &t2, err))
		return -1;
	return apply_range(ctx, t1, t2, err);
}

static int exec_range(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	char **words = g_strsplit_set(args->argc ? args->argv[0] : "", " \t",
		-1);
	int n = 0, status;

	/* The words, without the empty ones between blanks. */
	for (int i = 0; words[i]; i++)
		if (*words[i])
			words[n++] = words[i];
		else
			g_free(words[i]);
	words[n] = NULL;
	if (n == 1 && strcmp(words[0], "clear") == 0) {
		session->view.has_range = false;
		tn_output_message(ctx->out, "range cleared: the whole trace");
		g_strfreev(words);
		return 0;
	}
	if (tn_session_need_index(session, "range", ctx->out, err)) {
		g_strfreev(words);
		return -1;
	}
	status = n ? set_range(ctx, words, n, err) : write_range(ctx, err);
	g_strfreev(words);
	return status;
}

/* select: the first one anchors a range at the current event, the next
 * one makes the range from there to the current event. */
static int exec_select(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const struct tn_row *row;
	struct tn_position a, b;
	GString *when;

	if (args->argc && strcmp(args->argv[0], "cancel") == 0) {
		if (session->view.selecting)
			tn_output_message(ctx->out, "selection cancelled");
		session->view.selecting = false;
		return 0;
	}
	row = tn_cmd_current_row(ctx, "select", err);
	if (!row)
		return -1;
	if (!session->view.selecting) {
		session->view.selecting = true;
		session->view.select_anchor = row->pos;
		when = g_string_new(NULL);
		format_wall(when, session, row->pos.ns);
		tn_output_message(ctx->out, "selecting from %s: move, then "
			"select again (v) sets the range; select cancel (Esc) "
			"forgets it", when->str);
		g_string_free(when, TRUE);
		return 0;
	}
	session->view.selecting = false;
	a = session->view.select_anchor;
	b = row->pos;
	if (tn_session_need_index(session, "select", ctx->out, err))
		return -1;
	return apply_range(ctx, MIN(a.ns, b.ns), MAX(a.ns, b.ns), err);
}

static const char *const select_choices[] = { "cancel", NULL };

const struct tn_command tn_cmd_select = {
	"select", NULL, { { TN_ARG_WORD, "cancel", true, select_choices } },
	"start selecting a range at the current event; again, make the "
	"range from there to the current event and print it, as range "
	"does (key v); cancel: stop selecting",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_select,
};

const struct tn_command tn_cmd_range = {
	"range", NULL, { { TN_ARG_TEXT, "T1 T2|clear", true, NULL } },
	"make stats and histogram count the events from T1 to T2, both "
	"included (any form goto takes; needs the index) and print its "
	"start, end, duration and events; without arguments print the "
	"range (or the whole trace's), clear: the whole trace again",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_range,
};
