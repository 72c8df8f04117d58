/* event-record.c - records of events for the thread that uses them, the
 * plans of what they hold (see event-record.h), and an event's field
 * found in its record or its message (tn_event_find_field()). */
#include <babeltrace2/babeltrace.h>
#include <glib.h>
#include <stdatomic.h>
#include <string.h>

#include "event-record.h"
#include "pointer-hash.h"

struct ask {
	enum tn_field_scope scope;
	const char *path;
	struct tn_field_handle handle;
};

/* Slots of a plan's index of its asks by path (a power of 2): a
 * consumer asks for several fields of each event, by the strings it
 * said it wants. */
#define PLAN_SLOTS 64

/* What the records of one event class hold; never changed once
 * published (a new ask makes a new plan). */
struct tn_record_plan {
	unsigned count;
	struct ask *asks;		/* count of them */
	struct tn_kevent_class kevent;	/* the class's name, classified */
	/* The asks by their path's address (open addressing; path NULL:
	 * a free slot), when there are few enough of them. */
	bool indexed;
	struct {
		const char *path;
		unsigned index;
		enum tn_field_scope scope;
	} slots[PLAN_SLOTS];
};

struct tn_record_plans {
	const struct tn_field_want *wants;
	size_t want_count;
	GHashTable *by_class;		/* event class -> its plan */
	/* The last plans used (a few event classes take most events). */
	struct {
		const void *event_class;
		const struct tn_record_plan *plan;
	} memo[TN_RECORD_MEMO_SLOTS];
	/* The member cpu_id of the last packet context class seen. */
	const void *cpu_class;
	int64_t cpu_index;		/* -1: none */
};

static const struct tn_record_plan empty_plan;
static _Atomic uint64_t misses;

uint64_t tn_event_record_get_misses(void)
{
	return atomic_load(&misses);
}

static void plan_free(gpointer data)
{
	struct tn_record_plan *plan = data;

	g_free(plan->asks);
	g_free(plan);
}

struct tn_record_plans *tn_record_plans_create(
		const struct tn_field_want *wants, size_t count)
{
	struct tn_record_plans *plans = g_new0(struct tn_record_plans, 1);

	plans->wants = wants;
	plans->want_count = count;
	plans->by_class = g_hash_table_new_full(g_direct_hash, g_direct_equal,
		NULL, plan_free);
	return plans;
}

void tn_record_plans_destroy(struct tn_record_plans *plans)
{
	if (!plans)
		return;
	g_hash_table_destroy(plans->by_class);
	g_free(plans);
}

static bool name_matches(const char *pattern, const char *name)
{
	size_t len;

	if (!pattern)
		return true;
	len = strlen(pattern);
	if (len > 0 && pattern[len - 1] == '*')
		return strncmp(pattern, name, len - 1) == 0;
	return strcmp(pattern, name) == 0;
}

/* Add (scope, path) to plan, its handle found in event_class. */
static void plan_add(struct tn_record_plan *plan, const void *event_class,
		enum tn_field_scope scope, const char *path)
{
	struct ask *ask;

	for (unsigned i = 0; i < plan->count; i++)
		if (plan->asks[i].scope == scope &&
		    !strcmp(plan->asks[i].path, path))
			return;
	plan->asks = g_renew(struct ask, plan->asks, plan->count + 1);
	ask = &plan->asks[plan->count++];
	ask->scope = scope;
	ask->path = path;
	tn_field_handle_resolve(event_class, scope, path, &ask->handle);
}

/* Index plan's asks by the address of their path. */
static void plan_index(struct tn_record_plan *plan)
{
	plan->indexed = plan->count <= PLAN_SLOTS / 2;
	for (unsigned i = 0; plan->indexed && i < plan->count; i++) {
		size_t s = tn_pointer_slot(plan->asks[i].path, PLAN_SLOTS);

		while (plan->slots[s].path)
			s = (s + 1) % PLAN_SLOTS;
		plan->slots[s].path = plan->asks[i].path;
		plan->slots[s].index = i;
		plan->slots[s].scope = plan->asks[i].scope;
	}
}

/* The plan of a class seen for the first time: the wants of its name. */
static struct tn_record_plan *new_plan(struct tn_record_plans *plans,
		const void *event_class)
{
	struct tn_record_plan *plan = g_new0(struct tn_record_plan, 1);
	const char *name = bt_event_class_get_name(event_class);

	/* The name stays with the class, which outlives the records. */
	plan->kevent.kind = tn_kevent_classify(name, &plan->kevent.syscall);
	for (size_t i = 0; i < plans->want_count; i++) {
		const struct tn_field_want *w = &plans->wants[i];

		if (name && name_matches(w->event, name))
			plan_add(plan, event_class, w->scope, w->path);
	}
	plan_index(plan);
	g_hash_table_insert(plans->by_class,
		(gpointer) (uintptr_t) event_class, plan);
	return plan;
}

static const struct tn_record_plan *plan_of(struct tn_record_plans *plans,
		const void *event_class)
{
	size_t slot = tn_pointer_slot(event_class, TN_RECORD_MEMO_SLOTS);
	const struct tn_record_plan *plan;

	if (plans->memo[slot].event_class == event_class)
		return plans->memo[slot].plan;
	plan = g_hash_table_lookup(plans->by_class, event_class);
	if (!plan)
		plan = new_plan(plans, event_class);
	plans->memo[slot].event_class = event_class;
	plans->memo[slot].plan = plan;
	return plan;
}

/* tn_event_get_cpu() of an event, with the place of cpu_id in its
 * packet context found once per packet context class. */
static int64_t event_cpu(const struct tn_event *ev,
		struct tn_record_plans *memo)
{
	const bt_packet *packet = bt_event_borrow_packet_const(
		bt_message_event_borrow_event_const(ev->msg));
	const bt_field *context, *cpu;
	const bt_field_class *fc;
	bt_field_class_type type;

	if (!packet || !(context = bt_packet_borrow_context_field_const(packet)))
		return -1;
	fc = bt_field_borrow_class_const(context);
	if (memo->cpu_class != fc) {
		const bt_field_class_structure_member *m =
			bt_field_class_structure_borrow_member_by_name_const(fc,
				"cpu_id");

		memo->cpu_class = fc;
		memo->cpu_index = -1;
		for (uint64_t i = 0; m &&
		     i < bt_field_class_structure_get_member_count(fc); i++)
			if (bt_field_class_structure_borrow_member_by_index_const(
					fc, i) == m)
				memo->cpu_index = (int64_t) i;
	}
	if (memo->cpu_index < 0)
		return -1;
	cpu = bt_field_structure_borrow_member_field_by_index_const(context,
		(uint64_t) memo->cpu_index);
	type = bt_field_get_class_type(cpu);
	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		return (int64_t) bt_field_integer_unsigned_get_value(cpu);
	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		return bt_field_integer_signed_get_value(cpu);
	return -1;
}

void tn_event_record_fini(struct tn_event_record *rec)
{
	if (!rec)
		return;
	if (rec->fields != rec->inline_fields)
		g_free(rec->fields);
	if (rec->labels != rec->inline_labels)
		g_free(rec->labels);
	if (rec->text != rec->inline_text)
		g_free(rec->text);
	rec->fields = NULL;
	rec->labels = NULL;
	rec->text = NULL;
}

/* Room for count items of size: buf (of *cap items: the record's
 * inline array, which a first growth leaves, or its own), or a larger
 * one.  What buf held is not kept: it is filled afresh. */
static void *room(void *buf, const void *inline_buf, size_t *cap,
		size_t count, size_t size)
{
	if (count <= *cap)
		return buf;
	*cap = MAX(count, *cap * 2);
	if (buf != inline_buf)
		g_free(buf);
	return g_malloc(*cap * size);
}

static void pack(struct tn_record_field *f, const struct tn_field_value *v)
{
	f->type = (uint8_t) v->type;
	f->is_enum = v->is_enum;
	f->label_count = (uint32_t) v->label_count;
	f->labels = NULL;
	switch (v->type) {
	case TN_VALUE_SIGNED:
		f->v.s = v->s;
		break;
	case TN_VALUE_UNSIGNED:
		f->v.u = v->u;
		break;
	case TN_VALUE_REAL:
		f->v.d = v->d;
		break;
	case TN_VALUE_STRING:
		f->v.string = v->string;
		break;
	default:
		f->v.u = 0;
	}
}

static void unpack(const struct tn_record_field *f, struct tn_field_value *out)
{
	memset(out, 0, sizeof(*out));
	out->type = (enum tn_value_type) f->type;
	out->is_enum = f->is_enum;
	out->label_count = f->label_count;
	out->labels = f->labels;
	switch (out->type) {
	case TN_VALUE_SIGNED:
		out->s = f->v.s;
		break;
	case TN_VALUE_UNSIGNED:
		out->u = f->v.u;
		break;
	case TN_VALUE_REAL:
		out->d = f->v.d;
		break;
	case TN_VALUE_STRING:
		out->string = f->v.string;
		break;
	default:
		break;
	}
}

/* Make rec's labels hold count of them, keeping those it has. */
static void grow_labels(struct tn_event_record *rec, size_t count)
{
	const char **labels;

	if (count <= rec->label_cap)
		return;
	rec->label_cap = MAX(count, rec->label_cap * 2);
	labels = g_new(const char *, rec->label_cap);
	memcpy(labels, rec->labels, count * sizeof(*labels));
	if (rec->labels != rec->inline_labels)
		g_free(rec->labels);
	rec->labels = labels;
}

/* Read the plan's fields into rec, and copy their strings and labels
 * into it (libbabeltrace2 may change them later: see the header; the
 * labels are in a buffer of their field class that the next read of
 * the class overwrites, so they are copied at once, the strings once
 * their room is known). */
static void read_fields(struct tn_event_record *rec,
		const struct tn_event *ev)
{
	size_t text = 0, labels = 0, used_text = 0;
	unsigned count = rec->plan->count;

	rec->fields = room(rec->fields, rec->inline_fields, &rec->field_cap,
		count, sizeof(*rec->fields));
	for (unsigned i = 0; i < count; i++) {
		const struct ask *ask = &rec->plan->asks[i];
		struct tn_record_field *f = &rec->fields[i];
		struct tn_field_value v;

		f->path = ask->path;
		f->scope = (uint8_t) ask->scope;
		f->found = tn_field_handle_read(ev, &ask->handle, ask->scope,
			ask->path, &v);
		if (!f->found)
			continue;
		pack(f, &v);
		if (v.type == TN_VALUE_STRING)
			text += strlen(v.string) + 1;
		if (v.label_count) {
			grow_labels(rec, labels + v.label_count);
			memcpy(&rec->labels[labels], v.labels,
				v.label_count * sizeof(*rec->labels));
			/* An offset until every label is in. */
			f->labels = (const char *const *) (uintptr_t) labels;
			labels += v.label_count;
		}
	}
	rec->text = room(rec->text, rec->inline_text, &rec->text_cap, text, 1);
	for (unsigned i = 0; i < count; i++) {
		struct tn_record_field *f = &rec->fields[i];
		size_t len;

		if (!f->found)
			continue;
		if (f->type == TN_VALUE_STRING) {
			len = strlen(f->v.string) + 1;
			memcpy(rec->text + used_text, f->v.string, len);
			f->v.string = rec->text + used_text;
			used_text += len;
		}
		if (f->label_count)
			f->labels = &rec->labels[(uintptr_t) f->labels];
	}
	rec->field_count = count;
}

void tn_event_record_fill(struct tn_event_record *rec, struct tn_event *ev,
		struct tn_record_plans *plans)
{
	if (!rec->fields) {
		rec->fields = rec->inline_fields;
		rec->field_cap = TN_RECORD_FIELDS;
		rec->labels = rec->inline_labels;
		rec->label_cap = TN_RECORD_LABELS;
		rec->text = rec->inline_text;
		rec->text_cap = TN_RECORD_TEXT;
	}
	rec->field_count = 0;
	rec->plan = &empty_plan;
	rec->kevent = NULL;
	rec->cpu = ev->kind == TN_EVENT_KIND_EVENT ? event_cpu(ev, plans) : -1;
	rec->stream = tn_event_get_stream_key(ev);
	rec->discarded = 0;
	rec->has_discarded = tn_event_get_discarded_count(ev,
		&rec->discarded);
	rec->name = tn_event_get_name(ev);
	tn_merge_key_of(ev->msg, &rec->key);
	rec->event_class = rec->key.event_class;
	if (ev->kind == TN_EVENT_KIND_EVENT) {
		rec->plan = plan_of(plans, rec->event_class);
		if (rec->plan->kevent.kind != TN_KEVENT_OTHER)
			rec->kevent = &rec->plan->kevent;
		read_fields(rec, ev);
	}
	ev->record = rec;
}

/* The field of the record: 1 with *out, 0 when it knows the event has
 * none, -1 when it does not hold it. */
static int record_find(const struct tn_event_record *rec,
		enum tn_field_scope scope, const char *path,
		struct tn_field_value *out)
{
	const struct tn_record_plan *plan = rec->plan;
	const struct tn_record_field *f = NULL;

	/* Consumers ask with the strings they said they want: the same
	 * pointers, most often. */
	for (size_t s = tn_pointer_slot(path, PLAN_SLOTS);
	     plan->indexed && plan->slots[s].path;
	     s = (s + 1) % PLAN_SLOTS)
		if (plan->slots[s].path == path &&
		    plan->slots[s].scope == scope) {
			f = &rec->fields[plan->slots[s].index];
			break;
		}
	for (unsigned i = 0; i < rec->field_count && !f && !plan->indexed;
	     i++)
		if (rec->fields[i].path == path &&
		    rec->fields[i].scope == (uint8_t) scope)
			f = &rec->fields[i];
	for (unsigned i = 0; i < rec->field_count && !f; i++)
		if (rec->fields[i].scope == (uint8_t) scope &&
		    !strcmp(rec->fields[i].path, path))
			f = &rec->fields[i];
	if (!f)
		return -1;
	if (!f->found)
		return 0;
	unpack(f, out);
	return 1;
}

static bool record_find_field(const struct tn_event *ev,
		enum tn_field_scope scope, const char *path,
		struct tn_field_value *out)
{
	int held = record_find(ev->record, scope, path, out);

	if (held >= 0)
		return held == 1;
	/* A field nobody said it reads: its message is gone. */
	atomic_fetch_add(&misses, 1);
	return false;
}

bool tn_event_find_field(const struct tn_event *ev, enum tn_field_scope scope,
		const char *path, struct tn_field_value *out)
{
	if (ev->record && ev->kind == TN_EVENT_KIND_EVENT && *path)
		return record_find_field(ev, scope, path, out);
	return tn_event_find_field_in_message(ev, scope, path, out);
}
