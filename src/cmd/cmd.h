/* cmd.h - what the commands of src/cmd share (their entries are listed
 * in commands.c's table). */
#ifndef TRACENAV_CMD_CMD_H
#define TRACENAV_CMD_CMD_H

#include "../commands.h"

/* Go to event number `number` (1-based, as the lines of --dump), for
 * `what` ("goto #K", "bottom N"): needs the index.  goto.c. */
int tn_cmd_goto_event_number(struct tn_command_context *ctx,
		const char *what, uint64_t number, struct tn_error *err);

/* The time that arg (any form goto takes: a time, +N/-N UNIT from the
 * current event, begin, end, NN%, #K, @NS[:TIE]) stands for, with the
 * index (begin, end and NN% are the first and last events' times, #K
 * the time of event K, @NS:TIE its NS), for `what` ("range").  Moves
 * nothing.  Returns 0, or -1 with err.  goto.c. */
int tn_cmd_resolve_time(struct tn_command_context *ctx, const char *what,
		const char *arg, int64_t *ns, struct tn_error *err);

/* A marked event, as tn_cmd_each_mark() finds it. */
struct tn_cmd_mark_event {
	const struct tn_position *pos;	/* the mark */
	const struct tn_row *row;	/* its event; NULL when none is
					 * there (the trace changed) */
	bool has_rank;			/* the index knows its number: */
	uint64_t rank;			/* 0-based */
};

typedef int (*tn_cmd_mark_func)(const struct tn_cmd_mark_event *mark,
		void *data, struct tn_error *err);

/* Call fn for the event of each mark, in trace order, read with a
 * cursor of its own (the list's stays where it is), publishing progress
 * under activity ("listing marks") when a job runs it.  Stops at the
 * first failure: fn's, a read's, or a cancel ("cancelled").  Returns 0
 * or -1 with err.  marks.c. */
int tn_cmd_each_mark(struct tn_command_context *ctx, const char *activity,
		tn_cmd_mark_func fn, void *data, struct tn_error *err);

/* The current event's row; NULL with err on a read error, or when the
 * list is empty, saying why for `what` (a command): the filters hide
 * every event, or the trace has none.  where.c. */
const struct tn_row *tn_cmd_current_row(struct tn_command_context *ctx,
		const char *what, struct tn_error *err);

/* The count of args, or 1. */
int64_t tn_cmd_count(const struct tn_command_args *args);

#endif
