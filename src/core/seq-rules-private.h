/* seq-rules-private.h - the parsed rules of seq-rules.h, as the rules
 * loader (src/core/seq-loaders/rules.c) applies them. */
#ifndef TRACENAV_CORE_SEQ_RULES_PRIVATE_H
#define TRACENAV_CORE_SEQ_RULES_PRIVATE_H

#include <glib.h>
#include <stdbool.h>

#include "src/core/filter-expr.h"
#include "tracenav/event.h"
#include "tracenav/seq-rules.h"
#include "tracenav/seq.h"

enum tn_seq_rule_kind {
	TN_SEQ_RULE_SEND,
	TN_SEQ_RULE_RECEIVE,
	TN_SEQ_RULE_MESSAGE,
	TN_SEQ_RULE_LIFELINE,
};

/* What a part of a value reads. */
enum tn_seq_part_kind {
	TN_SEQ_PART_TEXT,	/* text as it is */
	TN_SEQ_PART_FIELD,	/* a field, in a scope */
	TN_SEQ_PART_NAME,	/* the event's name */
	TN_SEQ_PART_CPU,	/* the event's CPU */
};

struct tn_seq_part {
	enum tn_seq_part_kind kind;
	enum tn_field_scope scope;	/* TN_SEQ_PART_FIELD */
	char *text;			/* the text, or the field's path */
};

/* A value: its parts joined (a field alone is one part). */
struct tn_seq_value {
	bool given;
	GArray *parts;			/* struct tn_seq_part */
};

/* The values a rule may give. */
enum tn_seq_rule_key {
	TN_SEQ_KEY_FROM,
	TN_SEQ_KEY_TO,
	TN_SEQ_KEY_SIGNAL,
	TN_SEQ_KEY_ID,
	TN_SEQ_KEY_NAME,
	TN_SEQ_KEY_COUNT,
};

struct tn_seq_rule {
	enum tn_seq_rule_kind kind;
	int line;			/* in the file, from 1 */
	char *glob;
	GPatternSpec *pattern;
	struct tn_seq_value values[TN_SEQ_KEY_COUNT];
	enum tn_seq_category category;
	enum tn_seq_message_kind message_kind;	/* message */
	bool create, stop;			/* lifeline */
	struct tn_expr *where;			/* NULL: every event */
};

struct tn_seq_rules {
	char *name;
	GPtrArray *rules;		/* struct tn_seq_rule * */
	/* The built-in loaders a `loaders` line keeps (char *), or NULL
	 * without one: every one that applies runs. */
	GPtrArray *loaders;
};

/* Append to wants (a GArray of struct tn_field_want) the fields the
 * rules read, for every event (rules may be NULL: none); they point
 * into rules. */
void tn_seq_rules_add_wants(const struct tn_seq_rules *rules, GArray *wants);

/* Whether the built-in loader called name runs beside the rules (rules
 * may be NULL: every one does). */
bool tn_seq_rules_keep_loader(const struct tn_seq_rules *rules,
		const char *name);

/* Whether rule applies to events named name (its glob). */
bool tn_seq_rule_matches_name(const struct tn_seq_rule *rule,
		const char *name);

/* Append value as ev gives it to out: false (out may hold part of it)
 * when ev lacks one of its fields. */
bool tn_seq_value_eval(const struct tn_seq_value *value,
		const struct tn_event *ev, GString *out);

#endif
