/* event.h - one item read from a trace: an event, or a notice that the
 * tracer discarded events or packets.
 *
 * A tn_event holds a reference to libbabeltrace2's message, so its fields
 * can be formatted on demand (format.h) long after it was read.  Drop it
 * with tn_event_release().
 */
#ifndef TRACENAV_EVENT_H
#define TRACENAV_EVENT_H

#include <stdbool.h>
#include <stdint.h>

struct bt_message;

enum tn_event_kind {
	TN_EVENT_KIND_EVENT,
	TN_EVENT_KIND_DISCARDED_EVENTS,
	TN_EVENT_KIND_DISCARDED_PACKETS,
};

struct tn_event {
	enum tn_event_kind kind;
	bool has_ns;		/* false when the stream has no clock */
	int64_t ns;		/* time in ns from origin (begin of a notice) */
	const struct bt_message *msg;	/* owned reference */
};

/* Drop ev's reference; ev becomes empty (msg NULL).  NULL-safe. */
void tn_event_release(struct tn_event *ev);

/* The event class name ("sched_switch"), or "<unknown>"; for a notice
 * "<discarded events>" or "<discarded packets>". */
const char *tn_event_get_name(const struct tn_event *ev);

/* The CPU the event was recorded on (the packet context's cpu_id field),
 * or -1 if the trace does not say. */
int64_t tn_event_get_cpu(const struct tn_event *ev);

/* The trace's "hostname" environment entry, or NULL. */
const char *tn_event_get_hostname(const struct tn_event *ev);

/* libbabeltrace2's name of the event's trace, or NULL. */
const char *tn_event_get_trace_name(const struct tn_event *ev);

/* The stream's id within its trace, and the id of its stream class. */
uint64_t tn_event_get_stream_id(const struct tn_event *ev);
uint64_t tn_event_get_stream_class_id(const struct tn_event *ev);

/* For a notice: how many events or packets were discarded; false if the
 * tracer did not say.  false for an event. */
bool tn_event_get_discarded_count(const struct tn_event *ev, uint64_t *count);

/* For a notice: the time range it covers; false if unknown. */
bool tn_event_get_discarded_range(const struct tn_event *ev, int64_t *begin_ns,
		int64_t *end_ns);

#endif
