/* goto.c - the far jumps: to a time, a fraction of the time range, or
 * an event number. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tracenav/stats.h"
#include "tracenav/time.h"

int tn_cmd_goto_event_number(struct tn_command_context *ctx,
		const char *what, uint64_t number, struct tn_error *err)
{
	struct tn_session *session = ctx->session;

	if (number == 0) {
		tn_error_set(err, "%s: there is no event number 0: the first "
			"event is #1", what);
		return -1;
	}
	if (tn_session_need_index(session, what, ctx->out, err))
		return -1;
	return tn_cursor_seek_rank(session->cursor, number - 1, err);
}

/* "NN%" or "NN.N%": a fraction of the time range. */
static bool parse_percent(const char *arg, double *fraction)
{
	char *end;
	double value;

	if (!*arg || arg[strlen(arg) - 1] != '%')
		return false;
	errno = 0;
	value = strtod(arg, &end);
	if (errno || end == arg || *end != '%' || end[1] || value < 0 ||
			value > 100)
		return false;
	*fraction = value / 100;
	return true;
}

/* "#K": event number K (1-based, like the lines of --dump). */
static int goto_number(struct tn_command_context *ctx, const char *arg,
		struct tn_error *err)
{
	char *end;
	uint64_t number;

	errno = 0;
	number = strtoull(arg + 1, &end, 10);
	if (errno || end == arg + 1 || *end || number == 0 || arg[1] == '-') {
		tn_error_set(err, "goto: \"%s\" is not an event number: use "
			"#1 for the first event", arg);
		return -1;
	}
	return tn_cmd_goto_event_number(ctx, "goto #K", number, err);
}

/* "@NS" or "@NS:TIE": the event at that position (its time in ns from
 * the clock's origin, and how many events of that time come before it,
 * as the marks file keeps them), or the first one after it. */
static int goto_position(struct tn_command_context *ctx, const char *arg,
		struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	struct tn_position pos = { 0, 0 };
	const struct tn_row *row;
	char *end;

	errno = 0;
	pos.ns = strtoll(arg + 1, &end, 10);
	if (!errno && end != arg + 1 && *end == ':' && end[1] >= '0' &&
	    end[1] <= '9')
		pos.tie = strtoull(end + 1, &end, 10);
	if (errno || end == arg + 1 || *end) {
		tn_error_set(err, "goto: \"%s\" is not a position: use @NS or "
			"@NS:TIE (NS from the clock's origin, TIE the events of "
			"that time before it)", arg);
		return -1;
	}
	if (tn_cursor_seek_position(session->cursor, &pos, err))
		return -1;
	row = tn_cursor_row(session->cursor, 0, err);
	if (row && tn_position_compare(&row->pos, &pos) != 0)
		tn_output_message(ctx->out, "goto %s: no event%s there: at the "
			"%s one", arg, session->filters.set ?
			" that passes the filters" : "",
			tn_position_compare(&row->pos, &pos) < 0 ? "last" :
			"next");
	return row || !err->message[0] ? 0 : -1;
}

/* The time of the current event, for a time relative to it. */
static int current_time(struct tn_command_context *ctx, const char *arg,
		int64_t *ns, struct tn_error *err)
{
	char *what = g_strdup_printf("goto %s", arg);
	const struct tn_row *row = tn_cmd_current_row(ctx, what, err);

	g_free(what);
	if (!row)
		return -1;
	if (!row->ev.has_ns) {
		tn_error_set(err, "goto %s: the current event has no "
			"timestamp", arg);
		return -1;
	}
	*ns = row->ev.ns;
	return 0;
}

/* ns + offset, saturated. */
static int64_t add_saturated(int64_t ns, int64_t offset)
{
	if (offset > 0 && ns > INT64_MAX - offset)
		return INT64_MAX;
	if (offset < 0 && ns < INT64_MIN - offset)
		return INT64_MIN;
	return ns + offset;
}

/* After a jump to target: say so when it was outside the events' times
 * (the cursor is then on the first or the last event). */
static void say_if_outside(struct tn_command_context *ctx, const char *arg,
		int64_t target)
{
	struct tn_session *session = ctx->session;
	struct tn_error err;
	const struct tn_row *row = tn_cursor_row(session->cursor, 0, &err);
	int64_t first;
	GString *when;

	if (!row || !row->ev.has_ns)
		return;
	when = g_string_new(NULL);
	tn_time_format_wall(when, row->ev.recorded_ns, session->view.gmt, true);
	if (row->ev.ns < target)
		tn_output_message(ctx->out, "goto %s: after the last event%s: "
			"at the last %s (%s)", arg, session->filters.set ?
			" that passes the filters" : "",
			session->filters.set ? "one" : "event", when->str);
	else if (tn_trace_get_first_event_time(session->trace, &first) &&
		 target < first)
		tn_output_message(ctx->out, "goto %s: before the first event: "
			"at the first event (%s)", arg, when->str);
	g_string_free(when, TRUE);
}

int tn_cmd_resolve_time(struct tn_command_context *ctx, const char *what,
		const char *arg, int64_t *ns, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const struct tn_index *index = session->indexing.index;
	struct tn_time_spec spec;
	struct tn_error parse_err;
	int64_t begin = 0, end = 0;
	double fraction;
	char *stop;

	if (!index || index->event_count == 0) {
		tn_error_set(err, "%s: the trace has no event", what);
		return -1;
	}
	if (arg[0] == '#') {
		uint64_t number;

		errno = 0;
		number = strtoull(arg + 1, &stop, 10);
		if (errno || stop == arg + 1 || *stop || number == 0 ||
		    arg[1] == '-') {
			tn_error_set(err, "%s: \"%s\" is not an event number: "
				"use #1 for the first event", what, arg);
			return -1;
		}
		if (tn_stats_time_of_rank(session->trace, index, number - 1,
				ns, err)) {
			char message[TN_ERROR_MAX];

			snprintf(message, sizeof(message), "%s", err->message);
			tn_error_set(err, "%s: %s", what, message);
			return -1;
		}
		return 0;
	}
	if (arg[0] == '@') {
		errno = 0;
		*ns = strtoll(arg + 1, &stop, 10);
		if (!errno && stop != arg + 1 && *stop == ':' &&
		    stop[1] >= '0' && stop[1] <= '9')
			(void) strtoull(stop + 1, &stop, 10);
		if (errno || stop == arg + 1 || *stop) {
			tn_error_set(err, "%s: \"%s\" is not a position: use "
				"@NS or @NS:TIE", what, arg);
			return -1;
		}
		return 0;
	}
	if (parse_percent(arg, &fraction)) {
		*ns = index->first_event_ns + (int64_t) ((double)
			(index->last_event_ns - index->first_event_ns) *
			fraction);
		return 0;
	}
	if (tn_time_parse_extended(arg, session->view.gmt, &spec, &parse_err)) {
		if (g_str_has_suffix(parse_err.message, TN_TIME_EXTENDED_FORMS))
			tn_error_set(err, "%s: %s, NN%% of the time range, #K "
				"(event number K) or @NS", what,
				parse_err.message);
		else
			tn_error_set(err, "%s: %s", what, parse_err.message);
		return -1;
	}
	switch (spec.kind) {
	case TN_TIME_BEGIN:
		*ns = index->first_event_ns;
		return 0;
	case TN_TIME_END:
		*ns = index->last_event_ns;
		return 0;
	case TN_TIME_RELATIVE:
		if (current_time(ctx, arg, ns, err))
			return -1;
		*ns = add_saturated(*ns, spec.ns);
		return 0;
	case TN_TIME_ABSOLUTE:
		*ns = spec.ns;
		return 0;
	default:
		/* As goto: a time of day on the date of the trace's
		 * beginning. */
		if (!tn_trace_get_time_range(session->trace, &begin, &end))
			begin = index->first_event_ns;
		*ns = tn_time_resolve(&spec, begin, session->view.gmt);
		return 0;
	}
}

static int exec_goto(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const char *arg = args->argv[0];
	struct tn_time_spec spec;
	int64_t begin = 0, end = 0, target;
	double fraction;
	struct tn_error parse_err;

	if (arg[0] == '#')
		return goto_number(ctx, arg, err);
	if (arg[0] == '@')
		return goto_position(ctx, arg, err);
	if (parse_percent(arg, &fraction))
		return tn_cursor_seek_fraction(session->cursor, fraction, err);
	if (tn_time_parse_extended(arg, session->view.gmt, &spec, &parse_err)) {
		/* A text of no form: the other forms goto takes too. */
		if (g_str_has_suffix(parse_err.message, TN_TIME_EXTENDED_FORMS))
			tn_error_set(err, "goto: %s, NN%% of the time range or "
				"#K (event number K)", parse_err.message);
		else
			tn_error_set(err, "goto: %s", parse_err.message);
		return -1;
	}
	switch (spec.kind) {
	case TN_TIME_BEGIN:
		return tn_cursor_seek_first(session->cursor, err);
	case TN_TIME_END:
		return tn_cursor_seek_last(session->cursor, err);
	case TN_TIME_RELATIVE:
		if (current_time(ctx, arg, &target, err))
			return -1;
		target = add_saturated(target, spec.ns);
		break;
	case TN_TIME_ABSOLUTE:
		target = spec.ns;
		break;
	case TN_TIME_OF_DAY:
		/* A time of day is on the date of the trace's beginning:
		 * its packets' or, when they carry no times, its first
		 * event's (an absolute time needs neither: asking for the
		 * range may wait for its queries). */
		if (!tn_trace_get_time_range(session->trace, &begin, &end))
			tn_trace_get_first_event_time(session->trace, &begin);
		target = tn_time_resolve(&spec, begin, session->view.gmt);
		break;
	default:
		tn_error_set(err, "goto %s: not a time", arg);
		return -1;
	}
	if (tn_cursor_seek_time(session->cursor, target, err))
		return -1;
	say_if_outside(ctx, arg, target);
	return 0;
}

const struct tn_command tn_cmd_goto = {
	"goto", NULL, { { TN_ARG_TIME, "TIME|NN%|#K", false, NULL } },
	"go to the first event at or after TIME (HH:MM[:SS[.NS]], "
	"YYYY-MM-DD HH:MM..., SEC[.NS], ISO 8601, [TIME] as printed), "
	"+N/-N s|ms|us|ns from the current event, begin, end, NN% of the "
	"time range, event number K (needs the index), or the event at "
	"position @NS:TIE (ns from the clock's origin, events of that time "
	"before it)",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_NONE, exec_goto,
};
