/* seqhide.c - the sequence diagram's hide patterns: seq-hide adds one
 * (the lifelines whose name matches it go, with their messages, and
 * the messages whose signal matches it), seq-unhide removes one or all,
 * seq-hidden lists them.  The session keeps them (seq-hide.h); seqdiag,
 * seqdiag-find and the diagram pane leave out what they hide. */
#include "cmd.h"
#include "tracenav/seq-hide.h"

static const char *plural(size_t count)
{
	return count == 1 ? "" : "s";
}

/* The session's patterns become set (taken). */
static void replace(struct tn_seq_service *seq, struct tn_seq_hide *set)
{
	tn_seq_hide_unref(seq->hide);
	seq->hide = set;
}

static int exec_seq_hide(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_seq_service *seq = &ctx->session->seq;
	const char *pattern = args->argv[0];
	struct tn_seq_hide *set;
	size_t count;

	switch (tn_seq_hide_add(seq->hide, pattern, &set, err)) {
	case -1:
		return -1;
	case 0:
		tn_output_message(ctx->out, "%s is hidden already", pattern);
		return 0;
	default:
		break;
	}
	replace(seq, set);
	count = tn_seq_hide_get_count(set);
	tn_output_message(ctx->out, "the diagram hides %s (%zu hide "
		"pattern%s: seq-hidden lists them, seq-unhide removes them)",
		pattern, count, plural(count));
	return 0;
}

static int exec_seq_unhide(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_seq_service *seq = &ctx->session->seq;
	const char *pattern = args->argc ? args->argv[0] : NULL;
	struct tn_seq_hide *set;
	size_t removed, left;

	if (!seq->hide) {
		tn_output_message(ctx->out, "no hide patterns (seq-hide REGEX "
			"adds one)");
		return 0;
	}
	removed = tn_seq_hide_remove(seq->hide, pattern, &set);
	if (removed == 0) {
		tn_seq_hide_unref(set);
		tn_error_set(err, "seq-unhide: no hide pattern is %s "
			"(seq-hidden lists them)", pattern);
		return -1;
	}
	replace(seq, set);
	left = tn_seq_hide_get_count(set);
	if (pattern)
		tn_output_message(ctx->out, "the diagram shows %s again "
			"(%zu hide pattern%s left)", pattern, left,
			plural(left));
	else
		tn_output_message(ctx->out, "%zu hide pattern%s removed: the "
			"diagram hides nothing", removed, plural(removed));
	return 0;
}

static int exec_seq_hidden(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	const struct tn_seq_hide *hide = ctx->session->seq.hide;

	(void) args;
	(void) err;
	if (tn_seq_hide_get_count(hide) == 0) {
		tn_output_message(ctx->out, "no hide patterns (seq-hide REGEX "
			"adds one)");
		return 0;
	}
	for (size_t i = 0; i < tn_seq_hide_get_count(hide); i++)
		tn_output_line(ctx->out, "seq-hidden",
			tn_seq_hide_get_pattern(hide, i));
	return 0;
}

/* TN_CMD_READS: they change the session, which a job may be using. */
const struct tn_command tn_cmd_seq_hide = {
	"seq-hide", NULL, { { TN_ARG_PATTERN, "REGEX", false, NULL } },
	"hide from the sequence diagram the lifelines whose name matches "
	"REGEX (PCRE2, smart case) with their messages, and the messages "
	"whose signal matches it",
	TN_CMD_READS, TN_COUNT_NONE, exec_seq_hide,
};

const struct tn_command tn_cmd_seq_unhide = {
	"seq-unhide", NULL, { { TN_ARG_PATTERN, "REGEX", true, NULL } },
	"remove the hide pattern REGEX (as seq-hidden lists it), or every "
	"one",
	TN_CMD_READS, TN_COUNT_NONE, exec_seq_unhide,
};

const struct tn_command tn_cmd_seq_hidden = {
	"seq-hidden", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"list the sequence diagram's hide patterns",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_seq_hidden,
};
