/* goto.c - the far jumps: to a time, a fraction of the time range, or
 * an event number. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
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

static int exec_goto(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const char *arg = args->argv[0];
	struct tn_time_spec spec;
	int64_t begin = 0, end = 0;
	double fraction;
	struct tn_error parse_err;

	if (arg[0] == '#')
		return goto_number(ctx, arg, err);
	if (parse_percent(arg, &fraction))
		return tn_cursor_seek_fraction(session->cursor, fraction, err);
	if (tn_time_parse(arg, session->gmt, &spec, &parse_err)) {
		tn_error_set(err, "goto: %s, or NN%% of the time range",
			parse_err.message);
		return -1;
	}
	/* A time of day is on the date of the trace's beginning: its
	 * packets' or, when they carry no times, its first event's. */
	if (!tn_trace_get_time_range(session->trace, &begin, &end))
		tn_trace_get_first_event_time(session->trace, &begin);
	return tn_cursor_seek_time(session->cursor,
		tn_time_resolve(&spec, begin, session->gmt), err);
}

const struct tn_command tn_cmd_goto = {
	"goto", NULL, { { TN_ARG_TIME, "TIME|NN%|#K", false, NULL } },
	"go to the first event at or after TIME (HH:MM[:SS[.NS]], "
	"YYYY-MM-DD HH:MM..., SEC[.NS]), to NN% of the time range, or to "
	"event number K (needs the index)",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_NONE, exec_goto,
};
