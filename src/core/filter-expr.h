/* filter-expr.h - the field expressions of `filter EXPR` (internal: the
 * filters of filter.h use them).
 *
 *   name == "sched_switch" && (prev_tid == 42 || $ctx.vtid != 0x10)
 *   name =~ "^syscall_" && !(cpu < 2)
 *
 * Operands: `name` (the event's name), `cpu` (the packet context's
 * cpu_id), a field (`prev_tid`: the payload, then the specific, common
 * and packet contexts; `$payload.X`, `$ctx.X` (common then specific
 * context: the contexts `lttng add-context` adds), `$cctx.X`, `$sctx.X`,
 * `$pctx.X` pick a scope; `a.b` is member b of structure a), numbers
 * (decimal, 0x hex, negative, with a fraction) and quoted strings ("..."
 * or '...', with \", \\, \n, \t, \xNN).  Operators: == != < <= > >=
 * =~ !~ (a regex on the right, smart case), && || ! and parentheses.
 * A field the event lacks makes its comparison false (so do != and !~);
 * a string compared to a number is false; an enumeration compares as
 * its integer with numbers and as its labels with strings.
 *
 * A parsed expression is immutable and may be shared by threads; each
 * thread evaluates it with an evaluator of its own (its regex matchers).
 */
#ifndef TRACENAV_CORE_FILTER_EXPR_H
#define TRACENAV_CORE_FILTER_EXPR_H

#include <glib.h>
#include <stdbool.h>

#include "tracenav/error.h"
#include "tracenav/event.h"

struct tn_expr;
struct tn_expr_eval;

/* Parse text.  Returns 0 and sets *out (tn_expr_destroy() it), or -1
 * with err saying what is wrong and where: "column 12: expected a value
 * after '=='" (columns count characters from 1). */
int tn_expr_parse(const char *text, struct tn_expr **out,
		struct tn_error *err);
void tn_expr_destroy(struct tn_expr *expr);

/* Append to wants (a GArray of struct tn_field_want, for every event)
 * the fields expr reads; they point into expr. */
void tn_expr_add_wants(const struct tn_expr *expr, GArray *wants);

/* Whether the expression looks at nothing but the event's name (then
 * tn_expr_eval_name() gives its answer for every event of a name). */
bool tn_expr_uses_name_only(const struct tn_expr *expr);

/* An evaluator of expr for one thread (expr must outlive it). */
struct tn_expr_eval *tn_expr_eval_new(const struct tn_expr *expr);
void tn_expr_eval_free(struct tn_expr_eval *eval);

/* Whether event ev (a notice never) passes. */
bool tn_expr_eval_event(struct tn_expr_eval *eval, const struct tn_event *ev);

/* Whether an event named name passes an expression that uses the name
 * only. */
bool tn_expr_eval_name(struct tn_expr_eval *eval, const char *name);

#endif
