/* cache-check - what a cache directory holds for a trace, for the fault
 * tests (signals at any moment, two processes at once, full disks):
 *
 *   cache-check TRACE DIR
 *
 * prints, one a line:
 *   index hit EVENTS state|nostate   (the index file loads and passes its
 *                                     checks; with state snapshots or not)
 *   index miss                       (no file for the trace as it is)
 *   index invalid: MESSAGE           (a torn or damaged file: removed)
 *   marks N | marks none | marks invalid: MESSAGE
 *   temp NAME                        (a temporary file left in DIR)
 *   bad NAME                         (a file moved aside as damaged)
 * Exit status 0 when nothing is invalid and nothing is left over, 1
 * otherwise, 2 on bad usage or a trace that cannot be opened.
 */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tracenav/cache.h"
#include "tracenav/core.h"
#include "tracenav/marks.h"
#include "tracenav/trace.h"

/* The index: 1 if invalid. */
static int check_index(const struct tn_trace *trace, const char *dir)
{
	struct tn_index *index = NULL;
	struct tn_state_snapshots *snapshots = NULL;
	struct tn_error err;

	switch (tn_cache_load(trace, dir, &index, &snapshots, &err)) {
	case TN_CACHE_HIT:
		printf("index hit %" PRIu64 " %s\n", index->event_count,
			snapshots ? "state" : "nostate");
		tn_state_snapshots_destroy(snapshots);
		tn_index_destroy(index);
		return 0;
	case TN_CACHE_MISS:
		printf("index miss\n");
		return 0;
	case TN_CACHE_INVALID:
		printf("index invalid: %s\n", err.message);
		return 1;
	case TN_CACHE_ERROR:
		break;
	}
	printf("index invalid: %s\n", err.message);
	return 1;
}

/* The marks: 1 if invalid. */
static int check_marks(const struct tn_trace *trace, const char *dir)
{
	struct tn_marks *marks = tn_marks_create();
	struct tn_error err;
	char *path = NULL;
	int status = 0;

	if (tn_marks_path(trace, dir, &path, &err) ||
	    tn_marks_load(marks, path, &err)) {
		printf("marks invalid: %s\n", err.message);
		status = 1;
	} else if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
		printf("marks none\n");
	} else {
		printf("marks %zu\n", tn_marks_count(marks));
	}
	g_free(path);
	tn_marks_destroy(marks);
	return status;
}

/* Files left over in dir: temporary files of tn_file_replace() (NAME.
 * and six characters after .index or .marks) and files moved aside. */
static int check_leftovers(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;
	int status = 0;

	if (!d)
		return 0;
	while ((name = g_dir_read_name(d))) {
		const char *dot = strrchr(name, '.');

		if (g_str_has_suffix(name, ".bad")) {
			printf("bad %s\n", name);
			status = 1;
		} else if (dot && strlen(dot) == 7 &&
				(strstr(name, ".index.") ||
				 strstr(name, ".marks."))) {
			printf("temp %s\n", name);
			status = 1;
		}
	}
	g_dir_close(d);
	return status;
}

int main(int argc, char **argv)
{
	struct tn_trace *trace;
	struct tn_error err;
	int status;

	if (argc != 3) {
		fprintf(stderr, "usage: cache-check TRACE DIR\n");
		return 2;
	}
	if (tn_trace_open(argv[1], &trace, &err)) {
		fprintf(stderr, "cache-check: %s\n", err.message);
		return 2;
	}
	status = check_leftovers(argv[2]);
	status |= check_index(trace, argv[2]);
	status |= check_marks(trace, argv[2]);
	tn_trace_destroy(trace);
	tn_core_thread_cleanup();
	return status;
}
