/* marks-service.h - the user's marked events of a session, and the file
 * next to the cache that keeps them.  The commands' (the job's) to touch
 * (lease.h).
 */
#ifndef TRACENAV_SERVICE_MARKS_SERVICE_H
#define TRACENAV_SERVICE_MARKS_SERVICE_H

#include <stdbool.h>

#include "../output.h"
#include "tracenav/marks.h"
#include "tracenav/trace.h"

struct tn_marks_service {
	struct tn_marks *set;
	/* Where they are saved; NULL: kept in memory only (--no-cache). */
	char *path;
	bool warned;		/* said once that they cannot be saved */
};

/* Set marks up, empty. */
void tn_marks_service_init(struct tn_marks_service *marks);

/* Load the marks of trace from their file in cache_dir (none without a
 * cache directory: NULL); a damaged or unreadable file is said through
 * out (and moved aside), and the marks stay as they were. */
void tn_marks_service_open(struct tn_marks_service *marks,
		const struct tn_trace *trace, const char *cache_dir,
		struct tn_output *out);

/* Save the marks of trace after a change; a failure is said once
 * through out (the marks stay in memory). */
void tn_marks_service_save(struct tn_marks_service *marks,
		const struct tn_trace *trace, struct tn_output *out);

/* Free them. */
void tn_marks_service_fini(struct tn_marks_service *marks);

#endif
