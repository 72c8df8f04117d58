/* move.c - moving the cursor: by events, by pages, to either end. */
#include "cmd.h"

int64_t tn_cmd_count(const struct tn_command_args *args)
{
	return args->has_count ? args->count : 1;
}

static int move_by(struct tn_command_context *ctx, int64_t delta,
		struct tn_error *err)
{
	return tn_cursor_move(ctx->session->cursor, delta, NULL, err);
}

static int64_t pages(const struct tn_command_context *ctx,
		const struct tn_command_args *args)
{
	int64_t page = ctx->page_rows > 0 ? ctx->page_rows : 1;
	int64_t count = tn_cmd_count(args);

	return count > INT64_MAX / page ? INT64_MAX : count * page;
}

static int exec_down(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	return move_by(ctx, tn_cmd_count(args), err);
}

static int exec_up(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	return move_by(ctx, -tn_cmd_count(args), err);
}

static int exec_pgdn(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	return move_by(ctx, pages(ctx, args), err);
}

static int exec_pgup(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	return move_by(ctx, -pages(ctx, args), err);
}

static int exec_top(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	if (args->has_count)
		return tn_cmd_goto_event_number(ctx, "top N", args->count,
			err);
	return tn_cursor_seek_first(ctx->session->cursor, err);
}

static int exec_bottom(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	if (args->has_count)
		return tn_cmd_goto_event_number(ctx, "bottom N", args->count,
			err);
	return tn_cursor_seek_last(ctx->session->cursor, err);
}

#define COUNT_ARG(name) { { TN_ARG_COUNT, name, true, NULL } }

const struct tn_command tn_cmd_down = {
	"down", "j", COUNT_ARG("N"), "move down N events (1)",
	TN_CMD_MOVES_LINES | TN_CMD_READS, TN_COUNT_REPEAT, exec_down,
};

const struct tn_command tn_cmd_up = {
	"up", "k", COUNT_ARG("N"), "move up N events (1)",
	TN_CMD_MOVES_LINES | TN_CMD_READS, TN_COUNT_REPEAT, exec_up,
};

const struct tn_command tn_cmd_pgdn = {
	"pgdn", NULL, COUNT_ARG("N"), "move down N pages (1)",
	TN_CMD_MOVES_PAGES | TN_CMD_READS, TN_COUNT_REPEAT, exec_pgdn,
};

const struct tn_command tn_cmd_pgup = {
	"pgup", NULL, COUNT_ARG("N"), "move up N pages (1)",
	TN_CMD_MOVES_PAGES | TN_CMD_READS, TN_COUNT_REPEAT, exec_pgup,
};

const struct tn_command tn_cmd_top = {
	"top", NULL, COUNT_ARG("N"), "go to the first event (with N: to "
	"event number N)",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_EVENT_NUMBER, exec_top,
};

const struct tn_command tn_cmd_bottom = {
	"bottom", NULL, COUNT_ARG("N"), "go to the last event (with N: to "
	"event number N)",
	TN_CMD_JUMPS | TN_CMD_READS | TN_CMD_GOES_TO_END,
	TN_COUNT_EVENT_NUMBER, exec_bottom,
};
