/* state.c - the state system's attribute tree: quarks, paths, the child
 * index, and the current values as they stand (see state.h; the changes
 * are in state-change.c, the snapshots in state-delta.c). */
#include <string.h>

#include "src/core/huge-pages.h"
#include "pointer-hash.h"
#include "src/core/state-private.h"

const struct tn_state_stamp tn_state_stamp_never = {
	.ns = INT64_MIN,
	.has_pos = false,
};

static const struct tn_state_value null_value = { .type = TN_STATE_NULL };

struct tn_state *tn_state_create(void)
{
	struct tn_state *state = g_new0(struct tn_state, 1);

	state->strings = g_string_chunk_new(4096);
	state->current_time = INT64_MIN;
	state->root_live_first = -1;
	return state;
}

static void children_free(struct tn_state_children *children)
{
	g_free(children->quarks);
	*children = (struct tn_state_children) { 0 };
}

void tn_state_clear(struct tn_state *state)
{
	for (int q = 0; q < state->kept; q++)
		children_free(&state->attrs[q].children);
	children_free(&state->root);
	state->root_live_first = -1;
	state->count = 0;
	state->kept = 0;
	if (state->slots) {
		for (uint32_t i = 0; i <= state->slot_mask; i++)
			state->slots[i].quark = -1;
	}
	g_string_chunk_clear(state->strings);
	memset(state->interned, 0, sizeof(state->interned));
	state->current_time = INT64_MIN;
}

void tn_state_destroy(struct tn_state *state)
{
	if (!state)
		return;
	tn_state_clear(state);
	g_free(state->attrs);
	g_free(state->slots);
	g_string_chunk_free(state->strings);
	g_free(state);
}

int tn_state_get_attribute_count(const struct tn_state *state)
{
	return state->count;
}

int64_t tn_state_get_current_time(const struct tn_state *state)
{
	return state->current_time;
}

void tn_state_changes_fini(struct tn_state_changes *log)
{
	g_free(log->quarks);
	*log = (struct tn_state_changes) { 0 };
}

void tn_state_set_change_log(struct tn_state *state,
		struct tn_state_changes *log)
{
	state->change_log = log;
}

void tn_state_set_interval_sink(struct tn_state *state,
		tn_state_interval_fn fn, void *data)
{
	state->interval_fn = fn;
	state->interval_data = data;
}

const char *tn_state_intern(struct tn_state *state, const char *s)
{
	/* Most strings come again and again from the same place (a
	 * provider's constant, an event's field): remember where each came
	 * from, checking the text (the place may hold another one now). */
	size_t slot = tn_pointer_slot(s, TN_STATE_INTERN_MEMO);
	const char *interned = state->interned[slot].interned;

	if (state->interned[slot].given == s && strcmp(interned, s) == 0)
		return interned;
	interned = g_string_chunk_insert_const(state->strings, s);
	state->interned[slot].given = s;
	state->interned[slot].interned = interned;
	return interned;
}

static void children_append(struct tn_state_children *children, int quark)
{
	if (children->count == children->cap) {
		children->cap = children->cap ? children->cap * 2 : 4;
		children->quarks = g_renew(int, children->quarks,
			children->cap);
	}
	children->quarks[children->count++] = quark;
}

static struct tn_state_children *children_of(struct tn_state *state,
		int quark)
{
	return quark == TN_STATE_ROOT ? &state->root
		: &state->attrs[quark].children;
}

void tn_state_reserve(struct tn_state *state, int count, int most)
{
	if (count > state->cap) {
		int old_cap = state->cap;

		/* An eighth more: a replay after a restore adds a few
		 * attributes, which should not copy the array. */
		most = MAX(most, count);
		state->cap = MAX(most + most / 8, state->cap * 2);
		state->attrs = tn_huge_pages_realloc(state->attrs,
			(size_t) old_cap * sizeof(*state->attrs),
			(size_t) state->cap * sizeof(*state->attrs));
	}
	tn_state_index_reserve(state, count);
}

int tn_state_add_child(struct tn_state *state, int parent, const char *name,
		size_t len)
{
	int quark = state->count;
	struct tn_state_attr *attr;
	char *copy = NULL;

	/* The first hidden attribute, if it is this one, shows again (as
	 * hidden, it is null and never set). */
	if (state->kept > quark) {
		attr = &state->attrs[quark];
		if (attr->parent == parent && tn_state_name_is(attr->name, name, len)) {
			state->count++;
			return quark;
		}
		tn_state_drop_hidden(state);
	}
	if (state->count == state->cap) {
		int old_cap = state->cap;

		state->cap = state->cap ? state->cap * 2 : 64;
		state->attrs = tn_huge_pages_realloc(state->attrs,
			(size_t) old_cap * sizeof(*state->attrs),
			(size_t) state->cap * sizeof(*state->attrs));
	}
	tn_state_index_reserve(state, state->count + 1);
	attr = &state->attrs[quark];
	*attr = (struct tn_state_attr) {
		.value = null_value,
		.start = tn_state_stamp_never,
		.type = TN_STATE_NULL,
		.parent = parent,
		.live_prev = -1,
		.live_next = -1,
		.live_first = -1,
	};
	if (name[len] != '\0')
		name = copy = g_strndup(name, len);
	attr->name = tn_state_intern(state, name);
	g_free(copy);
	state->count++;
	state->kept = state->count;
	if (tn_state_index_takes(state, quark))
		tn_state_index_insert(state, parent, attr->name, len, quark);
	children_append(children_of(state, parent), quark);
	return quark;
}

/* --- Quarks and paths --- */

static bool valid_parent(const struct tn_state *state, int parent)
{
	return parent == TN_STATE_ROOT || tn_state_has_quark(state, parent);
}

/* The next component of the path at *p (empty components skipped):
 * false at the end. */
static bool next_component(const char **p, const char **name, size_t *len)
{
	while (**p == '/')
		(*p)++;
	if (!**p)
		return false;
	*name = *p;
	*len = strcspn(*p, "/");
	*p += *len;
	return true;
}

/* Whether path leads from parent (valid) to an attribute, *quark. */
static bool lookup(const struct tn_state *state, int parent,
		const char *path, int *quark)
{
	const char *p = path ? path : "", *name;
	size_t len;

	*quark = parent;
	while (next_component(&p, &name, &len)) {
		*quark = tn_state_find_child(state, *quark, name, len);
		if (*quark < 0)
			return false;
	}
	return true;
}

int tn_state_quark_lookup(const struct tn_state *state, int parent,
		const char *path)
{
	int quark;

	if (!valid_parent(state, parent) || !lookup(state, parent, path,
			&quark))
		return -1;
	return quark;
}

int tn_state_quark_find(const struct tn_state *state, int parent,
		const char *path, int *quark, struct tn_error *err)
{
	int found;
	char *prefix;

	if (!valid_parent(state, parent)) {
		tn_error_set(err, "no attribute with quark %d in the state "
			"(it has %d)", parent, state->count);
		return -1;
	}
	/* An empty path from the root finds the root itself. */
	if (lookup(state, parent, path, &found)) {
		*quark = found;
		return 0;
	}
	prefix = parent == TN_STATE_ROOT ? NULL
		: tn_state_get_path(state, parent);
	tn_error_set(err, "no attribute %s%s%s in the state",
		prefix ? prefix : "", prefix ? "/" : "", path ? path : "");
	g_free(prefix);
	return -1;
}

int tn_state_quark_add(struct tn_state *state, int parent, const char *path)
{
	const char *p = path ? path : "", *name;
	size_t len;
	int quark = parent;

	g_return_val_if_fail(valid_parent(state, parent), -1);
	while (next_component(&p, &name, &len)) {
		int child = tn_state_find_child(state, quark, name, len);

		quark = child >= 0 ? child
			: tn_state_add_child(state, quark, name, len);
	}
	return quark;
}

int tn_state_quark_child(struct tn_state *state, int parent,
		const char *name)
{
	size_t len = strlen(name);
	int quark;

	g_return_val_if_fail(valid_parent(state, parent), -1);
	quark = tn_state_find_child(state, parent, name, len);
	return quark >= 0 ? quark
		: tn_state_add_child(state, parent, name, len);
}

int tn_state_quark_child_lookup(const struct tn_state *state, int parent,
		const char *name)
{
	if (!valid_parent(state, parent))
		return -1;
	return tn_state_find_child(state, parent, name, strlen(name));
}

/* --- The tree --- */

const char *tn_state_get_name(const struct tn_state *state, int quark)
{
	g_return_val_if_fail(tn_state_has_quark(state, quark), "");
	return state->attrs[quark].name;
}

int tn_state_get_parent(const struct tn_state *state, int quark)
{
	g_return_val_if_fail(tn_state_has_quark(state, quark), TN_STATE_ROOT);
	return state->attrs[quark].parent;
}

/* How many of children are not hidden: those before the first quark
 * from count on (they ascend). */
static size_t shown_children(const struct tn_state *state,
		const struct tn_state_children *children)
{
	size_t lo = 0, hi = children->count;

	if (hi == 0 || children->quarks[hi - 1] < state->count)
		return hi;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (children->quarks[mid] < state->count)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t tn_state_get_child_count(const struct tn_state *state, int quark)
{
	g_return_val_if_fail(valid_parent(state, quark), 0);
	return shown_children(state, quark == TN_STATE_ROOT ? &state->root
		: &state->attrs[quark].children);
}

int tn_state_get_child(const struct tn_state *state, int quark, size_t index)
{
	const struct tn_state_children *children;

	g_return_val_if_fail(valid_parent(state, quark), -1);
	children = quark == TN_STATE_ROOT ? &state->root
		: &state->attrs[quark].children;
	g_return_val_if_fail(index < shown_children(state, children), -1);
	return children->quarks[index];
}

char *tn_state_get_path(const struct tn_state *state, int quark)
{
	GString *path = g_string_new(NULL);

	g_return_val_if_fail(valid_parent(state, quark),
		g_string_free(path, FALSE));
	for (int q = quark; q != TN_STATE_ROOT; q = state->attrs[q].parent) {
		const char *name = state->attrs[q].name;

		if (q != quark)
			g_string_prepend_c(path, '/');
		g_string_prepend(path, name);
	}
	return g_string_free(path, FALSE);
}

/* --- Current values --- */

static int *live_first_of(struct tn_state *state, int quark)
{
	return quark == TN_STATE_ROOT ? &state->root_live_first
		: &state->attrs[quark].live_first;
}

/* Put quark first in its parent's list of children that hold values. */
static void live_link(struct tn_state *state, int quark)
{
	struct tn_state_attr *attr = &state->attrs[quark];
	int *first = live_first_of(state, attr->parent);

	attr->live_prev = -1;
	attr->live_next = *first;
	if (*first >= 0)
		state->attrs[*first].live_prev = quark;
	*first = quark;
}

static void live_unlink(struct tn_state *state, int quark)
{
	struct tn_state_attr *attr = &state->attrs[quark];

	if (attr->live_prev >= 0)
		state->attrs[attr->live_prev].live_next = attr->live_next;
	else
		*live_first_of(state, attr->parent) = attr->live_next;
	if (attr->live_next >= 0)
		state->attrs[attr->live_next].live_prev = attr->live_prev;
	attr->live_prev = attr->live_next = -1;
}

void tn_state_put_value(struct tn_state *state, int quark,
		const struct tn_state_value *value)
{
	struct tn_state_attr *attr = &state->attrs[quark];
	bool had = attr->value.type != TN_STATE_NULL;
	int delta = (value->type != TN_STATE_NULL) - had;

	attr->value = *value;
	/* A value appeared or went: the counts up to the root follow, and
	 * an attribute whose count becomes or leaves 0 leaves or enters
	 * its parent's list. */
	for (int q = quark; delta && q != TN_STATE_ROOT;
			q = state->attrs[q].parent) {
		struct tn_state_attr *a = &state->attrs[q];

		a->live += delta;
		if (a->live == 0)
			live_unlink(state, q);
		else if (a->live == delta)
			live_link(state, q);
	}
}

bool tn_state_is_live(const struct tn_state *state, int quark)
{
	g_return_val_if_fail(tn_state_has_quark(state, quark), false);
	return state->attrs[quark].live > 0;
}

int tn_state_get_first_live_child(const struct tn_state *state, int quark)
{
	g_return_val_if_fail(valid_parent(state, quark), -1);
	return quark == TN_STATE_ROOT ? state->root_live_first
		: state->attrs[quark].live_first;
}

int tn_state_get_next_live_sibling(const struct tn_state *state, int quark)
{
	g_return_val_if_fail(tn_state_has_quark(state, quark), -1);
	return state->attrs[quark].live_next;
}

const struct tn_state_value *tn_state_get_value(const struct tn_state *state,
		int quark)
{
	g_return_val_if_fail(tn_state_has_quark(state, quark), &null_value);
	return &state->attrs[quark].value;
}

const struct tn_state_stamp *tn_state_get_start(const struct tn_state *state,
		int quark)
{
	g_return_val_if_fail(tn_state_has_quark(state, quark),
		&tn_state_stamp_never);
	return &state->attrs[quark].start;
}

enum tn_state_type tn_state_get_type(const struct tn_state *state, int quark)
{
	g_return_val_if_fail(tn_state_has_quark(state, quark), TN_STATE_NULL);
	return state->attrs[quark].type;
}
