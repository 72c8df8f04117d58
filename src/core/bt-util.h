/* bt-util.h - small helpers over libbabeltrace2 shared by the core
 * (internal: not part of the public API). */
#ifndef TRACENAV_CORE_BT_UTIL_H
#define TRACENAV_CORE_BT_UTIL_H

#include <babeltrace2/babeltrace.h>
#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"

/* Log level given to every component tracenav creates.  Libbabeltrace2
 * logs straight to stderr, which would tear a full-screen terminal, so
 * this is NONE unless the user asked for library logs (--verbose). */
bt_logging_level tn_bt_component_log_level(void);

/* Borrow a component class from the plugins installed with
 * libbabeltrace2 ("ctf"/"fs", "utils"/"muxer", ...) into *cls; the
 * plugin stays loaded until the process exits.  Any thread.  Returns 0,
 * or -1 with err when it is missing. */
int tn_bt_source_class(const char *plugin, const char *name,
		const bt_component_class_source **cls, struct tn_error *err);
int tn_bt_filter_class(const char *plugin, const char *name,
		const bt_component_class_filter **cls, struct tn_error *err);
int tn_bt_sink_class(const char *plugin, const char *name,
		const bt_component_class_sink **cls, struct tn_error *err);

/* Hold while making or destroying anything that refers to the component
 * classes above (graphs and their components, query executors), from
 * any thread.  libbabeltrace2 2.0 counts references without atomics or
 * locks, and these classes come from the plugin set loaded once for the
 * process, so the graphs of every thread (UI, index workers, jobs) share
 * them: two threads adding components (each takes a reference to its
 * class) or destroying graphs (each puts them) at once would corrupt the
 * counts.  Running a graph touches only objects of its own.  Not
 * recursive. */
void tn_bt_classes_lock(void);
void tn_bt_classes_unlock(void);

/* A hash table key (g_direct_hash) standing for a libbabeltrace2 object
 * by its address alone; never dereferenced, so a const object needs no
 * cast to a mutable pointer. */
static inline gpointer tn_bt_address_key(const void *object)
{
	return GSIZE_TO_POINTER((gsize) (uintptr_t) object);
}

/* Capture libbabeltrace2's log (which it writes straight to stderr)
 * between begin and end, so that a failure can be explained with the CTF
 * reader's own words: libbabeltrace2 2.0 logs the root cause of many
 * failures (a metadata syntax error and its line, an index that does not
 * match its stream file) without recording it as an error cause.  With
 * explain, the components created meanwhile log at level WARNING (they
 * keep that level for their life, so only for throw-away attempts);
 * otherwise only the CTF metadata parser logs (its errors).  Only for
 * single-threaded phases (opening a trace). */
struct tn_bt_log_capture {
	int saved_stderr;
	int fd;
};
void tn_bt_capture_begin(struct tn_bt_log_capture *capture, bool explain);

/* Stop capturing and put the explanation of the first error logged (with
 * the warnings just before it) into buf, or "" if none was logged.  With
 * --verbose the captured log is also copied to stderr. */
void tn_bt_capture_end(struct tn_bt_log_capture *capture, char *buf,
		size_t size);

/* Fill err with "PREFIX: DETAIL", or "PREFIX: CAUSE" with the innermost
 * useful cause of the thread's libbabeltrace2 error when detail (from
 * tn_bt_capture_end()) is empty.  Takes and releases the thread's error. */
void tn_bt_set_error(struct tn_error *err, const char *detail,
		const char *prefix);

/* The stream file that the causes of the error last taken by
 * tn_bt_set_error() on this thread name ("Cannot add stream file `F` to
 * stream file group", tracenav's merge's "cannot read stream file `F`"),
 * as libbabeltrace2 names it (through a stand-in, see repair.h), or ""
 * when they name none. */
const char *tn_bt_get_failed_file(void);

#endif
