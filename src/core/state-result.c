/* state-result.c - the results of state queries: every attribute of a
 * state that lives (holds a value, or has one under it) in tree order,
 * names compared as numbers where they are numbers, filtered by a glob
 * (see state-history.h).  The walk follows the state's lists of the
 * children that live: it costs what the result holds, not every
 * attribute the state ever had. */
#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "src/core/state-history-private.h"
#include "tracenav/symbols.h"

/* A result with the strings it owns. */
struct result {
	struct tn_state_result pub;	/* first: the public view */
	GStringChunk *strings;
};

static bool is_number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int tn_state_name_compare(const char *a, const char *b)
{
	bool na = is_number(a), nb = is_number(b);
	size_t la, lb;
	int cmp;

	if (na != nb)
		return na ? -1 : 1;
	if (na) {
		while (*a == '0' && a[1])
			a++;
		while (*b == '0' && b[1])
			b++;
		la = strlen(a);
		lb = strlen(b);
		if (la != lb)
			return la < lb ? -1 : 1;
	}
	cmp = strcmp(a, b);
	return cmp < 0 ? -1 : cmp > 0;
}

bool tn_state_path_match(const char *glob, const char *path)
{
	/* Where to resume after the last star: its kind and the places in
	 * glob and path.  Backtracking to the last star is enough for
	 * '*', whose matches cannot overlap a '/' that a later part needs;
	 * "**" may, so it recurses. */
	const char *star_glob = NULL, *star_path = NULL;

	while (*path || *glob) {
		if (glob[0] == '*' && glob[1] == '*') {
			glob += 2;
			while (*glob == '*')
				glob++;
			for (const char *p = path;; p++) {
				if (tn_state_path_match(glob, p))
					return true;
				if (!*p)
					return false;
			}
		}
		if (*glob == '*') {
			star_glob = ++glob;
			star_path = path;
			continue;
		}
		if (*path && (*glob == *path || (*glob == '?' &&
				*path != '/'))) {
			glob++;
			path++;
			continue;
		}
		/* Let the last '*' take one more character, not a '/'. */
		if (star_glob && *star_path && *star_path != '/') {
			glob = star_glob;
			path = ++star_path;
			continue;
		}
		return false;
	}
	return true;
}

/* A child with what sorting it needs, computed once: a name that is a
 * number of up to 19 digits sorts by its value. */
struct child {
	int quark;
	bool small_number;
	uint64_t value;
	const char *name;
};

static int compare_children(const void *a, const void *b)
{
	const struct child *x = a, *y = b;
	int cmp;

	if (x->small_number && y->small_number)
		cmp = (x->value > y->value) - (x->value < y->value);
	else
		cmp = tn_state_name_compare(x->name, y->name);
	/* Stable: in order of creation when the names compare equal. */
	return cmp ? cmp : (x->quark > y->quark) - (x->quark < y->quark);
}

/* The children of quark that live, in the order of the result (into
 * *children, emptied first). */
static size_t sorted_children(const struct tn_state *state, int quark,
		GArray *children)
{
	bool sorted = true;

	g_array_set_size(children, 0);
	for (int q = tn_state_get_first_live_child(state, quark); q >= 0;
			q = tn_state_get_next_live_sibling(state, q)) {
		struct child c = { q, false, 0, tn_state_get_name(state, q) };
		const char *p;

		for (p = c.name; *p >= '0' && *p <= '9' && p - c.name < 19;
				p++)
			c.value = c.value * 10 + (uint64_t) (*p - '0');
		c.small_number = p > c.name && !*p;
		g_array_append_val(children, c);
		sorted = sorted && (children->len == 1 || compare_children(
			&g_array_index(children, struct child,
				children->len - 2), &c) < 0);
	}
	if (!sorted)
		qsort(children->data, children->len, sizeof(struct child),
			compare_children);
	return children->len;
}

static const char *copy_string(struct result *result, const char *s)
{
	return g_string_chunk_insert(result->strings, s);
}

/* Whether a path under prefix (prefix + "/" + more) may match glob:
 * false when a literal part of glob before its first wildcard already
 * differs (a subtree that cannot match is not walked). */
static bool may_match_under(const char *glob, const char *prefix)
{
	size_t i = 0;

	for (; prefix[i]; i++) {
		if (glob[i] == '*' || glob[i] == '?')
			return true;
		if (glob[i] != prefix[i])
			return false;
	}
	return glob[i] == '/' || glob[i] == '*' || glob[i] == '?';
}

/* Whether quark is an element of a stack attribute named Call_stack. */
static bool in_call_stack(const struct tn_state *state, int quark)
{
	int parent = tn_state_get_parent(state, quark);

	return parent != TN_STATE_ROOT &&
		strcmp(tn_state_get_name(state, parent), "Call_stack") == 0;
}

/* The function name of an address as stored ("0x40472B"), or copy
 * when it is no address. */
static const char *resolve(struct result *result,
		const struct tn_symbols *symbols, const char *text,
		const char *copy)
{
	char *name = tn_symbols_resolve_text(symbols, text);
	const char *s;

	if (!name)
		return copy;
	s = copy_string(result, name);
	g_free(name);
	return s;
}

static void add_entry(struct result *result, GArray *entries,
		const struct tn_state *state, int quark, int depth,
		const char *path, const struct tn_state_result_source *source)
{
	struct tn_state_entry entry = { 0 };
	const struct tn_state_value *value = tn_state_get_value(state, quark);

	entry.quark = quark;
	entry.path = copy_string(result, path);
	/* The name ends the path. */
	entry.name = entry.path + strlen(path) -
		strlen(tn_state_get_name(state, quark));
	entry.parent = tn_state_get_parent(state, quark);
	entry.depth = depth;
	entry.value = *value;
	if (value->type == TN_STATE_STRING && value->u.s)
		entry.value.u.s = copy_string(result, value->u.s);
	if (value->type == TN_STATE_STRING && value->u.s && source->symbols &&
	    in_call_stack(state, quark))
		entry.value.u.s = resolve(result, source->symbols, value->u.s,
			entry.value.u.s);
	entry.start = *tn_state_get_start(state, quark);
	if (source->ends && source->ends[quark].has_end) {
		entry.has_end = true;
		entry.end = source->ends[quark].end;
	} else if (source->ends) {
		entry.end_after = source->end_after;
	}
	g_array_append_val(entries, entry);
}

/* Add quark's subtree in order (quark lives, or is the root); path
 * holds quark's path and is given back as it was. */
static void add_subtree(struct result *result, GArray *entries,
		const struct tn_state *state, int quark, int depth,
		GString *path, const struct tn_state_result_source *source)
{
	size_t count, len = path->len;
	GArray *children;

	if (quark != TN_STATE_ROOT && (!source->glob ||
			tn_state_path_match(source->glob, path->str)))
		add_entry(result, entries, state, quark, depth, path->str,
			source);
	if (tn_state_get_first_live_child(state, quark) < 0 ||
	    (source->glob && quark != TN_STATE_ROOT &&
	     !may_match_under(source->glob, path->str)))
		return;
	children = g_array_new(FALSE, FALSE, sizeof(struct child));
	count = sorted_children(state, quark, children);
	for (size_t i = 0; i < count; i++) {
		int child = g_array_index(children, struct child, i).quark;

		if (quark != TN_STATE_ROOT)
			g_string_append_c(path, '/');
		g_string_append(path, tn_state_get_name(state, child));
		add_subtree(result, entries, state, child,
			quark == TN_STATE_ROOT ? 0 : depth + 1, path, source);
		g_string_truncate(path, len);
	}
	g_array_free(children, TRUE);
}

struct tn_state_result *tn_state_result_build(const struct tn_state *state,
		const struct tn_state_result_source *source)
{
	struct result *result = g_new0(struct result, 1);
	GArray *entries = g_array_sized_new(FALSE, FALSE,
		sizeof(struct tn_state_entry), source->glob ? 64 : 1024);
	GString *path = g_string_new(NULL);

	result->strings = g_string_chunk_new(65536);
	add_subtree(result, entries, state, TN_STATE_ROOT, -1, path, source);
	g_string_free(path, TRUE);
	result->pub.pos = *source->pos;
	result->pub.count = entries->len;
	result->pub.entries = (struct tn_state_entry *)
		g_array_free(entries, FALSE);
	result->pub.providers = copy_string(result,
		source->providers ? source->providers : "");
	result->pub.from_snapshot = source->from_snapshot;
	result->pub.replayed = source->replayed;
	return &result->pub;
}

void tn_state_result_destroy(struct tn_state_result *pub)
{
	struct result *result = (struct result *) pub;

	if (!result)
		return;
	g_free(result->pub.entries);
	g_string_chunk_free(result->strings);
	g_free(result);
}

const struct tn_state_entry *tn_state_result_find(
		const struct tn_state_result *result, const char *path)
{
	for (size_t i = 0; i < result->count; i++)
		if (strcmp(result->entries[i].path, path) == 0)
			return &result->entries[i];
	return NULL;
}

void tn_state_entry_init(struct tn_state_entry *entry,
		const struct tn_state *state, int quark, const char *path)
{
	const struct tn_state_value *value = tn_state_get_value(state, quark);
	int depth = 0;

	for (int q = tn_state_get_parent(state, quark); q != TN_STATE_ROOT;
			q = tn_state_get_parent(state, q))
		depth++;
	memset(entry, 0, sizeof(*entry));
	entry->quark = quark;
	entry->path = g_strdup(path);
	entry->name = g_strdup(tn_state_get_name(state, quark));
	entry->parent = tn_state_get_parent(state, quark);
	entry->depth = depth;
	entry->value = *value;
	if (value->type == TN_STATE_STRING && value->u.s)
		entry->value.u.s = g_strdup(value->u.s);
	entry->start = *tn_state_get_start(state, quark);
}

void tn_state_entry_fini(struct tn_state_entry *entry)
{
	if (!entry)
		return;
	/* The entry's strings are its own (const for its readers). */
	g_free((gpointer) (uintptr_t) entry->path);
	g_free((gpointer) (uintptr_t) entry->name);
	if (entry->value.type == TN_STATE_STRING)
		g_free((gpointer) (uintptr_t) entry->value.u.s);
	memset(entry, 0, sizeof(*entry));
}
