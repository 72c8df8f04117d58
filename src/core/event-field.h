/* event-field.h - a field of an event read from its message: by name,
 * or through a handle resolved once per event class (internal: not part
 * of the public API; event-field.c). */
#ifndef TRACENAV_CORE_EVENT_FIELD_H
#define TRACENAV_CORE_EVENT_FIELD_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/event.h"

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

/* tn_event_find_field() reading the message alone (event-field.c). */
bool tn_event_find_field_in_message(const struct tn_event *ev,
		enum tn_field_scope scope, const char *path,
		struct tn_field_value *out);

#endif
