/* state-change.c - the changes of the state system: modify, increment,
 * push and pop, remove (see state.h).
 *
 * Every change checks all it needs before it touches anything, so a
 * change that fails leaves the state as it was. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "src/core/state-private.h"

static const struct tn_state_value null_value = { .type = TN_STATE_NULL };

/* The checks every change makes: the quark exists and time does not go
 * back.  Several events may share a time. */
static int check_change(const struct tn_state *state, int quark,
		const struct tn_state_stamp *at, struct tn_error *err)
{
	if (!tn_state_has_quark(state, quark)) {
		tn_error_set(err, "no attribute with quark %d in the state "
			"(it has %d)", quark, state->count);
		return -1;
	}
	if (at->ns < state->current_time) {
		tn_error_set(err, "time %" PRId64 " is before the state's "
			"current time %" PRId64, at->ns, state->current_time);
		return -1;
	}
	return 0;
}

static void advance(struct tn_state *state, const struct tn_state_stamp *at)
{
	if (at->ns > state->current_time)
		state->current_time = at->ns;
}

/* Fail with the attribute's path in the message. */
__attribute__((format(printf, 4, 5)))
static int attr_error(const struct tn_state *state, int quark,
		struct tn_error *err, const char *fmt, ...)
{
	char *path = tn_state_get_path(state, quark);
	char what[TN_ERROR_MAX];
	va_list args;

	va_start(args, fmt);
	vsnprintf(what, sizeof(what), fmt, args);
	va_end(args);
	tn_error_set(err, "attribute %s %s", path, what);
	g_free(path);
	return -1;
}

static int __attribute__((noinline)) type_error(const struct tn_state *state,
		int quark, const struct tn_state_value *value,
		struct tn_error *err)
{
	return attr_error(state, quark, err, "holds %s values, not %s",
		tn_state_type_name(state->attrs[quark].type),
		tn_state_type_name(value->type));
}

/* Whether quark may hold value (null always may).  Inline: every
 * modify of a replay makes this check. */
static inline int check_type(const struct tn_state *state, int quark,
		const struct tn_state_value *value, struct tn_error *err)
{
	enum tn_state_type type = state->attrs[quark].type;

	if (value->type == TN_STATE_NULL || type == TN_STATE_NULL
			|| type == value->type)
		return 0;
	return type_error(state, quark, value, err);
}

/* Whether an attribute holding held already holds kept, as
 * tn_state_value_equal() says: the state's strings are interned (one
 * copy of each text), so the same text is the same pointer. */
static inline bool holds_already(const struct tn_state_value *held,
		const struct tn_state_value *kept)
{
	if (held->type != kept->type)
		return false;
	switch (kept->type) {
	case TN_STATE_STRING: return held->u.s == kept->u.s;
	case TN_STATE_INT: return held->u.i == kept->u.i;
	case TN_STATE_LONG: return held->u.l == kept->u.l;
	default: return tn_state_value_equal(held, kept);
	}
}

static void __attribute__((noinline)) grow_log(struct tn_state_changes *log)
{
	log->cap = log->cap ? log->cap * 2 : 64;
	log->quarks = g_renew(int, log->quarks, log->cap);
}

/* Inline, unlike g_array_append_val(): a replay logs most changes. */
static inline void log_change(struct tn_state_changes *log, int quark)
{
	if (log->len == log->cap)
		grow_log(log);
	log->quarks[log->len++] = quark;
}

/* Set quark to value (of a type it may hold) at `at`; an equal value
 * keeps the interval. */
static void set_value(struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *at)
{
	struct tn_state_attr *attr = &state->attrs[quark];
	struct tn_state_value kept = *value;

	if (value->type == TN_STATE_STRING && !value->u.s) {
		set_value(state, quark, &null_value, at);
		return;
	}
	/* Interned first: an equal string is then the same pointer. */
	if (value->type == TN_STATE_STRING)
		kept.u.s = tn_state_intern(state, value->u.s);
	if (holds_already(&attr->value, &kept))
		return;
	if (state->undo_log) {
		struct tn_state_undo undo = { quark, attr->type, attr->value,
			attr->start };

		g_array_append_val(state->undo_log, undo);
	}
	if (state->interval_fn)
		state->interval_fn(state->interval_data, state, quark,
			&attr->value, &attr->start, at);
	tn_state_put_value(state, quark, &kept);
	if (value->type != TN_STATE_NULL)
		attr->type = value->type;
	attr->start = *at;
	if (state->change_log)
		log_change(state->change_log, quark);
}

int tn_state_modify(struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *at, struct tn_error *err)
{
	if (check_change(state, quark, at, err) < 0
			|| check_type(state, quark, value, err) < 0)
		return -1;
	set_value(state, quark, value, at);
	advance(state, at);
	return 0;
}

int tn_state_increment(struct tn_state *state, int quark, int64_t delta,
		const struct tn_state_stamp *at, struct tn_error *err)
{
	const struct tn_state_attr *attr;
	struct tn_state_value value;
	int64_t now = 0, sum;

	if (check_change(state, quark, at, err) < 0)
		return -1;
	attr = &state->attrs[quark];
	if (attr->type != TN_STATE_NULL && attr->type != TN_STATE_INT
			&& attr->type != TN_STATE_LONG)
		return attr_error(state, quark, err, "holds %s values: it "
			"cannot be incremented", tn_state_type_name(attr->type));
	if (attr->value.type == TN_STATE_INT)
		now = attr->value.u.i;
	else if (attr->value.type == TN_STATE_LONG)
		now = attr->value.u.l;
	if (__builtin_add_overflow(now, delta, &sum)
			|| (attr->type == TN_STATE_INT
			&& (sum < INT32_MIN || sum > INT32_MAX)))
		return attr_error(state, quark, err, "holds %s values: "
			"%" PRId64 " + %" PRId64 " is out of their range",
			tn_state_type_name(attr->type), now, delta);
	if (attr->type == TN_STATE_LONG || (attr->type == TN_STATE_NULL
			&& (sum < INT32_MIN || sum > INT32_MAX)))
		value = tn_state_value_long(sum);
	else
		value = tn_state_value_int((int32_t) sum);
	set_value(state, quark, &value, at);
	advance(state, at);
	return 0;
}

/* The depth of the stack attribute quark (0 when empty), or -1 with err
 * when it holds something else than a depth. */
static int stack_depth(const struct tn_state *state, int quark,
		struct tn_error *err)
{
	const struct tn_state_attr *attr = &state->attrs[quark];

	if (attr->type != TN_STATE_NULL && attr->type != TN_STATE_INT)
		return attr_error(state, quark, err, "holds %s values: it "
			"is not a stack", tn_state_type_name(attr->type));
	if (attr->value.type != TN_STATE_INT || attr->value.u.i < 0)
		return 0;
	return attr->value.u.i;
}

/* The level-th value's attribute of a stack ("1" the bottom), or -1. */
static int stack_level(const struct tn_state *state, int quark, int level)
{
	char name[16];

	snprintf(name, sizeof(name), "%d", level);
	return tn_state_quark_child_lookup(state, quark, name);
}

int tn_state_push(struct tn_state *state, int quark,
		const struct tn_state_value *value,
		const struct tn_state_stamp *at, struct tn_error *err)
{
	struct tn_state_value depth_value;
	char name[16];
	int depth, level;

	if (check_change(state, quark, at, err) < 0)
		return -1;
	depth = stack_depth(state, quark, err);
	if (depth < 0)
		return -1;
	if (depth == INT32_MAX)
		return attr_error(state, quark, err, "is a full stack");
	snprintf(name, sizeof(name), "%d", depth + 1);
	level = tn_state_quark_child(state, quark, name);
	if (check_type(state, level, value, err) < 0)
		return -1;
	set_value(state, level, value, at);
	depth_value = tn_state_value_int(depth + 1);
	set_value(state, quark, &depth_value, at);
	advance(state, at);
	return 0;
}

int tn_state_pop(struct tn_state *state, int quark,
		struct tn_state_value *popped,
		const struct tn_state_stamp *at, struct tn_error *err)
{
	struct tn_state_value depth_value = null_value;
	int depth, level;

	if (check_change(state, quark, at, err) < 0)
		return -1;
	depth = stack_depth(state, quark, err);
	if (depth < 0)
		return -1;
	if (popped)
		*popped = null_value;
	advance(state, at);
	if (depth == 0)
		return 0;
	level = stack_level(state, quark, depth);
	if (level >= 0) {
		if (popped)
			*popped = state->attrs[level].value;
		set_value(state, level, &null_value, at);
	}
	if (depth > 1)
		depth_value = tn_state_value_int(depth - 1);
	set_value(state, quark, &depth_value, at);
	return 0;
}

const struct tn_state_value *tn_state_peek_stack(const struct tn_state *state,
		int quark, int *depth)
{
	const struct tn_state_attr *attr;
	int d = 0, level;

	if (depth)
		*depth = 0;
	g_return_val_if_fail(tn_state_has_quark(state, quark), &null_value);
	attr = &state->attrs[quark];
	if (attr->type == TN_STATE_INT && attr->value.type == TN_STATE_INT
			&& attr->value.u.i > 0)
		d = attr->value.u.i;
	if (depth)
		*depth = d;
	if (d == 0)
		return &null_value;
	level = stack_level(state, quark, d);
	return level >= 0 ? &state->attrs[level].value : &null_value;
}

int tn_state_remove(struct tn_state *state, int quark,
		const struct tn_state_stamp *at, struct tn_error *err)
{
	GArray *todo;

	if (check_change(state, quark, at, err) < 0)
		return -1;
	todo = g_array_new(FALSE, FALSE, sizeof(int));
	g_array_append_val(todo, quark);
	while (todo->len) {
		int q = g_array_index(todo, int, todo->len - 1);
		const struct tn_state_children *children;

		g_array_set_size(todo, todo->len - 1);
		set_value(state, q, &null_value, at);
		/* Its children that are not hidden come first in the
		 * array. */
		children = &state->attrs[q].children;
		g_array_append_vals(todo, children->quarks,
			(guint) tn_state_get_child_count(state, q));
	}
	g_array_free(todo, TRUE);
	advance(state, at);
	return 0;
}
