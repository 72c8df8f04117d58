/* stamp.c - a stamp of a trace's files, to tell whether they changed
 * (see tn_trace_stamp() in trace.h).
 *
 * The same files as the cache's key (cache.c): every regular file under
 * each trace directory, through symlinks to files, not into symlinks to
 * directories, 32 levels deep at most; each by its path under the
 * directory, size and modification time, in name order.
 */
#include <glib.h>
#include <string.h>
#include <sys/stat.h>

#include "bytes.h"
#include "tracenav/trace.h"

#define MAX_DEPTH 32

static void add_u64(GByteArray *bytes, uint64_t value)
{
	tn_bytes_put_u64(bytes, value);
}

static void add_stat(GByteArray *bytes, const char *rel,
		const struct stat *st)
{
	tn_bytes_put_string(bytes, rel, strlen(rel));
	add_u64(bytes, (uint64_t) st->st_size);
	add_u64(bytes, (uint64_t) st->st_mtim.tv_sec);
	add_u64(bytes, (uint64_t) st->st_mtim.tv_nsec);
}

/* For g_ptr_array_sort(), which gives pointers to the elements. */
static gint compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static void add_dir(GByteArray *bytes, const char *root, const char *rel,
		int depth)
{
	char *path = rel ? g_build_filename(root, rel, NULL) : g_strdup(root);
	GDir *listing = g_dir_open(path, 0, NULL);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	while (listing && (name = g_dir_read_name(listing)))
		g_ptr_array_add(names, g_strdup(name));
	if (listing)
		g_dir_close(listing);
	g_ptr_array_sort(names, compare_names);
	for (guint i = 0; i < names->len; i++) {
		char *child = rel ? g_build_filename(rel, names->pdata[i], NULL) :
			g_strdup(names->pdata[i]);
		char *full = g_build_filename(root, child, NULL);
		struct stat st;

		if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (depth < MAX_DEPTH)
				add_dir(bytes, root, child, depth + 1);
		} else if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
			add_stat(bytes, child, &st);
		}
		g_free(full);
		g_free(child);
	}
	g_ptr_array_free(names, TRUE);
	g_free(path);
}

uint64_t tn_trace_stamp(const struct tn_trace *trace)
{
	GByteArray *bytes = g_byte_array_new();
	uint64_t stamp;

	for (size_t i = 0; i < tn_trace_get_dir_count(trace); i++) {
		const char *dir = tn_trace_get_dir(trace, i);

		tn_bytes_put_string(bytes, dir, strlen(dir));
		add_dir(bytes, dir, NULL, 0);
	}
	stamp = tn_bytes_hash64(bytes->data, bytes->len);
	g_byte_array_free(bytes, TRUE);
	return stamp;
}
