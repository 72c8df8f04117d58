/* cache.h - the checkpoint index saved on disk, so that reopening a
 * trace does not read it again.
 *
 * One file per trace under the cache directory ($XDG_CACHE_HOME/tracenav,
 * by default ~/.cache/tracenav), named after a key made of the trace's
 * real path, the names, sizes and modification times of all its files and
 * the format version.  Files are written atomically (temporary file, then
 * rename) and carry a checksum: a stale, truncated or corrupt file is
 * never trusted.
 */
#ifndef TRACENAV_CACHE_H
#define TRACENAV_CACHE_H

#include <stdbool.h>

#include "tracenav/error.h"
#include "tracenav/index.h"
#include "tracenav/state-history.h"
#include "tracenav/trace.h"

/* The default cache directory: $XDG_CACHE_HOME/tracenav or
 * $HOME/.cache/tracenav (g_free it). */
char *tn_cache_default_dir(void);

enum tn_cache_status {
	TN_CACHE_HIT = 0,	/* *out holds the index */
	TN_CACHE_MISS = 1,	/* no file for this trace as it is now, or
				 * one of another format version (an older
				 * tracenav's), which the next save
				 * replaces */
	TN_CACHE_INVALID = 2,	/* a file was there but corrupt or
				 * truncated; it was removed; err says what
				 * was wrong */
	TN_CACHE_ERROR = -1,	/* the directory cannot be read; err */
};

/* Load the index of trace from dir, and when snapshots is not NULL the
 * state snapshots saved with it into *snapshots (NULL when the file has
 * none).  A damaged snapshots section makes the whole file invalid. */
enum tn_cache_status tn_cache_load(const struct tn_trace *trace,
		const char *dir, struct tn_index **out,
		struct tn_state_snapshots **snapshots, struct tn_error *err);

/* Save index for trace in dir (created 0700 if needed), atomically,
 * with the state snapshots (NULL: none; they are left out when the
 * file would be too large to be read back).  Returns 0, or -1 with err
 * (e.g. a read-only directory: the caller works in memory and says so
 * once). */
int tn_cache_save(const struct tn_trace *trace, const char *dir,
		const struct tn_index *index,
		const struct tn_state_snapshots *snapshots, struct tn_error *err);

struct tn_sync;

/* Keep sync, the clock correction computed from the packets of trace
 * on its recorded clocks (sync.h), in dir (created 0700 if needed),
 * with the matching's counts; older ones of the trace go.  Returns 0,
 * or -1 with err. */
int tn_cache_save_sync(const struct tn_trace *trace, const char *dir,
		const struct tn_sync *sync, struct tn_error *err);

/* The correction kept for trace as its files are now: HIT with *out
 * (the caller's), MISS, INVALID (removed; err says so) or ERROR (err). */
enum tn_cache_status tn_cache_load_sync(const struct tn_trace *trace,
		const char *dir, struct tn_sync **out, struct tn_error *err);

#endif
