/* batch.c - --batch: run commands of the command table without a
 * terminal, results on stdout and messages on stderr. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "commands.h"
#include "dump.h"
#include "tracenav/seq-rules.h"
#include "tty-text.h"

/* Results on stdout, messages on stderr: escaped where they go to a
 * terminal (tty-text.h). */
struct batch_output {
	struct tn_output output;	/* first: what commands write to */
	struct tn_tty_text results, messages;
};

static void batch_write(struct tn_output *out, enum tn_output_kind kind,
		const char *title, const char *text)
{
	struct batch_output *batch = (struct batch_output *) out;

	(void) title;
	tn_tty_text_line(kind == TN_OUTPUT_MESSAGE ? &batch->messages :
		&batch->results, text, -1);
}

/* --batch -: the lines of standard input, each run as it comes, its
 * output flushed, so that a program can drive tracenav through a pipe
 * (and, say, reload once it wrote more of the trace).  Stops at the end
 * of the input, after quit or a command that fails. */
static int run_stdin(struct tn_command_context *ctx, struct tn_error *err)
{
	GString *line = g_string_new(NULL);
	int status = 0, c = 0;

	while (status == 0 && c != EOF && !ctx->session->quit) {
		g_string_truncate(line, 0);
		while ((c = getchar()) != EOF && c != '\n')
			g_string_append_c(line, (char) c);
		status = tn_command_run_script(ctx, line->str, err);
		fflush(stdout);
	}
	g_string_free(line, TRUE);
	return status;
}

int batch_run(struct tn_trace *trace, const char *script, bool gmt,
		char *cache_dir, struct tn_seq_rules *rules, bool no_seq_index,
		const struct tn_symbols *symbols)
{
	struct batch_output batch = { .output = { batch_write } };
	struct tn_output *out = &batch.output;
	struct tn_session session;
	struct tn_command_context ctx = {
		.session = &session,
		.out = out,
		.page_rows = TN_BATCH_PAGE_ROWS,
	};
	struct tn_error err;
	/* Before anything else is printed. */
	int left_out = dump_report_problems(trace);
	int status = 0;

	/* The terminal's character set, for what measures text in columns
	 * (seqdiag --unicode); before any job starts a thread. */
	setlocale(LC_CTYPE, "");
	if (tn_session_init(&session, trace, gmt, &err)) {
		tn_tty_text_error("%s: %s", tn_trace_get_path(trace),
			err.message);
		g_free(cache_dir);
		tn_seq_rules_destroy(rules);
		tn_trace_destroy(trace);
		return 1;
	}
	session.owns_trace = true;
	session.cache_dir = cache_dir;
	session.seq_rules = rules;
	session.no_seq_index = no_seq_index;
	session.symbols = symbols;
	tn_tty_text_init(&batch.results, stdout);
	tn_tty_text_init(&batch.messages, stderr);
	tn_session_open_marks(&session, out);
	/* Without a terminal, a command that needs the index waits for it. */
	session.wait_for_index = true;
	if (strcmp(script, "-") == 0 ? run_stdin(&ctx, &err) :
	    tn_command_run_script(&ctx, script, &err)) {
		fflush(stdout);
		tn_tty_text_error("--batch: %s", err.message);
		status = 1;
	}
	/* A trace reloaded meanwhile said what it lacks when it opened. */
	if (tn_trace_get_damage_count(session.trace) > 0 ||
	    tn_trace_get_left_out_count(session.trace) > 0)
		left_out = 1;
	tn_session_fini(&session);
	tn_tty_text_fini(&batch.results);
	tn_tty_text_fini(&batch.messages);
	return status ? status : left_out;
}
