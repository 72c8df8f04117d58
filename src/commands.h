/* commands.h - the one command table, its parser and its dispatcher.
 *
 * Every action a user can take on the trace is a command: the TUI binds
 * keys to commands, its ':' prompt runs command lines, and --batch runs
 * them from the command line, so a command appears everywhere at once
 * and the help (and the man page's list, checked by a test) is rendered
 * from this table.  Each command is one entry (struct tn_command) in a
 * file of its own topic under src/cmd/; commands.c holds the table.
 *
 * A front end never looks at a command's name: it reads its flags (does
 * it read the trace, how does the list follow the cursor) and how a
 * count typed before a key applies to it.
 */
#ifndef TRACENAV_COMMANDS_H
#define TRACENAV_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"
#include "session.h"
#include "tracenav/error.h"

/* What a command does, for the front ends. */
enum tn_command_flag {
	/* Moves the cursor by lines: the list scrolls only as far as
	 * needed to keep it on screen. */
	TN_CMD_MOVES_LINES = 1 << 0,
	/* Moves the cursor by pages: the cursor keeps its screen row. */
	TN_CMD_MOVES_PAGES = 1 << 1,
	/* Jumps: a cursor that left the screen is put in its middle. */
	TN_CMD_JUMPS = 1 << 2,
	/* Reads the trace (the cursor, the index): the event list runs it
	 * as a background job that Esc cancels. */
	TN_CMD_READS = 1 << 3,
	/* Needs the checkpoint index: --batch builds it first, the event
	 * list says how far its build is. */
	TN_CMD_NEEDS_INDEX = 1 << 4,
	/* Its text output is a block to show in a text view (or print). */
	TN_CMD_SHOWS_TEXT = 1 << 5,
	/* Its text is about the current event: its view steps to the next
	 * or previous event (J and K) and shows it again. */
	TN_CMD_SHOWS_CURRENT = 1 << 6,
	/* Takes a '!' right after its name (write!: overwrite), as vim's
	 * commands do: args.bang says so. */
	TN_CMD_BANG = 1 << 7,
	/* Run with a screen (the context's has_screen), it zooms the
	 * histogram strip (session->view.zoomed): the event list opens the
	 * pane that its class says shows it. */
	TN_CMD_SHOWS_HISTOGRAM = 1 << 8,
	/* Without a count, goes to the last event: in follow mode, the
	 * list follows the newest event again (any other move holds the
	 * position: session.h). */
	TN_CMD_GOES_TO_END = 1 << 9,
};

/* How a count typed before a key (5j, 500G) or given as the count
 * argument applies. */
enum tn_count_use {
	TN_COUNT_NONE,		/* the command takes no count */
	TN_COUNT_REPEAT,	/* N times as far (down 5, pgdn 2, print 10) */
	TN_COUNT_EVENT_NUMBER,	/* event number N (500G: event 500) */
};

/* The kinds of arguments, for the parser and the completer. */
enum tn_arg_kind {
	TN_ARG_NONE,
	TN_ARG_COUNT,		/* a number: the command's count */
	TN_ARG_WORD,		/* one of the choices */
	TN_ARG_TIME,		/* a time, NN% or #K: the rest of the line */
	TN_ARG_COMMAND,		/* a command name */
	TN_ARG_EVENT_NAME,	/* an event name of the trace */
	TN_ARG_FIELD,		/* a field name of the trace's events */
	TN_ARG_FILE,		/* a file name */
	TN_ARG_TEXT,		/* free text: the rest of the line */
	TN_ARG_PATTERN,		/* a regex or a filter expression: the rest
				 * of the line exactly as typed (quotes and
				 * backslashes belong to it) */
};

struct tn_arg_spec {
	enum tn_arg_kind kind;
	const char *name;	/* in the usage: "N", "TIME|NN%|#K" */
	bool optional;
	const char *const *choices;	/* TN_ARG_WORD: NULL-terminated */
};

#define TN_COMMAND_MAX_ARGS 3

/* A command line once parsed: the arguments as typed (quotes removed),
 * and the count, from the count argument or a key's prefix. */
struct tn_command_args {
	int argc;		/* arguments after the name */
	char *argv[TN_COMMAND_MAX_ARGS];
	bool has_count;
	int64_t count;
	bool bang;		/* the name was typed with '!' (TN_CMD_BANG) */
};

/* What a running command works on and where it writes. */
struct tn_command_context {
	struct tn_session *session;
	struct tn_output *out;
	int64_t page_rows;	/* rows a page moves (the list's height) */
	/* Lines the help command shows before the commands (the event
	 * list's keys), or NULL. */
	const GPtrArray *help_prefix;
	/* The command being run (tn_command_exec() sets it): one exec may
	 * serve several commands. */
	const struct tn_command *command;
	/* Run from a front end with a screen (the event list): the times
	 * of the first and last events on it, when it shows any. */
	bool has_screen;
	bool has_screen_span;
	int64_t screen_begin_ns, screen_end_ns;
};

struct tn_command {
	const char *name;
	const char *alias;	/* short name, or NULL */
	struct tn_arg_spec args[TN_COMMAND_MAX_ARGS];	/* ends at NONE */
	const char *help;	/* one line */
	unsigned flags;		/* enum tn_command_flag */
	enum tn_count_use count;
	/* Run the command.  Returns 0, or -1 with err; on error the cursor
	 * stays where it was. */
	int (*exec)(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err);
};

/* The table, in the order the help lists it. */
const struct tn_command *const *tn_commands(size_t *count);

/* The command called name (or with that alias), or NULL. */
const struct tn_command *tn_command_find(const char *name);

/* ---- parsing (cmd/parse.c) ---- */

/* A command line parsed against the table. */
struct tn_parsed_command {
	const struct tn_command *command;
	struct tn_command_args args;
};

/* Parse one command line ("goto 2023-11-14 22:13:20", "down 5").
 * Words are split at blanks; "double" and 'single' quotes group words
 * and a backslash escapes the next character outside single quotes; a
 * '!' ends the name of a command that takes one (write!).  An optional
 * argument of kind WORD whose word is none of its choices is left out,
 * the word going to the next argument (write [--marked] FILE).  An
 * argument of kind TIME or TEXT takes the rest of the line (quotes
 * around the whole of it are removed), one of kind PATTERN the rest of
 * the line as typed (only the blanks around it are trimmed).  Returns 1 with *out filled
 * (free with tn_parsed_command_clear()), 0 for an empty line, or -1
 * with err saying what is wrong and where ("column 6: ..."). */
int tn_command_parse(const char *line, struct tn_parsed_command *out,
		struct tn_error *err);

void tn_parsed_command_clear(struct tn_parsed_command *parsed);

/* Split a script into command lines at ';' and newlines outside quotes.
 * Returns a NULL-terminated array of lines (g_strfreev it). */
char **tn_command_split_script(const char *script);

/* What tn_command_script_next() leaves in *pos after the last line. */
#define TN_SCRIPT_END ((size_t) -1)

/* The command line of script that starts at byte *pos (0 for the
 * first), split as tn_command_split_script() splits, into line; *pos
 * moves past its ';' or newline, or becomes TN_SCRIPT_END when the line
 * ended with the script (a line that ends in an open quote, or in a
 * newline that a quote or a backslash keeps, ends there too).  Returns
 * false, with line empty, once *pos is TN_SCRIPT_END.  Reads nothing
 * before *pos, so that a script can be run as it is read. */
bool tn_command_script_next(const char *script, size_t *pos,
		GString *line);

/* The words of a partial line, for the completer: *words gets them
 * unquoted (g_strfreev), *last_start the byte offset of the word being
 * typed (the length of line after a blank).  Returns how many words are
 * complete (followed by a blank). */
int tn_command_split_words(const char *line, char ***words,
		size_t *last_start);

/* ---- running (command-run.c) ---- */

/* Run a parsed command.  Returns 0, or -1 with err (prefixed with the
 * command's name).  Checks the count and the index the command needs. */
int tn_command_exec(struct tn_command_context *ctx,
		const struct tn_parsed_command *parsed, struct tn_error *err);

/* Parse and run one command line; an empty line does nothing.  A
 * reload the command asks for (session->reload) is the caller's to do,
 * once nothing reads the trace (tn_session_reload()). */
int tn_command_run(struct tn_command_context *ctx, const char *line,
		struct tn_error *err);

/* Run a script (see tn_command_split_script()), stopping at the first
 * error or at quit.  Returns 0, or -1 with err naming the command that
 * failed. */
int tn_command_run_script(struct tn_command_context *ctx, const char *script,
		struct tn_error *err);

/* ---- help (cmd/usage.c, commands.c) ---- */

enum tn_help_format {
	TN_HELP_TEXT,		/* "goto TIME|NN%|#K   go to ..." */
	TN_HELP_TROFF,		/* the man page's ".TP" usage lines */
};

/* The usage of a command: "down [N] (j)" in text; in troff, the line
 * that follows ".TP" in the man page's COMMANDS section. */
char *tn_command_usage(const struct tn_command *command,
		enum tn_help_format format);

/* Append the help of every command to lines (char *, g_free): one line
 * each in text (after indent spaces), or ".TP" and the usage line for
 * each in troff. */
void tn_command_help_lines(GPtrArray *lines, enum tn_help_format format,
		int indent);

/* ---- completion (cmd/complete.c) ---- */

/* What the completer may offer besides the table's names: filled by the
 * front end from what it has at hand (never by reading the trace). */
struct tn_completion_source {
	const char *const *event_names;	/* NULL-terminated, or NULL */
	const char *const *field_names;	/* of the trace's events (from its
					 * metadata: tn_trace_get_field_names()),
					 * or NULL */
	const char *current_time;	/* the current event's time, or NULL */
};

/* The completions of the last word of line (the text before the prompt's
 * cursor): command names for the first word, then what the command's
 * argument at that place takes (a choice, an event name, a field name,
 * a time, a file).  Returns a GPtrArray of char * (whole words, g_free),
 * sorted and without duplicates, possibly empty; *word_start is the byte
 * offset in line of the word being completed.  source may be NULL. */
GPtrArray *tn_command_complete(const char *line,
		const struct tn_completion_source *source, size_t *word_start);

/* Like tn_command_complete(); *whole_word (may be NULL) says whether a
 * single completion is a whole word that a blank follows: false for a
 * name inside a regex or an expression (the word being completed is
 * then the name that ends the line: "filter name == \"sched_sw"). */
GPtrArray *tn_command_complete_word(const char *line,
		const struct tn_completion_source *source, size_t *word_start,
		bool *whole_word);

/* Append to out what an argument of spec's kind may be that starts with
 * prefix (unsorted); the completer of each kind of argument (a regex or
 * an expression: event and field names). */
void tn_command_complete_arg(GPtrArray *out, const struct tn_arg_spec *spec,
		const struct tn_completion_source *source, const char *prefix);

#endif
