/* test-commands.c - the command table and its parser: quoting,
 * rest-of-line arguments, counts, errors with their column, scripts, the
 * completer, the help renderer (and the man page's COMMANDS section held
 * to it), and commands queued and run as a background job. */
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen.h"
#include "tap.h"
#include "src/cmdq.h"
#include "src/commands.h"

/* Parse line; the error message or "" in err_out. */
static int parse(const char *line, struct tn_parsed_command *parsed,
		char *err_out, size_t size)
{
	struct tn_error err;
	int status = tn_command_parse(line, parsed, &err);

	snprintf(err_out, size, "%s", status < 0 ? err.message : "");
	return status;
}

/* line parses to command `name` with one argument `arg`. */
static void check_arg(const char *line, const char *name, const char *arg)
{
	struct tn_parsed_command parsed;
	char err[TN_ERROR_MAX];
	int status = parse(line, &parsed, err, sizeof(err));

	tap_ok(status == 1 && !strcmp(parsed.command->name, name) &&
		parsed.args.argc == 1 && !strcmp(parsed.args.argv[0], arg),
		"%s -> %s \"%s\"%s%s", line, name, arg, err[0] ? ": " : "",
		err);
	if (status == 1 && parsed.args.argc == 1 &&
	    strcmp(parsed.args.argv[0], arg))
		printf("#   got \"%s\"\n", parsed.args.argv[0]);
	if (status == 1)
		tn_parsed_command_clear(&parsed);
}

/* line fails with a message containing `want`. */
static void check_error(const char *line, const char *want)
{
	struct tn_parsed_command parsed;
	char err[TN_ERROR_MAX];
	int status = parse(line, &parsed, err, sizeof(err));

	tap_ok(status == -1 && strstr(err, want), "%s: error \"%s\"", line,
		want);
	if (status == -1 && !strstr(err, want))
		printf("#   got \"%s\"\n", err);
	if (status == 1)
		tn_parsed_command_clear(&parsed);
}

static void check_count(const char *line, const char *name, bool has_count,
		int64_t count)
{
	struct tn_parsed_command parsed;
	char err[TN_ERROR_MAX];
	int status = parse(line, &parsed, err, sizeof(err));

	tap_ok(status == 1 && !strcmp(parsed.command->name, name) &&
		parsed.args.has_count == has_count &&
		(!has_count || parsed.args.count == count),
		"%s -> %s, count %s%lld", line, name, has_count ? "" : "none ",
		(long long) count);
	if (status == 1)
		tn_parsed_command_clear(&parsed);
}

static void test_parser(void)
{
	struct tn_parsed_command parsed;
	char err[TN_ERROR_MAX];

	check_arg("goto 2023-11-14 22:13:20", "goto", "2023-11-14 22:13:20");
	check_arg("goto \"2023-11-14 22:13:20\"", "goto",
		"2023-11-14 22:13:20");
	check_arg("goto '12:00'", "goto", "12:00");
	check_arg("  goto   50%  ", "goto", "50%");
	check_arg(":goto #12", "goto", "#12");
	check_arg("index cancel", "index", "cancel");
	check_count("down 5", "down", true, 5);
	check_count("j 7", "down", true, 7);
	check_count("down", "down", false, 0);
	check_count("pgdn \"3\"", "pgdn", true, 3);
	check_count("bottom 120", "bottom", true, 120);
	check_error("down -3", "expected a number of events");
	check_error("down x", "expected a number of events");
	check_error("down 5 6", "usage: down [N] (j)");
	check_error("goto", "usage: goto TIME|NN%|#K");
	check_error("goto \"12:00", "column 6: the quote \" opened here");
	check_error("print 'x", "column 7: the quote ' opened here");
	check_error("down 5\\", "column 7: a backslash ends the line");
	check_error("frobnicate", "unknown command \"frobnicate\"");
	check_error("index now", "\"now\" is not one of cancel");
	check_error("detail 1", "usage: detail");
	tap_int_eq(parse("", &parsed, err, sizeof(err)), 0, "empty line: 0");
	tap_int_eq(parse("   \t ", &parsed, err, sizeof(err)), 0,
		"blank line: 0");
	/* A backslash escapes a blank, and quotes inside a word join. */
	tap_int_eq(parse("print 1\\ 2", &parsed, err, sizeof(err)), -1,
		"an escaped blank makes one word (not a number)");
	check_count("do\"wn\" 2", "down", true, 2);

	/* write[!] [--marked] FILE: a '!' after the name, an optional
	 * word left out when it is none of its choices. */
	tap_ok(parse("write! out.txt", &parsed, err, sizeof(err)) == 1 &&
		!strcmp(parsed.command->name, "write") && parsed.args.bang &&
		parsed.args.argc == 1 &&
		!strcmp(parsed.args.argv[0], "out.txt"),
		"write! out.txt: write, with !, FILE");
	tn_parsed_command_clear(&parsed);
	tap_ok(parse("write --marked 'a b.txt'", &parsed, err,
		sizeof(err)) == 1 && !parsed.args.bang &&
		parsed.args.argc == 2 &&
		!strcmp(parsed.args.argv[0], "--marked") &&
		!strcmp(parsed.args.argv[1], "a b.txt"),
		"write --marked 'a b.txt': the option, then FILE");
	tn_parsed_command_clear(&parsed);
	check_arg("write out.txt", "write", "out.txt");
	check_error("write", "usage: write[!] [--marked] FILE");
	check_error("write --marked", "usage: write[!] [--marked] FILE");
	check_error("write a b", "usage: write[!] [--marked] FILE");
	check_error("goto! 12:00", "goto takes no '!'");
	check_error("nosuch! x", "unknown command \"nosuch!\"");
}

static void test_script(void)
{
	char **lines = tn_command_split_script("goto '12:00; x'; print 2\n"
		"where; help \\; me");

	tap_ok(g_strv_length(lines) == 4, "script: 4 lines");
	if (g_strv_length(lines) == 4) {
		tap_str_eq(lines[0], "goto '12:00; x'", "a ';' in quotes stays");
		tap_str_eq(lines[1], " print 2", "second line");
		tap_str_eq(lines[2], "where", "after a newline");
		tap_str_eq(lines[3], " help \\; me", "an escaped ';' stays");
	}
	g_strfreev(lines);
}

/* A script run as it is read: tn_command_script_next() from a position,
 * and where it leaves off. */
static void test_script_next(void)
{
	const char *script = "down 2;where\necho 'a\nb'; p 3\\\nx";
	GString *line = g_string_new(NULL);
	size_t pos = 0;

	tap_ok(tn_command_script_next(script, &pos, line) &&
		!strcmp(line->str, "down 2") && pos == 7,
		"next: the first line, then past its ';'");
	tap_ok(tn_command_script_next(script, &pos, line) &&
		!strcmp(line->str, "where") && pos == 13,
		"next: the second, past its newline");
	tap_ok(tn_command_script_next(script, &pos, line) &&
		!strcmp(line->str, "echo 'a\nb'"),
		"next: a newline in quotes stays in the line");
	tap_ok(tn_command_script_next(script, &pos, line) &&
		!strcmp(line->str, " p 3\\\nx") && pos == TN_SCRIPT_END,
		"next: an escaped newline too, up to the end (got \"%s\")",
		line->str);
	tap_ok(!tn_command_script_next(script, &pos, line) && !line->len,
		"next: nothing after the end");
	pos = 0;
	tap_ok(tn_command_script_next("where\n", &pos, line) && pos == 6 &&
		tn_command_script_next("where\n", &pos, line) &&
		!line->len && pos == TN_SCRIPT_END,
		"next: a script that ends with a newline ends with an empty "
		"line");
	pos = 0;
	tap_ok(tn_command_script_next("echo 'open\n", &pos, line) &&
		pos == TN_SCRIPT_END && !strcmp(line->str, "echo 'open\n"),
		"next: an open quote takes the rest, newline included");
	g_string_free(line, TRUE);
	check_arg("echo hello  world", "echo", "hello  world");
	check_arg("echo '@probe 1'", "echo", "@probe 1");
}

static bool has_choice(GPtrArray *choices, const char *want)
{
	for (guint i = 0; i < choices->len; i++)
		if (!strcmp(choices->pdata[i], want))
			return true;
	return false;
}

static void test_completion(void)
{
	static const char *const events[] = { "sched_switch",
		"sched_wakeup", "irq_handler_entry", NULL };
	struct tn_completion_source source = { events, NULL,
		"2023-11-14 22:13:20.000001332" };
	size_t start;
	GPtrArray *c;
	char *dir, *prefix;

	c = tn_command_complete("pg", &source, &start);
	tap_ok(c->len == 2 && has_choice(c, "pgdn") && has_choice(c, "pgup") &&
		start == 0, "pg: pgdn and pgup");
	g_ptr_array_free(c, TRUE);
	c = tn_command_complete("", &source, &start);
	tap_ok(has_choice(c, "goto") && has_choice(c, "quit"),
		"nothing typed: every command (%u)", c->len);
	g_ptr_array_free(c, TRUE);
	c = tn_command_complete("index ", &source, &start);
	tap_ok(c->len == 1 && has_choice(c, "cancel") && start == 6,
		"index: its choice cancel, at byte 6");
	g_ptr_array_free(c, TRUE);
	c = tn_command_complete("index ca", &source, &start);
	tap_ok(c->len == 1 && has_choice(c, "cancel") && start == 6,
		"index ca: cancel");
	g_ptr_array_free(c, TRUE);
	c = tn_command_complete("goto ", &source, &start);
	tap_ok(has_choice(c, "2023-11-14 22:13:20.000001332") &&
		has_choice(c, "#"), "goto: the current time and #");
	g_ptr_array_free(c, TRUE);
	c = tn_command_complete("goto 2023", &source, &start);
	tap_ok(c->len == 1 && start == 5, "goto 2023: the current time");
	g_ptr_array_free(c, TRUE);
	c = tn_command_complete("print ", &source, &start);
	tap_int_eq(c->len, 0, "print: a count has no completion");
	g_ptr_array_free(c, TRUE);
	c = tn_command_complete("write --m", &source, &start);
	tap_ok(c->len == 1 && has_choice(c, "--marked"),
		"write --m: --marked");
	g_ptr_array_free(c, TRUE);
	c = tn_command_complete("goto b", &source, &start);
	tap_ok(c->len == 1 && has_choice(c, "begin"), "goto b: begin");
	g_ptr_array_free(c, TRUE);
	c = tn_command_complete("bogus ", &source, &start);
	tap_int_eq(c->len, 0, "an unknown command: nothing");
	g_ptr_array_free(c, TRUE);

	/* The completers of the other kinds, on specs of their own (no
	 * command of the table takes them yet). */
	c = g_ptr_array_new_with_free_func(g_free);
	tn_command_complete_arg(c, &(struct tn_arg_spec) {
		TN_ARG_EVENT_NAME, "NAME", false, NULL }, &source, "sched_");
	tap_ok(c->len == 2 && has_choice(c, "sched_switch") &&
		has_choice(c, "sched_wakeup"), "event names: sched_*");
	g_ptr_array_set_size(c, 0);
	source.field_names = (const char *const[]) { "prev_comm", "prev_tid",
		"next_comm", NULL };
	tn_command_complete_arg(c, &(struct tn_arg_spec) {
		TN_ARG_FIELD, "FIELD", false, NULL }, &source, "prev");
	tap_ok(c->len == 2 && has_choice(c, "prev_comm"),
		"field names: prev_*");
	g_ptr_array_set_size(c, 0);
	dir = g_strdup_printf("%s/complete", gen_tmpdir());
	prefix = g_strdup_printf("%s/trace-a", dir);
	g_mkdir_with_parents(prefix, 0700);
	g_free(prefix);
	prefix = g_strdup_printf("%s/trace-b.txt", dir);
	g_file_set_contents(prefix, "x", 1, NULL);
	g_free(prefix);
	prefix = g_strdup_printf("%s/tr", dir);
	tn_command_complete_arg(c, &(struct tn_arg_spec) {
		TN_ARG_FILE, "FILE", false, NULL }, &source, prefix);
	g_free(prefix);
	prefix = g_strdup_printf("%s/trace-a/", dir);
	tap_ok(c->len == 2 && has_choice(c, prefix),
		"files: a directory gets its slash");
	g_free(prefix);
	prefix = g_strdup_printf("%s/trace-b.txt", dir);
	tap_ok(has_choice(c, prefix), "files: a file");
	g_free(prefix);
	g_ptr_array_free(c, TRUE);
	/* Inside a regex or an expression: the name that ends the line,
	 * event names and the trace's field names ("$..." ones once a '$'
	 * is typed), no blank after it. */
	{
		static const char *const fields[] = { "$ctx.vtid",
			"$payload.prev_tid", "prev_comm", "prev_tid", "vtid",
			NULL };
		struct tn_completion_source names = { events, fields, NULL };
		bool whole;

		c = tn_command_complete_word("search sched_w", &names, &start,
			&whole);
		tap_ok(c->len == 1 && has_choice(c, "sched_wakeup") &&
			start == 7 && !whole,
			"search sched_w: sched_wakeup, at byte 7, no blank");
		g_ptr_array_free(c, TRUE);
		c = tn_command_complete_word("search (foo|\"sched_s", &names,
			&start, &whole);
		tap_ok(c->len == 1 && has_choice(c, "sched_switch") &&
			start == 13, "search (foo|\"sched_s: the name after the "
			"quote (%zu)", start);
		g_ptr_array_free(c, TRUE);
		c = tn_command_complete_word("search a&&prev_", &names, &start,
			&whole);
		tap_ok(c->len == 2 && has_choice(c, "prev_comm") &&
			has_choice(c, "prev_tid") && start == 10,
			"search a&&prev_: the fields after the operator");
		g_ptr_array_free(c, TRUE);
		c = tn_command_complete_word("search $ctx.", &names, &start,
			&whole);
		tap_ok(c->len == 1 && has_choice(c, "$ctx.vtid"),
			"search $ctx.: the scoped field");
		g_ptr_array_free(c, TRUE);
		c = tn_command_complete_word("search v", &names, &start, &whole);
		tap_ok(c->len == 1 && has_choice(c, "vtid"),
			"search v: no $ names without a $");
		g_ptr_array_free(c, TRUE);
		c = g_ptr_array_new_with_free_func(g_free);
		tn_command_complete_arg(c, &(struct tn_arg_spec) {
			TN_ARG_PATTERN, "EXPR", false, NULL }, &names, "n");
		tap_ok(c->len == 1 && has_choice(c, "name"),
			"an expression: its word name");
		g_ptr_array_free(c, TRUE);
		c = tn_command_complete_word("goto b", &names, &start, &whole);
		tap_ok(whole, "a time: a whole word");
		g_ptr_array_free(c, TRUE);
	}
	/* write! FILE and write --marked FILE complete files too. */
	prefix = g_strdup_printf("write! %s/trace-b", dir);
	c = tn_command_complete(prefix, &source, &start);
	tap_ok(c->len == 1, "write! DIR/trace-b: the file");
	g_ptr_array_free(c, TRUE);
	g_free(prefix);
	prefix = g_strdup_printf("write --marked %s/trace-b", dir);
	c = tn_command_complete(prefix, &source, &start);
	tap_ok(c->len == 1, "write --marked DIR/trace-b: the file");
	g_ptr_array_free(c, TRUE);
	g_free(prefix);
	g_free(dir);
}

/* The man page's text.  Not inlined: GCC 12 then warns of a dangling
 * pointer to text that is not there. */
__attribute__((noinline))
static char *read_man_page(void)
{
	const char *top = getenv("top_srcdir");
	char *path = g_build_filename(top ? top : ".", "doc", "tracenav.1",
		NULL);
	char *text = NULL;

	g_file_get_contents(path, &text, NULL, NULL);
	g_free(path);
	return text;
}

/* The man page's COMMANDS section lists the table's commands with
 * exactly the usage lines the renderer makes, in the table's order. */
static void test_help(void)
{
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *troff = g_ptr_array_new_with_free_func(g_free);
	char *man = read_man_page();
	const char *section = man ? strstr(man, "\n.SH COMMANDS\n") : NULL;
	const char *end = section ? strstr(section + 1, "\n.SH ") : NULL;
	size_t count;
	char *usage;

	tn_commands(&count);
	tn_command_help_lines(lines, TN_HELP_TEXT, 0);
	tap_int_eq(lines->len, count, "one help line per command");
	usage = tn_command_usage(tn_command_find("down"), TN_HELP_TEXT);
	tap_str_eq(usage, "down [N] (j)", "text usage of down");
	g_free(usage);
	usage = tn_command_usage(tn_command_find("write"), TN_HELP_TEXT);
	tap_str_eq(usage, "write[!] [--marked] FILE", "text usage of write");
	g_free(usage);
	usage = tn_command_usage(tn_command_find("goto"), TN_HELP_TROFF);
	tap_str_eq(usage, "\\fBgoto\\fR \\fITIME\\fR|\\fINN\\fR\\fB%\\fR|"
		"\\fB#\\fR\\fIK\\fR", "troff usage of goto");
	g_free(usage);

	tn_command_help_lines(troff, TN_HELP_TROFF, 0);
	tap_ok(section != NULL, "the man page has a COMMANDS section");
	if (section) {
		char *text = g_strndup(section, end ? (gsize) (end - section) :
			strlen(section));
		char **man_lines = g_strsplit(text, "\n", -1);
		GPtrArray *found = g_ptr_array_new();

		/* The line after each .TP is a usage line. */
		for (char **l = man_lines; *l; l++)
			if (!strcmp(*l, ".TP") && l[1])
				g_ptr_array_add(found, l[1]);
		tap_int_eq(found->len, count, "man page: one .TP per command");
		for (guint i = 0; i < count && i < found->len; i++)
			tap_str_eq((char *) found->pdata[i],
				(char *) troff->pdata[2 * i + 1],
				"man page: command %u's usage line", i + 1);
		g_ptr_array_free(found, TRUE);
		g_strfreev(man_lines);
		g_free(text);
	}
	g_free(man);
	g_ptr_array_free(lines, TRUE);
	g_ptr_array_free(troff, TRUE);
}

static void collect(struct tn_output *out, enum tn_output_kind kind,
		const char *title, const char *text)
{
	(void) out;
	(void) kind;
	(void) title;
	(void) text;
}

static void after(struct tn_session *session, void *arg)
{
	int *calls = arg;

	(void) session;
	(*calls)++;
}

static int64_t current_ns(struct tn_session *session)
{
	struct tn_error err;
	const struct tn_row *row = tn_cursor_row(session->cursor, 0, &err);

	return row ? row->pos.ns : -1;
}

/* The event `offset` events after the first, read with a fresh cursor. */
static int64_t ns_at(struct tn_trace *trace, int64_t offset)
{
	struct tn_cursor *cursor;
	struct tn_error err;
	int64_t ns = -1;

	if (tn_cursor_create(trace, NULL, &cursor, &err))
		return -1;
	if (tn_cursor_move(cursor, offset, NULL, &err) == 0) {
		const struct tn_row *row = tn_cursor_row(cursor, 0, &err);

		ns = row ? row->pos.ns : -1;
	}
	tn_cursor_destroy(cursor);
	return ns;
}

static void add_line(struct tn_cmdq *queue, const char *line)
{
	struct tn_parsed_command parsed;
	struct tn_error err;

	if (tn_command_parse(line, &parsed, &err) == 1)
		tn_cmdq_add(queue, &parsed);
}

/* Commands run synchronously and queued as a job, with merged counts. */
static void test_running(void)
{
	char *path = gen_trace("run", "--events 3000 --cpus 2 "
		"--packet-size 4096 --seed 3");
	struct tn_output out = { collect };
	struct tn_session session;
	struct tn_command_context ctx = { .session = &session, .out = &out,
		.page_rows = 10 };
	struct tn_trace *trace;
	struct tn_error err;
	struct tn_cmdq *queue;
	struct tn_job *job;
	int calls = 0;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "trace opens") ||
	    !tap_ok(tn_session_init(&session, trace, true, &err) == 0,
		    "session")) {
		g_free(path);
		return;
	}
	tap_int_eq(tn_command_run(&ctx, "down 3", &err), 0, "down 3 runs");
	tap_int_eq(current_ns(&session), ns_at(trace, 3), "down 3: event 4");
	tap_int_eq(tn_command_run(&ctx, "pgdn 2", &err), 0, "pgdn 2 runs");
	tap_int_eq(current_ns(&session), ns_at(trace, 23),
		"pgdn 2 with 10-row pages: event 24");
	tap_int_eq(tn_command_run(&ctx, "goto \"nonsense\"", &err), -1,
		"a bad time fails");
	tap_int_eq(current_ns(&session), ns_at(trace, 23),
		"the cursor stays after an error");
	tap_int_eq(tn_command_run(&ctx, "top", &err), 0, "top");

	/* Five page-downs queued while a job would run: one move of five
	 * pages, then the after function, on the job's thread. */
	queue = tn_cmdq_create(&session, 10, NULL);
	for (int i = 0; i < 5; i++)
		add_line(queue, "pgdn");
	add_line(queue, "down");
	add_line(queue, "down 2");
	tap_ok(tn_cmdq_get_flags(queue) & TN_CMD_MOVES_PAGES,
		"the queue moves by pages");
	tap_int_eq(tn_cmdq_start(queue, after, &calls, &job, &err), 0,
		"the queue starts as a job");
	session.lease.job = job;
	{
		struct tn_cmdq_result result = tn_cmdq_finish(job, &out, &err);

		tap_ok(!result.cancelled && result.after_done && !err.message[0],
			"the job is done");
	}
	session.lease.job = NULL;
	tap_int_eq(calls, 1, "after ran once");
	tap_int_eq(current_ns(&session), ns_at(trace, 53),
		"5 pages then 3 events: event 54");
	tn_session_fini(&session);
	tn_trace_destroy(trace);
	g_free(path);
}

/* A slow command (a jump in a trace without packet index, read from its
 * start) cancelled as it starts: the queue says so, the cursor stays,
 * and the after function does not run. */
static void test_cancel(void)
{
	char *path = gen_trace("slow", "--events 300000 --cpus 2 --no-index");
	struct tn_output out = { collect };
	struct tn_session session;
	struct tn_cmdq_result result;
	struct tn_trace *trace;
	struct tn_error err;
	struct tn_cmdq *queue;
	struct tn_job *job;
	int64_t first;
	int calls = 0;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "slow trace opens") ||
	    !tap_ok(tn_session_init(&session, trace, true, &err) == 0,
		    "session")) {
		g_free(path);
		return;
	}
	first = current_ns(&session);
	queue = tn_cmdq_create(&session, 10, NULL);
	add_line(queue, "goto 90%");
	if (tap_int_eq(tn_cmdq_start(queue, after, &calls, &job, &err), 0,
			"the slow jump starts")) {
		tn_job_cancel(job);
		result = tn_cmdq_finish(job, &out, &err);
		tap_ok(result.cancelled && !result.after_done,
			"cancelled: the queue says so");
		tap_ok(strstr(err.message, "cancelled") != NULL,
			"cancelled: the error says so (%s)", err.message);
		tap_int_eq(current_ns(&session), first,
			"cancelled: the cursor stayed on the first event");
		tap_int_eq(calls, 0, "cancelled: after did not run");
	}
	tn_session_fini(&session);
	tn_trace_destroy(trace);
	g_free(path);
}

/* A job that holds the lease until it is let go, checking the lease on
 * its own thread first. */
struct lease_job {
	struct tn_session *session;
	atomic_bool go;
	atomic_bool checked;
};

static int lease_job_run(struct tn_job *job, void *data,
		struct tn_error *err)
{
	struct lease_job *lj = data;

	(void) job;
	(void) err;
	while (!atomic_load(&lj->go))
		g_usleep(1000);
	/* The job's own thread may touch what the lease covers. */
	tn_lease_check(&lj->session->lease, "the lease's own job");
	atomic_store(&lj->checked, true);
	return 0;
}

static const struct tn_job_class lease_job_class = { "leased", lease_job_run,
	NULL, NULL };

/* Whether fn(session) in a child process ends it on a signal other than
 * the alarm (the lease's check aborts). */
static bool aborts(void (*fn)(struct tn_session *), struct tn_session *session)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		alarm(5);
		/* Its message is expected: not in the test's log. */
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		fn(session);
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
		WIFSIGNALED(status) && WTERMSIG(status) != SIGALRM;
}

static void check_here(struct tn_session *session)
{
	tn_lease_check(&session->lease, "the front end's thread");
}

static void run_down_here(struct tn_session *session)
{
	struct tn_output out = { collect };
	struct tn_command_context ctx = { .session = session, .out = &out,
		.page_rows = 10 };
	struct tn_error err;

	tn_command_run(&ctx, "down", &err);
}

/* The session leased to a command job: the front end's thread may not
 * touch it while the job runs (debug builds abort), the job's thread
 * may; once the job ended the front end's may again, and ending the
 * lease gives the job back. */
static void test_lease(void)
{
	char *path = gen_trace("lease", "--events 2000 --cpus 2");
	struct lease_job lj = { 0 };
	struct tn_session session;
	struct tn_trace *trace;
	struct tn_error err;
	struct tn_job *job;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "lease: opens") ||
	    !tap_ok(tn_session_init(&session, trace, true, &err) == 0,
		    "lease: session")) {
		g_free(path);
		return;
	}
	tap_ok(!tn_lease_is_held(&session.lease) &&
		!tn_lease_is_running(&session.lease), "lease: none at first");
	lj.session = &session;
	if (tap_int_eq(tn_job_start(&lease_job_class, &lj, &job, &err), 0,
			"lease: a job starts")) {
		session.lease.job = job;
		tap_ok(tn_lease_is_held(&session.lease) &&
			tn_lease_is_running(&session.lease),
			"lease: leased to the running job");
#ifndef NDEBUG
		tap_ok(aborts(check_here, &session), "lease: the front end's "
			"thread touching the session aborts");
		tap_ok(aborts(run_down_here, &session), "lease: a command that "
			"reads, run outside the job, aborts");
#endif
		atomic_store(&lj.go, true);
		tn_job_wait(job);
		tap_ok(atomic_load(&lj.checked), "lease: the job's own thread "
			"may touch it");
		tap_ok(tn_lease_is_held(&session.lease) &&
			!tn_lease_is_running(&session.lease), "lease: the job "
			"ended: still leased, no longer running");
		/* In this process (a child would exit with the job's thread
		 * not joined yet): an abort fails the whole test. */
		check_here(&session);
		tap_ok(true, "lease: the front end's thread may touch it once "
			"the job ended");
		tap_ok(tn_lease_end(&session.lease) == job &&
			!tn_lease_is_held(&session.lease),
			"lease: ending it gives the job back");
		tn_job_destroy(job);
	}
	tn_session_fini(&session);
	tn_trace_destroy(trace);
	g_free(path);
}

static void complete_words(const char *line)
{
	size_t start;

	g_ptr_array_free(tn_command_complete(line, NULL, &start), TRUE);
}

/* Whether completing line returns within a second: in a child process,
 * so that a loop that never ends (eating memory as it goes) is cut. */
static bool completes(const char *line)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		alarm(1);
		complete_words(line);
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
		WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* A backslash at the end of a line being completed was found again
 * and again as a word, endlessly (found by tests/fuzz/fuzz-command). */
static void test_backslash_at_end(void)
{
	char **words;
	size_t start;
	int complete;

	tap_ok(completes("\\"), "Tab after a lone backslash returns");
	tap_ok(completes("goto 10\\"), "Tab after a word and a backslash "
		"returns");
	if (!completes("goto 10\\"))
		return;
	complete = tn_command_split_words("goto 10\\", &words, &start);
	tap_ok(complete == 1 && g_strv_length(words) == 2 &&
		strcmp(words[1], "10") == 0 && start == 5,
		"the backslash ends the last word (%d complete, %u words, "
		"word at %zu)", complete, g_strv_length(words), start);
	g_strfreev(words);
}

int main(void)
{
	test_parser();
	test_script();
	test_script_next();
	test_completion();
	test_backslash_at_end();
	test_help();
	test_running();
	test_cancel();
	test_lease();
	gen_cleanup();
	return tap_done();
}
