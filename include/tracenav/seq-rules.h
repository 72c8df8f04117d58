/* seq-rules.h - the user's rules for the sequence diagram: a small text
 * file that maps events and their fields to lifelines and messages, so
 * that any protocol can be drawn (ROS 2 publish and take, RPC requests
 * and responses, MPI send and receive) without writing C.  The loader
 * "rules" (src/core/seq-loaders/rules.c) applies them.
 *
 * The file: one rule a line; blank lines and lines starting with '#'
 * are skipped.  A rule is
 *
 *     KIND EVENT-GLOB KEY=VALUE... [FLAG...] [where EXPR]
 *
 *   send     EVENT from=V to=V signal=V [id=V] [category=C]
 *   receive  EVENT from=V to=V signal=V [id=V] [category=C]
 *            the two ends of an asynchronous message, paired as the
 *            reference convention pairs them (same from, to and signal,
 *            and id when given; otherwise the oldest send waiting);
 *   message  EVENT from=V to=V signal=V [kind=async|sync|return]
 *            [category=C]
 *            a whole message at one event (both ends);
 *   lifeline EVENT name=V [category=C] [create|stop]
 *            a lifeline, created or stopped at the event.
 *
 * EVENT is a glob on event names ('*' any characters, '?' one).  C is
 * thread, process (the default), node or host: the category of the
 * lifelines the rule names.  A value V is a field, named as the filter
 * language names them (`sender`, `$ctx.vtid`, `$payload.msg.id`; `name`
 * is the event's name and `cpu` its CPU), or a quoted text in which
 * {FIELD} stands for a field's value ("{$ctx.procname}-{$ctx.vtid}";
 * \" \\ \{ \} for the characters themselves).  `where EXPR` ends the
 * line: the rule applies to the events for which EXPR, a filter
 * expression, holds.  An event whose rule names a field it lacks is
 * left out by that rule; every rule that matches an event applies.
 *
 * A file with an error is refused whole, with the line and column of
 * the first error and what was expected there:
 * "seq-rules:3:14: expected a field after '=', got end of line".
 *
 * Rules never change once parsed: any thread may read them.
 */
#ifndef TRACENAV_SEQ_RULES_H
#define TRACENAV_SEQ_RULES_H

#include <stddef.h>

#include "tracenav/error.h"

struct tn_seq_rules;

/* Parse text, the contents of a rule file called name (for the
 * messages; a path as the user gave it).  Returns 0 with *out
 * (tn_seq_rules_destroy() it), or -1 with err
 * ("NAME:LINE:COLUMN: what was expected, got what"; columns count
 * characters from 1). */
int tn_seq_rules_parse(const char *name, const char *text,
		struct tn_seq_rules **out, struct tn_error *err);

/* Read the rule file at path and parse it.  Returns 0 with *out, or -1
 * with err (the file cannot be read, or an error as above). */
int tn_seq_rules_load(const char *path, struct tn_seq_rules **out,
		struct tn_error *err);

void tn_seq_rules_destroy(struct tn_seq_rules *rules);

/* How many rules. */
size_t tn_seq_rules_get_count(const struct tn_seq_rules *rules);

/* The rule file read when present and --seq-rules is not given:
 * $XDG_CONFIG_HOME/tracenav/seq-rules, by default
 * ~/.config/tracenav/seq-rules (g_free it). */
char *tn_seq_rules_default_path(void);

#endif
