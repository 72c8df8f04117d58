/* merge-filter.h - tracenav's merge of a trace's streams, as a
 * libbabeltrace2 filter component class (internal: not part of the
 * public API).
 *
 * A reader's graph connects every output port of its src.ctf.fs
 * components to one component of this class, in place of
 * flt.utils.muxer: like the muxer, it grows an input port for each
 * connection, makes one upstream message iterator per connected input
 * port, in port order, and gives their messages in the muxer's order
 * (merge-heap.h, merge-compare.h), with its checks of the streams'
 * clocks and its time, and seeks to the beginning as the muxer does (the
 * trimmer needs it).  What differs is the cost: a binary heap of the
 * upstream iterators' next messages, so a message costs log2(streams)
 * comparisons of times instead of one per stream.
 */
#ifndef TRACENAV_CORE_MERGE_FILTER_H
#define TRACENAV_CORE_MERGE_FILTER_H

#include <babeltrace2/babeltrace.h>

#include "tracenav/error.h"

/* Borrow the component class (made once for the process, never freed)
 * into *cls.  Any thread; add components of it under
 * tn_bt_classes_lock(), as those of the plugins.  Returns 0, or -1 with
 * err. */
int tn_merge_filter_class(const bt_component_class_filter **cls,
		struct tn_error *err);

#endif
