/* state-delta.c - the changes of a state between two snapshots, saved
 * and applied: what the state pass keeps between two full snapshots
 * (see state-history-private.h).
 *
 * A state that grows (a kernel trace's threads, which stay once seen)
 * makes full snapshots ever larger while little of it changes between
 * two: a delta holds the attributes added since the last snapshot and
 * those whose value changed, each once with its latest value.  It
 * works on the state's own attribute table (state-private.h), as
 * state-save.c does.
 *
 * The blob (integers little-endian, varints unsigned LEB128, zigzag as
 * in state-save.c):
 *   magic            4 bytes  "TNSD"
 *   version          u32      1
 *   base count       u32      attributes of the state it applies to
 *   count            u32      attributes after it
 *   string count     u32
 *   record count     u32
 *   current time     u64
 *   strings          varint length, bytes (no NUL); names and values
 *   new attributes   count - base count times: parent (varint: quark -
 *                    parent), name (varint string index)
 *   records          sorted by quark: quark (varint: quark - previous
 *                    record's quark - 1), flags u8 (the kept type in
 *                    bits 0-2, 8: null value, 16: never set, 32: has a
 *                    position, 64: the position's ns is the start's),
 *                    value (int, long: zigzag varint; double: u64;
 *                    string: varint index; none when null), start
 *                    (varint current time - ns, unless never; varint
 *                    ns - pos ns unless 64; varint tie when 32)
 *   checksum         u64      FNV-1a of everything before it
 *
 * Applying it to a state that holds the base count of attributes, or
 * more when they are its own first new ones (a state replayed past the
 * snapshot it came from), gives the state the next snapshot holds: every
 * attribute that changed in between is in the delta.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "src/core/state-history-private.h"
#include "src/core/state-private.h"

#define MAGIC "TNSD"
#define VERSION 1
#define HEADER_LEN (4 + 4 + 4 + 4 + 4 + 4 + 8)
#define CHECKSUM_LEN 8

#define FLAG_TYPE 7u
#define FLAG_NULL 8u
#define FLAG_NEVER 16u
#define FLAG_HAS_POS 32u
#define FLAG_POS_AT_NS 64u

static uint64_t fnv1a64(const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (size_t i = 0; i < size; i++) {
		h ^= data[i];
		h *= 0x100000001b3u;
	}
	return h;
}

/* ---- writing ---- */

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

/* The index of interned string s in the table, adding it (interned:
 * the table compares pointers). */
static uint32_t string_index(GHashTable *indexes, GPtrArray *strings,
		const char *s)
{
	gpointer found;

	if (g_hash_table_lookup_extended(indexes, s, NULL, &found))
		return GPOINTER_TO_UINT(found);
	g_hash_table_insert(indexes, (gpointer) (uintptr_t) s,
		GUINT_TO_POINTER(strings->len));
	g_ptr_array_add(strings, (gpointer) (uintptr_t) s);
	return strings->len - 1;
}

static void put_record(GByteArray *out, const struct tn_state_attr *attr,
		int64_t now, GHashTable *indexes, GPtrArray *strings)
{
	const struct tn_state_stamp *start = &attr->start;
	const struct tn_state_value *value = &attr->value;
	uint8_t flags = (uint8_t) attr->type;

	if (value->type == TN_STATE_NULL)
		flags |= FLAG_NULL;
	if (start->ns == INT64_MIN)
		flags |= FLAG_NEVER;
	if (start->has_pos)
		flags |= FLAG_HAS_POS;
	if (start->has_pos && start->pos.ns == start->ns)
		flags |= FLAG_POS_AT_NS;
	g_byte_array_append(out, &flags, 1);
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
	if (!(flags & FLAG_NEVER))
		put_varint(out, (uint64_t) now - (uint64_t) start->ns);
	if (!(flags & FLAG_HAS_POS))
		return;
	if (!(flags & FLAG_POS_AT_NS))
		put_varint(out, (uint64_t) start->ns - (uint64_t) start->pos.ns);
	put_varint(out, start->pos.tie);
}

static int compare_ints(const void *a, const void *b)
{
	int x = *(const int *) a, y = *(const int *) b;

	return (x > y) - (x < y);
}

void tn_state_delta_save(const struct tn_state *state, int base_count,
		GArray *changed, GByteArray *buf)
{
	GHashTable *indexes = g_hash_table_new(g_direct_hash, g_direct_equal);
	GPtrArray *strings = g_ptr_array_new();
	GByteArray *body = g_byte_array_new();
	int64_t now = state->current_time;
	guint start = buf->len;
	uint32_t records = 0;
	int last = -1;

	for (int q = base_count; q < state->count; q++) {
		const struct tn_state_attr *attr = &state->attrs[q];

		put_varint(body, (uint64_t) ((int64_t) q - attr->parent));
		put_varint(body, string_index(indexes, strings, attr->name));
	}
	if (changed)
		g_array_sort(changed, compare_ints);
	for (guint i = 0; changed ? i < changed->len :
			i < (guint) state->count; i++) {
		int q = changed ? g_array_index(changed, int, i) : (int) i;
		const struct tn_state_attr *attr;

		if (q <= last || !tn_state_has_quark(state, q))
			continue;
		attr = &state->attrs[q];
		/* The whole state: what was never set is as a new one is. */
		if (!changed && attr->start.ns == INT64_MIN &&
		    !attr->start.has_pos && attr->type == TN_STATE_NULL)
			continue;
		put_varint(body, (uint64_t) (q - last - 1));
		put_record(body, &state->attrs[q], now, indexes, strings);
		last = q;
		records++;
	}
	g_byte_array_append(buf, (const guint8 *) MAGIC, 4);
	put_le(buf, VERSION, 4);
	put_le(buf, (uint64_t) base_count, 4);
	put_le(buf, (uint64_t) state->count, 4);
	put_le(buf, strings->len, 4);
	put_le(buf, records, 4);
	put_le(buf, (uint64_t) now, 8);
	for (guint i = 0; i < strings->len; i++) {
		const char *s = strings->pdata[i];
		size_t len = strlen(s);

		put_varint(buf, len);
		g_byte_array_append(buf, (const guint8 *) s, (guint) len);
	}
	g_byte_array_append(buf, body->data, body->len);
	put_le(buf, fnv1a64(buf->data + start, buf->len - start), 8);
	g_byte_array_free(body, TRUE);
	g_ptr_array_free(strings, TRUE);
	g_hash_table_destroy(indexes);
}

/* ---- reading ---- */

struct reader {
	const uint8_t *at, *end;
	struct tn_error *err;
	const char **strings;	/* interned in the state */
	uint32_t string_count;
};

__attribute__((format(printf, 2, 3)))
static bool fail(struct reader *r, const char *fmt, ...)
{
	char why[TN_ERROR_MAX];
	va_list args;

	va_start(args, fmt);
	vsnprintf(why, sizeof(why), fmt, args);
	va_end(args);
	tn_error_set(r->err, "state delta damaged: %s", why);
	return false;
}

static uint64_t get_le(const uint8_t *p, unsigned bytes)
{
	uint64_t value = 0;

	for (unsigned i = bytes; i-- > 0;)
		value = value << 8 | p[i];
	return value;
}

static bool take_varint(struct reader *r, uint64_t *out, const char *what)
{
	uint64_t value = 0;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		uint8_t byte;

		if (r->at >= r->end)
			return fail(r, "%s beyond the end", what);
		byte = *r->at++;
		value |= (uint64_t) (byte & 0x7f) << shift;
		if (!(byte & 0x80)) {
			*out = value;
			return true;
		}
	}
	return fail(r, "%s: varint too long", what);
}

static bool take_string(struct reader *r, const char **out, const char *what)
{
	uint64_t i;

	if (!take_varint(r, &i, what))
		return false;
	if (i >= r->string_count)
		return fail(r, "%s: string %" PRIu64 " of %" PRIu32, what, i,
			r->string_count);
	*out = r->strings[i];
	return true;
}

static bool read_strings(struct tn_state *state, struct reader *r)
{
	for (uint32_t i = 0; i < r->string_count; i++) {
		uint64_t len;
		char *copy;

		if (!take_varint(r, &len, "string length"))
			return false;
		if (len > (uint64_t) (r->end - r->at))
			return fail(r, "string %" PRIu32 " beyond the end", i);
		if (memchr(r->at, 0, len))
			return fail(r, "string %" PRIu32 " holds a NUL", i);
		copy = g_strndup((const char *) r->at, len);
		r->strings[i] = tn_state_intern(state, copy);
		g_free(copy);
		r->at += len;
	}
	return true;
}

/* The new attributes: added, or checked when the state has them. */
static bool read_attributes(struct tn_state *state, struct reader *r,
		uint32_t base, uint32_t count)
{
	for (uint32_t q = base; q < count; q++) {
		uint64_t up;
		const char *name;
		int parent;

		if (!take_varint(r, &up, "parent") ||
		    !take_string(r, &name, "name"))
			return false;
		if (up == 0 || up > (uint64_t) q + 1)
			return fail(r, "attribute %" PRIu32 ": bad parent", q);
		parent = (int) ((int64_t) q - (int64_t) up);
		/* The state has it (the same order of creation): its
		 * parent is checked, not its name (a lookup per attribute
		 * of a whole state restored in place). */
		if ((int) q < state->count) {
			if (state->attrs[q].parent != parent)
				return fail(r, "attribute %" PRIu32 " is not the "
					"state's", q);
			continue;
		}
		/* The checksum vouches that the name is new under parent
		 * (the delta was made from a state): no lookup first. */
		if (tn_state_add_child(state, parent, name,
				strlen(name)) != (int) q)
			return fail(r, "attribute %" PRIu32 " not added", q);
	}
	return true;
}

static bool read_record(struct tn_state *state, struct reader *r, int q,
		int64_t now)
{
	struct tn_state_attr *attr = &state->attrs[q];
	struct tn_state_value value = { .type = TN_STATE_NULL };
	struct tn_state_stamp start = tn_state_stamp_never;
	uint64_t v;
	uint8_t flags, type;

	if (r->at >= r->end)
		return fail(r, "record of attribute %d beyond the end", q);
	flags = *r->at++;
	type = flags & FLAG_TYPE;
	if (type > TN_STATE_STRING || flags > 127 ||
	    (type == TN_STATE_NULL && !(flags & FLAG_NULL)))
		return fail(r, "attribute %d: bad flags %#x", q, flags);
	if (!(flags & FLAG_NULL)) {
		value.type = type;
		switch (type) {
		case TN_STATE_INT:
			if (!take_varint(r, &v, "value"))
				return false;
			if (unzigzag(v) < INT32_MIN || unzigzag(v) > INT32_MAX)
				return fail(r, "attribute %d: int out of range",
					q);
			value.u.i = (int32_t) unzigzag(v);
			break;
		case TN_STATE_LONG:
			if (!take_varint(r, &v, "value"))
				return false;
			value.u.l = unzigzag(v);
			break;
		case TN_STATE_DOUBLE:
			if (r->end - r->at < 8)
				return fail(r, "attribute %d: value beyond the "
					"end", q);
			v = get_le(r->at, 8);
			memcpy(&value.u.d, &v, sizeof(v));
			r->at += 8;
			break;
		case TN_STATE_STRING:
			if (!take_string(r, &value.u.s, "value"))
				return false;
			break;
		}
	}
	if (!(flags & FLAG_NEVER)) {
		if (!take_varint(r, &v, "start"))
			return false;
		start.ns = (int64_t) ((uint64_t) now - v);
	}
	if (flags & FLAG_HAS_POS) {
		start.has_pos = true;
		start.pos.ns = start.ns;
		if (!(flags & FLAG_POS_AT_NS)) {
			if (!take_varint(r, &v, "position"))
				return false;
			start.pos.ns = (int64_t) ((uint64_t) start.ns - v);
		}
		if (!take_varint(r, &start.pos.tie, "tie"))
			return false;
	}
	attr->value = value;
	attr->type = type;
	attr->start = start;
	return true;
}

int tn_state_delta_apply(struct tn_state *state, const void *data,
		size_t size, struct tn_error *err)
{
	const uint8_t *p = data;
	struct reader r = { p + HEADER_LEN, p + size - CHECKSUM_LEN, err,
		NULL, 0 };
	uint32_t base, count, records;
	int64_t now;
	int q = -1;
	bool ok;

	if (size < HEADER_LEN + CHECKSUM_LEN || memcmp(p, MAGIC, 4) != 0 ||
	    get_le(p + 4, 4) != VERSION) {
		tn_error_set(err, "state delta damaged: bad header");
		return -1;
	}
	if (fnv1a64(p, size - CHECKSUM_LEN) !=
	    get_le(p + size - CHECKSUM_LEN, 8)) {
		tn_error_set(err, "state delta damaged: checksum mismatch");
		return -1;
	}
	base = (uint32_t) get_le(p + 8, 4);
	count = (uint32_t) get_le(p + 12, 4);
	r.string_count = (uint32_t) get_le(p + 16, 4);
	records = (uint32_t) get_le(p + 20, 4);
	now = (int64_t) get_le(p + 24, 8);
	if (count < base || count > INT32_MAX ||
	    (uint32_t) state->count < base ||
	    r.string_count > size || records > size) {
		tn_error_set(err, "state delta damaged: %" PRIu32 " to %"
			PRIu32 " attributes for a state of %d", base, count,
			state->count);
		return -1;
	}
	r.strings = g_new(const char *, r.string_count ? r.string_count : 1);
	ok = read_strings(state, &r) &&
		read_attributes(state, &r, base, count);
	for (uint32_t i = 0; ok && i < records; i++) {
		uint64_t skip;

		ok = take_varint(&r, &skip, "quark");
		if (ok && skip >= (uint64_t) count - (uint64_t) (q + 1))
			ok = fail(&r, "record %" PRIu32 ": no such attribute",
				i);
		if (ok) {
			q += (int) skip + 1;
			ok = read_record(state, &r, q, now);
		}
	}
	if (ok && r.at != r.end)
		ok = fail(&r, "%td bytes after the records", r.end - r.at);
	g_free(r.strings);
	if (!ok)
		return -1;
	state->current_time = now;
	return 0;
}

int tn_state_delta_get_count(const void *data, size_t size)
{
	return size >= HEADER_LEN ? (int) get_le((const uint8_t *) data + 12,
		4) : 0;
}
