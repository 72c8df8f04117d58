/* packets.h - the packet tables of a trace: for each stream file that has
 * no packet index (index/<file>.idx), the begin and end times of its
 * packets, in file order, as a full read found them.
 *
 * The preparse collects them (index.h) and the cache saves them; given
 * to the trace (tn_trace_set_packet_tables()), they let a fast seek
 * synthesise the packet index of a stream file whose packets are all one
 * size.  A set of tables is filled once, then only read: it may be
 * shared by threads from then on.
 */
#ifndef TRACENAV_PACKETS_H
#define TRACENAV_PACKETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tn_packet_tables;

/* A new, empty set of tables.  Never NULL. */
struct tn_packet_tables *tn_packets_create(void);

/* Free tables.  NULL-safe.  No thread may still read them (a trace they
 * were given to must have been given NULL or other tables first). */
void tn_packets_destroy(struct tn_packet_tables *tables);

/* Add the table of stream file `file` (its real path): count packets
 * (at least 1), begin_ns[k] and end_ns[k] the times of packet k.  The
 * tables take begin_ns and end_ns (g_malloc'ed arrays of count) and copy
 * file.  Only while filling, before the tables are shared. */
void tn_packets_add_table(struct tn_packet_tables *tables, const char *file,
		uint64_t count, int64_t *begin_ns, int64_t *end_ns);

/* The number of tables (stream files). */
size_t tn_packets_get_table_count(const struct tn_packet_tables *tables);

/* Table `table` (< tn_packets_get_table_count()): its stream file's real
 * path, its packet count (>= 1) and the count times of its packets'
 * begins and ends.  Valid as long as the tables. */
const char *tn_packets_get_file(const struct tn_packet_tables *tables,
		size_t table);
uint64_t tn_packets_get_packet_count(const struct tn_packet_tables *tables,
		size_t table);
const int64_t *tn_packets_borrow_begin_ns(
		const struct tn_packet_tables *tables, size_t table);
const int64_t *tn_packets_borrow_end_ns(
		const struct tn_packet_tables *tables, size_t table);

/* The table of stream file `file` (a real path): true and *table set,
 * false when there is none. */
bool tn_packets_find(const struct tn_packet_tables *tables, const char *file,
		size_t *table);

#endif
