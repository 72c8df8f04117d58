/* sync.c - the clock correction between the hosts of a collection:
 * computed from the network packets they exchanged, printed, saved to
 * a file and loaded from one (see tracenav/sync.h). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cmd.h"
#include "tracenav/file.h"
#include "tracenav/sync.h"

static const char *const sync_choices[] = { "on", "off", "save", "load",
	NULL };

/* The lines' columns aligned, under a header: for the screen, where a
 * tab would show as \t. */
static void print_aligned(struct tn_command_context *ctx, char **lines)
{
	enum { COLUMNS = 6 };
	size_t widths[COLUMNS] = { 0 };
	GPtrArray *rows = g_ptr_array_new_with_free_func(
		(GDestroyNotify) g_strfreev);
	GString *line = g_string_new(NULL);

	g_ptr_array_add(rows, g_strsplit("HOST\tSLOPE\tOFFSET_NS\tQUALITY\t"
		"ACCURACY\tMATCHES", "\t", -1));
	for (char **l = lines; *l; l++)
		if (**l)
			g_ptr_array_add(rows, g_strsplit(*l, "\t", -1));
	for (guint r = 0; r < rows->len; r++) {
		char **cols = g_ptr_array_index(rows, r);

		for (size_t c = 0; c < COLUMNS && cols[c]; c++)
			widths[c] = MAX(widths[c], strlen(cols[c]));
	}
	for (guint r = 0; r < rows->len; r++) {
		char **cols = g_ptr_array_index(rows, r);

		g_string_truncate(line, 0);
		for (size_t c = 0; c < COLUMNS && cols[c]; c++)
			g_string_append_printf(line, c ? "  %*s" : "%-*s",
				(int) widths[c], cols[c]);
		tn_output_text(ctx->out, "sync", line->str);
	}
	g_string_free(line, TRUE);
	g_ptr_array_free(rows, TRUE);
}

/* One line per host: tab-separated (as saved), or aligned on the
 * screen. */
static void print_sync(struct tn_command_context *ctx,
		const struct tn_sync *sync)
{
	GString *text = g_string_new(NULL);
	char **lines;

	tn_sync_format(sync, text);
	lines = g_strsplit(text->str, "\n", -1);
	if (ctx->has_screen)
		print_aligned(ctx, lines);
	else
		for (char **line = lines; *line; line++)
			if (**line)
				tn_output_text(ctx->out, "sync", *line);
	g_strfreev(lines);
	g_string_free(text, TRUE);
}

/* Say what the matching counted and which hosts keep their clocks. */
static void report(struct tn_command_context *ctx, const struct tn_sync *sync)
{
	GString *kept = g_string_new(NULL);

	for (size_t i = 0; i < sync->host_count; i++)
		if (sync->hosts[i].quality == TN_SYNC_ABSENT ||
		    sync->hosts[i].quality == TN_SYNC_FAILED)
			g_string_append_printf(kept, "%s%s (%s)",
				kept->len ? ", " : "", sync->hosts[i].name,
				tn_sync_quality_name(sync->hosts[i].quality));
	tn_output_message(ctx->out, "sync: %" PRIu64 " packets matched, %"
		PRIu64 " unmatched, %" PRIu64 " duplicate keys%s%s",
		sync->matched, sync->unmatched, sync->duplicates,
		kept->len ? "; these hosts keep their clocks: " : "",
		kept->str);
	g_string_free(kept, TRUE);
}

static int compute(struct tn_command_context *ctx, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	struct tn_sync *sync;

	/* Matched before: by an earlier run, or the preparse. */
	if (!tn_session_load_cached_sync(session, ctx->out)) {
		if (tn_sync_compute(session->trace, 0, &sync, err))
			return -1;
		tn_session_keep_sync(session, sync, ctx->out);
	}
	report(ctx, session->sync);
	return 0;
}

static int save(struct tn_command_context *ctx, const char *path,
		struct tn_error *err)
{
	GString *text = g_string_new("# HOST\tSLOPE\tOFFSET_NS\tQUALITY\t"
		"ACCURACY\tMATCHES: T_reference = SLOPE * T_host + OFFSET_NS "
		"(tracenav sync)\n");
	int status;

	tn_sync_format(ctx->session->sync, text);
	status = tn_file_replace(path, text->str, text->len);
	g_string_free(text, TRUE);
	if (status) {
		tn_error_set(err, "sync save: cannot write %s: %s", path,
			strerror(status));
		return -1;
	}
	tn_output_message(ctx->out, "sync: the correction written to %s",
		path);
	return 0;
}

/* sync on / sync off: the front end switches the clocks once the
 * command is done (tn_session_switch_sync()). */
static int exec_switch(struct tn_command_context *ctx, bool on,
		struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	bool is_on = tn_trace_get_sync(session->trace) != NULL;

	if (on == is_on) {
		tn_output_message(ctx->out, "sync is %s already", on ? "on" :
			"off");
		return 0;
	}
	if (on && !session->sync && compute(ctx, err))
		return -1;
	tn_session_ask_sync(session, on);
	return 0;
}

static int exec_sync(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	struct tn_sync *sync;

	if (args->argc == 0) {
		if (!session->sync && compute(ctx, err))
			return -1;
		print_sync(ctx, session->sync);
		return 0;
	}
	if (strcmp(args->argv[0], "on") == 0 ||
	    strcmp(args->argv[0], "off") == 0) {
		if (args->argc > 1) {
			tn_error_set(err, "sync %s takes no FILE",
				args->argv[0]);
			return -1;
		}
		return exec_switch(ctx, args->argv[0][1] == 'n', err);
	}
	if (args->argc < 2) {
		tn_error_set(err, "sync %s: give a FILE", args->argv[0]);
		return -1;
	}
	if (strcmp(args->argv[0], "save") == 0) {
		if (!session->sync && compute(ctx, err))
			return -1;
		return save(ctx, args->argv[1], err);
	}
	if (tn_sync_load_file(args->argv[1], &sync, err))
		return -1;
	tn_sync_destroy(session->sync);
	session->sync = sync;
	print_sync(ctx, sync);
	/* Read on the correction loaded, when the times are corrected. */
	if (tn_trace_get_sync(session->trace))
		tn_session_ask_sync(session, true);
	return 0;
}

const struct tn_command tn_cmd_sync = {
	"sync", NULL, {
		{ TN_ARG_WORD, "on|off|save|load", true, sync_choices },
		{ TN_ARG_FILE, "FILE", true, NULL },
	},
	"the clock correction between the hosts, from the TCP packets they "
	"exchanged: one line per host (HOST SLOPE OFFSET_NS QUALITY "
	"ACCURACY MATCHES); on corrects every time shown, off shows the "
	"recorded ones; save FILE writes it, load FILE reads it",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_sync,
};
