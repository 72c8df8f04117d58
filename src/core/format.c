/* format.c - events as text, byte for byte as the babeltrace2 CLI prints
 * them by default (sink.text.pretty: field names shown for contexts and
 * payload, header names hidden, trace hostname/procname/vpid shown). */
#include <babeltrace2/babeltrace.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tracenav/format.h"
#include "bt-util.h"
#include "repair.h"
#include "tracenav/time.h"

static void format_field(GString *out, const bt_field *field);

/* Integers are written by hand: printf's machinery costs more than the
 * rest of a line, and a search formats the line of every event. */
void tn_format_append_u64(GString *out, uint64_t value)
{
	char digits[20];
	size_t n = 0;

	do {
		digits[sizeof(digits) - ++n] = (char) ('0' + value % 10);
		value /= 10;
	} while (value);
	g_string_append_len(out, digits + sizeof(digits) - n, (gssize) n);
}

void tn_format_append_s64(GString *out, int64_t value)
{
	if (value < 0) {
		g_string_append_c(out, '-');
		tn_format_append_u64(out, -(uint64_t) value);
	} else {
		tn_format_append_u64(out, (uint64_t) value);
	}
}

/* "0x" and upper-case hexadecimal digits, as "0x%" PRIX64. */
static void append_hex(GString *out, uint64_t value)
{
	static const char hex[] = "0123456789ABCDEF";
	char digits[18];
	size_t n = 0;

	do {
		digits[sizeof(digits) - ++n] = hex[value & 0xf];
		value >>= 4;
	} while (value);
	digits[sizeof(digits) - ++n] = 'x';
	digits[sizeof(digits) - ++n] = '0';
	g_string_append_len(out, digits + sizeof(digits) - n, (gssize) n);
}

/* value (< 10^9) on nine digits, as "%09" PRIu64. */
static void append_nine_digits(GString *out, uint64_t value)
{
	char digits[9];

	for (int i = 8; i >= 0; i--) {
		digits[i] = (char) ('0' + value % 10);
		value /= 10;
	}
	g_string_append_len(out, digits, 9);
}

void tn_format_state_init(struct tn_format_state *state, bool gmt)
{
	state->has_last = false;
	state->last_ns = 0;
	state->gmt = gmt;
	state->host_memo = NULL;
	state->no_delta = false;
}

GHashTable *tn_format_host_memo_new(void)
{
	return g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
		g_free);
}

void tn_format_escaped_string(GString *out, const char *text)
{
	g_string_append_c(out, '"');
	for (const unsigned char *p = (const unsigned char *) text; *p; p++) {
		switch (*p) {
		case '\\': g_string_append(out, "\\\\"); continue;
		case '\'': g_string_append(out, "\\'"); continue;
		case '"': g_string_append(out, "\\\""); continue;
		case '?': g_string_append(out, "\\?"); continue;
		case '\a': g_string_append(out, "\\a"); continue;
		case '\b': g_string_append(out, "\\b"); continue;
		case '\f': g_string_append(out, "\\f"); continue;
		case '\n': g_string_append(out, "\\n"); continue;
		case '\r': g_string_append(out, "\\r"); continue;
		case '\t': g_string_append(out, "\\t"); continue;
		case '\v': g_string_append(out, "\\v"); continue;
		case 0x1b: g_string_append(out, "\\e"); continue;
		}
		/* Control characters of the C locale; bytes of UTF-8
		 * sequences (>= 0x80) pass through. */
		if (*p < 0x20 || *p == 0x7f)
			g_string_append_printf(out, "\\x%02x", *p);
		else
			g_string_append_c(out, (char) *p);
	}
	g_string_append_c(out, '"');
}

/* Keep the low bits that a field of `bits` bits, rounded up to a whole
 * number of `digit_bits`-bit digits, can show (for hex and octal). */
static uint64_t mask_to_digits(uint64_t value, uint64_t bits,
		unsigned digit_bits)
{
	uint64_t rounded = ((bits + digit_bits - 1) / digit_bits) * digit_bits;

	if (bits >= 64 || rounded >= 64)
		return value;
	return value & ((UINT64_C(1) << rounded) - 1);
}

static void format_integer(GString *out, const bt_field *field)
{
	const bt_field_class *fc = bt_field_borrow_class_const(field);
	bool is_signed = bt_field_class_type_is(bt_field_get_class_type(field),
		BT_FIELD_CLASS_TYPE_SIGNED_INTEGER);
	uint64_t bits = bt_field_class_integer_get_field_value_range(fc);
	uint64_t u = is_signed ?
		(uint64_t) bt_field_integer_signed_get_value(field) :
		bt_field_integer_unsigned_get_value(field);

	switch (bt_field_class_integer_get_preferred_display_base(fc)) {
	case BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_BINARY:
		g_string_append(out, "0b");
		for (uint64_t bit = bits; bit > 0; bit--)
			g_string_append_c(out,
				(u >> (bit - 1)) & 1 ? '1' : '0');
		break;
	case BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_OCTAL:
		if (is_signed)
			u = mask_to_digits(u, bits, 3);
		g_string_append_printf(out, "0%" PRIo64, u);
		break;
	case BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL:
		append_hex(out, mask_to_digits(u, bits, 4));
		break;
	default:
		if (is_signed)
			tn_format_append_s64(out, (int64_t) u);
		else
			tn_format_append_u64(out, u);
		break;
	}
}

static void format_enumeration(GString *out, const bt_field *field)
{
	bt_field_class_enumeration_mapping_label_array labels = NULL;
	uint64_t count = 0;

	if (bt_field_get_class_type(field) ==
			BT_FIELD_CLASS_TYPE_UNSIGNED_ENUMERATION)
		bt_field_enumeration_unsigned_get_mapping_labels(field,
			&labels, &count);
	else
		bt_field_enumeration_signed_get_mapping_labels(field,
			&labels, &count);
	g_string_append(out, "( ");
	if (count == 0)
		g_string_append(out, "<unknown>");
	for (uint64_t i = 0; i < count; i++) {
		if (i)
			g_string_append(out, ", ");
		tn_format_escaped_string(out, labels[i]);
	}
	g_string_append(out, " : container = ");
	format_integer(out, field);
	g_string_append(out, " )");
}

static void format_structure(GString *out, const bt_field *field)
{
	const bt_field_class *fc = bt_field_borrow_class_const(field);
	uint64_t count = bt_field_class_structure_get_member_count(fc);

	g_string_append_c(out, '{');
	for (uint64_t i = 0; i < count; i++) {
		const bt_field_class_structure_member *member =
			bt_field_class_structure_borrow_member_by_index_const(
				fc, i);

		g_string_append(out, i ? ", " : " ");
		g_string_append(out,
			bt_field_class_structure_member_get_name(member));
		g_string_append(out, " = ");
		format_field(out,
			bt_field_structure_borrow_member_field_by_index_const(
				field, i));
	}
	g_string_append(out, " }");
}

static void format_array(GString *out, const bt_field *field)
{
	uint64_t length = bt_field_array_get_length(field);

	g_string_append_c(out, '[');
	for (uint64_t i = 0; i < length; i++) {
		g_string_append(out, i ? ", [" : " [");
		tn_format_append_u64(out, i);
		g_string_append(out, "] = ");
		format_field(out,
			bt_field_array_borrow_element_field_by_index_const(
				field, i));
	}
	g_string_append(out, " ]");
}

/* A variant or an option shows its one field in braces, without the
 * option's name (babeltrace2 2.0 does not print it either). */
static void format_braced(GString *out, const bt_field *inner)
{
	if (!inner) {
		g_string_append(out, "<none>");
		return;
	}
	g_string_append(out, "{ ");
	format_field(out, inner);
	g_string_append(out, " }");
}

static void format_field(GString *out, const bt_field *field)
{
	bt_field_class_type type = bt_field_get_class_type(field);

	if (type == BT_FIELD_CLASS_TYPE_BOOL)
		g_string_append(out, bt_field_bool_get_value(field) ?
			"true" : "false");
	else if (type == BT_FIELD_CLASS_TYPE_BIT_ARRAY)
		append_hex(out, bt_field_bit_array_get_value_as_integer(field));
	else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ENUMERATION))
		format_enumeration(out, field);
	else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_INTEGER))
		format_integer(out, field);
	else if (type == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL)
		g_string_append_printf(out, "%g",
			(double) bt_field_real_single_precision_get_value(field));
	else if (type == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL)
		g_string_append_printf(out, "%g",
			bt_field_real_double_precision_get_value(field));
	else if (type == BT_FIELD_CLASS_TYPE_STRING)
		tn_format_escaped_string(out, bt_field_string_get_value(field));
	else if (type == BT_FIELD_CLASS_TYPE_STRUCTURE)
		format_structure(out, field);
	else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_OPTION))
		format_braced(out, bt_field_option_borrow_field_const(field));
	else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT))
		format_braced(out,
			bt_field_variant_borrow_selected_option_field_const(
				field));
	else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY))
		format_array(out, field);
	else
		g_string_append(out, "<unsupported field>");
}

static const bt_event *borrow_event(const struct tn_event *ev)
{
	return bt_message_event_borrow_event_const(ev->msg);
}

/* The scopes of an event, in the order of its line (NULL: absent). */
enum { SCOPE_PACKET, SCOPE_COMMON, SCOPE_SPECIFIC, SCOPE_PAYLOAD,
	SCOPE_COUNT };

static void borrow_scopes(const struct tn_event *ev,
		const bt_field *scopes[SCOPE_COUNT])
{
	const bt_event *event = borrow_event(ev);
	const bt_packet *packet = bt_event_borrow_packet_const(event);

	scopes[SCOPE_PACKET] = packet ?
		bt_packet_borrow_context_field_const(packet) : NULL;
	scopes[SCOPE_COMMON] = bt_event_borrow_common_context_field_const(
		event);
	scopes[SCOPE_SPECIFIC] = bt_event_borrow_specific_context_field_const(
		event);
	scopes[SCOPE_PAYLOAD] = bt_event_borrow_payload_field_const(event);
}

/* Append the scopes that are there, separated by ", ". */
static void append_scopes(GString *out, const bt_field *const *scopes,
		size_t count)
{
	bool first = true;

	for (size_t i = 0; i < count; i++) {
		if (!scopes[i])
			continue;
		if (!first)
			g_string_append(out, ", ");
		format_field(out, scopes[i]);
		first = false;
	}
}

void tn_format_event_fields(GString *out, const struct tn_event *ev)
{
	const bt_field *scopes[SCOPE_COUNT];

	borrow_scopes(ev, scopes);
	append_scopes(out, scopes, SCOPE_COUNT);
}

void tn_format_event_payload(GString *out, const struct tn_event *ev)
{
	const bt_field *scopes[SCOPE_COUNT];

	borrow_scopes(ev, scopes);
	append_scopes(out, scopes + SCOPE_PAYLOAD, 1);
}

/* Whether a packet context holds nothing but cpu_id. */
static bool only_cpu_id(const bt_field *context)
{
	const bt_field_class *fc = bt_field_borrow_class_const(context);

	return bt_field_class_structure_get_member_count(fc) == 1 &&
		strcmp(bt_field_class_structure_member_get_name(
			bt_field_class_structure_borrow_member_by_index_const(
				fc, 0)), "cpu_id") == 0;
}

void tn_format_event_contexts(GString *out, const struct tn_event *ev,
		bool skip_cpu)
{
	const bt_field *scopes[SCOPE_COUNT];

	borrow_scopes(ev, scopes);
	if (skip_cpu && scopes[SCOPE_PACKET] &&
	    only_cpu_id(scopes[SCOPE_PACKET]))
		scopes[SCOPE_PACKET] = NULL;
	append_scopes(out, scopes, SCOPE_PAYLOAD);
}

static bool is_compound(const bt_field *field)
{
	bt_field_class_type type = bt_field_get_class_type(field);

	return type == BT_FIELD_CLASS_TYPE_STRUCTURE ||
		bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY) ||
		bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT) ||
		(bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_OPTION) &&
		 bt_field_option_borrow_field_const(field));
}

struct tree_output {
	void (*line)(int depth, const char *text, void *data);
	void *data;
	GString *text;
};

static void tree_field(struct tree_output *out, int depth, const char *name,
		const bt_field *field);

/* The members of a compound field, one level deeper. */
static void tree_members(struct tree_output *out, int depth,
		const bt_field *field)
{
	bt_field_class_type type = bt_field_get_class_type(field);
	char index[32];

	if (type == BT_FIELD_CLASS_TYPE_STRUCTURE) {
		const bt_field_class *fc = bt_field_borrow_class_const(field);

		for (uint64_t i = 0;
		     i < bt_field_class_structure_get_member_count(fc); i++)
			tree_field(out, depth,
				bt_field_class_structure_member_get_name(
					bt_field_class_structure_borrow_member_by_index_const(
						fc, i)),
				bt_field_structure_borrow_member_field_by_index_const(
					field, i));
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY)) {
		for (uint64_t i = 0; i < bt_field_array_get_length(field); i++) {
			snprintf(index, sizeof(index), "[%" PRIu64 "]", i);
			tree_field(out, depth, index,
				bt_field_array_borrow_element_field_by_index_const(
					field, i));
		}
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT)) {
		tree_field(out, depth, "(selected)",
			bt_field_variant_borrow_selected_option_field_const(
				field));
	} else {
		tree_field(out, depth, "(value)",
			bt_field_option_borrow_field_const(field));
	}
}

static void tree_field(struct tree_output *out, int depth, const char *name,
		const bt_field *field)
{
	g_string_assign(out->text, name);
	if (is_compound(field)) {
		g_string_append_c(out->text, ':');
		out->line(depth, out->text->str, out->data);
		tree_members(out, depth + 1, field);
		return;
	}
	g_string_append(out->text, " = ");
	format_field(out->text, field);
	out->line(depth, out->text->str, out->data);
}

void tn_format_event_tree(const struct tn_event *ev,
		void (*line)(int depth, const char *text, void *data),
		void *data)
{
	static const char *const titles[SCOPE_COUNT] = {
		"packet context:", "common context:", "specific context:",
		"payload:",
	};
	const bt_field *scopes[SCOPE_COUNT];
	struct tree_output out = { line, data, g_string_new(NULL) };

	borrow_scopes(ev, scopes);
	for (size_t i = 0; i < SCOPE_COUNT; i++) {
		/* An empty scope (a payload without fields) says nothing. */
		if (!scopes[i] || !bt_field_class_structure_get_member_count(
				bt_field_borrow_class_const(scopes[i])))
			continue;
		line(0, titles[i], data);
		tree_members(&out, 1, scopes[i]);
	}
	g_string_free(out.text, TRUE);
}

/* Append an env entry's value; integers in parentheses, as babeltrace2
 * prints "trace:vpid". */
static void append_env_value(GString *out, const bt_value *value,
		bool separator)
{
	if (separator)
		g_string_append_c(out, ':');
	if (bt_value_get_type(value) == BT_VALUE_TYPE_STRING) {
		g_string_append(out, bt_value_string_get(value));
	} else if (bt_value_get_type(value) == BT_VALUE_TYPE_SIGNED_INTEGER) {
		g_string_append_c(out, '(');
		tn_format_append_s64(out, bt_value_integer_signed_get(value));
		g_string_append_c(out, ')');
	}
}

/* Append what babeltrace2 prints of the trace before the event's name:
 * "hostname", ":procname", ":(vpid)" from its environment, and a blank
 * if any.  One pass over the entries (a lookup by name would compare
 * every entry's name, three times an event). */
static void append_host(GString *out, const bt_trace *trace)
{
	enum { HOSTNAME, PROCNAME, VPID, ENTRIES };
	static const char *const names[ENTRIES] = {
		"hostname", "procname", "vpid",
	};
	const bt_value *values[ENTRIES] = { NULL, NULL, NULL };
	uint64_t count = bt_trace_get_environment_entry_count(trace);
	bool shown = false;

	for (uint64_t i = 0; i < count; i++) {
		const char *name;
		const bt_value *value;

		bt_trace_borrow_environment_entry_by_index_const(trace, i, &name,
			&value);
		for (int k = 0; k < ENTRIES; k++)
			if (!values[k] && name[0] == names[k][0] &&
			    strcmp(name, names[k]) == 0)
				values[k] = value;
	}
	for (int k = 0; k < ENTRIES; k++) {
		if (!values[k])
			continue;
		append_env_value(out, values[k], shown);
		shown = true;
	}
	if (shown)
		g_string_append_c(out, ' ');
}

/* The wall-clock time of ns as tn_time_format_wall() prints it.  The
 * "HH:MM:SS" of the last second this thread formatted is kept: the
 * conversion to local time (and the lock it takes) costs more than the
 * rest of a line, and consecutive events share their second. */
static void append_wall(GString *out, int64_t ns, bool gmt)
{
	static _Thread_local struct {
		bool valid, gmt;
		int64_t sec;
		char hms[8];
	} memo;
	int64_t sec = ns / TN_NS_PER_S;

	if (ns < 0) {
		tn_time_format_wall(out, ns, gmt, false);
		return;
	}
	if (!memo.valid || memo.gmt != gmt || memo.sec != sec) {
		GString *whole = g_string_new(NULL);

		tn_time_format_wall(whole, sec * TN_NS_PER_S, gmt, false);
		memo.valid = whole->len == 18 && whole->str[8] == '.';
		if (memo.valid) {
			memcpy(memo.hms, whole->str, sizeof(memo.hms));
			memo.gmt = gmt;
			memo.sec = sec;
		}
		g_string_free(whole, TRUE);
		if (!memo.valid) {
			tn_time_format_wall(out, ns, gmt, false);
			return;
		}
	}
	g_string_append_len(out, memo.hms, sizeof(memo.hms));
	g_string_append_c(out, '.');
	append_nine_digits(out, (uint64_t) (ns % TN_NS_PER_S));
}

/* "[time] (+delta) ": the time its tracer recorded, and how far it is
 * from where the event before it is placed (a time that went back
 * shows as "-S.NNNNNNNNN"). */
static void append_time_and_delta(GString *out, const struct tn_event *ev,
		struct tn_format_state *state)
{
	uint64_t delta = (uint64_t) ev->recorded_ns - (uint64_t) state->last_ns;
	bool back = ev->recorded_ns < state->last_ns;

	g_string_append_c(out, '[');
	append_wall(out, ev->recorded_ns, state->gmt);
	/* As tn_time_format_delta(): babeltrace2 keeps "no previous
	 * event" as a delta of -1, so a real delta of -1 ns prints as
	 * unknown too.  Without the delta: "[time] " alone. */
	if (state->no_delta) {
		g_string_append(out, "] ");
	} else if (state->has_last && (back || delta != UINT64_MAX)) {
		if (back)
			delta = (uint64_t) state->last_ns -
				(uint64_t) ev->recorded_ns;
		g_string_append(out, back ? "] (-" : "] (+");
		tn_format_append_u64(out, delta / (uint64_t) TN_NS_PER_S);
		g_string_append_c(out, '.');
		append_nine_digits(out, delta % (uint64_t) TN_NS_PER_S);
		g_string_append(out, ") ");
	} else {
		/* Two literals: "??)" would be a trigraph. */
		g_string_append(out, "] (+?.?????????" ") ");
	}
	state->has_last = true;
	state->last_ns = ev->ns;
}

void tn_format_event_line(GString *out, const struct tn_event *ev,
		struct tn_format_state *state)
{
	const bt_event *event = borrow_event(ev);
	const bt_trace *trace = bt_stream_borrow_trace_const(
		bt_event_borrow_stream_const(event));

	if (bt_message_event_borrow_stream_class_default_clock_class_const(
			ev->msg))
		append_time_and_delta(out, ev, state);
	if (state->host_memo) {
		/* The trace object is alive (ev holds it): the key cannot
		 * stand for another one. */
		char *host = g_hash_table_lookup(state->host_memo,
			tn_bt_address_key(trace));

		if (!host) {
			GString *text = g_string_new(NULL);

			append_host(text, trace);
			host = g_string_free(text, FALSE);
			g_hash_table_insert(state->host_memo,
				tn_bt_address_key(trace), host);
		}
		g_string_append(out, host);
	} else {
		append_host(out, trace);
	}
	g_string_append(out, tn_event_get_name(ev));
	g_string_append(out, ": ");
	tn_format_event_fields(out, ev);
}

void tn_format_notice(GString *out, const struct tn_event *ev, bool gmt)
{
	const bt_stream *stream = ev->kind == TN_EVENT_KIND_DISCARDED_EVENTS ?
		bt_message_discarded_events_borrow_stream_const(ev->msg) :
		bt_message_discarded_packets_borrow_stream_const(ev->msg);
	const bt_trace *trace = bt_stream_borrow_trace_const(stream);
	const char *what = ev->kind == TN_EVENT_KIND_DISCARDED_EVENTS ?
		"event" : "packet";
	const char *trace_name = bt_trace_get_name(trace);
	const char *stream_name = bt_stream_get_name(stream);
	/* A stream read through a stand-in is named after the file the
	 * user knows (repair.h). */
	char *original = stream_name ? tn_repair_original_path(stream_name) :
		NULL;
	const uint8_t *uuid = bt_trace_get_uuid(trace);
	int64_t begin_ns, end_ns;
	uint64_t count;

	if (tn_event_get_discarded_count(ev, &count))
		g_string_append_printf(out, "WARNING: Tracer discarded %"
			PRIu64 " %s%s ", count, what, count == 1 ? "" : "s");
	else
		g_string_append_printf(out,
			"WARNING: Tracer may have discarded %ss ", what);
	if (tn_event_get_discarded_range(ev, &begin_ns, &end_ns)) {
		g_string_append(out, "between [");
		tn_time_format_wall(out, begin_ns, gmt, false);
		g_string_append(out, "] and [");
		tn_time_format_wall(out, end_ns, gmt, false);
		g_string_append(out, "]");
	} else {
		g_string_append(out, "(unknown time range)");
	}
	g_string_append_printf(out, " in trace \"%s\" ",
		trace_name ? trace_name : "(unknown)");
	if (uuid)
		g_string_append_printf(out, "(UUID: %02x%02x%02x%02x-%02x%02x-"
			"%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x) ",
			uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5],
			uuid[6], uuid[7], uuid[8], uuid[9], uuid[10],
			uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);
	else
		g_string_append(out, "(no UUID) ");
	g_string_append_printf(out, "within stream \"%s\" (stream class ID: %"
		PRIu64 ", ", original ? original : stream_name ? stream_name :
		"(unknown)",
		bt_stream_class_get_id(bt_stream_borrow_class_const(stream)));
	g_free(original);
	g_string_append_printf(out, "stream ID: %" PRIu64 ").",
		bt_stream_get_id(stream));
}
