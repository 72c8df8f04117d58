/* trace-dirs.c - the trace directories under a path (see
 * trace-object.h). */
#include <glib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "trace-object.h"

#define MAX_DEPTH 32

static bool is_regular_file(const char *dir, const char *name)
{
	char *path = g_build_filename(dir, name, NULL);
	struct stat st;
	bool regular = stat(path, &st) == 0 && S_ISREG(st.st_mode);

	g_free(path);
	return regular;
}

static gint compare_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Add the trace directories at or under dir to dirs, in name order. */
static void find_dirs(const char *dir, int depth, GPtrArray *dirs)
{
	GPtrArray *children;
	GDir *handle;
	const char *name;

	if (is_regular_file(dir, "metadata")) {
		g_ptr_array_add(dirs, g_strdup(dir));
		return;
	}
	if (depth >= MAX_DEPTH || !(handle = g_dir_open(dir, 0, NULL)))
		return;
	children = g_ptr_array_new_with_free_func(g_free);
	while ((name = g_dir_read_name(handle))) {
		char *child = g_build_filename(dir, name, NULL);

		if (g_file_test(child, G_FILE_TEST_IS_DIR))
			g_ptr_array_add(children, child);
		else
			g_free(child);
	}
	g_dir_close(handle);
	g_ptr_array_sort(children, compare_strings);
	for (guint i = 0; i < children->len; i++)
		find_dirs(children->pdata[i], depth + 1, dirs);
	g_ptr_array_free(children, TRUE);
}

void tn_trace_find_dirs(const char *path, GPtrArray *dirs)
{
	find_dirs(path, 0, dirs);
}
