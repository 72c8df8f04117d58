/* reader.h - events of a trace in time order.
 *
 * A reader owns one libbabeltrace2 graph (src.ctf.fs per trace, muxer,
 * optional trimmer, tracenav's sink) and hands out its events and
 * discarded-item notices one by one, in the order `babeltrace2` prints
 * them.  A reader is not thread-safe: a worker thread opens its own.
 */
#ifndef TRACENAV_READER_H
#define TRACENAV_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/event.h"
#include "tracenav/sync.h"
#include "tracenav/trace.h"

struct tn_reader;

/* Bounds, as `babeltrace2 --begin/--end` applies them: through
 * libbabeltrace2's trimmer where it can be trusted with the trace, and
 * by the reader itself on the others (packets without times), which
 * then places an item without a time at the last time read before it. */
struct tn_reader_options {
	bool has_begin;		/* drop what precedes begin_ns */
	int64_t begin_ns;
	bool has_end;		/* stop after end_ns (inclusive) */
	int64_t end_ns;
	/* Correct each host's times (NULL: keep them; it outlives the
	 * reader): the streams merge in the order of their corrected
	 * times, every item's ns is its corrected time, and the bounds
	 * are corrected times. */
	const struct tn_sync *sync;
};

/* As every reading function of the core (error.h): 1 an item, 0 the
 * end, -1 an error. */
enum tn_reader_status {
	TN_READER_OK = 1,	/* *ev holds the next item */
	TN_READER_END = 0,	/* no more items */
	TN_READER_ERROR = -1,	/* err says why; the reader cannot go on */
};

/* Create a reader over trace (which must outlive it), positioned before
 * its first item (or the first at or after options->begin_ns).  options
 * may be NULL.  Any thread.  Returns 0 and sets *out, or -1 with err. */
int tn_reader_create(const struct tn_trace *trace,
		const struct tn_reader_options *options,
		struct tn_reader **out, struct tn_error *err);

/* One line per stream whose times went back so far while reader read
 * it ("stream file `F`: N events went back in time, by at most D ns",
 * and the packet bounds and notices that did),
 * sorted; NULL-terminated, the caller's (g_strfreev()).  A message
 * whose time goes back (an event, or a packet's beginning after a
 * packet whose end time runs past it) keeps its time and its place in
 * its stream: it comes right after the one before it in its stream,
 * where babeltrace2 stops. */
char **tn_reader_describe_steps(const struct tn_reader *reader);

/* Free reader and its graph, on any thread (one at a time per reader).
 * NULL-safe. */
void tn_reader_destroy(struct tn_reader *reader);

/* Read the next item into *ev (which the caller releases).  After END
 * or ERROR, every call says the same again. */
enum tn_reader_status tn_reader_next(struct tn_reader *reader,
		struct tn_event *ev, struct tn_error *err);

#endif
