/* cmd.h - what the commands of src/cmd share (their entries are listed
 * in commands.c's table). */
#ifndef TRACENAV_CMD_CMD_H
#define TRACENAV_CMD_CMD_H

#include "../commands.h"

/* Go to event number `number` (1-based, as the lines of --dump), for
 * `what` ("goto #K", "bottom N"): needs the index.  goto.c. */
int tn_cmd_goto_event_number(struct tn_command_context *ctx,
		const char *what, uint64_t number, struct tn_error *err);

/* The count of args, or 1. */
int64_t tn_cmd_count(const struct tn_command_args *args);

#endif
