/* seqdiag.c - the sequence diagram as text: seqdiag draws the messages
 * around the current event, seqdiag-find goes to the next message whose
 * signal or lifelines match a regex. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "tracenav/seq-loader.h"
#include "tracenav/seq-render.h"
#include "tracenav/seq-window.h"
#include "tracenav/text.h"

#define DEFAULT_WIDTH 120
#define MAX_WIDTH 10000

/* What the trace lacks when no loader applies to it. */
#define NO_LOADER "no event of this trace makes a message (events named " \
	"*send* or *receive* with sender, receiver and signal fields do, " \
	"kernel wake-ups do, and so do the events of --seq-rules)"

/* A whole number from min to max in word, for what (the argument's
 * name). */
static int parse_number(const char *word, const char *what, long min,
		long max, long *out, struct tn_error *err)
{
	char *end;
	long value;

	errno = 0;
	value = strtol(word, &end, 10);
	if (errno || end == word || *end || value < min || value > max) {
		tn_error_set(err, "seqdiag: %s must be a number from %ld to "
			"%ld, not \"%s\"", what, min, max, word);
		return -1;
	}
	*out = value;
	return 0;
}

static int exec_seqdiag(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	struct tn_seq_render_options options = {
		.width = DEFAULT_WIDTH,
		.ascii = true,
		.gmt = session->view.gmt,
	};
	const char *numbers = NULL;
	char *copy = NULL;
	char **words = NULL;
	long width = DEFAULT_WIDTH, first = 1;
	const struct tn_row *row;
	struct tn_seq_drawing *drawing;
	struct tn_seq_page page;
	struct tn_seq_source source;
	int status = -1;

	for (int i = 0; i < args->argc; i++) {
		if (strcmp(args->argv[i], "--unicode") == 0)
			options.ascii = false;
		else
			numbers = args->argv[i];
	}
	if (numbers) {
		char **kept;

		copy = g_strstrip(g_strdup(numbers));
		words = g_strsplit_set(copy, " \t", -1);
		/* g_strsplit_set() keeps empty words between blanks. */
		kept = words;
		for (char **w = words; *w; w++)
			if (**w)
				*kept++ = *w;
			else
				g_free(*w);
		*kept = NULL;
		if (g_strv_length(words) > 2) {
			tn_error_set(err, "usage: seqdiag [--unicode] "
				"[WIDTH [FIRST]]");
			goto out;
		}
		if (words[0] && parse_number(words[0], "WIDTH", 1, MAX_WIDTH,
				&width, err))
			goto out;
		if (words[0] && words[1] && parse_number(words[1], "FIRST", 1,
				LONG_MAX, &first, err))
			goto out;
	}
	options.width = (int) width;
	options.first_lifeline = (size_t) first - 1;
	options.utf8 = !options.ascii && tn_text_locale_is_utf8();
	row = tn_cmd_current_row(ctx, "seqdiag", err);
	if (!row)
		goto out;
	source = tn_session_get_seq_source(session);
	if (tn_seq_page_load_from(&source, &row->pos,
			&tn_seq_default_limits, session->seq.hide, &page, err))
		goto out;
	if (!page.loaders[0]) {
		tn_error_set(err, "seqdiag: %s", NO_LOADER);
		tn_seq_page_fini(&page);
		goto out;
	}
	if (tn_seq_model_get_message_count(page.model) == 0) {
		tn_output_message(ctx->out, "seqdiag: no message around the "
			"current event");
		tn_seq_page_fini(&page);
		status = 0;
		goto out;
	}
	options.has_selected = page.has_selected;
	options.selected = page.selected;
	drawing = tn_seq_render(page.model, &options);
	for (size_t i = 0; i < drawing->line_count; i++)
		tn_output_line(ctx->out, "seqdiag", drawing->lines[i].text);
	tn_seq_drawing_destroy(drawing);
	tn_seq_page_fini(&page);
	status = 0;
out:
	g_strfreev(words);
	g_free(copy);
	return status;
}

static int exec_seqdiag_find(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	struct tn_seq_find_request request = {
		.trace = session->trace,
		.source = tn_session_get_seq_source(session),
		.wrap = true,
		.backward = args->argc == 2,	/* --backward */
		.hide = session->seq.hide,
	};
	const char *pattern = args->argv[args->argc - 1];
	struct tn_seq_find_result result;
	struct tn_seq_loaders *loaders;
	const struct tn_row *row;
	struct tn_regex *regex;
	bool none;
	int status = -1;

	loaders = tn_seq_loaders_create_with_rules(session->trace,
		session->seq.rules);
	none = tn_seq_loaders_get_count(loaders) == 0;
	tn_seq_loaders_destroy(loaders);
	if (none) {
		tn_error_set(err, "seqdiag-find: %s", NO_LOADER);
		return -1;
	}
	if (tn_regex_compile(pattern, &regex, err))
		return -1;
	request.regex = regex;
	row = tn_cmd_current_row(ctx, "seqdiag-find", err);
	if (!row)
		goto out;
	request.from = row->pos;
	if (tn_seq_find(&request, &result, err))
		goto out;
	if (!result.found) {
		tn_error_set(err, "no message matches: %s", pattern);
		goto out;
	}
	if (tn_cursor_seek_position(session->cursor, &result.pos, err))
		goto out;
	if (result.wrapped)
		tn_output_message(ctx->out, request.backward ?
			"seqdiag-find hit TOP, continuing at BOTTOM" :
			"seqdiag-find hit BOTTOM, continuing at TOP");
	status = 0;
out:
	tn_regex_destroy(regex);
	return status;
}

static const char *const unicode_choices[] = { "--unicode", NULL };
static const char *const backward_choices[] = { "--backward", NULL };

const struct tn_command tn_cmd_seqdiag = {
	"seqdiag", NULL, {
		{ TN_ARG_WORD, "--unicode", true, unicode_choices },
		{ TN_ARG_TEXT, "WIDTH [FIRST]", true, NULL },
	},
	"draw the messages around the current event as a sequence diagram "
	"WIDTH columns wide (120), from the FIRST lifeline (1), in plain "
	"ASCII (--unicode: with line-drawing characters), without what "
	"seq-hide hides",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_seqdiag,
};

const struct tn_command tn_cmd_seqdiag_find = {
	"seqdiag-find", NULL, {
		{ TN_ARG_WORD, "--backward", true, backward_choices },
		{ TN_ARG_PATTERN, "REGEX", false, NULL },
	},
	"go to the next message (its send, or its receive when it has no "
	"send) whose signal, sender or receiver matches REGEX (PCRE2, smart "
	"case), wrapping around at the end (--backward: the previous one); "
	"hidden messages are skipped",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_NONE, exec_seqdiag_find,
};
