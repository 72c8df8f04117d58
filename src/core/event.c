/* event.c - accessors of one item read from a trace. */
#include <babeltrace2/babeltrace.h>
#include <string.h>

#include "tracenav/event.h"
#include "clock.h"
#include "event-record-data.h"

void tn_event_release(struct tn_event *ev)
{
	if (!ev)
		return;
	bt_message_put_ref(ev->msg);
	ev->msg = NULL;
}

static const bt_stream *borrow_stream(const struct tn_event *ev)
{
	if (ev->record)
		return ev->record->stream;
	switch (ev->kind) {
	case TN_EVENT_KIND_EVENT:
		return bt_event_borrow_stream_const(
			bt_message_event_borrow_event_const(ev->msg));
	case TN_EVENT_KIND_DISCARDED_EVENTS:
		return bt_message_discarded_events_borrow_stream_const(ev->msg);
	case TN_EVENT_KIND_DISCARDED_PACKETS:
		return bt_message_discarded_packets_borrow_stream_const(ev->msg);
	}
	return NULL;
}

const char *tn_event_get_name(const struct tn_event *ev)
{
	const char *name;

	switch (ev->kind) {
	case TN_EVENT_KIND_DISCARDED_EVENTS:
		return "<discarded events>";
	case TN_EVENT_KIND_DISCARDED_PACKETS:
		return "<discarded packets>";
	case TN_EVENT_KIND_EVENT:
		break;
	}
	if (ev->record)
		return ev->record->name;
	name = bt_event_class_get_name(bt_event_borrow_class_const(
		bt_message_event_borrow_event_const(ev->msg)));
	return name ? name : "<unknown>";
}

int64_t tn_event_get_cpu(const struct tn_event *ev)
{
	const bt_packet *packet;
	const bt_field *context, *cpu;

	if (ev->record)
		return ev->record->cpu;
	if (ev->kind != TN_EVENT_KIND_EVENT)
		return -1;
	packet = bt_event_borrow_packet_const(
		bt_message_event_borrow_event_const(ev->msg));
	if (!packet || !(context = bt_packet_borrow_context_field_const(packet)))
		return -1;
	cpu = bt_field_structure_borrow_member_field_by_name_const(context,
		"cpu_id");
	if (!cpu)
		return -1;
	if (bt_field_class_type_is(bt_field_get_class_type(cpu),
			BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		return (int64_t) bt_field_integer_unsigned_get_value(cpu);
	if (bt_field_class_type_is(bt_field_get_class_type(cpu),
			BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		return bt_field_integer_signed_get_value(cpu);
	return -1;
}

const char *tn_event_get_hostname(const struct tn_event *ev)
{
	const bt_value *value = bt_trace_borrow_environment_entry_value_by_name_const(
		bt_stream_borrow_trace_const(borrow_stream(ev)), "hostname");

	if (!value || bt_value_get_type(value) != BT_VALUE_TYPE_STRING)
		return NULL;
	return bt_value_string_get(value);
}

const char *tn_event_get_trace_name(const struct tn_event *ev)
{
	return bt_trace_get_name(bt_stream_borrow_trace_const(borrow_stream(ev)));
}

uint64_t tn_event_get_stream_id(const struct tn_event *ev)
{
	return bt_stream_get_id(borrow_stream(ev));
}

const void *tn_event_get_stream_key(const struct tn_event *ev)
{
	return borrow_stream(ev);
}

uint64_t tn_event_get_stream_class_id(const struct tn_event *ev)
{
	return bt_stream_class_get_id(bt_stream_borrow_class_const(
		borrow_stream(ev)));
}

bool tn_event_get_discarded_count(const struct tn_event *ev, uint64_t *count)
{
	if (ev->record) {
		if (ev->record->has_discarded)
			*count = ev->record->discarded;
		return ev->record->has_discarded;
	}
	switch (ev->kind) {
	case TN_EVENT_KIND_DISCARDED_EVENTS:
		return bt_message_discarded_events_get_count(ev->msg, count) ==
			BT_PROPERTY_AVAILABILITY_AVAILABLE;
	case TN_EVENT_KIND_DISCARDED_PACKETS:
		return bt_message_discarded_packets_get_count(ev->msg, count) ==
			BT_PROPERTY_AVAILABILITY_AVAILABLE;
	default:
		return false;
	}
}

bool tn_event_get_discarded_range(const struct tn_event *ev, int64_t *begin_ns,
		int64_t *end_ns)
{
	const bt_stream_class *sc = bt_stream_borrow_class_const(
		borrow_stream(ev));

	switch (ev->kind) {
	case TN_EVENT_KIND_DISCARDED_EVENTS:
		if (!bt_stream_class_discarded_events_have_default_clock_snapshots(sc))
			return false;
		return tn_clock_snapshot_ns(bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(
				ev->msg), begin_ns) &&
			tn_clock_snapshot_ns(bt_message_discarded_events_borrow_end_default_clock_snapshot_const(
				ev->msg), end_ns);
	case TN_EVENT_KIND_DISCARDED_PACKETS:
		if (!bt_stream_class_discarded_packets_have_default_clock_snapshots(sc))
			return false;
		return tn_clock_snapshot_ns(bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(
				ev->msg), begin_ns) &&
			tn_clock_snapshot_ns(bt_message_discarded_packets_borrow_end_default_clock_snapshot_const(
				ev->msg), end_ns);
	default:
		return false;
	}
}
