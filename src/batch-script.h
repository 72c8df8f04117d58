/* batch-script.h - the script that --batch runs: its text or its file,
 * read and run command by command (batch-script.c). */
#ifndef TRACENAV_BATCH_SCRIPT_H
#define TRACENAV_BATCH_SCRIPT_H

#include <stdbool.h>
#include <stdio.h>

/* A script to run: its text (--batch) or its file (--batch-file). */
struct batch_script {
	const char *text;	/* the commands, or NULL to read file */
	const char *file;	/* "-": standard input */
	/* A command that fails does not stop the script (--keep-going):
	 * its message goes to stderr and the next one runs. */
	bool keep_going;
	/* A command run before the script's (--sync: "sync on"), or
	 * NULL. */
	const char *first;
};

/* The script's file open for reading (standard input for "-"), or NULL
 * for a script given as text; NULL with a message on stderr when it
 * cannot be opened (*failed set). */
FILE *batch_script_open(const struct batch_script *script, bool *failed);

/* Run script's commands through ctx, from its text or from file (as
 * batch_script_open() gave it: closed here), saying on stderr which
 * command failed and why (in a file: at which line).  Returns 0, or 1
 * when a command failed or the file could not be read. */
struct tn_command_context;
int batch_script_run(struct tn_command_context *ctx,
		const struct batch_script *script, FILE *file);

#endif
