/* event-record.c - records of events for the thread that uses them, and
 * the plans of what they hold (see event-record.h). */
#include <babeltrace2/babeltrace.h>
#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "event-record.h"

struct ask {
	enum tn_field_scope scope;
	char *path;
};

/* What the records of one event class hold; never changed once
 * published (a new ask makes a new plan). */
struct tn_record_plan {
	unsigned count;
	struct ask asks[TN_RECORD_FIELDS];
};

struct tn_record_plans {
	pthread_mutex_t lock;		/* guards by_class and made */
	GHashTable *by_class;		/* event class -> its plan */
	GPtrArray *made;		/* every plan, and the paths */
	_Atomic unsigned generation;	/* changes with by_class */
};

static const struct tn_record_plan empty_plan;

struct tn_record_plans *tn_record_plans_create(void)
{
	struct tn_record_plans *plans = g_new0(struct tn_record_plans, 1);

	pthread_mutex_init(&plans->lock, NULL);
	plans->by_class = g_hash_table_new(g_direct_hash, g_direct_equal);
	plans->made = g_ptr_array_new_with_free_func(g_free);
	atomic_init(&plans->generation, 1);
	return plans;
}

void tn_record_plans_destroy(struct tn_record_plans *plans)
{
	if (!plans)
		return;
	g_hash_table_destroy(plans->by_class);
	g_ptr_array_free(plans->made, TRUE);
	pthread_mutex_destroy(&plans->lock);
	g_free(plans);
}

static const struct tn_record_plan *plan_of(struct tn_record_plans *plans,
		struct tn_record_memo *memo, const void *event_class)
{
	size_t slot = ((uintptr_t) event_class >> 4) % TN_RECORD_MEMO_SLOTS;
	unsigned generation = atomic_load_explicit(&plans->generation,
		memory_order_acquire);
	const struct tn_record_plan *plan;

	if (memo->slots[slot].event_class == event_class &&
	    memo->slots[slot].generation == generation)
		return memo->slots[slot].plan;
	pthread_mutex_lock(&plans->lock);
	plan = g_hash_table_lookup(plans->by_class, event_class);
	generation = atomic_load(&plans->generation);
	pthread_mutex_unlock(&plans->lock);
	if (!plan)
		plan = &empty_plan;
	memo->slots[slot].event_class = event_class;
	memo->slots[slot].plan = plan;
	memo->slots[slot].generation = generation;
	return plan;
}

void tn_event_record_ask(const struct tn_event_record *rec,
		enum tn_field_scope scope, const char *path)
{
	struct tn_record_plans *plans = rec->plans;
	const struct tn_record_plan *old;
	struct tn_record_plan *plan;

	if (!rec->event_class)
		return;
	pthread_mutex_lock(&plans->lock);
	old = g_hash_table_lookup(plans->by_class, rec->event_class);
	if (!old)
		old = &empty_plan;
	for (unsigned i = 0; i < old->count; i++)
		if (old->asks[i].scope == scope &&
		    !strcmp(old->asks[i].path, path))
			goto out;
	if (old->count == TN_RECORD_FIELDS)
		goto out;
	plan = g_memdup2(old, sizeof(*old));
	plan->asks[plan->count].scope = scope;
	plan->asks[plan->count].path = g_strdup(path);
	g_ptr_array_add(plans->made, plan->asks[plan->count].path);
	plan->count++;
	g_ptr_array_add(plans->made, plan);
	g_hash_table_insert(plans->by_class,
		(gpointer) (uintptr_t) rec->event_class,
		plan);
	atomic_fetch_add(&plans->generation, 1);
out:
	pthread_mutex_unlock(&plans->lock);
}

/* Keep a copy of a string value in rec when it fits (the message's
 * own text otherwise: it lives as long as the record). */
static void keep_string(struct tn_event_record *rec,
		struct tn_field_value *value)
{
	size_t len = strlen(value->string) + 1;

	if (rec->text_used + len > sizeof(rec->text))
		return;
	memcpy(rec->text + rec->text_used, value->string, len);
	value->string = rec->text + rec->text_used;
	rec->text_used += (unsigned) len;
}

/* The labels are in a buffer of the field class that the next read of
 * the class overwrites: copy their pointers (the labels themselves are
 * the class's). */
static bool keep_labels(struct tn_event_record *rec, unsigned *used,
		struct tn_field_value *value)
{
	uint64_t count = value->label_count;

	if (*used + count > TN_RECORD_LABELS)
		return false;
	memcpy(&rec->labels[*used], value->labels, count * sizeof(char *));
	value->labels = &rec->labels[*used];
	*used += (unsigned) count;
	return true;
}

void tn_event_record_fill(struct tn_event_record *rec, struct tn_event *ev,
		struct tn_record_plans *plans, struct tn_record_memo *memo)
{
	unsigned labels_used = 0;
	const bt_event *event;

	rec->plans = plans;
	rec->field_count = 0;
	rec->text_used = 0;
	rec->plan = &empty_plan;
	rec->cpu = tn_event_get_cpu(ev);
	rec->stream = tn_event_get_stream_key(ev);
	rec->has_discarded = tn_event_get_discarded_count(ev,
		&rec->discarded);
	if (ev->kind != TN_EVENT_KIND_EVENT) {
		rec->event_class = NULL;
		rec->name = tn_event_get_name(ev);
		ev->record = rec;
		return;
	}
	event = bt_message_event_borrow_event_const(ev->msg);
	rec->event_class = bt_event_borrow_class_const(event);
	rec->name = tn_event_get_name(ev);
	rec->plan = plan_of(plans, memo, rec->event_class);
	for (unsigned i = 0; i < rec->plan->count; i++) {
		const struct ask *ask = &rec->plan->asks[i];
		struct tn_record_field *f = &rec->fields[i];

		f->path = ask->path;
		f->scope = ask->scope;
		f->found = tn_event_find_field_in_message(ev, ask->scope,
			ask->path, &f->value);
		f->held = true;
		if (f->found && f->value.type == TN_VALUE_STRING)
			keep_string(rec, &f->value);
		if (f->found && f->value.label_count)
			f->held = keep_labels(rec, &labels_used, &f->value);
	}
	rec->field_count = rec->plan->count;
	ev->record = rec;
}

int tn_event_record_find(const struct tn_event_record *rec,
		enum tn_field_scope scope, const char *path,
		struct tn_field_value *out)
{
	for (unsigned i = 0; i < rec->field_count; i++) {
		const struct tn_record_field *f = &rec->fields[i];

		if (f->scope != scope || strcmp(f->path, path))
			continue;
		if (!f->held)
			return -1;
		if (!f->found)
			return 0;
		*out = f->value;
		return 1;
	}
	return -1;
}
