/* sync-stream.h - the correction of a stream's host (internal: not
 * part of the public API; see sync.h). */
#ifndef TRACENAV_CORE_SYNC_STREAM_H
#define TRACENAV_CORE_SYNC_STREAM_H

#include <babeltrace2/babeltrace.h>

#include "tracenav/sync.h"

/* The transform of stream's host in sync (its trace's "hostname", else
 * its trace's name), or NULL when sync is NULL or names no such host
 * (its clock is kept). */
const struct tn_sync_transform *tn_sync_transform_of_stream(
		const struct tn_sync *sync, const bt_stream *stream);

#endif
