/* cache-private.h - the index cache's file format, in memory
 * (internal: tn_cache_load() and tn_cache_save() of cache.h are the
 * API; the tests and the fuzzers of tests/fuzz reach the decoder
 * through these, without a trace and its files to key it). */
#ifndef TRACENAV_CORE_CACHE_PRIVATE_H
#define TRACENAV_CORE_CACHE_PRIVATE_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/cache.h"
#include "tracenav/trace.h"

/* Decode data, the size bytes of a whole cache file, as tn_cache_load()
 * does once it has read it, the key it holds aside (any key is taken):
 * HIT with *out (tn_index_destroy() it) and, when snapshots is not
 * NULL, the state snapshots in *snapshots (NULL when it has none); MISS
 * for a file of another format version and INVALID for a damaged one,
 * with err saying why (nothing set). */
enum tn_cache_status tn_cache_decode(const uint8_t *data, size_t size,
		struct tn_index **out, struct tn_state_snapshots **snapshots,
		struct tn_error *err);

/* The bytes of the cache file of index and snapshots (NULL: none), as
 * tn_cache_save() writes them, with a key of zeros.  index must be
 * consistent (what tn_cache_decode() gives is). */
GByteArray *tn_cache_encode(const struct tn_index *index,
		const struct tn_state_snapshots *snapshots);

/* Make the size bytes at data pass the checks of a whole file that come
 * before its payload's: the current format version, the payload's
 * length and the checksum are written in their places (nothing when
 * data is shorter than a header and a trailer).  So that a test or a
 * fuzzer reaches the payload's checks whatever the format version of
 * its bytes. */
void tn_cache_seal(uint8_t *data, size_t size);

/* The name of the cache files of trace as its files are now, on its
 * recorded clocks (its correction left aside), without suffix; and the
 * prefix that the names of the files of every state of it share
 * (g_free() both): for what the cache keeps beside the index
 * (cache-sync.c).  Returns 0, or -1 with err. */
int tn_cache_recorded_name(const struct tn_trace *trace, char **prefix,
		char **name, struct tn_error *err);

#endif
