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
#include <stddef.h>
#include <stdint.h>

struct bt_message;
struct tn_event_record;

enum tn_event_kind {
	TN_EVENT_KIND_EVENT,
	TN_EVENT_KIND_DISCARDED_EVENTS,
	TN_EVENT_KIND_DISCARDED_PACKETS,
};

struct tn_event {
	enum tn_event_kind kind;
	bool has_ns;		/* false when the stream has no clock */
	/* Where it is placed: its time in ns from origin (the beginning
	 * of a notice), unless its stream's time went back (a damaged
	 * packet, a virtual machine's clock): then the latest time of its
	 * stream before it, so that the items of a read come in the order
	 * of their ns.  Positions, seeks, the index and the state use it. */
	int64_t ns;
	/* Its time as its tracer recorded it (corrected by the host's
	 * clock correction when the reader has one): what is printed.
	 * Before ns when its stream's time went back, else equal. */
	int64_t recorded_ns;
	const struct bt_message *msg;	/* owned reference */
	/* What a thread other than the message's made of it for the
	 * thread that reads it (the preparse's parts: src/core/feed.h),
	 * or NULL: the accessors below read it first (see
	 * src/core/event-record.h). */
	const struct tn_event_record *record;
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

/* An address that stands for the event's stream as long as the reader
 * that gave it lives (another reader's streams may take the same
 * addresses): a key for memos, never to be dereferenced. */
const void *tn_event_get_stream_key(const struct tn_event *ev);

/* For a notice: how many events or packets were discarded; false if the
 * tracer did not say.  false for an event. */
bool tn_event_get_discarded_count(const struct tn_event *ev, uint64_t *count);

/* For a notice: the time range it covers; false if unknown. */
bool tn_event_get_discarded_range(const struct tn_event *ev, int64_t *begin_ns,
		int64_t *end_ns);

/* Where a field is looked for (event-field.c). */
enum tn_field_scope {
	TN_SCOPE_ANY,		/* payload, specific, common, packet context */
	TN_SCOPE_PAYLOAD,
	TN_SCOPE_SPECIFIC_CONTEXT,
	TN_SCOPE_COMMON_CONTEXT,
	TN_SCOPE_CONTEXTS,	/* common context, then specific context */
	TN_SCOPE_PACKET_CONTEXT,
};

/* The scope that `name` (len bytes, "$payload", "$ctx", "$cctx",
 * "$sctx" or "$pctx", as filters and sequence diagram rules write it)
 * stands for.  Returns false, *out untouched, for any other name. */
bool tn_field_scope_from_name(const char *name, size_t len,
		enum tn_field_scope *out);

/* The names tn_field_scope_from_name() knows, for messages. */
#define TN_FIELD_SCOPE_NAMES "$payload, $ctx, $cctx, $sctx or $pctx"

enum tn_value_type {
	TN_VALUE_SIGNED,
	TN_VALUE_UNSIGNED,	/* also booleans and bit arrays */
	TN_VALUE_REAL,
	TN_VALUE_STRING,
	TN_VALUE_OTHER,		/* a structure, an array, an empty option */
};

/* A field's value, borrowed from the event (valid while it is held). */
struct tn_field_value {
	enum tn_value_type type;
	int64_t s;		/* SIGNED */
	uint64_t u;		/* UNSIGNED */
	double d;		/* REAL */
	const char *string;	/* STRING */
	/* An enumeration (a SIGNED or UNSIGNED value): its labels for
	 * its value (maybe none). */
	bool is_enum;
	const char *const *labels;
	uint64_t label_count;
};

/* A field that a consumer of events (a state provider, a loader of the
 * sequence diagram, an analysis) reads with tn_event_find_field(),
 * said ahead so that the thread that decodes the events can read it
 * for it (src/core/event-record.h): of the events named event (NULL:
 * every event; a name that ends with '*': every event whose name starts
 * with what comes before it), in scope, at path.  Tables of them end
 * with an entry whose path is NULL. */
struct tn_field_want {
	const char *event;
	enum tn_field_scope scope;
	const char *path;
};

/* Find the field at path ("prev_tid", or "a.b" for member b of the
 * structure a; a variant or an option stands for what it holds) in
 * scope of event ev.  Returns true with *out filled, false when the
 * event has no such field (or ev is a notice). */
bool tn_event_find_field(const struct tn_event *ev, enum tn_field_scope scope,
		const char *path, struct tn_field_value *out);

#endif
