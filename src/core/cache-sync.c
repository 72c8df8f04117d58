/* cache-sync.c - the clock correction that matching a trace's packets
 * computed, kept in the cache beside its index (see tn_cache_save_sync()
 * in cache.h).
 *
 * File: <prefix>-<key>.sync in the cache directory, named as the index
 * of the trace on its recorded clocks (cache-private.h): any change to
 * a trace file gives another name.  It holds a line of the matching's
 * counts, then the text `sync save` writes (sync.h), which reads back to
 * the same correction, nanosecond for nanosecond.
 */
#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "src/core/cache-private.h"
#include "tracenav/file.h"
#include "tracenav/sync.h"

#define SYNC_SUFFIX ".sync"
#define COUNTS_FORMAT "# matched %" SCNu64 " unmatched %" SCNu64 \
	" duplicates %" SCNu64

/* Remove the correction files of older states of the trace. */
static void remove_older(const char *dir, const char *prefix,
		const char *keep)
{
	GDir *listing = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!listing)
		return;
	while ((name = g_dir_read_name(listing))) {
		if (g_str_has_prefix(name, prefix) &&
		    name[strlen(prefix)] == '-' &&
		    g_str_has_suffix(name, SYNC_SUFFIX) &&
		    strcmp(name, keep) != 0) {
			char *path = g_build_filename(dir, name, NULL);

			unlink(path);
			g_free(path);
		}
	}
	g_dir_close(listing);
}

int tn_cache_save_sync(const struct tn_trace *trace, const char *dir,
		const struct tn_sync *sync, struct tn_error *err)
{
	GString *text = g_string_new(NULL);
	char *prefix, *name, *file, *path;
	int error;

	if (tn_cache_recorded_name(trace, &prefix, &name, err))
		return -1;
	file = g_strconcat(name, SYNC_SUFFIX, NULL);
	path = g_build_filename(dir, file, NULL);
	g_string_append_printf(text, "# matched %" PRIu64 " unmatched %"
		PRIu64 " duplicates %" PRIu64 "\n", sync->matched,
		sync->unmatched, sync->duplicates);
	tn_sync_format(sync, text);
	error = g_mkdir_with_parents(dir, 0700) != 0 ? errno :
		tn_file_replace(path, text->str, text->len);
	if (error)
		tn_error_set(err, "cannot keep the clock correction in the "
			"cache %s: %s", dir, strerror(error));
	else
		remove_older(dir, prefix, file);
	g_string_free(text, TRUE);
	g_free(path);
	g_free(file);
	g_free(name);
	g_free(prefix);
	return error ? -1 : 0;
}

enum tn_cache_status tn_cache_load_sync(const struct tn_trace *trace,
		const char *dir, struct tn_sync **out, struct tn_error *err)
{
	enum tn_cache_status status = TN_CACHE_HIT;
	uint64_t matched, unmatched, duplicates;
	char *prefix, *name, *path, *text = NULL;
	GError *error = NULL;
	struct tn_error why;

	*out = NULL;
	if (tn_cache_recorded_name(trace, &prefix, &name, err))
		return TN_CACHE_ERROR;
	path = g_strconcat(dir, "/", name, SYNC_SUFFIX, NULL);
	if (!g_file_get_contents(path, &text, NULL, &error)) {
		status = g_error_matches(error, G_FILE_ERROR,
			G_FILE_ERROR_NOENT) ? TN_CACHE_MISS : TN_CACHE_ERROR;
		if (status == TN_CACHE_ERROR)
			tn_error_set(err, "%s", error->message);
		g_error_free(error);
	} else if (sscanf(text, COUNTS_FORMAT, &matched, &unmatched,
			&duplicates) != 3 || tn_sync_parse(text, out, &why)) {
		status = TN_CACHE_INVALID;
		unlink(path);
		tn_error_set(err, "cache file %s: not a clock correction; "
			"removed", path);
	} else {
		(*out)->matched = matched;
		(*out)->unmatched = unmatched;
		(*out)->duplicates = duplicates;
	}
	g_free(text);
	g_free(path);
	g_free(name);
	g_free(prefix);
	return status;
}
