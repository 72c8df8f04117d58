/* state-save.c - snapshots of a state: tn_state_save() and
 * tn_state_restore() (see state.h).
 *
 * The blob (integers little-endian; "varint" is unsigned LEB128, 7 bits
 * a byte, low bits first, at most 10 bytes; "zigzag" maps signed to
 * unsigned as 0, -1, 1, -2, ... -> 0, 1, 2, 3, ...):
 *
 *   magic            4 bytes  "TNST"
 *   version          u32      2
 *   attribute count  u32
 *   string count     u32
 *   current time     u64      the state's current time (two's complement)
 *   strings          string count times: varint length, bytes (no NUL);
 *                    every distinct name and string value once
 *   attributes       attribute count times, in quark order:
 *     parent         varint   quark - parent (1 for a child of quark - 1;
 *                             quark + 1 at the top)
 *     name           varint   index in the strings
 *     flags          u8       bits 0-2: the kept type (enum
 *                             tn_state_type); 8: the value is null;
 *                             the start's 16: ns is INT64_MIN,
 *                             32: has_pos, 64: pos.ns is ns, 128: the
 *                             tie is 0
 *     value          unless null, of the kept type: int, long: zigzag
 *                    varint; double: u64 (IEEE 754 bits); string:
 *                    varint index
 *     start ns       varint   current time - ns (modulo 2^64), unless 16
 *     pos ns         varint   ns - pos.ns (modulo 2^64), if 32, not 64
 *     pos tie        varint   if 32, not 128
 *   checksum         u64      FNV-1a (64 bits) of everything before it
 *
 * Parents come before their children (quarks are given in order of
 * creation), so a restore adds the attributes in order and gets the
 * same quarks.  A restore checks every read against the blob's end and
 * every field against what a state can hold: a damaged blob is refused
 * with a message, never read past its end.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "src/core/state-private.h"

#define MAGIC "TNST"
#define VERSION 2
#define HEADER_LEN (4 + 4 + 4 + 4 + 8)
#define CHECKSUM_LEN 8

#define FLAG_TYPE 7u
#define FLAG_NULL 8u
#define FLAG_NEVER 16u
#define FLAG_HAS_POS 32u
#define FLAG_POS_AT_NS 64u
#define FLAG_TIE_0 128u

static uint64_t fnv1a64(const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (size_t i = 0; i < size; i++) {
		h ^= data[i];
		h *= 0x100000001b3u;
	}
	return h;
}

/* --- Writing --- */

static void put_le(GByteArray *out, uint64_t value, unsigned bytes)
{
	uint8_t buf[8];

	for (unsigned i = 0; i < bytes; i++)
		buf[i] = (uint8_t) (value >> (8 * i));
	g_byte_array_append(out, buf, bytes);
}

static void put_varint(GByteArray *out, uint64_t value)
{
	uint8_t buf[10];
	unsigned n = 0;

	do {
		buf[n] = (uint8_t) (value & 0x7f);
		value >>= 7;
		if (value)
			buf[n] |= 0x80;
		n++;
	} while (value);
	g_byte_array_append(out, buf, n);
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t) v << 1) ^ (uint64_t) (v >> 63);
}

static int64_t unzigzag(uint64_t u)
{
	return (int64_t) (u >> 1) ^ -(int64_t) (u & 1);
}

static void put_u8(GByteArray *out, uint8_t byte)
{
	g_byte_array_append(out, &byte, 1);
}

/* The index of interned string s in the table, adding it. */
static uint32_t string_index(GHashTable *indexes, GArray *strings,
		const char *s)
{
	gpointer found;

	if (g_hash_table_lookup_extended(indexes, s, NULL, &found))
		return GPOINTER_TO_UINT(found);
	/* The table only compares the pointers. */
	g_hash_table_insert(indexes, (gpointer) (uintptr_t) s,
		GUINT_TO_POINTER(strings->len));
	g_array_append_val(strings, s);
	return strings->len - 1;
}

static void put_value(GByteArray *out, const struct tn_state_value *value,
		GHashTable *indexes, GArray *strings)
{
	switch (value->type) {
	case TN_STATE_NULL:
		break;
	case TN_STATE_INT:
		put_varint(out, zigzag(value->u.i));
		break;
	case TN_STATE_LONG:
		put_varint(out, zigzag(value->u.l));
		break;
	case TN_STATE_DOUBLE: {
		uint64_t bits;

		memcpy(&bits, &value->u.d, sizeof(bits));
		put_le(out, bits, 8);
		break;
	}
	case TN_STATE_STRING:
		put_varint(out, string_index(indexes, strings, value->u.s));
		break;
	}
}

static uint8_t stamp_flags(const struct tn_state_stamp *stamp)
{
	uint8_t flags = 0;

	if (stamp->ns == INT64_MIN)
		flags |= FLAG_NEVER;
	if (stamp->has_pos) {
		flags |= FLAG_HAS_POS;
		if (stamp->pos.ns == stamp->ns)
			flags |= FLAG_POS_AT_NS;
		if (stamp->pos.tie == 0)
			flags |= FLAG_TIE_0;
	}
	return flags;
}

static void put_stamp(GByteArray *out, const struct tn_state_stamp *stamp,
		uint8_t flags, int64_t now)
{
	if (!(flags & FLAG_NEVER))
		put_varint(out, (uint64_t) now - (uint64_t) stamp->ns);
	if (!(flags & FLAG_HAS_POS))
		return;
	if (!(flags & FLAG_POS_AT_NS))
		put_varint(out, (uint64_t) stamp->ns - (uint64_t) stamp->pos.ns);
	if (!(flags & FLAG_TIE_0))
		put_varint(out, stamp->pos.tie);
}

void tn_state_save(const struct tn_state *state, GByteArray *buf)
{
	GHashTable *indexes = g_hash_table_new(g_direct_hash, g_direct_equal);
	GArray *strings = g_array_new(FALSE, FALSE, sizeof(const char *));
	GByteArray *attrs = g_byte_array_new();
	guint start = buf->len;

	/* The attributes first, to learn the strings they use. */
	for (int q = 0; q < state->count; q++) {
		const struct tn_state_attr *attr = &state->attrs[q];
		uint8_t flags = (uint8_t) attr->type
			| stamp_flags(&attr->start);

		if (attr->value.type == TN_STATE_NULL)
			flags |= FLAG_NULL;
		put_varint(attrs, (uint64_t) ((int64_t) q - attr->parent));
		put_varint(attrs, string_index(indexes, strings, attr->name));
		put_u8(attrs, flags);
		put_value(attrs, &attr->value, indexes, strings);
		put_stamp(attrs, &attr->start, flags, state->current_time);
	}
	g_byte_array_append(buf, (const guint8 *) MAGIC, 4);
	put_le(buf, VERSION, 4);
	put_le(buf, (uint64_t) state->count, 4);
	put_le(buf, strings->len, 4);
	put_le(buf, (uint64_t) state->current_time, 8);
	for (guint i = 0; i < strings->len; i++) {
		const char *s = g_array_index(strings, const char *, i);
		size_t len = strlen(s);

		put_varint(buf, len);
		g_byte_array_append(buf, (const guint8 *) s, (guint) len);
	}
	g_byte_array_append(buf, attrs->data, attrs->len);
	put_le(buf, fnv1a64(buf->data + start, buf->len - start), 8);
	g_byte_array_free(attrs, TRUE);
	g_array_free(strings, TRUE);
	g_hash_table_destroy(indexes);
}

/* --- Reading --- */

/* A bounded view of the blob: every take fails once the bytes run out. */
struct reader {
	const uint8_t *at;
	size_t left;
	char why[200];		/* what was wrong, on failure */
};

__attribute__((format(printf, 2, 3)))
static bool fail(struct reader *r, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, args);
	va_end(args);
	return false;
}

static bool take_le(struct reader *r, unsigned bytes, uint64_t *out,
		const char *what)
{
	uint64_t value = 0;

	if (r->left < bytes)
		return fail(r, "it ends inside %s", what);
	for (unsigned i = bytes; i-- > 0;)
		value = value << 8 | r->at[i];
	r->at += bytes;
	r->left -= bytes;
	*out = value;
	return true;
}

static bool take_varint(struct reader *r, uint64_t *out, const char *what)
{
	uint64_t value = 0;

	for (unsigned shift = 0; shift < 70; shift += 7) {
		uint8_t byte;

		if (!r->left)
			return fail(r, "it ends inside %s", what);
		byte = *r->at++;
		r->left--;
		if (shift == 63 && byte > 1)
			return fail(r, "%s is too large", what);
		value |= (uint64_t) (byte & 0x7f) << shift;
		if (!(byte & 0x80)) {
			*out = value;
			return true;
		}
	}
	return fail(r, "%s is too large", what);
}

static bool take_u8(struct reader *r, uint8_t *out, const char *what)
{
	uint64_t v = 0;

	if (!take_le(r, 1, &v, what))
		return false;
	*out = (uint8_t) v;
	return true;
}

/* What a restore reads besides the attributes. */
struct restore {
	struct reader r;
	int64_t now;
	uint32_t string_count;
	const char **strings;	/* interned in the state */
};

static bool take_string(struct restore *rs, const char **out,
		const char *what)
{
	uint64_t index;

	if (!take_varint(&rs->r, &index, what))
		return false;
	if (index >= rs->string_count)
		return fail(&rs->r, "%s refers to string %" PRIu64 " of %"
			PRIu32, what, index, rs->string_count);
	*out = rs->strings[index];
	return true;
}

static bool read_strings(struct tn_state *state, struct restore *rs)
{
	GString *copy;
	bool ok = true;

	/* Each takes a byte at least: a count beyond that is damage, and
	 * checking it first bounds the allocation. */
	if (rs->string_count > rs->r.left)
		return fail(&rs->r, "it counts %" PRIu32 " strings in %zu "
			"bytes", rs->string_count, rs->r.left);
	rs->strings = g_new(const char *, rs->string_count ? rs->string_count
		: 1);
	copy = g_string_new(NULL);

	for (uint32_t i = 0; ok && i < rs->string_count; i++) {
		uint64_t len;

		if (!take_varint(&rs->r, &len, "a string's length"))
			ok = false;
		else if (len > rs->r.left)
			ok = fail(&rs->r, "string %" PRIu32 " is longer than "
				"what is left", i);
		else if (memchr(rs->r.at, '\0', len))
			ok = fail(&rs->r, "string %" PRIu32 " holds a NUL", i);
		if (!ok)
			break;
		g_string_truncate(copy, 0);
		g_string_append_len(copy, (const char *) rs->r.at,
			(gssize) len);
		rs->strings[i] = tn_state_intern(state, copy->str);
		rs->r.at += len;
		rs->r.left -= len;
	}
	g_string_free(copy, TRUE);
	return ok;
}

static bool read_value(struct restore *rs, enum tn_state_type type,
		struct tn_state_value *value)
{
	uint64_t u = 0;

	value->type = type;
	switch (type) {
	case TN_STATE_NULL:
		return true;
	case TN_STATE_INT:
		if (!take_varint(&rs->r, &u, "an int value"))
			return false;
		if (unzigzag(u) < INT32_MIN || unzigzag(u) > INT32_MAX)
			return fail(&rs->r, "an int value is out of range");
		value->u.i = (int32_t) unzigzag(u);
		return true;
	case TN_STATE_LONG:
		if (!take_varint(&rs->r, &u, "a long value"))
			return false;
		value->u.l = unzigzag(u);
		return true;
	case TN_STATE_DOUBLE:
		if (!take_le(&rs->r, 8, &u, "a double value"))
			return false;
		memcpy(&value->u.d, &u, sizeof(u));
		return true;
	case TN_STATE_STRING:
		return take_string(rs, &value->u.s, "a string value");
	}
	return fail(&rs->r, "a value has an unknown type");
}

static bool read_stamp(struct restore *rs, uint8_t flags,
		struct tn_state_stamp *stamp)
{
	uint64_t u = 0;

	*stamp = (struct tn_state_stamp) { 0 };
	if ((flags & (FLAG_POS_AT_NS | FLAG_TIE_0))
			&& !(flags & FLAG_HAS_POS))
		return fail(&rs->r, "a start without position has flags "
			"0x%02x", flags);
	if (flags & FLAG_NEVER) {
		stamp->ns = INT64_MIN;
	} else {
		if (!take_varint(&rs->r, &u, "a start's time"))
			return false;
		/* A start is never after the current time. */
		if (u > (uint64_t) rs->now - (uint64_t) INT64_MIN)
			return fail(&rs->r, "a start is after the current "
				"time");
		stamp->ns = (int64_t) ((uint64_t) rs->now - u);
	}
	if (!(flags & FLAG_HAS_POS))
		return true;
	stamp->has_pos = true;
	stamp->pos.ns = stamp->ns;
	if (!(flags & FLAG_POS_AT_NS)) {
		if (!take_varint(&rs->r, &u, "a start's position"))
			return false;
		stamp->pos.ns = (int64_t) ((uint64_t) stamp->ns - u);
	}
	if (flags & FLAG_TIE_0)
		return true;
	return take_varint(&rs->r, &stamp->pos.tie, "a start's tie");
}

static bool read_attribute(struct tn_state *state, struct restore *rs,
		int quark)
{
	struct tn_state_attr *attr;
	const char *name;
	uint64_t back;
	uint8_t flags;
	int parent, added;
	enum tn_state_type type;

	if (!take_varint(&rs->r, &back, "a parent"))
		return false;
	if (back < 1 || back > (uint64_t) quark + 1)
		return fail(&rs->r, "attribute %d has a parent out of range",
			quark);
	parent = (int) (quark - (int64_t) back);
	if (!take_string(rs, &name, "a name"))
		return false;
	if (tn_state_find_child(state, parent, name, strlen(name)) >= 0)
		return fail(&rs->r, "attribute %d has the name of another "
			"one under the same parent", quark);
	if (!take_u8(&rs->r, &flags, "an attribute's flags"))
		return false;
	type = flags & FLAG_TYPE;
	if (type > TN_STATE_STRING)
		return fail(&rs->r, "attribute %d has an unknown type", quark);
	if (type == TN_STATE_NULL && !(flags & FLAG_NULL))
		return fail(&rs->r, "attribute %d keeps no type but holds a "
			"value", quark);
	added = tn_state_add_child(state, parent, name, strlen(name));
	g_assert(added == quark);
	attr = &state->attrs[quark];
	attr->type = type;
	return read_value(rs, flags & FLAG_NULL ? TN_STATE_NULL : type,
			&attr->value)
		&& read_stamp(rs, flags, &attr->start);
}

static bool read_blob(struct tn_state *state, struct restore *rs,
		const uint8_t *data, size_t size)
{
	uint64_t version, count, strings, now, sum;

	if (size < HEADER_LEN + CHECKSUM_LEN)
		return fail(&rs->r, "%zu bytes is too short", size);
	if (memcmp(data, MAGIC, 4) != 0)
		return fail(&rs->r, "it is not a state snapshot");
	rs->r.at = data + size - CHECKSUM_LEN;
	rs->r.left = CHECKSUM_LEN;
	take_le(&rs->r, 8, &sum, "the checksum");
	if (sum != fnv1a64(data, size - CHECKSUM_LEN))
		return fail(&rs->r, "checksum mismatch");
	rs->r.at = data + 4;
	rs->r.left = size - 4 - CHECKSUM_LEN;
	take_le(&rs->r, 4, &version, "the version");
	if (version != VERSION)
		return fail(&rs->r, "version %" PRIu64 ", not %d", version,
			VERSION);
	take_le(&rs->r, 4, &count, "the attribute count");
	take_le(&rs->r, 4, &strings, "the string count");
	take_le(&rs->r, 8, &now, "the current time");
	rs->now = (int64_t) now;
	rs->string_count = (uint32_t) strings;
	if (!read_strings(state, rs))
		return false;
	/* An attribute takes 3 bytes at least. */
	if (count > INT32_MAX || count > rs->r.left / 3)
		return fail(&rs->r, "it counts %" PRIu64 " attributes in %zu "
			"bytes", count, rs->r.left);
	for (int q = 0; q < (int) count; q++) {
		if (!read_attribute(state, rs, q))
			return false;
	}
	if (rs->r.left)
		return fail(&rs->r, "%zu bytes are left after the attributes",
			rs->r.left);
	state->current_time = rs->now;
	return true;
}

int tn_state_restore(struct tn_state *state, const void *data, size_t size,
		struct tn_error *err)
{
	struct restore rs = { .r.why = "" };
	bool ok;

	tn_state_clear(state);
	ok = read_blob(state, &rs, data, size);
	g_free(rs.strings);
	if (ok)
		return 0;
	tn_state_clear(state);
	tn_error_set(err, "state snapshot damaged: %s", rs.r.why);
	return -1;
}
