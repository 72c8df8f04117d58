/* merge-compare.c - how libbabeltrace2 2.0's muxer orders two messages
 * of equal time (see merge-compare.h). */
#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "merge-compare.h"

#define UUID_BYTES 16

/* Which of two possibly missing things goes first. */
static int present_first(bool a, bool b)
{
	return a == b ? 0 : a ? -1 : 1;
}

static int absent_first(bool a, bool b)
{
	return a == b ? 0 : a ? 1 : -1;
}

/* Of two flags, false goes first. */
static int false_first(bt_bool a, bt_bool b)
{
	return !a == !b ? 0 : a ? 1 : -1;
}

static int compare_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* a - b as the muxer computes it: 64-bit values subtracted into an
 * int, which keeps the low 32 bits (two's complement). */
static int truncated_difference(uint64_t a, uint64_t b)
{
	uint32_t low = (uint32_t) (a - b);

	return low <= INT32_MAX ? (int) low : -(int) (UINT32_MAX - low) - 1;
}

static int strings_absent_first(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : absent_first(a != NULL, b != NULL);
}

static int strings_present_first(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : present_first(a != NULL, b != NULL);
}

static int uuids_present_first(bt_uuid a, bt_uuid b)
{
	return a && b ? memcmp(a, b, UUID_BYTES) :
		present_first(a != NULL, b != NULL);
}

const bt_stream *tn_merge_message_stream(const bt_message *msg)
{
	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_STREAM_BEGINNING:
		return bt_message_stream_beginning_borrow_stream_const(msg);
	case BT_MESSAGE_TYPE_STREAM_END:
		return bt_message_stream_end_borrow_stream_const(msg);
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
		return bt_packet_borrow_stream_const(
			bt_message_packet_beginning_borrow_packet_const(msg));
	case BT_MESSAGE_TYPE_PACKET_END:
		return bt_packet_borrow_stream_const(
			bt_message_packet_end_borrow_packet_const(msg));
	case BT_MESSAGE_TYPE_EVENT:
		return bt_event_borrow_stream_const(
			bt_message_event_borrow_event_const(msg));
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		return bt_message_discarded_events_borrow_stream_const(msg);
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		return bt_message_discarded_packets_borrow_stream_const(msg);
	default:
		return NULL;
	}
}

/* Stream beginnings first, stream ends last. */
static int type_rank(bt_message_type type)
{
	switch (type) {
	case BT_MESSAGE_TYPE_STREAM_BEGINNING:
		return 0;
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
		return 1;
	case BT_MESSAGE_TYPE_EVENT:
		return 2;
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		return 3;
	case BT_MESSAGE_TYPE_PACKET_END:
		return 4;
	case BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY:
		return 5;
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		return 6;
	default:
		return 7;
	}
}

/* Levels 1 to 4: traces, then stream class and stream ids. */
static int compare_origins(const bt_stream *a, const bt_stream *b)
{
	const bt_trace *ta, *tb;
	int order;

	if (!a || !b)
		return present_first(a != NULL, b != NULL);
	ta = bt_stream_borrow_trace_const(a);
	tb = bt_stream_borrow_trace_const(b);
	order = uuids_present_first(bt_trace_get_uuid(ta),
		bt_trace_get_uuid(tb));
	if (order == 0)
		order = strings_present_first(bt_trace_get_name(ta),
			bt_trace_get_name(tb));
	if (order == 0)
		order = compare_u64(
			bt_stream_class_get_id(bt_stream_borrow_class_const(a)),
			bt_stream_class_get_id(bt_stream_borrow_class_const(b)));
	if (order == 0)
		order = compare_u64(bt_stream_get_id(a), bt_stream_get_id(b));
	return order;
}

/* Streams of equal ids: names, then what their classes support. */
static int compare_streams(const bt_stream *a, const bt_stream *b)
{
	const bt_stream_class *ca = bt_stream_borrow_class_const(a);
	const bt_stream_class *cb = bt_stream_borrow_class_const(b);
	bt_bool (*const flags[])(const bt_stream_class *) = {
		bt_stream_class_assigns_automatic_event_class_id,
		bt_stream_class_assigns_automatic_stream_id,
		bt_stream_class_supports_discarded_events,
		bt_stream_class_discarded_events_have_default_clock_snapshots,
		bt_stream_class_supports_packets,
	};
	bt_bool (*const packet_flags[])(const bt_stream_class *) = {
		bt_stream_class_packets_have_beginning_default_clock_snapshot,
		bt_stream_class_packets_have_end_default_clock_snapshot,
		bt_stream_class_supports_discarded_packets,
		bt_stream_class_discarded_packets_have_default_clock_snapshots,
	};
	int order = strings_absent_first(bt_stream_get_name(a),
		bt_stream_get_name(b));

	if (order == 0)
		order = strings_absent_first(bt_stream_class_get_name(ca),
			bt_stream_class_get_name(cb));
	for (size_t i = 0; order == 0 && i < G_N_ELEMENTS(flags); i++)
		order = false_first(flags[i](ca), flags[i](cb));
	if (order != 0 || !bt_stream_class_supports_packets(ca))
		return order;
	for (size_t i = 0; order == 0 && i < G_N_ELEMENTS(packet_flags); i++)
		order = false_first(packet_flags[i](ca), packet_flags[i](cb));
	return order;
}

static int compare_event_classes(const bt_event_class *ca,
		const bt_event_class *cb)
{
	bt_event_class_log_level la, lb;
	bool has_la, has_lb;
	int order = compare_u64(bt_event_class_get_id(ca),
		bt_event_class_get_id(cb));

	if (order == 0)
		order = strings_absent_first(bt_event_class_get_name(ca),
			bt_event_class_get_name(cb));
	if (order != 0)
		return order;
	has_la = bt_event_class_get_log_level(ca, &la) ==
		BT_PROPERTY_AVAILABILITY_AVAILABLE;
	has_lb = bt_event_class_get_log_level(cb, &lb) ==
		BT_PROPERTY_AVAILABILITY_AVAILABLE;
	order = has_la && has_lb ? (int) la - (int) lb :
		present_first(has_la, has_lb);
	if (order == 0)
		order = strings_absent_first(bt_event_class_get_emf_uri(ca),
			bt_event_class_get_emf_uri(cb));
	return order;
}

static const bt_event_class *event_class_of(const bt_message *msg)
{
	return bt_event_borrow_class_const(
		bt_message_event_borrow_event_const(msg));
}

static int compare_clock_values(uint64_t a, const bt_clock_class *ca,
		uint64_t b, const bt_clock_class *cb)
{
	int order = truncated_difference(a, b);

	if (order == 0)
		order = uuids_present_first(bt_clock_class_get_uuid(ca),
			bt_clock_class_get_uuid(cb));
	if (order == 0)
		order = strings_present_first(bt_clock_class_get_name(ca),
			bt_clock_class_get_name(cb));
	/* Higher frequency, then higher precision first. */
	if (order == 0)
		order = truncated_difference(bt_clock_class_get_frequency(cb),
			bt_clock_class_get_frequency(ca));
	if (order == 0)
		order = truncated_difference(bt_clock_class_get_precision(cb),
			bt_clock_class_get_precision(ca));
	return order;
}

static int compare_clock_snapshots(const bt_clock_snapshot *a,
		const bt_clock_snapshot *b)
{
	return compare_clock_values(bt_clock_snapshot_get_value(a),
		bt_clock_snapshot_borrow_clock_class_const(a),
		bt_clock_snapshot_get_value(b),
		bt_clock_snapshot_borrow_clock_class_const(b));
}

static int compare_counts(bt_property_availability has_a, uint64_t a,
		bt_property_availability has_b, uint64_t b)
{
	bool known_a = has_a == BT_PROPERTY_AVAILABILITY_AVAILABLE;
	bool known_b = has_b == BT_PROPERTY_AVAILABILITY_AVAILABLE;

	return known_a && known_b ? truncated_difference(a, b) :
		present_first(known_a, known_b);
}

static int compare_discarded_events(const bt_message *a, const bt_message *b)
{
	const bt_stream_class *sc = bt_stream_borrow_class_const(
		bt_message_discarded_events_borrow_stream_const(a));
	uint64_t count_a = 0, count_b = 0;
	bt_property_availability has_a, has_b;
	int order = 0;

	if (bt_stream_class_discarded_events_have_default_clock_snapshots(sc)) {
		order = compare_clock_snapshots(
			bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(a),
			bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(b));
		if (order == 0)
			order = compare_clock_snapshots(
				bt_message_discarded_events_borrow_end_default_clock_snapshot_const(a),
				bt_message_discarded_events_borrow_end_default_clock_snapshot_const(b));
		if (order != 0)
			return order;
	}
	has_a = bt_message_discarded_events_get_count(a, &count_a);
	has_b = bt_message_discarded_events_get_count(b, &count_b);
	return compare_counts(has_a, count_a, has_b, count_b);
}

static int compare_discarded_packets(const bt_message *a, const bt_message *b)
{
	const bt_stream_class *sc = bt_stream_borrow_class_const(
		bt_message_discarded_packets_borrow_stream_const(a));
	uint64_t count_a = 0, count_b = 0;
	bt_property_availability has_a, has_b;
	int order = 0;

	if (bt_stream_class_discarded_packets_have_default_clock_snapshots(sc)) {
		order = compare_clock_snapshots(
			bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(a),
			bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(b));
		if (order == 0)
			order = compare_clock_snapshots(
				bt_message_discarded_packets_borrow_end_default_clock_snapshot_const(a),
				bt_message_discarded_packets_borrow_end_default_clock_snapshot_const(b));
		if (order != 0)
			return order;
	}
	has_a = bt_message_discarded_packets_get_count(a, &count_a);
	has_b = bt_message_discarded_packets_get_count(b, &count_b);
	return compare_counts(has_a, count_a, has_b, count_b);
}

/* Level 6: two messages of one type, from streams of equal ids. */
static int compare_same_type(const bt_message *a, const bt_message *b,
		const bt_stream *sa, const bt_stream *sb)
{
	int order;

	switch (bt_message_get_type(a)) {
	case BT_MESSAGE_TYPE_EVENT:
		order = compare_event_classes(event_class_of(a),
			event_class_of(b));
		return order ? order : compare_streams(sa, sb);
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		order = compare_streams(sa, sb);
		return order ? order : compare_discarded_events(a, b);
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		order = compare_streams(sa, sb);
		return order ? order : compare_discarded_packets(a, b);
	case BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY:
		return compare_clock_snapshots(
			bt_message_message_iterator_inactivity_borrow_clock_snapshot_const(a),
			bt_message_message_iterator_inactivity_borrow_clock_snapshot_const(b));
	default:
		return compare_streams(sa, sb);
	}
}

int tn_merge_compare_messages(const bt_message *a, const bt_message *b)
{
	const bt_stream *sa = tn_merge_message_stream(a);
	const bt_stream *sb = tn_merge_message_stream(b);
	bt_message_type type_a = bt_message_get_type(a);
	bt_message_type type_b = bt_message_get_type(b);
	int order = compare_origins(sa, sb);

	if (order != 0)
		return order;
	if (type_a != type_b)
		return type_rank(type_a) - type_rank(type_b);
	return compare_same_type(a, b, sa, sb);
}

int tn_merge_compare_items(const void *a, const void *b, void *data)
{
	(void) data;
	return tn_merge_compare_messages(a, b);
}

/* ---- the same from keys (merge-compare.h) ---- */

/* The notice's begin and end clock values, when its stream class gives
 * them, and its count. */
static void notice_key(const bt_message *msg, struct tn_merge_key *key)
{
	const bt_clock_snapshot *begin = NULL, *end = NULL;
	const bt_stream_class *sc = bt_stream_borrow_class_const(key->stream);

	if (key->type == BT_MESSAGE_TYPE_DISCARDED_EVENTS) {
		key->has_count = bt_message_discarded_events_get_count(msg,
			&key->count);
		if (bt_stream_class_discarded_events_have_default_clock_snapshots(sc)) {
			begin = bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(msg);
			end = bt_message_discarded_events_borrow_end_default_clock_snapshot_const(msg);
		}
	} else {
		key->has_count = bt_message_discarded_packets_get_count(msg,
			&key->count);
		if (bt_stream_class_discarded_packets_have_default_clock_snapshots(sc)) {
			begin = bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(msg);
			end = bt_message_discarded_packets_borrow_end_default_clock_snapshot_const(msg);
		}
	}
	key->has_snapshots = begin && end;
	if (!key->has_snapshots)
		return;
	key->begin = bt_clock_snapshot_get_value(begin);
	key->begin_class = bt_clock_snapshot_borrow_clock_class_const(begin);
	key->end = bt_clock_snapshot_get_value(end);
	key->end_class = bt_clock_snapshot_borrow_clock_class_const(end);
}

void tn_merge_key_of(const bt_message *msg, struct tn_merge_key *key)
{
	memset(key, 0, sizeof(*key));
	key->stream = tn_merge_message_stream(msg);
	key->type = bt_message_get_type(msg);
	if (key->type == BT_MESSAGE_TYPE_EVENT)
		key->event_class = event_class_of(msg);
	else if (key->type == BT_MESSAGE_TYPE_DISCARDED_EVENTS ||
		 key->type == BT_MESSAGE_TYPE_DISCARDED_PACKETS)
		notice_key(msg, key);
}

int tn_merge_compare_keys(const struct tn_merge_key *a,
		const struct tn_merge_key *b)
{
	int order = compare_origins(a->stream, b->stream);

	if (order != 0)
		return order;
	if (a->type != b->type)
		return type_rank(a->type) - type_rank(b->type);
	switch (a->type) {
	case BT_MESSAGE_TYPE_EVENT:
		order = compare_event_classes(a->event_class, b->event_class);
		return order ? order : compare_streams(a->stream, b->stream);
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		order = compare_streams(a->stream, b->stream);
		/* As the muxer: a's stream class says whether both have
		 * clock values. */
		if (order == 0 && a->has_snapshots) {
			order = compare_clock_values(a->begin, a->begin_class,
				b->begin, b->begin_class);
			if (order == 0)
				order = compare_clock_values(a->end,
					a->end_class, b->end, b->end_class);
		}
		return order ? order : compare_counts(a->has_count, a->count,
			b->has_count, b->count);
	default:
		return compare_streams(a->stream, b->stream);
	}
}
