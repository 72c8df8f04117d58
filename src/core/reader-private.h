/* reader-private.h - raw message access for the core's own use
 * (internal: not part of the public API). */
#ifndef TRACENAV_CORE_READER_PRIVATE_H
#define TRACENAV_CORE_READER_PRIVATE_H

#include <babeltrace2/babeltrace.h>
#include <stdbool.h>

#include "tracenav/reader.h"

/* Like tn_reader_create(), but read dirs[i] in place of trace directory
 * i (tn_trace_get_dir()), and nothing of it where dirs[i] is NULL: a
 * sliced view of the trace (tn_slice_borrow_dirs(), slice.h).  dirs
 * NULL: the trace's own directories.  The directories must stay until
 * the reader is destroyed. */
int tn_reader_create_on_dirs(const struct tn_trace *trace,
		const struct tn_reader_options *options, const char *const *dirs,
		struct tn_reader **out, struct tn_error *err);

/* A reader of the one source component plugin.name made with params
 * (src.ctf.lttng-live: live.h; any other: component.h): no trace, no
 * bounds.  Its ports go through libbabeltrace2's muxer when merge or
 * when it has several; a single one, otherwise, straight to the reader
 * (the source's own order).  When the source has nothing yet ("try
 * again"), tn_reader_next() waits retry_us and asks again, until it has
 * an item, the source ends or fails.  Returns 0 and sets *out, or -1
 * with err. */
int tn_reader_create_on_source(const char *plugin, const char *name,
		const bt_value *params, bool merge, uint64_t retry_us,
		struct tn_reader **out, struct tn_error *err);

/* Like tn_reader_next() but returns every message (stream and packet
 * beginnings and ends included), and ignores the bounds that the reader
 * applies itself (without trimmer); the caller puts *msg's reference. */
enum tn_reader_status tn_reader_next_message(struct tn_reader *reader,
		const bt_message **msg, struct tn_error *err);

/* Give msg (and its reference) back: the next call of
 * tn_reader_next_message() or tn_reader_next() returns it.  Messages given
 * back one after the other come out in the reverse order. */
void tn_reader_push_back(struct tn_reader *reader, const bt_message *msg);

/* A message of tn_reader_next_message() that the caller keeps (not an
 * event nor a notice, not given back): its time still counts where the
 * next items are placed (tn_event's ns: the latest time read so far,
 * at the least). */
void tn_reader_place_other(struct tn_reader *reader, const bt_message *msg);

#endif
