/* event-record.h - what the thread that decodes an event reads of it
 * for the thread that uses it (internal: not part of the public API).
 *
 * The preparse decodes on helper threads and uses the events on
 * another (feed.h).  Reading an event's message there costs a cache
 * miss at every step (message, event, fields: all written by another
 * core), and holding the messages until they are used makes the
 * decoding slower (its pools go cold).  So the decoding thread reads
 * what the consumers will read, while the message is in its cache,
 * into a record next to the item, and releases the message: its
 * class's name, its stream, its CPU (the packet context's cpu_id), the
 * count of a notice, what the merge of the parts compares
 * (merge-compare.h's key), and the fields the consumers said they read
 * (struct tn_field_want, event.h), each found once per event class (a
 * handle: the scope and the member indexes down to it).
 *
 * tn_event_find_field() of an event with a record answers from it; a
 * field it does not hold is taken as absent, and
 * tn_event_record_get_misses() counts it: a consumer that reads a field
 * it did not say it wants (the tests hold it to 0).
 *
 * Copying at once is also what keeps values right: libbabeltrace2
 * 2.0's CTF decoder may write the text of a later event into the string
 * field of a message still held (seen on a trace of LTTng 2.5's
 * sys_open events, held a few hundred events: their filename changed
 * or went empty), so only a copy made before the next events are
 * decoded is sure.
 */
#ifndef TRACENAV_CORE_EVENT_RECORD_H
#define TRACENAV_CORE_EVENT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/event.h"
#include "kernel-events.h"
#include "merge-compare.h"

/* Fields, enumeration labels and bytes of strings that a record holds
 * in itself; more go to memory of its own (tn_event_record_fini()). */
#define TN_RECORD_FIELDS 16
#define TN_RECORD_LABELS 8
#define TN_RECORD_TEXT 256

struct tn_record_plans;
struct tn_record_plan;

/* Where a field of the events of one class is: its scope and the
 * indexes of the structure members down to it, found once from the
 * class; or absent from every event of the class; or to be looked up
 * by name in each event (the path goes through a variant or an
 * option). */
#define TN_FIELD_HANDLE_DEPTH 6

struct tn_field_handle {
	enum { TN_FIELD_HANDLE_ABSENT, TN_FIELD_HANDLE_AT,
		TN_FIELD_HANDLE_BY_NAME } kind;
	enum tn_field_scope scope;	/* where it is (AT) */
	unsigned depth;
	uint64_t indexes[TN_FIELD_HANDLE_DEPTH];
};

/* The handle of (scope, path) in the events of event_class (a
 * bt_event_class), as tn_event_find_field() would find it.  Any
 * thread: classes do not change. */
void tn_field_handle_resolve(const void *event_class,
		enum tn_field_scope scope, const char *path,
		struct tn_field_handle *handle);

/* The field of ev (an event of the handle's class) at handle: what
 * tn_event_find_field_in_message(ev, scope, path) gives. */
bool tn_field_handle_read(const struct tn_event *ev,
		const struct tn_field_handle *handle, enum tn_field_scope scope,
		const char *path, struct tn_field_value *out);

/* A field as a record holds it: a struct tn_field_value packed in 32
 * bytes (the thread that reads records reads them from another core's
 * cache: each line counts). */
struct tn_record_field {
	const char *path;		/* as the plan has it */
	uint8_t scope;			/* enum tn_field_scope */
	bool found;
	uint8_t type;			/* enum tn_value_type */
	bool is_enum;
	uint32_t label_count;
	union {
		int64_t s;
		uint64_t u;
		double d;
		const char *string;
	} v;
	const char *const *labels;
};

struct tn_event_record {
	const void *event_class;	/* the bt_event_class; NULL: a notice */
	const char *name;		/* tn_event_get_name()'s */
	const void *stream;		/* the bt_stream */
	int64_t cpu;			/* tn_event_get_cpu()'s */
	bool has_discarded;		/* a notice's count */
	uint64_t discarded;
	struct tn_merge_key key;	/* what the merge compares */
	/* What the event is to a kernel consumer (kernel-events.h), once
	 * per class; NULL: none of the kernel's events. */
	const struct tn_kevent_class *kevent;
	const struct tn_record_plan *plan;	/* what it holds */
	unsigned field_count;
	struct tn_record_field *fields;	/* inline_fields, or its own */
	const char **labels;		/* inline_labels, or its own */
	char *text;			/* inline_text, or its own */
	size_t field_cap, label_cap, text_cap;
	struct tn_record_field inline_fields[TN_RECORD_FIELDS];
	const char *inline_labels[TN_RECORD_LABELS];
	char inline_text[TN_RECORD_TEXT];
};

/* Free what a record took for itself (NULL-safe; it may be filled
 * again afterwards). */
void tn_event_record_fini(struct tn_event_record *rec);

/* The plans of the event classes of one reader (its thread's alone):
 * what the records hold of the events of each class, for wants (count
 * of them; what they point to outlives the plans). */
struct tn_record_plans *tn_record_plans_create(
		const struct tn_field_want *wants, size_t count);
void tn_record_plans_destroy(struct tn_record_plans *plans);

/* The slots of the plans' memo of event classes. */
#define TN_RECORD_MEMO_SLOTS 64

/* On the thread that decoded ev (fresh from a reader, without record):
 * fill rec from ev's message as plans says, and point ev->record at
 * it; the message may be released then. */
void tn_event_record_fill(struct tn_event_record *rec, struct tn_event *ev,
		struct tn_record_plans *plans);

/* tn_event_find_field() of an event with a record. */
bool tn_event_record_find_field(const struct tn_event *ev,
		enum tn_field_scope scope, const char *path,
		struct tn_field_value *out);

/* How many fields were asked of records that did not hold them, since
 * the process started (any thread). */
uint64_t tn_event_record_get_misses(void);

/* tn_event_find_field() reading the message alone (event-field.c). */
bool tn_event_find_field_in_message(const struct tn_event *ev,
		enum tn_field_scope scope, const char *path,
		struct tn_field_value *out);

#endif
