/* state-save.c - snapshots of a state: tn_state_save() and
 * tn_state_restore() (see state.h).
 *
 * The blob (integers little-endian; varints, zigzag and strings as
 * bytes.h says):
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
#include <string.h>

#include "src/core/bytes.h"
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

/* --- Writing --- */

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
		tn_bytes_put_zigzag(out, value->u.i);
		break;
	case TN_STATE_LONG:
		tn_bytes_put_zigzag(out, value->u.l);
		break;
	case TN_STATE_DOUBLE:
		tn_bytes_put_double(out, value->u.d);
		break;
	case TN_STATE_STRING:
		tn_bytes_put_varint(out, string_index(indexes, strings,
			value->u.s));
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
		tn_bytes_put_varint(out, (uint64_t) now - (uint64_t) stamp->ns);
	if (!(flags & FLAG_HAS_POS))
		return;
	if (!(flags & FLAG_POS_AT_NS))
		tn_bytes_put_varint(out, (uint64_t) stamp->ns -
			(uint64_t) stamp->pos.ns);
	if (!(flags & FLAG_TIE_0))
		tn_bytes_put_varint(out, stamp->pos.tie);
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
		tn_bytes_put_varint(attrs,
			(uint64_t) ((int64_t) q - attr->parent));
		tn_bytes_put_varint(attrs, string_index(indexes, strings,
			attr->name));
		tn_bytes_put_u8(attrs, flags);
		put_value(attrs, &attr->value, indexes, strings);
		put_stamp(attrs, &attr->start, flags, state->current_time);
	}
	tn_bytes_put_raw(buf, MAGIC, 4);
	tn_bytes_put_u32(buf, VERSION);
	tn_bytes_put_u32(buf, (uint32_t) state->count);
	tn_bytes_put_u32(buf, strings->len);
	tn_bytes_put_u64(buf, (uint64_t) state->current_time);
	for (guint i = 0; i < strings->len; i++) {
		const char *s = g_array_index(strings, const char *, i);

		tn_bytes_put_string(buf, s, strlen(s));
	}
	tn_bytes_put_raw(buf, attrs->data, attrs->len);
	tn_bytes_put_u64(buf, tn_bytes_fnv1a64(buf->data + start,
		buf->len - start));
	g_byte_array_free(attrs, TRUE);
	g_array_free(strings, TRUE);
	g_hash_table_destroy(indexes);
}

/* --- Reading --- */

/* What a restore reads: the blob, and the strings it interned. */
struct restore {
	struct tn_bytes_reader r;
	int64_t now;
	uint32_t string_count;
	const char **strings;	/* interned in the state */
};

/* A string of the table, by its index. */
static int take_string(struct restore *rs, const char **out,
		const char *what)
{
	uint64_t index;

	if (tn_bytes_take_varint(&rs->r, &index, what))
		return -1;
	if (index >= rs->string_count)
		return tn_bytes_fail(&rs->r, "%s refers to string %" PRIu64
			" of %" PRIu32, what, index, rs->string_count);
	*out = rs->strings[index];
	return 0;
}

static int read_strings(struct tn_state *state, struct restore *rs)
{
	GString *copy;
	int status = 0;

	/* Each takes a byte at least: a count beyond that is damage, and
	 * checking it first bounds the allocation. */
	if (rs->string_count > rs->r.left)
		return tn_bytes_fail(&rs->r, "it counts %" PRIu32 " strings "
			"in %zu bytes", rs->string_count, rs->r.left);
	rs->strings = g_new(const char *, rs->string_count ? rs->string_count
		: 1);
	copy = g_string_new(NULL);
	for (uint32_t i = 0; status == 0 && i < rs->string_count; i++) {
		const char *s;
		size_t len;

		status = tn_bytes_take_string(&rs->r, &s, &len, "a string");
		if (status == 0) {
			g_string_truncate(copy, 0);
			g_string_append_len(copy, s, (gssize) len);
			rs->strings[i] = tn_state_intern(state, copy->str);
		}
	}
	g_string_free(copy, TRUE);
	return status;
}

static int read_value(struct restore *rs, enum tn_state_type type,
		struct tn_state_value *value)
{
	int64_t v;

	value->type = type;
	switch (type) {
	case TN_STATE_NULL:
		return 0;
	case TN_STATE_INT:
		if (tn_bytes_take_zigzag(&rs->r, &v, "an int value"))
			return -1;
		if (v < INT32_MIN || v > INT32_MAX)
			return tn_bytes_fail(&rs->r, "an int value is out of "
				"range");
		value->u.i = (int32_t) v;
		return 0;
	case TN_STATE_LONG:
		return tn_bytes_take_zigzag(&rs->r, &value->u.l,
			"a long value");
	case TN_STATE_DOUBLE:
		return tn_bytes_take_double(&rs->r, &value->u.d,
			"a double value");
	case TN_STATE_STRING:
		return take_string(rs, &value->u.s, "a string value");
	}
	return tn_bytes_fail(&rs->r, "a value has an unknown type");
}

static int read_stamp(struct restore *rs, uint8_t flags,
		struct tn_state_stamp *stamp)
{
	uint64_t u = 0;

	*stamp = (struct tn_state_stamp) { 0 };
	if ((flags & (FLAG_POS_AT_NS | FLAG_TIE_0))
			&& !(flags & FLAG_HAS_POS))
		return tn_bytes_fail(&rs->r, "a start without position has "
			"flags 0x%02x", flags);
	if (flags & FLAG_NEVER) {
		stamp->ns = INT64_MIN;
	} else {
		if (tn_bytes_take_varint(&rs->r, &u, "a start's time"))
			return -1;
		/* A start is never after the current time. */
		if (u > (uint64_t) rs->now - (uint64_t) INT64_MIN)
			return tn_bytes_fail(&rs->r, "a start is after the "
				"current time");
		stamp->ns = (int64_t) ((uint64_t) rs->now - u);
	}
	if (!(flags & FLAG_HAS_POS))
		return 0;
	stamp->has_pos = true;
	stamp->pos.ns = stamp->ns;
	if (!(flags & FLAG_POS_AT_NS)) {
		if (tn_bytes_take_varint(&rs->r, &u, "a start's position"))
			return -1;
		stamp->pos.ns = (int64_t) ((uint64_t) stamp->ns - u);
	}
	if (flags & FLAG_TIE_0)
		return 0;
	return tn_bytes_take_varint(&rs->r, &stamp->pos.tie, "a start's tie");
}

static int read_attribute(struct tn_state *state, struct restore *rs,
		int quark)
{
	struct tn_state_attr *attr;
	const char *name;
	uint64_t back;
	uint8_t flags;
	int parent, added;
	enum tn_state_type type;
	struct tn_state_value value;

	if (tn_bytes_take_varint(&rs->r, &back, "a parent"))
		return -1;
	if (back < 1 || back > (uint64_t) quark + 1)
		return tn_bytes_fail(&rs->r, "attribute %d has a parent out of "
			"range", quark);
	parent = (int) (quark - (int64_t) back);
	if (take_string(rs, &name, "a name"))
		return -1;
	if (tn_state_find_child(state, parent, name, strlen(name)) >= 0)
		return tn_bytes_fail(&rs->r, "attribute %d has the name of "
			"another one under the same parent", quark);
	if (tn_bytes_take_u8(&rs->r, &flags, "an attribute's flags"))
		return -1;
	type = flags & FLAG_TYPE;
	if (type > TN_STATE_STRING)
		return tn_bytes_fail(&rs->r, "attribute %d has an unknown "
			"type", quark);
	if (type == TN_STATE_NULL && !(flags & FLAG_NULL))
		return tn_bytes_fail(&rs->r, "attribute %d keeps no type but "
			"holds a value", quark);
	added = tn_state_add_child(state, parent, name, strlen(name));
	g_assert(added == quark);
	attr = &state->attrs[quark];
	attr->type = type;
	if (read_value(rs, flags & FLAG_NULL ? TN_STATE_NULL : type, &value))
		return -1;
	tn_state_put_value(state, quark, &value);
	return read_stamp(rs, flags, &attr->start);
}

static int read_blob(struct tn_state *state, struct restore *rs,
		const uint8_t *data, size_t size)
{
	struct tn_bytes_reader *r = &rs->r;
	uint32_t version, count;
	uint64_t now;

	if (size < HEADER_LEN + CHECKSUM_LEN)
		return tn_bytes_fail(r, "%zu bytes is too short", size);
	if (memcmp(data, MAGIC, 4) != 0)
		return tn_bytes_fail(r, "it is not a state snapshot");
	if (tn_bytes_get_le(data + size - CHECKSUM_LEN, 8) !=
	    tn_bytes_fnv1a64(data, size - CHECKSUM_LEN))
		return tn_bytes_fail(r, "checksum mismatch");
	/* The header fits: its takes cannot fail. */
	tn_bytes_reader_init(r, data + 4, size - 4 - CHECKSUM_LEN);
	tn_bytes_take_u32(r, &version, "the version");
	if (version != VERSION)
		return tn_bytes_fail(r, "version %" PRIu32 ", not %d", version,
			VERSION);
	tn_bytes_take_u32(r, &count, "the attribute count");
	tn_bytes_take_u32(r, &rs->string_count, "the string count");
	tn_bytes_take_u64(r, &now, "the current time");
	rs->now = (int64_t) now;
	if (read_strings(state, rs))
		return -1;
	/* An attribute takes 3 bytes at least. */
	if (count > INT32_MAX || count > r->left / 3)
		return tn_bytes_fail(r, "it counts %" PRIu32 " attributes in "
			"%zu bytes", count, r->left);
	for (int q = 0; q < (int) count; q++) {
		if (read_attribute(state, rs, q))
			return -1;
	}
	if (r->left)
		return tn_bytes_fail(r, "%zu bytes are left after the "
			"attributes", r->left);
	state->current_time = rs->now;
	return 0;
}

int tn_state_restore(struct tn_state *state, const void *data, size_t size,
		struct tn_error *err)
{
	struct restore rs = { .strings = NULL };
	int status;

	tn_bytes_reader_init(&rs.r, data, size);
	tn_state_clear(state);
	status = read_blob(state, &rs, data, size);
	g_free(rs.strings);
	if (status == 0)
		return 0;
	tn_state_clear(state);
	tn_error_set(err, "state snapshot damaged: %s", rs.r.why);
	return -1;
}
