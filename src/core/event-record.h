/* event-record.h - what the thread that decodes an event reads of it
 * for the thread that uses it (internal: not part of the public API).
 *
 * The preparse decodes on helper threads and uses the events on
 * another (feed.h).  Reading an event's message there costs a cache
 * miss at every step (message, event, fields: all just written by
 * another core), which made the consumers of a shared read slower than
 * the same consumers on their own read.  So the decoding thread reads
 * what the consumers will read, while the message is in its cache,
 * into a record next to the item: its class's name, its stream, its
 * CPU (the packet context's cpu_id), the count of a notice, and the
 * fields the consumers asked for of its class.
 *
 * What to read is learnt: tn_event_find_field() on an event with a
 * record answers from it; a field the record does not hold is read from
 * the message (still there: the decoding thread releases it only after
 * the item was used) and asked for from then on (a plan per event
 * class, in tn_record_plans, copied on write: the decoding threads see
 * each new plan at their next event of that class).  So consumers need
 * not say what they read, and no field is read twice.
 */
#ifndef TRACENAV_CORE_EVENT_RECORD_H
#define TRACENAV_CORE_EVENT_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/event.h"

/* Fields a record holds at most (more are read from the message). */
#define TN_RECORD_FIELDS 12
/* Enumeration labels and bytes of strings it holds (a longer string is
 * read from the message, which lives as long as the record). */
#define TN_RECORD_LABELS 8
#define TN_RECORD_TEXT 256

struct tn_record_plans;
struct tn_record_plan;

struct tn_record_field {
	const char *path;		/* as the plan has it */
	enum tn_field_scope scope;
	bool held;	/* false: too many labels, read the message */
	bool found;
	struct tn_field_value value;
};

struct tn_event_record {
	const void *event_class;	/* the bt_event_class; NULL: a notice */
	const char *name;		/* tn_event_get_name()'s */
	const void *stream;		/* the bt_stream */
	int64_t cpu;			/* tn_event_get_cpu()'s */
	bool has_discarded;		/* a notice's count */
	uint64_t discarded;
	struct tn_record_plans *plans;	/* where to ask for more */
	const struct tn_record_plan *plan;	/* what it holds */
	unsigned field_count;
	struct tn_record_field fields[TN_RECORD_FIELDS];
	const char *labels[TN_RECORD_LABELS];
	unsigned text_used;
	char text[TN_RECORD_TEXT];
};

/* Plans of the event classes of one read.  Any thread. */
struct tn_record_plans *tn_record_plans_create(void);
void tn_record_plans_destroy(struct tn_record_plans *plans);

/* The decoding thread's memo of the plans (a few event classes take
 * most events): one per thread, zeroed before its first use. */
#define TN_RECORD_MEMO_SLOTS 64
struct tn_record_memo {
	struct {
		const void *event_class;
		const struct tn_record_plan *plan;
		unsigned generation;
	} slots[TN_RECORD_MEMO_SLOTS];
};

/* On the thread that decoded ev (not a copy with a record): fill rec
 * from ev's message as plans says, and point ev->record at it. */
void tn_event_record_fill(struct tn_event_record *rec, struct tn_event *ev,
		struct tn_record_plans *plans, struct tn_record_memo *memo);

/* For tn_event_find_field(): the field of rec at (scope, path): 1 with
 * *out, 0 when the record knows the event has none, -1 when it does
 * not hold it (read the message; tn_event_record_ask() it). */
int tn_event_record_find(const struct tn_event_record *rec,
		enum tn_field_scope scope, const char *path,
		struct tn_field_value *out);

/* Ask for (scope, path) in the records of rec's event class from now
 * on.  Any thread. */
void tn_event_record_ask(const struct tn_event_record *rec,
		enum tn_field_scope scope, const char *path);

/* tn_event_find_field() reading the message alone (event-field.c). */
bool tn_event_find_field_in_message(const struct tn_event *ev,
		enum tn_field_scope scope, const char *path,
		struct tn_field_value *out);

#endif
