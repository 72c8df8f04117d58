/* commands.h - the one command table.
 *
 * Every action a user can take is a command: the TUI binds keys to
 * command lines, its ':' prompt runs them, and --batch runs them from the
 * command line, so a command appears everywhere at once and the help is
 * built from this table.
 */
#ifndef TRACENAV_COMMANDS_H
#define TRACENAV_COMMANDS_H

#include <stddef.h>

#include "session.h"
#include "tracenav/error.h"

struct tn_command {
	const char *name;
	const char *alias;	/* short name, or NULL */
	const char *args;	/* argument hint for the help ("N", "TIME") */
	const char *help;	/* one line */
	int min_args, max_args;
	/* Run with argv[0] the command name.  Returns 0, or -1 with err. */
	int (*run)(struct tn_session *session, int argc, char **argv,
		struct tn_error *err);
};

/* The table, in the order the help lists it. */
const struct tn_command *tn_commands(size_t *count);

/* The command called name (or with that alias), or NULL. */
const struct tn_command *tn_command_find(const char *name);

/* Run one command line ("down 5"); an empty line does nothing.  Returns
 * 0, or -1 with err saying what is wrong (unknown command, bad argument,
 * read error).  On error the cursor stays where it was. */
int tn_command_run(struct tn_session *session, const char *line,
		struct tn_error *err);

/* Run a script: command lines separated by ';' or newlines, stopping at
 * the first error or at quit.  Returns 0 or -1 with err naming the
 * command that failed. */
int tn_command_run_script(struct tn_session *session, const char *script,
		struct tn_error *err);

#endif
