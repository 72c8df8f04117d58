/* ctf-index.h - CTF packet index files, as LTTng writes them next to its
 * stream files (index/<stream>.idx) (internal: not part of the public
 * API).
 *
 * All big-endian: a 16-byte header (magic 0xC1F1DCC1, major, minor,
 * entry size: u32 each), then one entry per packet of the stream file,
 * in file order, made of u64 fields (enum tn_ctf_index_field).  Entries
 * of a later minor version may be longer; the fields keep their places.
 *
 * This module knows the format only: reading, checking, synthesising
 * and writing entries.  Which entries a slice keeps is slice.c's
 * business.  Error messages name the file and what is wrong with it;
 * the caller says what could not be done because of it.
 */
#ifndef TRACENAV_CORE_CTF_INDEX_H
#define TRACENAV_CORE_CTF_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/trace.h"

enum tn_ctf_index_field {	/* byte offsets of the u64 fields */
	TN_CTF_INDEX_OFFSET = 0,		/* bytes */
	TN_CTF_INDEX_PACKET_SIZE = 8,		/* bits */
	TN_CTF_INDEX_CONTENT_SIZE = 16,		/* bits */
	TN_CTF_INDEX_TIMESTAMP_BEGIN = 24,	/* clock cycles */
	TN_CTF_INDEX_TIMESTAMP_END = 32,
	TN_CTF_INDEX_EVENTS_DISCARDED = 40,
	TN_CTF_INDEX_STREAM_CLASS_ID = 48,
	TN_CTF_INDEX_STREAM_INSTANCE_ID = 56,	/* 1.1 */
	TN_CTF_INDEX_PACKET_SEQ_NUM = 64,	/* 1.1 */
};

/* A packet index in memory. */
struct tn_ctf_index {
	uint8_t *data;		/* header then entries, as in the file */
	size_t entry_size;
	size_t entry_count;	/* at least 1 once read or synthesised */
	bool has_instance_id;	/* 1.1: entries name their stream */
};

/* Whether stream file dir/name has an index file: true unless
 * dir/index/name.idx is known not to exist or is in another tool's
 * format (tn_ctf_index_is_foreign(): libbabeltrace2 passes over it as
 * if there were none, and finds the packets in the stream file).  An
 * unreadable one counts: reading it then says why it cannot be used. */
bool tn_ctf_index_exists(const char *dir, const char *name);

/* Whether dir/index/name.idx starts with 4 bytes that are not the
 * magic of a CTF packet index (another tool's index format). */
bool tn_ctf_index_is_foreign(const char *dir, const char *name);

/* Read dir/index/name.idx, the index of stream file dir/name of
 * file_size bytes, into *idx (zeroed by the caller) and check it
 * (header, whole entries, tn_ctf_index_check_entries()).  Returns 0, or
 * -1 with err; release *idx with tn_ctf_index_fini() either way. */
int tn_ctf_index_read(const char *dir, const char *name, uint64_t file_size,
		struct tn_ctf_index *idx, struct tn_error *err);

/* Read dir/index/name.idx into *idx (zeroed by the caller) and check
 * its header and that it holds whole entries, but not the entries
 * against the stream file.  Returns 0, or -1 with err; release *idx with
 * tn_ctf_index_fini() either way. */
int tn_ctf_index_load(const char *dir, const char *name,
		struct tn_ctf_index *idx, struct tn_error *err);

/* Check data, the size bytes of the packet index at path (named in
 * err) of a stream file of file_size bytes, as tn_ctf_index_read()
 * does, and put it into *idx (zeroed by the caller), which owns data
 * (g_malloc()'ed) whatever the outcome.  Returns 0, or -1 with err;
 * release *idx with tn_ctf_index_fini() either way. */
int tn_ctf_index_parse(const char *path, uint8_t *data, size_t size,
		uint64_t file_size, struct tn_ctf_index *idx,
		struct tn_error *err);

/* The packets follow one another from byte 0 (each where the previous
 * one ends, of a whole number of bytes) and cover exactly file_size
 * bytes: what a slice relies on (src.ctf.fs only checks the sum).  path
 * names the stream file in err.  Returns 0, or -1 with err. */
int tn_ctf_index_check_entries(const struct tn_ctf_index *idx,
		const char *path, uint64_t file_size, struct tn_error *err);

/* The field of entry `entry` (< idx->entry_count). */
uint64_t tn_ctf_index_get(const struct tn_ctf_index *idx, size_t entry,
		enum tn_ctf_index_field field);

/* The packet size (bytes) of a stream file of file_size bytes made of
 * count packets of one size: 0 with *size, or -1 with err when the file
 * size is not count times a multiple of 8 bytes.  path names the file. */
int tn_ctf_index_fixed_size(const char *path, uint64_t file_size,
		uint64_t count, uint64_t *size, struct tn_error *err);

/* Whether each of the count packets of size bytes of the stream file at
 * path starts with the CTF packet magic, in one byte order: 0 if so,
 * -1 with err otherwise (or when the file cannot be read). */
int tn_ctf_index_check_magics(const char *path, uint64_t count,
		uint64_t size, struct tn_error *err);

/* Fill *idx (zeroed by the caller) with a CTF index 1.1 of count packets
 * of size bytes, packet k from begin_ns[k] to end_ns[k] widened to whole
 * cycles of clock, numbered 0..count-1.  The fields that src.ctf.fs 2.0
 * ignores (content size: the packet size; discarded events: 0) are not
 * known from a packet table. */
void tn_ctf_index_synthesise(struct tn_ctf_index *idx, uint64_t count,
		uint64_t size, const int64_t *begin_ns, const int64_t *end_ns,
		const struct tn_clock_info *clock);

/* Write a new file at path (0600; it must not exist) holding idx's
 * header and its entries from `first` (< entry_count) on, the first
 * one's packet size grown by the bytes before it, so that the sizes
 * still add up to the stream file's size.  Returns 0, or -1 with err. */
int tn_ctf_index_write_from(const struct tn_ctf_index *idx, size_t first,
		const char *path, struct tn_error *err);

/* Fill *idx (zeroed by the caller) with a CTF index 1.0 of count
 * packets of size bytes whose times are not known: 0, as LTTng leaves
 * them in the entry of a packet it never closed (src.ctf.fs 2.0 reads a
 * stream file's packets in the order of its entries whatever their
 * times; slice.c keeps a packet whose end is 0). */
void tn_ctf_index_synthesise_untimed(struct tn_ctf_index *idx,
		uint64_t count, uint64_t size);

/* Write (or replace: through path.tmp, renamed) the file at path
 * (0600) holding idx's header and its first count (>= 1, <=
 * entry_count) entries, the last one's packet size set so that the
 * packets end at byte file_size of the stream file (after the last
 * one's start): the bytes after the packets kept are its padding, which
 * src.ctf.fs skips.  Returns 0, or -1 with err. */
int tn_ctf_index_write_first(const struct tn_ctf_index *idx, size_t count,
		uint64_t file_size, const char *path, struct tn_error *err);

/* Free what *idx holds.  Harmless on a zeroed one. */
void tn_ctf_index_fini(struct tn_ctf_index *idx);

#endif
