/* batch-script.c - running a --batch script: from its text, or from a
 * file (--batch-file) read a line at a time and run as it comes, so that
 * a script of a million commands costs no more memory than one of ten;
 * with --keep-going, past the commands that fail. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "batch-script.h"
#include "commands.h"
#include "tty-text.h"

/* A script while it runs. */
struct script_run {
	struct tn_command_context *ctx;
	const struct batch_script *script;
	const char *name;	/* the file as messages name it */
	uint64_t line_no;	/* the file's line where the next command
				 * starts (1-based) */
	uint64_t failed;	/* commands that failed */
	GString *line;
};

static bool is_blank_line(const char *line)
{
	return line[strspn(line, " \t\r")] == '\0';
}

/* Run one command line; a failure is said on stderr, naming the command
 * (and in a file its line).  Returns -1 when the script stops there. */
static int run_line(struct script_run *run, const char *line)
{
	struct tn_error err;
	char *shown;

	/* reload asks; here, between commands, nothing else reads the
	 * trace. */
	if (tn_command_run(run->ctx, line, &err) == 0 &&
	    (!tn_session_wants_reload(run->ctx->session) ||
	     tn_session_reload(run->ctx->session, run->ctx->out, &err) == 0)) {
		/* Read as it comes, perhaps from a program that waits for
		 * the answer before it writes the next command. */
		if (run->name)
			fflush(stdout);
		return 0;
	}
	run->failed++;
	/* What the commands before it printed comes first. */
	fflush(stdout);
	shown = g_strstrip(g_strdup(line));
	/* Escaped on a terminal: the message may quote trace content. */
	if (run->name)
		tn_tty_text_error("%s:%" PRIu64 ": \"%s\": %s", run->name,
			run->line_no, shown, err.message);
	else
		tn_tty_text_error("--batch: \"%s\": %s", shown, err.message);
	g_free(shown);
	return run->script->keep_going ? 0 : -1;
}

static uint64_t count_newlines(const char *from, const char *to)
{
	uint64_t count = 0;

	while ((from = memchr(from, '\n', (size_t) (to - from))) != NULL) {
		count++;
		from++;
	}
	return count;
}

/* Run the command lines of text.  Unless last (more text may follow),
 * the line that ends text without its separator is left unrun, as the
 * rest of it may be still to come (a quote across lines): *rest gets
 * its offset.  Returns -1 when the script stops (a failure, or quit). */
static int run_text(struct script_run *run, const char *text, bool last,
		size_t *rest)
{
	size_t pos = 0;

	*rest = 0;
	while (pos != TN_SCRIPT_END) {
		size_t start = pos;

		if (run->ctx->session->quit)
			return -1;
		tn_command_script_next(text, &pos, run->line);
		if (pos == TN_SCRIPT_END && !last) {
			*rest = start;
			return 0;
		}
		if (!is_blank_line(run->line->str) &&
		    run_line(run, run->line->str))
			return -1;
		if (pos != TN_SCRIPT_END)
			run->line_no += count_newlines(text + start,
				text + pos);
	}
	return 0;
}

/* Run file a line at a time.  Returns -1 when the script stops early (a
 * failure, quit), 1 when the file cannot be read, else 0. */
static int run_file(struct script_run *run, FILE *file)
{
	GString *pending = g_string_new(NULL);
	char *buffer = NULL;
	size_t size = 0, rest;
	ssize_t got;
	int status = 0;

	while (status == 0 && (got = getline(&buffer, &size, file)) > 0) {
		/* A NUL would end the text early: the rest would be lost
		 * without a word. */
		if (memchr(buffer, '\0', (size_t) got)) {
			tn_tty_text_error("%s:%" PRIu64 ": a NUL byte: a "
				"script is text, one command a line", run->name,
				run->line_no +
				count_newlines(pending->str,
					pending->str + pending->len));
			status = 1;
			break;
		}
		g_string_append_len(pending, buffer, got);
		status = run_text(run, pending->str, false, &rest);
		g_string_erase(pending, 0, (gssize) rest);
	}
	if (status == 0 && ferror(file)) {
		tn_tty_text_error("%s: cannot read it: %s", run->name,
			strerror(errno));
		status = 1;
	}
	if (status == 0)
		status = run_text(run, pending->str, true, &rest);
	free(buffer);
	g_string_free(pending, TRUE);
	return status;
}

FILE *batch_script_open(const struct batch_script *script, bool *failed)
{
	FILE *file;

	*failed = false;
	if (script->text)
		return NULL;
	if (strcmp(script->file, "-") == 0)
		return stdin;
	file = fopen(script->file, "r");
	if (!file) {
		tn_tty_text_error("--batch-file: cannot open %s: %s",
			script->file, strerror(errno));
		*failed = true;
	}
	return file;
}

int batch_script_run(struct tn_command_context *ctx,
		const struct batch_script *script, FILE *file)
{
	struct script_run run = { ctx, script, NULL, 1, 0, g_string_new(NULL) };
	size_t rest;
	int status = 0;

	if (script->first)
		status = run_line(&run, script->first);
	if (status < 0) {
		if (file && file != stdin)
			fclose(file);
	} else if (file) {
		run.name = file == stdin ? "<stdin>" : script->file;
		status = run_file(&run, file);
		if (file != stdin)
			fclose(file);
	} else {
		status = run_text(&run, script->text, true, &rest);
	}
	if (script->keep_going && run.failed) {
		fflush(stdout);
		fprintf(stderr, "tracenav: %" PRIu64 " command%s failed\n",
			run.failed, run.failed == 1 ? "" : "s");
	}
	/* Quitting stops a script as it should. */
	if (status < 0 && !run.failed)
		status = 0;
	return status != 0 || run.failed ? 1 : 0;
}
