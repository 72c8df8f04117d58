/* bytes.h - the integers, varints, strings and checksums of the core's
 * binary formats: a writer that appends to a GByteArray and a reader
 * over bytes that never reads past their end (internal: not part of
 * the public API).
 *
 * Integers are little-endian.  A varint is unsigned LEB128: 7 bits a
 * byte, low bits first, the high bit set on every byte but the last, at
 * most 10 bytes.  Zigzag maps signed to unsigned as 0, -1, 1, -2, ... ->
 * 0, 1, 2, 3, ... and is written as a varint.  A string is its length
 * as a varint, then its bytes (no NUL).  A double is the u64 of its
 * IEEE 754 bits.
 *
 * Every take of the reader checks the bytes left first.  The first
 * failure is remembered with a message that names what was being read
 * ("a string value is cut short"); every take after it fails too,
 * reads nothing and gives 0, so that a run of takes may be checked
 * once, at its end.  The formats themselves (state snapshots, their
 * changes, the snapshots' section, the index cache) are described in
 * the files that write them.
 */
#ifndef TRACENAV_CORE_BYTES_H
#define TRACENAV_CORE_BYTES_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TN_BYTES_WHY_MAX 256

/* ---- writing: each appends to out ---- */

void tn_bytes_put_u8(GByteArray *out, uint8_t value);
void tn_bytes_put_u16(GByteArray *out, uint16_t value);
void tn_bytes_put_u32(GByteArray *out, uint32_t value);
void tn_bytes_put_u64(GByteArray *out, uint64_t value);
void tn_bytes_put_double(GByteArray *out, double value);
void tn_bytes_put_varint(GByteArray *out, uint64_t value);
void tn_bytes_put_zigzag(GByteArray *out, int64_t value);

/* The len bytes of data, as they are (data may be NULL when len is 0). */
void tn_bytes_put_raw(GByteArray *out, const void *data, size_t len);

/* The len bytes of text (no NUL among them), after len as a varint. */
void tn_bytes_put_string(GByteArray *out, const char *text, size_t len);

/* value as a varint at p (room for TN_BYTES_VARINT_MAX bytes); returns
 * its length: for a record written whole before one append. */
#define TN_BYTES_VARINT_MAX 10
size_t tn_bytes_encode_varint(uint8_t *p, uint64_t value);

/* ---- fixed places (headers checked by size first, lengths written
 * after what they count) ---- */

/* Write the low bytes (1 to 8) of value at p, little-endian. */
void tn_bytes_set_le(uint8_t *p, uint64_t value, unsigned bytes);

/* The little-endian integer of bytes (1 to 8) at p. */
uint64_t tn_bytes_get_le(const uint8_t *p, unsigned bytes);

/* ---- checksums ---- */

/* FNV-1a, 64 bits: the checksum of a state snapshot and of a delta. */
uint64_t tn_bytes_fnv1a64(const void *data, size_t size);

/* A 64-bit checksum that takes 8 bytes at a time (a multiply and two
 * xor-shifts a word): the checksum of the snapshots' section, tens of
 * megabytes in a few milliseconds.  Errors, not attacks, are what
 * either detects. */
uint64_t tn_bytes_hash64(const void *data, size_t size);

/* The same kind of checksum over four lanes of words, about three times
 * faster: the cache file's (hundreds of MB a second matter on the path
 * of every start). */
uint64_t tn_bytes_checksum64(const void *data, size_t size);

/* ---- reading ---- */

struct tn_bytes_reader {
	const uint8_t *at;	/* the next byte */
	size_t left;		/* bytes from at to the end; 0 once failed */
	bool failed;		/* once a take or tn_bytes_fail() failed */
	char why[TN_BYTES_WHY_MAX];	/* the first failure, or "" */
};

/* Read the size bytes of data (kept, not copied: they must outlive the
 * reader). */
void tn_bytes_reader_init(struct tn_bytes_reader *r, const void *data,
		size_t size);

/* Record a failure of the caller's own checks (a count beyond the bytes
 * left, a value out of range) unless one is recorded already: takes fail
 * from then on.  Returns -1. */
int tn_bytes_fail(struct tn_bytes_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Each take reads one item into *out: 0, or -1 (*out 0 or NULL) with
 * the first failure recorded.  what names the item in the message ("an
 * int value": "an int value is cut short"). */
int tn_bytes_take_u8(struct tn_bytes_reader *r, uint8_t *out,
		const char *what);
int tn_bytes_take_u16(struct tn_bytes_reader *r, uint16_t *out,
		const char *what);
int tn_bytes_take_u32(struct tn_bytes_reader *r, uint32_t *out,
		const char *what);
int tn_bytes_take_u64(struct tn_bytes_reader *r, uint64_t *out,
		const char *what);
int tn_bytes_take_i64(struct tn_bytes_reader *r, int64_t *out,
		const char *what);
int tn_bytes_take_double(struct tn_bytes_reader *r, double *out,
		const char *what);

/* A varint; one of more than 64 bits fails ("... is too large").  Most
 * are of one byte, read here (a restore reads millions). */
int tn_bytes_take_varint_long(struct tn_bytes_reader *r, uint64_t *out,
		const char *what);

static inline int tn_bytes_take_varint(struct tn_bytes_reader *r,
		uint64_t *out, const char *what)
{
	if (r->left && r->at[0] < 0x80) {
		*out = *r->at++;
		r->left--;
		return 0;
	}
	return tn_bytes_take_varint_long(r, out, what);
}

int tn_bytes_take_zigzag(struct tn_bytes_reader *r, int64_t *out,
		const char *what);

/* The next len bytes, borrowed from the reader's data. */
int tn_bytes_take_raw(struct tn_bytes_reader *r, size_t len,
		const uint8_t **out, const char *what);

/* A string as tn_bytes_put_string() writes it: *out borrows its *len
 * bytes from the reader's data (not NUL-terminated); one that holds a
 * NUL fails. */
int tn_bytes_take_string(struct tn_bytes_reader *r, const char **out,
		size_t *len, const char *what);

#endif
