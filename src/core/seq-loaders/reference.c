/* reference.c - the reference convention of Trace Compass's sequence
 * diagram: an event whose name contains "send" or "receive" (in any
 * case) and that carries the fields sender, receiver and signal is one
 * end of an asynchronous message from sender to receiver.  A send and a
 * receive with the same sender, receiver and signal (and the same id,
 * when the events carry one in a field messageid, messageId,
 * message_id, id or seq) are paired into one message (seq-pair.c); an
 * end without its partner stays, unpaired.  The lifelines are named
 * after the sender and receiver fields, as processes. */
#include <glib.h>
#include <string.h>

#include "loader-classes.h"
#include "src/core/seq-field-text.h"
#include "src/core/pointer-hash.h"

/* The fields that may hold a message's id, in the order they are
 * looked for. */
static const char *const id_fields[] = {
	"messageid", "messageId", "message_id", "id", "seq", NULL,
};

enum end_kind { NOT_AN_END = 1, SEND, RECEIVE };

/* Slots of the memo of the kinds of event names. */
#define KIND_MEMO 16

struct reference {
	struct tn_seq_pairer *pairer;
	GHashTable *kinds;	/* event name -> enum end_kind */
	/* The names asked about by where they were, with their text (a
	 * key of kinds) and kind: a few event classes, asked about at
	 * every event. */
	struct {
		const char *given;
		const char *text;
		enum end_kind kind;
	} memo[KIND_MEMO];
	/* Event class (by its name's address) -> 1 + the index in
	 * id_fields of the id field its last event had. */
	GHashTable *id_field_of_class;
	GString *sender, *receiver, *signal, *id;
};

/* What the name says, "receive" first ("send_and_receive" is the
 * receiving end). */
static enum end_kind name_kind(const char *name)
{
	char *lower = g_ascii_strdown(name, -1);
	enum end_kind kind = strstr(lower, "receive") ? RECEIVE :
		strstr(lower, "send") ? SEND : NOT_AN_END;

	g_free(lower);
	return kind;
}

static bool has_field(const char *const *fields, const char *name)
{
	for (size_t i = 0; fields[i]; i++)
		if (strcmp(fields[i], name) == 0)
			return true;
	return false;
}

/* An event named as an end, and events with the three fields (not
 * necessarily the same ones: the metadata's names are not told by
 * event). */
static bool applies(const struct tn_seq_loader_input *input)
{
	const char *const *names = input->names;
	const char *const *fields = input->fields;

	if (!has_field(fields, "sender") || !has_field(fields, "receiver") ||
	    !has_field(fields, "signal"))
		return false;
	for (size_t i = 0; names[i]; i++)
		if (name_kind(names[i]) != NOT_AN_END)
			return true;
	return false;
}

static void *create(const struct tn_seq_loader_input *input)
{
	struct reference *ref = g_new0(struct reference, 1);

	(void) input;
	ref->pairer = tn_seq_pairer_create();
	ref->kinds = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		NULL);
	ref->id_field_of_class = g_hash_table_new(NULL, NULL);
	ref->sender = g_string_new(NULL);
	ref->receiver = g_string_new(NULL);
	ref->signal = g_string_new(NULL);
	ref->id = g_string_new(NULL);
	return ref;
}

static void destroy(void *data)
{
	struct reference *ref = data;

	tn_seq_pairer_destroy(ref->pairer);
	g_hash_table_destroy(ref->kinds);
	g_hash_table_destroy(ref->id_field_of_class);
	g_string_free(ref->sender, TRUE);
	g_string_free(ref->receiver, TRUE);
	g_string_free(ref->signal, TRUE);
	g_string_free(ref->id, TRUE);
	g_free(ref);
}

static void reset(void *data)
{
	struct reference *ref = data;

	tn_seq_pairer_clear(ref->pairer);
	/* A trace read again has new event classes, maybe where the old
	 * ones were. */
	g_hash_table_remove_all(ref->id_field_of_class);
}

static enum end_kind event_kind(struct reference *ref, const char *name)
{
	size_t slot = tn_pointer_slot(name, KIND_MEMO);
	gpointer text, known;
	enum end_kind kind;

	if (ref->memo[slot].given == name &&
	    !strcmp(ref->memo[slot].text, name))
		return ref->memo[slot].kind;
	if (g_hash_table_lookup_extended(ref->kinds, name, &text, &known)) {
		kind = GPOINTER_TO_INT(known);
	} else {
		kind = name_kind(name);
		text = g_strdup(name);
		g_hash_table_insert(ref->kinds, text, GINT_TO_POINTER(kind));
	}
	ref->memo[slot].given = name;
	ref->memo[slot].text = text;
	ref->memo[slot].kind = kind;
	return kind;
}

/* The message id of ev, as text in ref->id: the first of id_fields it
 * has.  The one its event class had last time is tried first: the
 * fields of a class are the same at every event (CTF declares them by
 * class), so the ones before it are missing, and looking for them at
 * each event cost a sixth of the loader. */
static bool find_id(struct reference *ref, const struct tn_event *ev)
{
	const char *class_key = tn_event_get_name(ev);
	int known = GPOINTER_TO_INT(g_hash_table_lookup(ref->id_field_of_class,
		class_key)) - 1;

	g_string_truncate(ref->id, 0);
	if (known >= 0 && tn_seq_field_text(ev, id_fields[known], ref->id))
		return true;
	for (int i = 0; id_fields[i]; i++) {
		g_string_truncate(ref->id, 0);
		if (tn_seq_field_text(ev, id_fields[i], ref->id)) {
			g_hash_table_insert(ref->id_field_of_class,
				GSIZE_TO_POINTER((gsize) class_key),
				GINT_TO_POINTER(i + 1));
			return true;
		}
	}
	return false;
}

static int handle_event(void *data, struct tn_seq_model *model,
		const struct tn_event *ev, const struct tn_position *pos,
		const struct tn_state *state, struct tn_error *err)
{
	struct reference *ref = data;
	enum end_kind kind = event_kind(ref, tn_event_get_name(ev));
	struct tn_seq_point at = { pos->ns, *pos };
	const char *sender, *receiver, *signal;
	bool has_id;

	(void) state;
	(void) err;
	if (kind == NOT_AN_END)
		return 0;
	/* The pairer and the model copy the texts they keep. */
	if (!(sender = tn_seq_field_string(ev, "sender", ref->sender)) ||
	    !(receiver = tn_seq_field_string(ev, "receiver",
			ref->receiver)) ||
	    !(signal = tn_seq_field_string(ev, "signal", ref->signal)))
		return 0;
	has_id = find_id(ref, ev);
	tn_seq_pairer_add_end(ref->pairer, model, kind == RECEIVE,
		sender, receiver, TN_SEQ_PROCESS, signal,
		has_id ? ref->id->str : NULL, &at);
	return 0;
}

/* The fields of the events named as ends, only. */
static void add_wants(const struct tn_seq_loader_input *input,
		GArray *wants)
{
	static const char *const ends[] = { "sender", "receiver", "signal" };

	for (size_t n = 0; input->names[n]; n++) {
		if (name_kind(input->names[n]) == NOT_AN_END)
			continue;
		for (size_t i = 0; i < G_N_ELEMENTS(ends); i++) {
			struct tn_field_want want = { input->names[n],
				TN_SCOPE_ANY, ends[i] };

			g_array_append_val(wants, want);
		}
		for (size_t i = 0; id_fields[i]; i++) {
			struct tn_field_want want = { input->names[n],
				TN_SCOPE_ANY, id_fields[i] };

			g_array_append_val(wants, want);
		}
	}
}

const struct tn_seq_loader_class tn_seq_loader_reference = {
	.name = "reference",
	.description = "send and receive events with sender, receiver and "
		"signal fields (Trace Compass's reference convention)",
	.applies = applies,
	.add_wants = add_wants,
	.create = create,
	.destroy = destroy,
	.reset = reset,
	.handle_event = handle_event,
};
