/* cmdq.h - a queue of commands run in order as one background job, for
 * the event list: moves, jumps and prints read the trace, which may take
 * long (a seek, a backward read), and the input loop must not wait.
 *
 * While the job runs it alone uses the session (see session.h).  Its
 * output is kept and replayed by tn_cmdq_finish() on the front end's
 * thread.  Consecutive commands of one kind that repeat (down, pgdn)
 * are merged as they are queued: five page-downs typed while a seek
 * runs are one move of five pages.
 */
#ifndef TRACENAV_CMDQ_H
#define TRACENAV_CMDQ_H

#include <stdbool.h>

#include "commands.h"
#include "output.h"
#include "tracenav/job.h"

struct tn_cmdq;

/* Called on the job's thread after the commands (also when there are
 * none, or one failed; not after a cancel): the front end computes what
 * it will show, reading the trace as needed. */
typedef void (*tn_cmdq_after_func)(struct tn_session *session, void *arg);

struct tn_cmdq *tn_cmdq_create(struct tn_session *session,
		int64_t page_rows, const GPtrArray *help_prefix);
void tn_cmdq_destroy(struct tn_cmdq *queue);

/* The commands of queue run with a screen (tn_command_context's
 * has_screen) that shows the events of [begin_ns, end_ns] (has_span:
 * some events). */
void tn_cmdq_set_screen(struct tn_cmdq *queue, bool has_span,
		int64_t begin_ns, int64_t end_ns);

/* Append a command (taken over: parsed is cleared), merged with the
 * last one when both are the same command that repeats with a count. */
void tn_cmdq_add(struct tn_cmdq *queue, struct tn_parsed_command *parsed);

/* Whether the queue holds no command. */
bool tn_cmdq_is_empty(const struct tn_cmdq *queue);

/* The flags of the commands queued, or-ed together. */
unsigned tn_cmdq_get_flags(const struct tn_cmdq *queue);

/* Run the queue as a job (which owns it from now on) and call after
 * when the commands are done.  Returns 0 and sets *job, or -1 with err
 * (the queue is destroyed then). */
int tn_cmdq_start(struct tn_cmdq *queue, tn_cmdq_after_func after,
		void *after_arg, struct tn_job **job, struct tn_error *err);

/* How a queue ended. */
struct tn_cmdq_result {
	/* A command was stopped by the cancel: it left the cursor where
	 * it was (those before it ran). */
	bool cancelled;
	/* The after function ran to its end (not cancelled). */
	bool after_done;
	/* The last command that ran and shows text, or NULL: what a text
	 * view of its output shows (detail: the current event). */
	const struct tn_command *text_command;
};

/* Wait for the job to end, replay its output to out, destroy it, and
 * say how it ended; *err gets the error of the command that failed, or
 * "cancelled..." for a cancelled one, or is empty. */
struct tn_cmdq_result tn_cmdq_finish(struct tn_job *job,
		struct tn_output *out, struct tn_error *err);

#endif
