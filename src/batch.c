/* batch.c - --batch: run commands of the command table without a
 * terminal, results on stdout and messages on stderr. */
#include <locale.h>
#include <stdio.h>

#include "batch.h"
#include "commands.h"
#include "tracenav/seq-rules.h"

static void batch_write(struct tn_output *out, enum tn_output_kind kind,
		const char *title, const char *text)
{
	(void) out;
	(void) title;
	fprintf(kind == TN_OUTPUT_MESSAGE ? stderr : stdout, "%s\n", text);
}

/* One line on stderr for each trace of the collection left out; 1 if
 * there are any (the exit status once the script ran), else 0. */
static int report_left_out(const struct tn_trace *trace)
{
	size_t count = tn_trace_get_left_out_count(trace);

	for (size_t i = 0; i < count; i++)
		fprintf(stderr, "tracenav: %s: left out: %s\n",
			tn_trace_get_left_out_dir(trace, i),
			tn_trace_get_left_out_reason(trace, i));
	return count > 0 ? 1 : 0;
}

int batch_run(struct tn_trace *trace, const struct batch_script *script,
		bool gmt, char *cache_dir, struct tn_seq_rules *rules,
		bool no_seq_index, const struct tn_symbols *symbols)
{
	struct tn_output out = { batch_write };
	struct tn_session session;
	struct tn_command_context ctx = { &session, &out,
		TN_BATCH_PAGE_ROWS, NULL, NULL };
	struct tn_error err;
	bool unopened;
	FILE *file = batch_script_open(script, &unopened);
	int left_out;
	int status;

	if (unopened) {
		g_free(cache_dir);
		tn_seq_rules_destroy(rules);
		return 2;
	}
	/* Before anything else is printed. */
	left_out = report_left_out(trace);

	/* The terminal's character set, for what measures text in columns
	 * (seqdiag --unicode); before any job starts a thread. */
	setlocale(LC_CTYPE, "");
	if (tn_session_init(&session, trace, gmt, &err)) {
		fprintf(stderr, "tracenav: %s: %s\n", tn_trace_get_path(trace),
			err.message);
		g_free(cache_dir);
		tn_seq_rules_destroy(rules);
		if (file && file != stdin)
			fclose(file);
		return 1;
	}
	session.cache_dir = cache_dir;
	session.seq_rules = rules;
	session.no_seq_index = no_seq_index;
	session.symbols = symbols;
	tn_session_open_marks(&session, &out);
	/* Without a terminal, a command that needs the index waits for it. */
	session.wait_for_index = true;
	status = batch_script_run(&ctx, script, file);
	tn_session_fini(&session);
	return status ? status : left_out;
}
