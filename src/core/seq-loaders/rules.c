/* rules.c - the user's rules (seq-rules.h) applied to events: sends and
 * receives paired into messages (seq-pair.c, as the reference loader
 * pairs them), whole messages at one event, lifelines created and
 * stopped.  Every rule whose glob and condition match an event applies,
 * in the order of the file; a rule that names a field the event lacks
 * leaves the event out. */
#include <glib.h>
#include <string.h>

#include "loader-classes.h"
#include "src/core/seq-field-text.h"
#include "src/core/seq-rules-private.h"

struct rules {
	const struct tn_seq_rules *rules;
	struct tn_seq_pairer *pairer;
	/* Per rule: its condition's evaluator (NULL: none). */
	struct tn_expr_eval **where;
	/* Event name -> GArray of the indexes (guint) of the rules whose
	 * glob matches it (NULL: none). */
	GHashTable *by_name;
	GString *values[TN_SEQ_KEY_COUNT];
};

static bool applies(const struct tn_seq_loader_input *input)
{
	const struct tn_seq_rules *rules = input->rules;

	if (!rules)
		return false;
	for (guint i = 0; i < rules->rules->len; i++)
		for (size_t j = 0; input->names[j]; j++)
			if (tn_seq_rule_matches_name(g_ptr_array_index(
					rules->rules, i), input->names[j]))
				return true;
	return false;
}

static void free_indexes(gpointer data)
{
	if (data)
		g_array_free(data, TRUE);
}

static void *create(const struct tn_seq_loader_input *input)
{
	struct rules *r = g_new0(struct rules, 1);
	guint count = input->rules->rules->len;

	r->rules = input->rules;
	r->pairer = tn_seq_pairer_create();
	r->where = g_new0(struct tn_expr_eval *, count ? count : 1);
	for (guint i = 0; i < count; i++) {
		const struct tn_seq_rule *rule = g_ptr_array_index(
			r->rules->rules, i);

		if (rule->where)
			r->where[i] = tn_expr_eval_new(rule->where);
	}
	r->by_name = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		free_indexes);
	for (int i = 0; i < TN_SEQ_KEY_COUNT; i++)
		r->values[i] = g_string_new(NULL);
	return r;
}

static void destroy(void *data)
{
	struct rules *r = data;

	tn_seq_pairer_destroy(r->pairer);
	for (guint i = 0; i < r->rules->rules->len; i++)
		if (r->where[i])
			tn_expr_eval_free(r->where[i]);
	g_free(r->where);
	g_hash_table_destroy(r->by_name);
	for (int i = 0; i < TN_SEQ_KEY_COUNT; i++)
		g_string_free(r->values[i], TRUE);
	g_free(r);
}

static void reset(void *data)
{
	struct rules *r = data;

	tn_seq_pairer_clear(r->pairer);
}

/* The rules whose glob matches name (NULL: none), found once a name. */
static const GArray *rules_of(struct rules *r, const char *name)
{
	GArray *indexes;
	gpointer found;

	if (g_hash_table_lookup_extended(r->by_name, name, NULL, &found))
		return found;
	indexes = g_array_new(FALSE, FALSE, sizeof(guint));
	for (guint i = 0; i < r->rules->rules->len; i++)
		if (tn_seq_rule_matches_name(g_ptr_array_index(
				r->rules->rules, i), name))
			g_array_append_val(indexes, i);
	if (indexes->len == 0) {
		g_array_free(indexes, TRUE);
		indexes = NULL;
	}
	g_hash_table_insert(r->by_name, g_strdup(name), indexes);
	return indexes;
}

/* The values the rule gives, as ev has them: false when it lacks a
 * field. */
static bool eval_values(struct rules *r, const struct tn_seq_rule *rule,
		const struct tn_event *ev)
{
	for (int k = 0; k < TN_SEQ_KEY_COUNT; k++) {
		g_string_truncate(r->values[k], 0);
		if (rule->values[k].given &&
		    !tn_seq_value_eval(&rule->values[k], ev, r->values[k]))
			return false;
	}
	return true;
}

static void apply(struct rules *r, const struct tn_seq_rule *rule,
		struct tn_seq_model *model, const struct tn_seq_point *at)
{
	const char *from = r->values[TN_SEQ_KEY_FROM]->str;
	const char *to = r->values[TN_SEQ_KEY_TO]->str;
	const char *signal = r->values[TN_SEQ_KEY_SIGNAL]->str;
	struct tn_seq_message m;
	size_t lifeline;

	switch (rule->kind) {
	case TN_SEQ_RULE_SEND:
	case TN_SEQ_RULE_RECEIVE:
		tn_seq_pairer_add_end(r->pairer, model,
			rule->kind == TN_SEQ_RULE_RECEIVE, from, to,
			rule->category, signal,
			rule->values[TN_SEQ_KEY_ID].given ?
			r->values[TN_SEQ_KEY_ID]->str : NULL, at);
		break;
	case TN_SEQ_RULE_MESSAGE:
		m = (struct tn_seq_message) {
			.kind = rule->message_kind,
			.from = tn_seq_model_lifeline(model, from,
				rule->category, at),
			.to = tn_seq_model_lifeline(model, to, rule->category,
				at),
			.signal = signal,
			.send = { true, *at },
			.receive = { true, *at },
		};
		tn_seq_model_add_message(model, &m);
		break;
	case TN_SEQ_RULE_LIFELINE:
		lifeline = tn_seq_model_lifeline(model,
			r->values[TN_SEQ_KEY_NAME]->str, rule->category, at);
		if (rule->create)
			tn_seq_model_set_created(model, lifeline, at);
		if (rule->stop)
			tn_seq_model_set_stopped(model, lifeline, at);
		break;
	}
}

static int handle_event(void *data, struct tn_seq_model *model,
		const struct tn_event *ev, const struct tn_position *pos,
		const struct tn_state *state, struct tn_error *err)
{
	struct rules *r = data;
	const GArray *indexes = rules_of(r, tn_event_get_name(ev));
	struct tn_seq_point at = { pos->ns, *pos };

	(void) state;
	(void) err;
	for (guint i = 0; indexes && i < indexes->len; i++) {
		guint index = g_array_index(indexes, guint, i);
		const struct tn_seq_rule *rule = g_ptr_array_index(
			r->rules->rules, index);

		if (r->where[index] &&
		    !tn_expr_eval_event(r->where[index], ev))
			continue;
		if (eval_values(r, rule, ev))
			apply(r, rule, model, &at);
	}
	return 0;
}

static void add_wants(const struct tn_seq_loader_input *input,
		GArray *wants)
{
	tn_seq_rules_add_wants(input->rules, wants);
}

const struct tn_seq_loader_class tn_seq_loader_rules = {
	.name = "rules",
	.description = "the user's rules (--seq-rules FILE, or "
		"$XDG_CONFIG_HOME/tracenav/seq-rules): events and fields "
		"mapped to lifelines and messages",
	.applies = applies,
	.add_wants = add_wants,
	.create = create,
	.destroy = destroy,
	.reset = reset,
	.handle_event = handle_event,
};
