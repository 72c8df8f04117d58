/* repair-private.h - what repair.c (the stream files checked, their
 * plans and notes) and repair-stand-in.c (the stand-ins written from
 * the plans) share (internal: see repair.h). */
#ifndef TRACENAV_CORE_REPAIR_PRIVATE_H
#define TRACENAV_CORE_REPAIR_PRIVATE_H

#include <glib.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tracenav/runtime.h"
#include "ctf-index.h"
#include "repair.h"

enum action {
	ACTION_AS_IS,		/* (a plan being made) */
	ACTION_SKIP,		/* not in the stand-in */
	ACTION_NO_INDEX,	/* its index is not given to libbabeltrace2 */
	ACTION_REINDEX,		/* the stand-in's own index: the first
				 * `count` entries of idx */
};

/* A stream file that is not read as it is. */
struct file_plan {
	char *name;
	enum action action;
	struct tn_ctf_index idx;
	size_t count;
	bool untimed;		/* idx made up without packet times */
	uint64_t written_size;	/* the file size its index was written for */
};

struct dir_plan {
	char *dir;		/* as the trace names it */
	char *real;		/* its real path, or a copy of dir */
	char *stand_in;		/* once written, or NULL */
	GPtrArray *files;	/* struct file_plan * */
	/* Its stream files with something to read (or that should have:
	 * empty, but listing packets), and those of them skipped. */
	size_t streams, skipped;
	size_t first_skip;	/* the note of the first skipped, if any */
	/* Its stream files with something to read that libbabeltrace2
	 * reads without a packet index. */
	size_t unindexed;
};

struct note {
	char *file;
	char *text;
	enum tn_repair_note_kind kind;
};

struct tn_repair {
	GPtrArray *dirs;	/* struct dir_plan * */
	GPtrArray *notes;	/* struct note * */
	char *root;		/* the stand-ins' private directory */
	struct tn_runtime_tree *tree;
	/* What refreshes change once the trace is open (the repair is
	 * then const): under the lock, the plans' written sizes, and how
	 * many times an index was written again. */
	struct refresh_state *refresh;
};

struct refresh_state {
	pthread_mutex_t lock;
	uint64_t generation;
};

/* The plan of stream file name of dp, or NULL when it is read as is. */
static inline struct file_plan *tn_repair_find_plan(
		const struct dir_plan *dp, const char *name)
{
	for (guint i = 0; i < dp->files->len; i++) {
		struct file_plan *plan = dp->files->pdata[i];

		if (strcmp(plan->name, name) == 0)
			return plan;
	}
	return NULL;
}

/* Remove the stand-ins written, if any (tn_repair_write() writes them
 * anew; tn_repair_destroy()). */
void tn_repair_remove_stand_ins(struct tn_repair *repair);

#endif
