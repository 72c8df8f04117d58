/* filter.c - the filters: filter-in, filter-out, filter, filters,
 * filter-toggle, filter-remove, clear-filters and count.  A change is
 * made on a copy of the stack and applied whole, or not at all. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "cmd.h"

/* Apply stack (taken) to the session, saying what the list shows. */
static int apply(struct tn_command_context *ctx, struct tn_filter_stack *stack,
		struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	size_t enabled;

	if (tn_session_set_filters(session, stack, ctx->out, err))
		return -1;
	enabled = tn_filter_stack_get_enabled_count(session->filters.stack);
	if (tn_cursor_is_empty(session->cursor) && enabled)
		tn_output_message(ctx->out, "no event passes the filters "
			"(:filters lists them, :clear-filters removes them)");
	return 0;
}

static int push(struct tn_command_context *ctx, enum tn_filter_kind kind,
		const char *text, struct tn_error *err)
{
	struct tn_filter_stack *stack =
		tn_filter_stack_copy(ctx->session->filters.stack);

	if (tn_filter_stack_push(stack, kind, text, err)) {
		tn_filter_stack_destroy(stack);
		return -1;
	}
	return apply(ctx, stack, err);
}

static int exec_filter_in(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	return push(ctx, TN_FILTER_IN, args->argv[0], err);
}

static int exec_filter_out(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	return push(ctx, TN_FILTER_OUT, args->argv[0], err);
}

static int exec_filter(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	return push(ctx, TN_FILTER_EXPR, args->argv[0], err);
}

/* Filter number text (1-based, as filters lists them): its index. */
static int filter_number(const struct tn_filter_service *filters,
		const char *what, const char *text, size_t *out,
		struct tn_error *err)
{
	size_t count = filters->stack ?
		tn_filter_stack_get_count(filters->stack) : 0;
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(text, &end, 10);
	if (count == 0) {
		tn_error_set(err, "%s: there is no filter (filter-in, "
			"filter-out and filter add one)", what);
		return -1;
	}
	if (errno || end == text || *end || text[0] == '-' || n == 0 ||
	    n > count) {
		tn_error_set(err, "%s: \"%s\" is not a filter's number: "
			"give 1 to %zu, as :filters lists them", what, text,
			count);
		return -1;
	}
	*out = (size_t) n - 1;
	return 0;
}

static int exec_toggle(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_filter_stack *stack;
	size_t i;

	if (filter_number(&ctx->session->filters, "filter-toggle",
			args->argv[0], &i, err))
		return -1;
	stack = tn_filter_stack_copy(ctx->session->filters.stack);
	tn_filter_stack_set_enabled(stack, i,
		!tn_filter_stack_is_enabled(stack, i));
	if (apply(ctx, stack, err))
		return -1;
	tn_output_message(ctx->out, "filter %zu %s: %s %s", i + 1,
		tn_filter_stack_is_enabled(ctx->session->filters.stack, i) ?
		"enabled" : "disabled", tn_filter_kind_name(
		tn_filter_stack_get_kind(ctx->session->filters.stack, i)),
		tn_filter_stack_get_text(ctx->session->filters.stack, i));
	return 0;
}

static int exec_remove(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_filter_stack *stack;
	size_t i;

	if (filter_number(&ctx->session->filters, "filter-remove",
			args->argv[0], &i, err))
		return -1;
	stack = tn_filter_stack_copy(ctx->session->filters.stack);
	tn_filter_stack_remove(stack, i);
	return apply(ctx, stack, err);
}

static int exec_clear(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	(void) args;
	if (!ctx->session->filters.stack ||
	    tn_filter_stack_get_count(ctx->session->filters.stack) == 0)
		return 0;
	return apply(ctx, tn_filter_stack_create(), err);
}

/* The count's line: "N events pass the filters" (or how far its count
 * is). */
static void append_count(struct tn_filter_service *filters, GString *line)
{
	struct tn_job_progress progress;

	if (filters->counts)
		g_string_append_printf(line, "%" PRIu64 " events pass the "
			"filters", filters->counts->before[
				filters->counts->interval_count]);
	else if (tn_filter_service_get_progress(filters, &progress))
		g_string_append_printf(line, "counting the matches: %d%%",
			(int) (progress.fraction * 100));
	else if (filters->set)
		g_string_append(line, "the matches are counted once the "
			"index is there (:count counts them now)");
}

static int exec_filters(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_filter_service *filters = &ctx->session->filters;
	size_t count = filters->stack ?
		tn_filter_stack_get_count(filters->stack) : 0;
	GString *line = g_string_new(NULL);

	(void) args;
	(void) err;
	if (count == 0) {
		tn_output_text(ctx->out, "filters", "no filter: every event "
			"shows (filter-in REGEX, filter-out REGEX, filter "
			"EXPR, or & add one)");
		g_string_free(line, TRUE);
		return 0;
	}
	for (size_t i = 0; i < count; i++) {
		g_string_printf(line, "%zu [%s] %-10s %s", i + 1,
			tn_filter_stack_is_enabled(filters->stack, i) ?
			"x" : " ", tn_filter_kind_name(
			tn_filter_stack_get_kind(filters->stack, i)),
			tn_filter_stack_get_text(filters->stack, i));
		tn_output_line(ctx->out, "filters", line->str);
	}
	g_string_truncate(line, 0);
	append_count(filters, line);
	if (line->len)
		tn_output_text(ctx->out, "filters", line->str);
	tn_output_text(ctx->out, "filters", "(filter-toggle N enables or "
		"disables filter N, filter-remove N removes it)");
	g_string_free(line, TRUE);
	return 0;
}

static int exec_count(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	char *line;
	uint64_t count;

	(void) args;
	if (tn_session_count_matches(session, ctx->out, &count, err))
		return -1;
	line = session->filters.set ?
		g_strdup_printf("%" PRIu64 " events pass the filters", count) :
		g_strdup_printf("%" PRIu64 " events", count);
	tn_output_text(ctx->out, "count", line);
	g_free(line);
	return 0;
}

#define PATTERN_ARG(name) { { TN_ARG_PATTERN, name, false, NULL } }
#define NUMBER_ARG { { TN_ARG_TEXT, "N", false, NULL } }
#define NO_ARG { { TN_ARG_NONE, NULL, false, NULL } }

const struct tn_command tn_cmd_filter_in = {
	"filter-in", NULL, PATTERN_ARG("REGEX"),
	"show only the events whose line (as --dump prints it, without the "
	"delta) matches REGEX (&)",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_NONE, exec_filter_in,
};

const struct tn_command tn_cmd_filter_out = {
	"filter-out", NULL, PATTERN_ARG("REGEX"),
	"hide the events whose line matches REGEX",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_NONE, exec_filter_out,
};

const struct tn_command tn_cmd_filter = {
	"filter", NULL, PATTERN_ARG("EXPR"),
	"show only the events for which EXPR holds (name == \"x\", "
	"prev_tid > 42 && cpu == 2, $ctx.vtid =~ \"^1\"...)",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_NONE, exec_filter,
};

const struct tn_command tn_cmd_filters = {
	"filters", NULL, NO_ARG,
	"list the filters: number, enabled [x] or not, kind, text",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_filters,
};

const struct tn_command tn_cmd_filter_toggle = {
	"filter-toggle", NULL, NUMBER_ARG,
	"disable filter N (as filters lists it), or enable it again",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_NONE, exec_toggle,
};

const struct tn_command tn_cmd_filter_remove = {
	"filter-remove", NULL, NUMBER_ARG,
	"remove filter N (as filters lists it)",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_NONE, exec_remove,
};

const struct tn_command tn_cmd_clear_filters = {
	"clear-filters", NULL, NO_ARG,
	"remove every filter: every event shows again",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_NONE, exec_clear,
};

const struct tn_command tn_cmd_count_events = {
	"count", NULL, NO_ARG,
	"print how many events pass the filters (all of them without "
	"filters); reads the whole trace unless the index knows",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_count,
};
