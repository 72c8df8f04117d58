/* bytes.c - the integers, varints, strings and checksums of the core's
 * binary formats (see bytes.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "src/core/bytes.h"

/* ---- writing ---- */

void tn_bytes_set_le(uint8_t *p, uint64_t value, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t) (value >> (8 * i));
}

uint64_t tn_bytes_get_le(const uint8_t *p, unsigned bytes)
{
	uint64_t value = 0;

	for (unsigned i = bytes; i-- > 0;)
		value = value << 8 | p[i];
	return value;
}

static void put_le(GByteArray *out, uint64_t value, unsigned bytes)
{
	uint8_t buf[8];

	tn_bytes_set_le(buf, value, bytes);
	g_byte_array_append(out, buf, bytes);
}

void tn_bytes_put_u8(GByteArray *out, uint8_t value)
{
	g_byte_array_append(out, &value, 1);
}

void tn_bytes_put_u16(GByteArray *out, uint16_t value)
{
	put_le(out, value, 2);
}

void tn_bytes_put_u32(GByteArray *out, uint32_t value)
{
	put_le(out, value, 4);
}

void tn_bytes_put_u64(GByteArray *out, uint64_t value)
{
	put_le(out, value, 8);
}

void tn_bytes_put_double(GByteArray *out, double value)
{
	uint64_t bits;

	memcpy(&bits, &value, sizeof(bits));
	put_le(out, bits, 8);
}

size_t tn_bytes_encode_varint(uint8_t *p, uint64_t value)
{
	size_t n = 0;

	do {
		p[n] = (uint8_t) (value & 0x7f);
		value >>= 7;
		if (value)
			p[n] |= 0x80;
		n++;
	} while (value);
	return n;
}

void tn_bytes_put_varint(GByteArray *out, uint64_t value)
{
	uint8_t buf[TN_BYTES_VARINT_MAX];

	g_byte_array_append(out, buf, (guint) tn_bytes_encode_varint(buf,
		value));
}

void tn_bytes_put_zigzag(GByteArray *out, int64_t value)
{
	tn_bytes_put_varint(out, ((uint64_t) value << 1) ^
		(uint64_t) (value >> 63));
}

void tn_bytes_put_raw(GByteArray *out, const void *data, size_t len)
{
	if (len)
		g_byte_array_append(out, data, (guint) len);
}

void tn_bytes_put_string(GByteArray *out, const char *text, size_t len)
{
	tn_bytes_put_varint(out, len);
	tn_bytes_put_raw(out, text, len);
}

/* ---- checksums ---- */

uint64_t tn_bytes_fnv1a64(const void *data, size_t size)
{
	const uint8_t *p = data;
	uint64_t h = 0xcbf29ce484222325u;

	for (size_t i = 0; i < size; i++) {
		h ^= p[i];
		h *= 0x100000001b3u;
	}
	return h;
}

/* A word into h. */
static inline uint64_t mix(uint64_t h, uint64_t word)
{
	h = (h ^ word) * 0xff51afd7ed558ccdu;
	return h ^ (h >> 32);
}

/* The little-endian word at p. */
static inline uint64_t word_at(const uint8_t *p)
{
	uint64_t word;

	memcpy(&word, p, sizeof(word));
	return GUINT64_FROM_LE(word);
}

uint64_t tn_bytes_hash64(const void *data, size_t size)
{
	const uint8_t *p = data;
	uint64_t h = 0x9e3779b97f4a7c15u ^ size;
	size_t i = 0;

	/* A load, not 8 shifts. */
	for (; i + 8 <= size; i += 8)
		h = mix(h, word_at(p + i));
	for (; i < size; i++)
		h = (h ^ p[i]) * 0x100000001b3u;
	h ^= h >> 29;
	h *= 0xc4ceb9fe1a85ec53u;
	h ^= h >> 32;
	return h;
}

uint64_t tn_bytes_checksum64(const void *data, size_t size)
{
	const uint8_t *p = data;
	uint64_t h[4] = { 0x9e3779b97f4a7c15u ^ size, 0xbf58476d1ce4e5b9u,
		0x94d049bb133111ebu, 0x2545f4914f6cdd1du };
	size_t i = 0;

	/* Four words at a time into four lanes: their multiplies do not
	 * wait for each other. */
	for (; i + 32 <= size; i += 32) {
		h[0] = mix(h[0], word_at(p + i));
		h[1] = mix(h[1], word_at(p + i + 8));
		h[2] = mix(h[2], word_at(p + i + 16));
		h[3] = mix(h[3], word_at(p + i + 24));
	}
	for (int k = 1; k < 4; k++)
		h[0] = mix(h[0], h[k]);
	return h[0] ^ tn_bytes_hash64(p + i, size - i);
}

/* ---- reading ---- */

void tn_bytes_reader_init(struct tn_bytes_reader *r, const void *data,
		size_t size)
{
	r->at = data;
	r->left = size;
	r->failed = false;
	r->why[0] = '\0';
}

int tn_bytes_fail(struct tn_bytes_reader *r, const char *fmt, ...)
{
	va_list args;

	if (r->failed)
		return -1;
	r->failed = true;
	r->left = 0;
	va_start(args, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, args);
	va_end(args);
	return -1;
}

/* The next bytes of the reader into *at: 0, or -1 (*at NULL) with the
 * failure recorded. */
static int take(struct tn_bytes_reader *r, size_t bytes, const uint8_t **at,
		const char *what)
{
	*at = NULL;
	if (r->failed)
		return -1;
	if (r->left < bytes)
		return tn_bytes_fail(r, "%s is cut short", what);
	*at = r->at;
	r->at += bytes;
	r->left -= bytes;
	return 0;
}

/* A little-endian integer of bytes into *out: 0, or -1 with *out 0. */
static int take_le(struct tn_bytes_reader *r, unsigned bytes, uint64_t *out,
		const char *what)
{
	const uint8_t *at;

	if (take(r, bytes, &at, what)) {
		*out = 0;
		return -1;
	}
	*out = tn_bytes_get_le(at, bytes);
	return 0;
}

int tn_bytes_take_u8(struct tn_bytes_reader *r, uint8_t *out,
		const char *what)
{
	/* Nothing is left once a take failed. */
	if (!r->left) {
		*out = 0;
		return tn_bytes_fail(r, "%s is cut short", what);
	}
	*out = *r->at++;
	r->left--;
	return 0;
}

int tn_bytes_take_u16(struct tn_bytes_reader *r, uint16_t *out,
		const char *what)
{
	uint64_t value;
	int status = take_le(r, 2, &value, what);

	*out = (uint16_t) value;
	return status;
}

int tn_bytes_take_u32(struct tn_bytes_reader *r, uint32_t *out,
		const char *what)
{
	uint64_t value;
	int status = take_le(r, 4, &value, what);

	*out = (uint32_t) value;
	return status;
}

int tn_bytes_take_u64(struct tn_bytes_reader *r, uint64_t *out,
		const char *what)
{
	return take_le(r, 8, out, what);
}

int tn_bytes_take_i64(struct tn_bytes_reader *r, int64_t *out,
		const char *what)
{
	uint64_t value;
	int status = take_le(r, 8, &value, what);

	*out = (int64_t) value;
	return status;
}

int tn_bytes_take_double(struct tn_bytes_reader *r, double *out,
		const char *what)
{
	uint64_t bits;
	int status = take_le(r, 8, &bits, what);

	memcpy(out, &bits, sizeof(bits));
	return status;
}

int tn_bytes_take_varint_long(struct tn_bytes_reader *r, uint64_t *out,
		const char *what)
{
	/* At most 10 bytes, the tenth holding bit 63 alone; nothing is left
	 * once a take failed. */
	size_t max = r->left < 10 ? r->left : 10;
	uint64_t value = 0;

	for (size_t i = 0; i < max; i++) {
		uint8_t byte = r->at[i];

		value |= (uint64_t) (byte & 0x7f) << (7 * i);
		if (byte < 0x80) {
			if (i == 9 && byte > 1)
				break;
			r->at += i + 1;
			r->left -= i + 1;
			*out = value;
			return 0;
		}
	}
	*out = 0;
	return tn_bytes_fail(r, max == 10 ? "%s is too large" :
		"%s is cut short", what);
}

int tn_bytes_take_zigzag(struct tn_bytes_reader *r, int64_t *out,
		const char *what)
{
	uint64_t u;
	int status = tn_bytes_take_varint(r, &u, what);

	*out = (int64_t) (u >> 1) ^ -(int64_t) (u & 1);
	return status;
}

int tn_bytes_take_raw(struct tn_bytes_reader *r, size_t len,
		const uint8_t **out, const char *what)
{
	return take(r, len, out, what);
}

int tn_bytes_take_string(struct tn_bytes_reader *r, const char **out,
		size_t *len, const char *what)
{
	uint64_t n;
	const uint8_t *at;

	*out = NULL;
	*len = 0;
	if (tn_bytes_take_varint(r, &n, what))
		return -1;
	if (n > r->left)
		return tn_bytes_fail(r, "%s is cut short", what);
	take(r, (size_t) n, &at, what);
	if (n && memchr(at, '\0', (size_t) n))
		return tn_bytes_fail(r, "%s holds a NUL", what);
	*out = (const char *) at;
	*len = (size_t) n;
	return 0;
}
