/* search.c - the whole-trace search: search REGEX, next, prev. */
#include "cmd.h"
#include "tracenav/search.h"

/* Go count times to the next (or previous) event whose line matches the
 * session's search; the first time, the current event itself counts
 * when inclusive. */
static int find(struct tn_command_context *ctx,
		enum tn_search_direction direction, bool inclusive,
		int64_t count, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const char *pattern = tn_regex_get_pattern(session->view.search_regex);
	bool wrapped = false;

	for (int64_t i = 0; i < count; i++) {
		const struct tn_row *current = tn_cursor_row(session->cursor,
			0, err);
		struct tn_search_request request = {
			.trace = session->trace,
			.regex = session->view.search_regex,
			.filters = session->filters.set,
			.index = session->indexing.index,
			.inclusive = inclusive && i == 0,
			.direction = direction,
			.wrap = true,
			.gmt = session->view.gmt,
		};
		struct tn_search_result result;

		if (!current && err->message[0])
			return -1;
		if (!current) {
			tn_error_set(err, "Pattern not found: %s (%s)", pattern,
				session->filters.set ? "no event passes the "
				"filters" : "the trace has no events");
			return -1;
		}
		request.from = current->pos;
		if (tn_search_run(&request, &result, err))
			return -1;
		if (!result.found) {
			tn_error_set(err, "Pattern not found: %s", pattern);
			return -1;
		}
		wrapped = wrapped || result.wrapped;
		if (tn_cursor_seek_position(session->cursor, &result.pos, err))
			return -1;
	}
	if (wrapped)
		tn_output_message(ctx->out, direction == TN_SEARCH_FORWARD ?
			"search hit BOTTOM, continuing at TOP" :
			"search hit TOP, continuing at BOTTOM");
	return 0;
}

static int exec_search(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	struct tn_regex *regex;

	if (tn_regex_compile(args->argv[0], &regex, err))
		return -1;
	/* Kept even when nothing matches: next and the highlights use it. */
	tn_regex_destroy(session->view.search_regex);
	session->view.search_regex = regex;
	return find(ctx, TN_SEARCH_FORWARD, true, 1, err);
}

static int repeat(struct tn_command_context *ctx,
		const struct tn_command_args *args,
		enum tn_search_direction direction, struct tn_error *err)
{
	if (!ctx->session->view.search_regex) {
		tn_error_set(err, "no previous search: /REGEX or search REGEX "
			"starts one");
		return -1;
	}
	return find(ctx, direction, false, tn_cmd_count(args), err);
}

static int exec_next(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	return repeat(ctx, args, TN_SEARCH_FORWARD, err);
}

static int exec_prev(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	return repeat(ctx, args, TN_SEARCH_BACKWARD, err);
}

const struct tn_command tn_cmd_search = {
	"search", NULL, { { TN_ARG_PATTERN, "REGEX", false, NULL } },
	"go to the first event from the current one whose line (as --dump "
	"prints it) matches REGEX (PCRE2; ignores case unless REGEX has an "
	"upper-case letter), wrapping around at the end",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_NONE, exec_search,
};

const struct tn_command tn_cmd_next = {
	"next", NULL, { { TN_ARG_COUNT, "N", true, NULL } },
	"go to the next match of the last search (the N-th)",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_REPEAT, exec_next,
};

const struct tn_command tn_cmd_prev = {
	"prev", NULL, { { TN_ARG_COUNT, "N", true, NULL } },
	"go to the previous match of the last search (the N-th)",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_REPEAT, exec_prev,
};
