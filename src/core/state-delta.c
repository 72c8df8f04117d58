/* state-delta.c - the changes of a state between two snapshots, saved
 * and applied: what the state pass keeps between two full snapshots
 * (see state-history-private.h); and the full snapshots themselves,
 * tn_state_save() and tn_state_restore() (state.h): the changes from an
 * empty state.
 *
 * A state that grows (a kernel trace's threads, which stay once seen)
 * makes full snapshots ever larger while little of it changes between
 * two: a delta holds the attributes added since the last snapshot and
 * those whose value changed, each once with its latest value.  It
 * works on the state's own attribute table (state-private.h).
 *
 * The blob (integers little-endian; varints, zigzag and strings as
 * bytes.h says):
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
#include <string.h>

#include "src/core/bytes.h"
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

/* ---- writing ---- */

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
	tn_bytes_put_u8(out, flags);
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
	if (!(flags & FLAG_NEVER))
		tn_bytes_put_varint(out, (uint64_t) now - (uint64_t) start->ns);
	if (!(flags & FLAG_HAS_POS))
		return;
	if (!(flags & FLAG_POS_AT_NS))
		tn_bytes_put_varint(out, (uint64_t) start->ns -
			(uint64_t) start->pos.ns);
	tn_bytes_put_varint(out, start->pos.tie);
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

		tn_bytes_put_varint(body,
			(uint64_t) ((int64_t) q - attr->parent));
		tn_bytes_put_varint(body, string_index(indexes, strings,
			attr->name));
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
		tn_bytes_put_varint(body, (uint64_t) (q - last - 1));
		put_record(body, &state->attrs[q], now, indexes, strings);
		last = q;
		records++;
	}
	tn_bytes_put_raw(buf, MAGIC, 4);
	tn_bytes_put_u32(buf, VERSION);
	tn_bytes_put_u32(buf, (uint32_t) base_count);
	tn_bytes_put_u32(buf, (uint32_t) state->count);
	tn_bytes_put_u32(buf, strings->len);
	tn_bytes_put_u32(buf, records);
	tn_bytes_put_u64(buf, (uint64_t) now);
	for (guint i = 0; i < strings->len; i++) {
		const char *s = strings->pdata[i];

		tn_bytes_put_string(buf, s, strlen(s));
	}
	tn_bytes_put_raw(buf, body->data, body->len);
	tn_bytes_put_u64(buf, tn_bytes_fnv1a64(buf->data + start,
		buf->len - start));
	g_byte_array_free(body, TRUE);
	g_ptr_array_free(strings, TRUE);
	g_hash_table_destroy(indexes);
}

/* ---- reading ---- */

/* A string of the delta: its bytes (not NUL-terminated) and, once a
 * value needed it, its copy interned in the state. */
struct string {
	const char *at;
	size_t len;
	const char *interned;
};

/* What an apply reads: the delta, and its strings.  Most are the names
 * of attributes that the state has already (a restore in place): they
 * are not interned, nor even copied. */
struct apply {
	struct tn_bytes_reader r;
	struct tn_state *state;
	struct string *strings;
	uint32_t string_count;
};

/* The index of a string of the table. */
static int take_string_index(struct apply *a, uint32_t *out,
		const char *what)
{
	uint64_t i;

	if (tn_bytes_take_varint(&a->r, &i, what))
		return -1;
	if (i >= a->string_count)
		return tn_bytes_fail(&a->r, "%s: string %" PRIu64 " of %"
			PRIu32, what, i, a->string_count);
	*out = (uint32_t) i;
	return 0;
}

/* A string of the table, interned in the state. */
static int take_string(struct apply *a, const char **out, const char *what)
{
	struct string *s;
	uint32_t i = 0;

	if (take_string_index(a, &i, what))
		return -1;
	s = &a->strings[i];
	if (!s->interned) {
		char *copy = g_strndup(s->at, s->len);

		s->interned = tn_state_intern(a->state, copy);
		g_free(copy);
	}
	*out = s->interned;
	return 0;
}

static int read_strings(struct apply *a)
{
	for (uint32_t i = 0; i < a->string_count; i++) {
		struct string *s = &a->strings[i];

		if (tn_bytes_take_string(&a->r, &s->at, &s->len, "a string"))
			return -1;
		s->interned = NULL;
	}
	return 0;
}

/* Attributes base to count - 1: added, or checked when the state has
 * them. */
static int add_attributes(struct tn_state *state, struct apply *a,
		uint32_t base, uint32_t count)
{
	for (uint32_t q = base; q < count; q++) {
		uint64_t up;
		uint32_t name = 0;
		int parent;

		if (tn_bytes_take_varint(&a->r, &up, "a parent") ||
		    take_string_index(a, &name, "a name"))
			return -1;
		if (up == 0 || up > (uint64_t) q + 1)
			return tn_bytes_fail(&a->r, "attribute %" PRIu32
				": bad parent", q);
		parent = (int) ((int64_t) q - (int64_t) up);
		/* The state has it (the same order of creation): its
		 * parent is checked, not its name (a lookup per attribute
		 * of a whole state restored in place). */
		if ((int) q < state->count) {
			if (state->attrs[q].parent != parent)
				return tn_bytes_fail(&a->r, "attribute %" PRIu32
					" is not the state's", q);
			continue;
		}
		/* The checksum vouches that the name is new under parent
		 * (the delta was made from a state): no lookup first.  It
		 * may be the state's first hidden attribute, shown again. */
		if (tn_state_add_child(state, parent, a->strings[name].at,
				a->strings[name].len) != (int) q)
			return tn_bytes_fail(&a->r, "attribute %" PRIu32 " not "
				"added", q);
	}
	return 0;
}

/* The new attributes: added, or checked when the state has them (the
 * child index made for them at the end, at once). */
static int read_attributes(struct tn_state *state, struct apply *a,
		uint32_t base, uint32_t count)
{
	int status;

	tn_state_index_defer(state);
	status = add_attributes(state, a, base, count);
	tn_state_index_resume(state);
	return status;
}

static int read_value(struct apply *a, int q, uint8_t type,
		struct tn_state_value *value)
{
	int64_t v;

	value->type = type;
	switch (type) {
	case TN_STATE_INT:
		if (tn_bytes_take_zigzag(&a->r, &v, "an int value"))
			return -1;
		if (v < INT32_MIN || v > INT32_MAX)
			return tn_bytes_fail(&a->r, "attribute %d: int out of "
				"range", q);
		value->u.i = (int32_t) v;
		return 0;
	case TN_STATE_LONG:
		return tn_bytes_take_zigzag(&a->r, &value->u.l,
			"a long value");
	case TN_STATE_DOUBLE:
		return tn_bytes_take_double(&a->r, &value->u.d,
			"a double value");
	case TN_STATE_STRING:
		return take_string(a, &value->u.s, "a string value");
	}
	return 0;
}

static int read_record(struct tn_state *state, struct apply *a, int q,
		int64_t now)
{
	struct tn_state_attr *attr = &state->attrs[q];
	struct tn_state_value value = { .type = TN_STATE_NULL };
	struct tn_state_stamp start = tn_state_stamp_never;
	uint64_t v;
	uint8_t flags, type;

	if (tn_bytes_take_u8(&a->r, &flags, "a record's flags"))
		return -1;
	type = flags & FLAG_TYPE;
	if (type > TN_STATE_STRING || flags > 127 ||
	    (type == TN_STATE_NULL && !(flags & FLAG_NULL)))
		return tn_bytes_fail(&a->r, "attribute %d: bad flags %#x", q,
			flags);
	if (!(flags & FLAG_NULL) && read_value(a, q, type, &value))
		return -1;
	if (!(flags & FLAG_NEVER)) {
		if (tn_bytes_take_varint(&a->r, &v, "a start"))
			return -1;
		start.ns = (int64_t) ((uint64_t) now - v);
	}
	if (flags & FLAG_HAS_POS) {
		start.has_pos = true;
		start.pos.ns = start.ns;
		if (!(flags & FLAG_POS_AT_NS)) {
			if (tn_bytes_take_varint(&a->r, &v, "a position"))
				return -1;
			start.pos.ns = (int64_t) ((uint64_t) start.ns - v);
		}
		if (tn_bytes_take_varint(&a->r, &start.pos.tie, "a tie"))
			return -1;
	}
	tn_state_put_value(state, q, &value);
	attr->type = type;
	attr->start = start;
	return 0;
}

static int read_records(struct tn_state *state, struct apply *a,
		uint32_t count, uint32_t records, int64_t now)
{
	int q = -1;

	for (uint32_t i = 0; i < records; i++) {
		uint64_t skip;

		if (tn_bytes_take_varint(&a->r, &skip, "a quark"))
			return -1;
		if (skip >= (uint64_t) count - (uint64_t) (q + 1))
			return tn_bytes_fail(&a->r, "record %" PRIu32
				": no such attribute", i);
		q += (int) skip + 1;
		if (read_record(state, a, q, now))
			return -1;
	}
	if (a->r.left)
		return tn_bytes_fail(&a->r, "%zu bytes after the records",
			a->r.left);
	return 0;
}

/* Apply delta `data` to state; errors say "WHAT damaged: ...". */
static int apply_blob(struct tn_state *state, const void *data, size_t size,
		bool check, const char *what, struct tn_error *err)
{
	const uint8_t *p = data;
	struct apply a = { .state = state, .strings = NULL };
	uint32_t base, count, records;
	uint64_t now;
	int status;

	if (size < HEADER_LEN + CHECKSUM_LEN) {
		tn_error_set(err, "%s damaged: %zu bytes is too short", what,
			size);
		return -1;
	}
	if (memcmp(p, MAGIC, 4) != 0) {
		tn_error_set(err, "%s damaged: it is not a %s", what, what);
		return -1;
	}
	if (tn_bytes_get_le(p + 4, 4) != VERSION) {
		tn_error_set(err, "%s damaged: version %" PRIu64 ", not %d",
			what, tn_bytes_get_le(p + 4, 4), VERSION);
		return -1;
	}
	if (check && tn_bytes_fnv1a64(p, size - CHECKSUM_LEN) !=
	    tn_bytes_get_le(p + size - CHECKSUM_LEN, 8)) {
		tn_error_set(err, "%s damaged: checksum mismatch", what);
		return -1;
	}
	/* The header fits: its takes cannot fail. */
	tn_bytes_reader_init(&a.r, p + 8, size - 8 - CHECKSUM_LEN);
	tn_bytes_take_u32(&a.r, &base, "the base count");
	tn_bytes_take_u32(&a.r, &count, "the count");
	tn_bytes_take_u32(&a.r, &a.string_count, "the string count");
	tn_bytes_take_u32(&a.r, &records, "the record count");
	tn_bytes_take_u64(&a.r, &now, "the current time");
	if (count < base || count > INT32_MAX ||
	    (uint32_t) state->count < base ||
	    a.string_count > size || records > size) {
		tn_error_set(err, "%s damaged: %" PRIu32 " to %" PRIu32
			" attributes for a state of %d", what, base, count,
			state->count);
		return -1;
	}
	a.strings = g_new(struct string, a.string_count ? a.string_count : 1);
	status = read_strings(&a);
	if (status == 0)
		status = read_attributes(state, &a, base, count);
	if (status == 0)
		status = read_records(state, &a, count, records,
			(int64_t) now);
	g_free(a.strings);
	if (status) {
		tn_error_set(err, "%s damaged: %s", what, a.r.why);
		return -1;
	}
	state->current_time = (int64_t) now;
	return 0;
}

int tn_state_delta_apply(struct tn_state *state, const void *data,
		size_t size, bool check, struct tn_error *err)
{
	return apply_blob(state, data, size, check, "state delta", err);
}

/* A whole snapshot is the delta from an empty state. */
void tn_state_save(const struct tn_state *state, GByteArray *buf)
{
	tn_state_delta_save(state, 0, NULL, buf);
}

int tn_state_restore(struct tn_state *state, const void *data, size_t size,
		struct tn_error *err)
{
	tn_state_clear(state);
	if (apply_blob(state, data, size, true, "state snapshot", err) == 0)
		return 0;
	tn_state_clear(state);
	return -1;
}

int tn_state_delta_get_count(const void *data, size_t size)
{
	return size >= HEADER_LEN ?
		(int) tn_bytes_get_le((const uint8_t *) data + 12, 4) : 0;
}
