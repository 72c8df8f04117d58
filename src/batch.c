/* batch.c - --batch: run commands of the command table without a
 * terminal, results on stdout and messages on stderr. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "commands.h"
#include "dump.h"
#include "finish.h"
#include "tracenav/runtime.h"
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

int batch_run(struct tn_trace *trace, const struct batch_script *script,
		bool gmt, char *cache_dir, struct tn_seq_rules *rules,
		bool no_seq_index, const struct tn_symbols *symbols)
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
	bool unopened;
	FILE *file = batch_script_open(script, &unopened);
	int left_out;
	int status;

	if (unopened) {
		g_free(cache_dir);
		tn_seq_rules_destroy(rules);
		tn_trace_destroy(trace);
		return 2;
	}
	/* Before anything else is printed. */
	left_out = dump_report_problems(trace);

	/* The terminal's character set, for what measures text in columns
	 * (seqdiag --unicode); before any job starts a thread. */
	setlocale(LC_CTYPE, "");
	if (tn_session_init(&session, trace, gmt, &err)) {
		tn_tty_text_error("%s: %s", tn_trace_get_path(trace),
			err.message);
		g_free(cache_dir);
		tn_seq_rules_destroy(rules);
		tn_trace_destroy(trace);
		if (file && file != stdin)
			fclose(file);
		return 1;
	}
	session.owns_trace = true;
	session.indexing.cache_dir = cache_dir;
	session.seq.rules = rules;
	session.seq.no_index = no_seq_index;
	session.state.symbols = symbols;
	tn_tty_text_init(&batch.results, stdout);
	tn_tty_text_init(&batch.messages, stderr);
	tn_session_open_marks(&session, out);
	/* Without a terminal, a command that needs the index waits for it. */
	session.wait_for_index = true;
	status = batch_script_run(&ctx, script, file);
	/* The cache is written in the background: a failure is said. */
	tn_index_service_wait_save(&session.indexing, out);
	/* A trace reloaded meanwhile said what it lacks when it opened. */
	if (tn_trace_get_damage_count(session.trace) > 0 ||
	    tn_trace_get_left_out_count(session.trace) > 0)
		left_out = 1;
	if (!tn_runtime_frees_at_exit()) {
		tn_tty_text_fini(&batch.results);
		tn_tty_text_fini(&batch.messages);
		finish_process(status ? status : left_out);
	}
	tn_session_fini(&session);
	tn_tty_text_fini(&batch.results);
	tn_tty_text_fini(&batch.messages);
	return status ? status : left_out;
}
