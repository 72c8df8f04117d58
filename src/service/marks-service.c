/* marks-service.c - the marks of a session and their file (see
 * marks-service.h). */
#include <glib.h>

#include "marks-service.h"

void tn_marks_service_init(struct tn_marks_service *marks)
{
	marks->set = tn_marks_create();
	marks->path = NULL;
	marks->warned = false;
}

void tn_marks_service_open(struct tn_marks_service *marks,
		const struct tn_trace *trace, const char *cache_dir,
		struct tn_output *out)
{
	struct tn_error err;

	g_clear_pointer(&marks->path, g_free);
	if (!cache_dir)
		return;
	if (tn_marks_path(trace, cache_dir, &marks->path, &err)) {
		tn_output_message(out, "%s", err.message);
		return;
	}
	if (tn_marks_load(marks->set, marks->path, &err) == 0)
		return;
	tn_output_message(out, "%s", err.message);
	/* A file that stayed (unreadable, or not moved aside) is never
	 * overwritten: the marks stay in memory. */
	if (g_file_test(marks->path, G_FILE_TEST_EXISTS))
		g_clear_pointer(&marks->path, g_free);
}

void tn_marks_service_save(struct tn_marks_service *marks,
		const struct tn_trace *trace, struct tn_output *out)
{
	struct tn_error err;

	if (!marks->path || marks->warned)
		return;
	if (tn_marks_save(marks->set, marks->path, tn_trace_get_path(trace),
			&err) == 0)
		return;
	marks->warned = true;
	tn_output_message(out, "%s; the marks stay in memory", err.message);
}

void tn_marks_service_fini(struct tn_marks_service *marks)
{
	tn_marks_destroy(marks->set);
	marks->set = NULL;
	g_clear_pointer(&marks->path, g_free);
}
