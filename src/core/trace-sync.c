/* trace-sync.c - a trace whose readers correct its hosts' clocks (see
 * tn_trace_set_sync() in trace.h): each group's transform and the
 * corrected first event (above the reader, which reads them through
 * trace.c's getters; trace-range.c corrects the range).
 *
 * A group is one trace of one host (its directories share a UUID), so
 * one transform stands for all its streams: the one that
 * tn_sync_transform_of_stream() finds for them, by the trace's
 * hostname, else its name.
 */
#include <glib.h>
#include <pthread.h>
#include <string.h>

#include "tracenav/reader.h"
#include "tracenav/sync.h"
#include "trace-object.h"
#include "trace-private.h"

/* The host of sync that trace directory dir (as tn_trace_get_dir())
 * belongs to, or NULL. */
static const struct tn_sync_host *host_of_dir(const struct tn_trace *trace,
		const char *dir)
{
	for (guint i = 0; i < trace->infos->len; i++) {
		const struct tn_trace_info *info = trace->infos->pdata[i];

		for (size_t d = 0; d < info->dir_count; d++) {
			const struct tn_sync_host *host;

			if (strcmp(info->dirs[d], dir) != 0)
				continue;
			host = tn_sync_find_host(trace->sync, info->hostname);
			return host ? host : tn_sync_find_host(trace->sync,
				info->name);
		}
	}
	return NULL;
}

/* The first event's corrected time: the first a reader with the
 * correction gives. */
static void find_first_event(struct tn_trace *trace)
{
	struct tn_reader *reader;
	struct tn_event ev;
	struct tn_error err;

	trace->has_sync_first_event = false;
	if (tn_reader_create(trace, NULL, &reader, &err))
		return;
	while (tn_reader_next(reader, &ev, &err) == TN_READER_OK) {
		bool found = ev.kind == TN_EVENT_KIND_EVENT;

		if (found) {
			trace->has_sync_first_event = ev.has_ns;
			trace->sync_first_event_ns = ev.ns;
		}
		tn_event_release(&ev);
		if (found)
			break;
	}
	tn_reader_destroy(reader);
}

void tn_trace_set_sync(struct tn_trace *trace, const struct tn_sync *sync)
{
	tn_sync_destroy(trace->sync);
	trace->sync = NULL;
	g_clear_pointer(&trace->group_transforms, g_free);
	/* The reader the trace opened with reads the recorded times. */
	tn_reader_destroy(tn_trace_take_start_reader(trace));
	/* What the reads saw go back is seen again, on the new clocks. */
	pthread_mutex_lock(&trace->shared->steps_lock);
	g_hash_table_remove_all(trace->shared->steps);
	pthread_mutex_unlock(&trace->shared->steps_lock);
	if (!sync)
		return;
	trace->sync = tn_sync_copy(sync);
	trace->group_transforms = g_new0(const struct tn_sync_transform *,
		trace->groups->len);
	for (guint g = 0; g < trace->groups->len; g++) {
		const struct tn_sync_host *host = host_of_dir(trace,
			tn_trace_get_group_dir(trace, g, 0));

		trace->group_transforms[g] = host ? &host->transform : NULL;
	}
	find_first_event(trace);
}
