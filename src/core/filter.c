/* filter.c - the filter stack, its immutable sets and the per-thread
 * matchers (see filter.h). */
#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>

#include "filter-expr.h"
#include "tracenav/filter.h"
#include "tracenav/format.h"
#include "tracenav/regex.h"

/* One filter as compiled: shared by the stack and the sets made of it. */
struct entry {
	atomic_int refs;
	enum tn_filter_kind kind;
	char *text;
	struct tn_regex *re;		/* IN, OUT */
	struct tn_expr *expr;		/* EXPR */
};

struct slot {
	struct entry *entry;
	bool enabled;
};

struct tn_filter_stack {
	GArray *slots;			/* struct slot, first pushed first */
};

struct tn_filter_set {
	atomic_int refs;
	size_t count;
	struct entry **entries;
	bool gmt;
	bool name_only;
};

struct tn_filter_matcher {
	struct tn_filter_set *set;
	struct tn_regex_matcher **regexes;	/* per entry, or NULL */
	struct tn_expr_eval **evals;		/* per entry, or NULL */
	GString *line;
	GHashTable *host_memo;			/* borrowed, or NULL */
};

static struct entry *entry_ref(struct entry *entry)
{
	atomic_fetch_add(&entry->refs, 1);
	return entry;
}

static void entry_unref(struct entry *entry)
{
	if (!entry || atomic_fetch_sub(&entry->refs, 1) != 1)
		return;
	tn_regex_destroy(entry->re);
	tn_expr_destroy(entry->expr);
	g_free(entry->text);
	g_free(entry);
}

const char *tn_filter_kind_name(enum tn_filter_kind kind)
{
	switch (kind) {
	case TN_FILTER_IN: return "filter-in";
	case TN_FILTER_OUT: return "filter-out";
	case TN_FILTER_EXPR: return "filter";
	}
	return "?";
}

/* ---- the stack ---- */

struct tn_filter_stack *tn_filter_stack_create(void)
{
	struct tn_filter_stack *stack = g_new0(struct tn_filter_stack, 1);

	stack->slots = g_array_new(FALSE, FALSE, sizeof(struct slot));
	return stack;
}

void tn_filter_stack_destroy(struct tn_filter_stack *stack)
{
	if (!stack)
		return;
	tn_filter_stack_clear(stack);
	g_array_free(stack->slots, TRUE);
	g_free(stack);
}

static struct slot *slot_at(const struct tn_filter_stack *stack, size_t i)
{
	return &g_array_index(stack->slots, struct slot, i);
}

struct tn_filter_stack *tn_filter_stack_copy(
		const struct tn_filter_stack *stack)
{
	struct tn_filter_stack *copy = tn_filter_stack_create();

	for (guint i = 0; stack && i < stack->slots->len; i++) {
		struct slot slot = *slot_at(stack, i);

		entry_ref(slot.entry);
		g_array_append_val(copy->slots, slot);
	}
	return copy;
}

int tn_filter_stack_push(struct tn_filter_stack *stack,
		enum tn_filter_kind kind, const char *text,
		struct tn_error *err)
{
	struct entry *entry = g_new0(struct entry, 1);
	struct slot slot;
	int status;

	atomic_init(&entry->refs, 1);
	entry->kind = kind;
	entry->text = g_strdup(text);
	if (kind == TN_FILTER_EXPR) {
		struct tn_error parse_err;

		status = tn_expr_parse(text, &entry->expr, &parse_err);
		if (status)
			tn_error_set(err, "bad expression: %s",
				parse_err.message);
	} else if (!*text) {
		tn_error_set(err, "empty regex: give the pattern to match");
		status = -1;
	} else {
		status = tn_regex_compile(text, &entry->re, err);
	}
	if (status) {
		entry_unref(entry);
		return -1;
	}
	slot.entry = entry;
	slot.enabled = true;
	g_array_append_val(stack->slots, slot);
	return 0;
}

size_t tn_filter_stack_get_count(const struct tn_filter_stack *stack)
{
	return stack->slots->len;
}

size_t tn_filter_stack_get_enabled_count(const struct tn_filter_stack *stack)
{
	size_t count = 0;

	for (guint i = 0; i < stack->slots->len; i++)
		count += slot_at(stack, i)->enabled;
	return count;
}

enum tn_filter_kind tn_filter_stack_get_kind(
		const struct tn_filter_stack *stack, size_t i)
{
	return slot_at(stack, i)->entry->kind;
}

const char *tn_filter_stack_get_text(const struct tn_filter_stack *stack,
		size_t i)
{
	return slot_at(stack, i)->entry->text;
}

bool tn_filter_stack_is_enabled(const struct tn_filter_stack *stack,
		size_t i)
{
	return slot_at(stack, i)->enabled;
}

void tn_filter_stack_set_enabled(struct tn_filter_stack *stack, size_t i,
		bool enabled)
{
	slot_at(stack, i)->enabled = enabled;
}

void tn_filter_stack_remove(struct tn_filter_stack *stack, size_t i)
{
	entry_unref(slot_at(stack, i)->entry);
	g_array_remove_index(stack->slots, (guint) i);
}

void tn_filter_stack_clear(struct tn_filter_stack *stack)
{
	for (guint i = 0; i < stack->slots->len; i++)
		entry_unref(slot_at(stack, i)->entry);
	g_array_set_size(stack->slots, 0);
}

/* ---- sets ---- */

struct tn_filter_set *tn_filter_stack_snapshot(
		const struct tn_filter_stack *stack, bool gmt)
{
	size_t count = tn_filter_stack_get_enabled_count(stack), n = 0;
	struct tn_filter_set *set;

	if (count == 0)
		return NULL;
	set = g_new0(struct tn_filter_set, 1);
	atomic_init(&set->refs, 1);
	set->entries = g_new0(struct entry *, count);
	set->count = count;
	set->gmt = gmt;
	set->name_only = true;
	for (guint i = 0; i < stack->slots->len; i++) {
		const struct slot *slot = slot_at(stack, i);

		if (!slot->enabled)
			continue;
		set->entries[n++] = entry_ref(slot->entry);
		if (slot->entry->kind != TN_FILTER_EXPR) {
			set->name_only = false;
		} else if (!tn_expr_uses_name_only(slot->entry->expr)) {
			set->name_only = false;
		}
	}
	return set;
}

struct tn_filter_set *tn_filter_set_ref(struct tn_filter_set *set)
{
	if (set)
		atomic_fetch_add(&set->refs, 1);
	return set;
}

void tn_filter_set_unref(struct tn_filter_set *set)
{
	if (!set || atomic_fetch_sub(&set->refs, 1) != 1)
		return;
	for (size_t i = 0; i < set->count; i++)
		entry_unref(set->entries[i]);
	g_free(set->entries);
	g_free(set);
}

bool tn_filter_set_is_name_only(const struct tn_filter_set *set)
{
	return set->name_only;
}

/* ---- matching ---- */

struct tn_filter_matcher *tn_filter_matcher_new(struct tn_filter_set *set)
{
	struct tn_filter_matcher *matcher = g_new0(struct tn_filter_matcher,
		1);

	matcher->set = tn_filter_set_ref(set);
	matcher->regexes = g_new0(struct tn_regex_matcher *, set->count);
	matcher->evals = g_new0(struct tn_expr_eval *, set->count);
	for (size_t i = 0; i < set->count; i++) {
		const struct entry *entry = set->entries[i];

		if (entry->re)
			matcher->regexes[i] = tn_regex_matcher_new(entry->re);
		else
			matcher->evals[i] = tn_expr_eval_new(entry->expr);
	}
	matcher->line = g_string_sized_new(256);
	return matcher;
}

void tn_filter_matcher_free(struct tn_filter_matcher *matcher)
{
	if (!matcher)
		return;
	for (size_t i = 0; i < matcher->set->count; i++) {
		tn_regex_matcher_free(matcher->regexes[i]);
		tn_expr_eval_free(matcher->evals[i]);
	}
	g_free(matcher->regexes);
	g_free(matcher->evals);
	g_string_free(matcher->line, TRUE);
	tn_filter_set_unref(matcher->set);
	g_free(matcher);
}

/* The event's line as --dump prints it, without the delta. */
static void format_line(struct tn_filter_matcher *matcher,
		const struct tn_event *ev)
{
	struct tn_format_state state;

	tn_format_state_init(&state, matcher->set->gmt);
	state.host_memo = matcher->host_memo;
	state.no_delta = true;
	g_string_truncate(matcher->line, 0);
	tn_format_event_line(matcher->line, ev, &state);
}

bool tn_filter_matcher_match(struct tn_filter_matcher *matcher,
		const struct tn_event *ev)
{
	const struct tn_filter_set *set = matcher->set;
	bool formatted = false;

	if (ev->kind != TN_EVENT_KIND_EVENT)
		return false;
	/* Expressions first: they are cheaper than a formatted line. */
	for (size_t i = 0; i < set->count; i++)
		if (matcher->evals[i] &&
		    !tn_expr_eval_event(matcher->evals[i], ev))
			return false;
	for (size_t i = 0; i < set->count; i++) {
		bool found;

		if (!matcher->regexes[i])
			continue;
		if (!formatted) {
			format_line(matcher, ev);
			formatted = true;
		}
		found = tn_regex_find(matcher->regexes[i], matcher->line->str,
			matcher->line->len, 0, NULL, NULL);
		if (found != (set->entries[i]->kind == TN_FILTER_IN))
			return false;
	}
	return true;
}

void tn_filter_matcher_set_host_memo(struct tn_filter_matcher *matcher,
		GHashTable *memo)
{
	matcher->host_memo = memo;
}

bool tn_filter_matcher_match_name(struct tn_filter_matcher *matcher,
		const char *name)
{
	for (size_t i = 0; i < matcher->set->count; i++)
		if (matcher->evals[i] &&
		    !tn_expr_eval_name(matcher->evals[i], name))
			return false;
	return true;
}

static bool match_filter(const struct tn_event *ev, void *data)
{
	return tn_filter_matcher_match(data, ev);
}

void tn_filter_matcher_bind(struct tn_filter_matcher *matcher,
		struct tn_filter *filter)
{
	filter->match = match_filter;
	filter->data = matcher;
}

/* ---- one matcher per thread, for a filter shared by threads ---- */

static pthread_key_t thread_matcher_key;
static pthread_once_t thread_matcher_once = PTHREAD_ONCE_INIT;

/* A thread exits: its matcher goes. */
static void free_thread_matcher(void *matcher)
{
	tn_filter_matcher_free(matcher);
}

static void make_thread_matcher_key(void)
{
	pthread_key_create(&thread_matcher_key, free_thread_matcher);
}

static bool match_shared(const struct tn_event *ev, void *data)
{
	struct tn_filter_set *set = data;
	struct tn_filter_matcher *matcher;

	pthread_once(&thread_matcher_once, make_thread_matcher_key);
	matcher = pthread_getspecific(thread_matcher_key);
	/* The matcher holds a reference to its set, so a set at the same
	 * address is the same set. */
	if (!matcher || matcher->set != set) {
		tn_filter_matcher_free(matcher);
		matcher = tn_filter_matcher_new(set);
		pthread_setspecific(thread_matcher_key, matcher);
	}
	return tn_filter_matcher_match(matcher, ev);
}

void tn_filter_set_bind(struct tn_filter_set *set, struct tn_filter *filter)
{
	filter->match = match_shared;
	filter->data = set;
}
