/* commands.c - the one command table, and running command lines. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "tracenav/format.h"
#include "tracenav/time.h"

static void text(struct tn_session *session, const char *title,
		const char *line)
{
	session->output(session, TN_OUTPUT_TEXT, title, line);
}

/* A count argument (default 1), at least 0. */
static int count_arg(int argc, char **argv, int64_t *count,
		struct tn_error *err)
{
	char *end;

	*count = 1;
	if (argc < 2)
		return 0;
	errno = 0;
	*count = strtoll(argv[1], &end, 10);
	if (errno || *end || *count < 0 || end == argv[1]) {
		tn_error_set(err, "%s: expected a number of events, not \"%s\"",
			argv[0], argv[1]);
		return -1;
	}
	return 0;
}

static int move_by(struct tn_session *session, int64_t delta,
		struct tn_error *err)
{
	return tn_cursor_move(session->cursor, delta, NULL, err);
}

static int run_down(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	int64_t n;

	return count_arg(argc, argv, &n, err) ? -1 : move_by(session, n, err);
}

static int run_up(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	int64_t n;

	return count_arg(argc, argv, &n, err) ? -1 : move_by(session, -n, err);
}

static int64_t page(const struct tn_session *session)
{
	return session->page_rows > 0 ? session->page_rows : 1;
}

static int run_pgdn(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	(void) argc;
	(void) argv;
	return move_by(session, page(session), err);
}

static int run_pgup(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	(void) argc;
	(void) argv;
	return move_by(session, -page(session), err);
}

static int run_top(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	(void) argc;
	(void) argv;
	return tn_cursor_seek_first(session->cursor, err);
}

static int run_bottom(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	(void) argc;
	(void) argv;
	return tn_cursor_seek_last(session->cursor, err);
}

/* "NN%" or "NN.N%": a fraction of the time range. */
static bool parse_percent(const char *arg, double *fraction)
{
	char *end;
	double value;

	if (!*arg || arg[strlen(arg) - 1] != '%')
		return false;
	errno = 0;
	value = strtod(arg, &end);
	if (errno || end == arg || *end != '%' || end[1] || value < 0 ||
			value > 100)
		return false;
	*fraction = value / 100;
	return true;
}

/* Make sure the index is there for a command that needs it: batch waits
 * for the build, the event list says how far it got. */
static int need_index(struct tn_session *session, const char *what,
		struct tn_error *err)
{
	struct tn_index_progress progress;

	if (session->index)
		return 0;
	if (tn_session_start_index(session, err))
		return -1;
	if (session->indexer && session->wait_for_index) {
		tn_indexer_wait(session->indexer);
		tn_session_poll_index(session);
	}
	if (session->index)
		return 0;
	if (session->indexer) {
		tn_indexer_get_progress(session->indexer, &progress);
		tn_error_set(err, "%s needs the index, %d%% built: try again "
			"when the status bar shows the event count", what,
			(int) (progress.fraction * 100));
	} else {
		tn_error_set(err, "%s needs the index, which could not be "
			"built", what);
	}
	return -1;
}

/* "#K": event number K (1-based, like the lines of --dump). */
static int goto_event_number(struct tn_session *session, const char *arg,
		struct tn_error *err)
{
	char *end;
	uint64_t number;

	errno = 0;
	number = strtoull(arg + 1, &end, 10);
	if (errno || end == arg + 1 || *end || number == 0 || arg[1] == '-') {
		tn_error_set(err, "goto: \"%s\" is not an event number: use "
			"#1 for the first event", arg);
		return -1;
	}
	if (need_index(session, "goto #K", err))
		return -1;
	return tn_cursor_seek_rank(session->cursor, number - 1, err);
}

static int run_goto(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	struct tn_time_spec spec;
	int64_t begin = 0, end = 0;
	double fraction;
	struct tn_error parse_err;

	(void) argc;
	if (argv[1][0] == '#')
		return goto_event_number(session, argv[1], err);
	if (parse_percent(argv[1], &fraction))
		return tn_cursor_seek_fraction(session->cursor, fraction, err);
	if (tn_time_parse(argv[1], session->gmt, &spec, &parse_err)) {
		tn_error_set(err, "goto: %s, or NN%% of the time range",
			parse_err.message);
		return -1;
	}
	tn_trace_get_time_range(session->trace, &begin, &end);
	return tn_cursor_seek_time(session->cursor,
		tn_time_resolve(&spec, begin, session->gmt), err);
}

static int run_print(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	GString *line = g_string_new(NULL);
	int64_t n;

	if (count_arg(argc, argv, &n, err)) {
		g_string_free(line, TRUE);
		return -1;
	}
	for (int64_t i = 0; i < n; i++) {
		const struct tn_row *row = tn_cursor_row(session->cursor, i,
			err);
		struct tn_format_state state;

		if (!row)
			break;
		/* The delta is from the event before it in the trace, as
		 * --dump prints it. */
		tn_format_state_init(&state, session->gmt);
		state.has_last = row->has_prev;
		state.last_ns = row->prev_ns;
		g_string_truncate(line, 0);
		tn_format_event_line(line, &row->ev, &state);
		text(session, NULL, line->str);
	}
	g_string_free(line, TRUE);
	return err->message[0] ? -1 : 0;
}

struct detail_output {
	struct tn_session *session;
	GString *line;
};

static void detail_line(int depth, const char *field, void *data)
{
	struct detail_output *out = data;

	g_string_printf(out->line, "%*s%s", depth * 2, "", field);
	text(out->session, "detail", out->line->str);
}

static int run_detail(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	const struct tn_row *row = tn_cursor_row(session->cursor, 0, err);
	struct detail_output out = { session, g_string_new(NULL) };
	const char *host;
	int64_t cpu;

	(void) argc;
	(void) argv;
	if (!row) {
		g_string_free(out.line, TRUE);
		if (!err->message[0])
			tn_error_set(err, "detail: the trace has no event");
		return -1;
	}
	g_string_assign(out.line, "time: ");
	tn_time_format_wall(out.line, row->ev.ns, session->gmt, true);
	g_string_append(out.line, " (");
	tn_time_format_seconds(out.line, row->ev.ns);
	g_string_append(out.line, " s)");
	text(session, "detail", out.line->str);
	g_string_printf(out.line, "name: %s", tn_event_get_name(&row->ev));
	text(session, "detail", out.line->str);
	host = tn_event_get_hostname(&row->ev);
	g_string_printf(out.line, "host: %s", host ? host : "(none)");
	text(session, "detail", out.line->str);
	cpu = tn_event_get_cpu(&row->ev);
	if (cpu >= 0) {
		g_string_printf(out.line, "cpu: %" PRId64, cpu);
		text(session, "detail", out.line->str);
	}
	if (row->lost_before) {
		g_string_printf(out.line, "lost before: %" PRIu64
			" events discarded by the tracer", row->lost_before);
		text(session, "detail", out.line->str);
	}
	tn_format_event_tree(&row->ev, detail_line, &out);
	g_string_free(out.line, TRUE);
	return 0;
}

static int run_help(struct tn_session *session, int argc, char **argv,
		struct tn_error *err);

static int run_index(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	char text[128];

	if (argc == 2) {
		if (strcmp(argv[1], "cancel") != 0) {
			tn_error_set(err, "usage: index [cancel]");
			return -1;
		}
		tn_session_cancel_index(session);
		return 0;
	}
	if (need_index(session, "index", err) && !session->indexer)
		return -1;
	tn_error_clear(err);
	if (session->index) {
		snprintf(text, sizeof(text), "%" PRIu64 " events indexed",
			session->index->event_count);
		session->output(session, TN_OUTPUT_MESSAGE, NULL, text);
	}
	return 0;
}

/* Where the cursor is: event number (when indexed) and time. */
static int run_where(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	const struct tn_row *row = tn_cursor_row(session->cursor, 0, err);
	GString *line = g_string_new(NULL);
	uint64_t rank;
	int known;

	(void) argc;
	(void) argv;
	if (!row) {
		g_string_free(line, TRUE);
		if (!err->message[0])
			tn_error_set(err, "where: the trace has no event");
		return -1;
	}
	if (row->ev.has_ns)
		tn_time_format_wall(line, row->ev.ns, session->gmt, true);
	else
		g_string_append(line, "(no timestamp)");
	known = tn_cursor_get_rank(session->cursor, &rank, err);
	if (known < 0) {
		g_string_free(line, TRUE);
		return -1;
	}
	if (known) {
		char *where = g_strdup_printf("event %" PRIu64 " of %" PRIu64
			" at ", rank + 1, session->index->event_count);

		g_string_prepend(line, where);
		g_free(where);
	} else {
		g_string_prepend(line, "at ");
	}
	text(session, NULL, line->str);
	g_string_free(line, TRUE);
	return 0;
}

static int run_quit(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	(void) argc;
	(void) argv;
	(void) err;
	session->quit = true;
	return 0;
}

static const struct tn_command commands[] = {
	{ "goto", NULL, "TIME|NN%|#K", "go to the first event at or after "
		"TIME (HH:MM[:SS[.NS]], YYYY-MM-DD HH:MM..., SEC[.NS]), to NN% "
		"of the time range, or to event number K (needs the index)",
		1, 1, run_goto },
	{ "down", "j", "[N]", "move down N events (1)", 0, 1, run_down },
	{ "up", "k", "[N]", "move up N events (1)", 0, 1, run_up },
	{ "pgdn", NULL, "", "move down one page", 0, 0, run_pgdn },
	{ "pgup", NULL, "", "move up one page", 0, 0, run_pgup },
	{ "top", NULL, "", "go to the first event", 0, 0, run_top },
	{ "bottom", NULL, "", "go to the last event", 0, 0, run_bottom },
	{ "print", "p", "[N]", "print N events (1) from the current one, as "
		"--dump does", 0, 1, run_print },
	{ "detail", NULL, "", "show every field of the current event", 0, 0,
		run_detail },
	{ "where", NULL, "", "print the current event's number (when "
		"indexed) and time", 0, 0, run_where },
	{ "index", NULL, "[cancel]", "build the checkpoint index (event "
		"numbers, counts), or stop building it", 0, 1, run_index },
	{ "help", NULL, "", "list the commands", 0, 0, run_help },
	{ "quit", "q", "", "quit", 0, 0, run_quit },
};

static int run_help(struct tn_session *session, int argc, char **argv,
		struct tn_error *err)
{
	GString *line = g_string_new(NULL);

	(void) argc;
	(void) argv;
	(void) err;
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++) {
		g_string_printf(line, "%s %s", commands[i].name,
			commands[i].args);
		if (commands[i].alias)
			g_string_append_printf(line, " (%s)", commands[i].alias);
		while (line->len < 24)
			g_string_append_c(line, ' ');
		g_string_append(line, commands[i].help);
		text(session, "help", line->str);
	}
	g_string_free(line, TRUE);
	return 0;
}

const struct tn_command *tn_commands(size_t *count)
{
	*count = G_N_ELEMENTS(commands);
	return commands;
}

const struct tn_command *tn_command_find(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(commands); i++)
		if (strcmp(commands[i].name, name) == 0 ||
		    (commands[i].alias && strcmp(commands[i].alias, name) == 0))
			return &commands[i];
	return NULL;
}

int tn_command_run(struct tn_session *session, const char *line,
		struct tn_error *err)
{
	const struct tn_command *command;
	gchar *copy = g_strstrip(g_strdup(line));
	gchar **argv = g_strsplit_set(copy, " \t", -1);
	int argc, status;

	g_free(copy);
	tn_error_clear(err);
	/* Drop the empty words left by runs of blanks. */
	argc = 0;
	for (int i = 0; argv[i]; i++) {
		if (*argv[i])
			argv[argc++] = argv[i];
		else
			g_free(argv[i]);
	}
	argv[argc] = NULL;
	if (argc == 0) {
		g_strfreev(argv);
		return 0;
	}
	command = tn_command_find(argv[0]);
	if (!command) {
		tn_error_set(err, "unknown command \"%s\" (help lists them)",
			argv[0]);
		status = -1;
	} else if (argc - 1 < command->min_args || argc - 1 > command->max_args) {
		tn_error_set(err, "usage: %s %s", command->name, command->args);
		status = -1;
	} else {
		uint64_t fallbacks = tn_cursor_get_fallback_count(
			session->cursor);

		status = command->run(session, argc, argv, err);
		if (tn_cursor_get_fallback_count(session->cursor) != fallbacks)
			session->output(session, TN_OUTPUT_MESSAGE, NULL,
				"a fast seek did not land on its checkpoint: "
				"read the trace from its start instead");
	}
	g_strfreev(argv);
	return status;
}

int tn_command_run_script(struct tn_session *session, const char *script,
		struct tn_error *err)
{
	gchar **lines = g_strsplit_set(script, ";\n", -1);
	int status = 0;

	for (gchar **line = lines; *line && !session->quit; line++) {
		if (tn_command_run(session, *line, err)) {
			char message[TN_ERROR_MAX];

			snprintf(message, sizeof(message), "%s", err->message);
			tn_error_set(err, "\"%s\": %s", g_strstrip(*line),
				message);
			status = -1;
			break;
		}
	}
	g_strfreev(lines);
	return status;
}
