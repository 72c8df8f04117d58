/* packets-collect.h - packet tables gathered while a reader reads the
 * whole trace (internal: not part of the public API).
 *
 * The preparse feeds every message of its reader here; the begin and
 * end times of the packets of each stream whose file has no packet
 * index become that file's packet table (packets.h).  Packets without
 * times (DPDK traces) get the times of their first and last events.
 */
#ifndef TRACENAV_CORE_PACKETS_COLLECT_H
#define TRACENAV_CORE_PACKETS_COLLECT_H

#include <babeltrace2/babeltrace.h>

#include "tracenav/packets.h"
#include "tracenav/reader.h"

struct tn_packets_collector;

/* A new, empty collector.  Never NULL.  One thread at a time. */
struct tn_packets_collector *tn_packets_collector_create(void);

/* Note msg's time if it begins or ends a packet of a stream worth a
 * table (its stream has a clock and its file, which src.ctf.fs names a
 * stream after, has no packet index), or if it is an event of such a
 * stream whose packets have no times.  Other messages are ignored. */
void tn_packets_collector_add(struct tn_packets_collector *collector,
		const bt_message *msg);

/* Add to tables the table of every stream seen whose packets all ended
 * (the reader reached the end of the trace).  The collector is left
 * without them. */
void tn_packets_collector_finish(struct tn_packets_collector *collector,
		struct tn_packet_tables *tables);

/* The next item of reader (as tn_reader_next() gives it), giving the
 * messages on the way (packet bounds, events) to collector when it is
 * not NULL. */
enum tn_reader_status tn_packets_collector_next_item(struct tn_reader *reader,
		struct tn_packets_collector *collector, struct tn_event *ev,
		struct tn_error *err);

/* NULL-safe. */
void tn_packets_collector_destroy(struct tn_packets_collector *collector);

#endif
