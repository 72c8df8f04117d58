/* event-record-data.h - what a record of an event holds (see
 * event-record.h: who fills it and why), for the getters of an event
 * (event.c, kernel-events.c), which answer from it when the event has
 * one (internal: not part of the public API). */
#ifndef TRACENAV_CORE_EVENT_RECORD_DATA_H
#define TRACENAV_CORE_EVENT_RECORD_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/event.h"
#include "kernel-events.h"
#include "merge-compare.h"

struct tn_record_plan;

/* Fields, enumeration labels and bytes of strings that a record holds
 * in itself; more go to memory of its own (tn_event_record_fini()). */
#define TN_RECORD_FIELDS 16
#define TN_RECORD_LABELS 8
#define TN_RECORD_TEXT 256

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

#endif
