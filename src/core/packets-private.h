/* packets-private.h - what the slices remember about the stream files of
 * packet tables (internal: not part of the public API).
 *
 * Before it synthesises a packet index from a table, a slice checks that
 * the CTF packet magic is at every packet boundary of the stream file:
 * one read per packet, so it is done once per version of the file (its
 * mtime), not on every seek.  The answer is kept by the tables, but
 * outside their immutable data: the slices of several threads (the UI,
 * index workers, jobs) read and write it at once, under a mutex.
 */
#ifndef TRACENAV_CORE_PACKETS_PRIVATE_H
#define TRACENAV_CORE_PACKETS_PRIVATE_H

#include <stdint.h>

#include "tracenav/packets.h"

enum tn_packets_magics {
	TN_PACKETS_MAGICS_UNKNOWN = 0,	/* not checked for this mtime */
	TN_PACKETS_MAGICS_FOUND = 1,	/* a magic at every boundary */
	TN_PACKETS_MAGICS_MISSING = -1,	/* a boundary without one */
};

/* What a check of table's stream file found, if it was made on the file
 * as it is at mtime_ns.  Any thread. */
enum tn_packets_magics tn_packets_get_magics(
		const struct tn_packet_tables *tables, size_t table,
		int64_t mtime_ns);

/* Remember what a check of table's stream file, at mtime_ns, found.
 * Any thread; threads racing to check find the same answer. */
void tn_packets_set_magics(const struct tn_packet_tables *tables,
		size_t table, int64_t mtime_ns, enum tn_packets_magics found);

#endif
