/* seq-rules-eval.c - the parsed rules of the sequence diagram applied
 * to events (see seq-rules-private.h): which fields they read, which
 * events they take, the values they give; what the rules loader
 * (seq-loaders/rules.c) and the choice of built-in loaders use.  The
 * parser is seq-rules.c. */
#include <glib.h>
#include <string.h>

#include "src/core/seq-field-text.h"
#include "src/core/seq-rules-private.h"
#include "tracenav/format.h"

void tn_seq_rules_add_wants(const struct tn_seq_rules *rules, GArray *wants)
{
	for (guint i = 0; rules && i < rules->rules->len; i++) {
		const struct tn_seq_rule *rule = rules->rules->pdata[i];

		for (size_t k = 0; k < TN_SEQ_KEY_COUNT; k++) {
			const GArray *parts = rule->values[k].parts;

			for (guint j = 0; parts && j < parts->len; j++) {
				const struct tn_seq_part *part = &g_array_index(
					parts, struct tn_seq_part, j);
				/* Every event: rule globs are GLib's,
				 * which records do not match. */
				struct tn_field_want want = { NULL,
					part->scope, part->text };

				if (part->kind == TN_SEQ_PART_FIELD)
					g_array_append_val(wants, want);
			}
		}
		if (rule->where)
			tn_expr_add_wants(rule->where, wants);
	}
}

bool tn_seq_rules_keep_loader(const struct tn_seq_rules *rules,
		const char *name)
{
	if (!rules || !rules->loaders)
		return true;
	for (guint i = 0; i < rules->loaders->len; i++)
		if (strcmp(g_ptr_array_index(rules->loaders, i), name) == 0)
			return true;
	return false;
}

bool tn_seq_rule_matches_name(const struct tn_seq_rule *rule,
		const char *name)
{
	char *valid;
	bool match;

	/* GLib's globs read UTF-8 only: a name that is not (from a
	 * trace's metadata) is matched as its valid form, U+FFFD standing
	 * for each bad byte. */
	if (g_utf8_validate(name, -1, NULL))
		return g_pattern_spec_match_string(rule->pattern, name);
	valid = g_utf8_make_valid(name, -1);
	match = g_pattern_spec_match_string(rule->pattern, valid);
	g_free(valid);
	return match;
}

bool tn_seq_value_eval(const struct tn_seq_value *value,
		const struct tn_event *ev, GString *out)
{
	for (guint i = 0; i < value->parts->len; i++) {
		const struct tn_seq_part *part = &g_array_index(value->parts,
			struct tn_seq_part, i);
		int64_t cpu;

		switch (part->kind) {
		case TN_SEQ_PART_TEXT:
			g_string_append(out, part->text);
			break;
		case TN_SEQ_PART_NAME:
			g_string_append(out, tn_event_get_name(ev));
			break;
		case TN_SEQ_PART_CPU:
			cpu = tn_event_get_cpu(ev);
			if (cpu < 0)
				return false;
			tn_format_append_s64(out, cpu);
			break;
		case TN_SEQ_PART_FIELD:
			if (!tn_seq_field_text_in(ev, part->scope, part->text,
					out))
				return false;
			break;
		}
	}
	return true;
}
