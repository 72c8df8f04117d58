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
#include "event-record-data.h"
#include "event-field.h"

struct tn_record_plans;
struct tn_record_plan;

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

/* How many fields were asked of records that did not hold them, since
 * the process started (any thread). */
uint64_t tn_event_record_get_misses(void);

#endif
