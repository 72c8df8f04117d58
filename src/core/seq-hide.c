/* seq-hide.c - the sequence diagram's hide patterns (see seq-hide.h). */
#include <glib.h>
#include <string.h>

#include "tracenav/regex.h"
#include "tracenav/seq-hide.h"

struct tn_seq_hide {
	gint refs;
	size_t count;
	struct tn_regex **regexes;	/* count of them, owned */
};

struct tn_seq_hide_matcher {
	struct tn_seq_hide *hide;	/* a reference */
	struct tn_regex_matcher **matchers;
	/* Whether each lifeline name seen is hidden: name -> 1 or 2. */
	GHashTable *lifelines;
};

struct tn_seq_hide *tn_seq_hide_ref(struct tn_seq_hide *hide)
{
	if (hide)
		g_atomic_int_inc(&hide->refs);
	return hide;
}

void tn_seq_hide_unref(struct tn_seq_hide *hide)
{
	if (!hide || !g_atomic_int_dec_and_test(&hide->refs))
		return;
	for (size_t i = 0; i < hide->count; i++)
		tn_regex_destroy(hide->regexes[i]);
	g_free(hide->regexes);
	g_free(hide);
}

static struct tn_seq_hide *hide_new(size_t count)
{
	struct tn_seq_hide *hide = g_new0(struct tn_seq_hide, 1);

	hide->refs = 1;
	hide->count = count;
	hide->regexes = g_new0(struct tn_regex *, count ? count : 1);
	return hide;
}

size_t tn_seq_hide_get_count(const struct tn_seq_hide *hide)
{
	return hide ? hide->count : 0;
}

const char *tn_seq_hide_get_pattern(const struct tn_seq_hide *hide,
		size_t index)
{
	g_assert(hide && index < hide->count);
	return tn_regex_get_pattern(hide->regexes[index]);
}

/* A pattern compiled again: a regex belongs to one set. */
static struct tn_regex *recompile(const struct tn_regex *regex)
{
	struct tn_regex *copy;
	struct tn_error err;

	/* It compiled once: it compiles again. */
	if (tn_regex_compile(tn_regex_get_pattern(regex), &copy, &err))
		g_error("seq-hide: %s", err.message);
	return copy;
}

int tn_seq_hide_add(const struct tn_seq_hide *hide, const char *pattern,
		struct tn_seq_hide **out, struct tn_error *err)
{
	size_t count = tn_seq_hide_get_count(hide);
	struct tn_regex *regex;
	struct tn_seq_hide *set;

	for (size_t i = 0; i < count; i++)
		if (strcmp(tn_seq_hide_get_pattern(hide, i), pattern) == 0)
			return 0;
	if (tn_regex_compile(pattern, &regex, err))
		return -1;
	set = hide_new(count + 1);
	for (size_t i = 0; i < count; i++)
		set->regexes[i] = recompile(hide->regexes[i]);
	set->regexes[count] = regex;
	*out = set;
	return 1;
}

size_t tn_seq_hide_remove(const struct tn_seq_hide *hide, const char *pattern,
		struct tn_seq_hide **out)
{
	size_t count = tn_seq_hide_get_count(hide);
	size_t kept = 0;
	struct tn_seq_hide *set = hide_new(count);

	for (size_t i = 0; i < count; i++) {
		if (pattern &&
		    strcmp(tn_seq_hide_get_pattern(hide, i), pattern) != 0)
			set->regexes[kept++] = recompile(hide->regexes[i]);
	}
	set->count = kept;
	if (kept == 0) {
		tn_seq_hide_unref(set);
		set = NULL;
	}
	*out = set;
	return count - kept;
}

bool tn_seq_hide_equal(const struct tn_seq_hide *a,
		const struct tn_seq_hide *b)
{
	size_t count = tn_seq_hide_get_count(a);

	if (a == b)
		return true;
	if (count != tn_seq_hide_get_count(b))
		return false;
	for (size_t i = 0; i < count; i++)
		if (strcmp(tn_seq_hide_get_pattern(a, i),
				tn_seq_hide_get_pattern(b, i)) != 0)
			return false;
	return true;
}

/* ---- matching ---- */

struct tn_seq_hide_matcher *tn_seq_hide_matcher_create(
		struct tn_seq_hide *hide)
{
	struct tn_seq_hide_matcher *m = g_new0(struct tn_seq_hide_matcher, 1);
	size_t count = tn_seq_hide_get_count(hide);

	m->hide = tn_seq_hide_ref(hide);
	m->matchers = g_new0(struct tn_regex_matcher *, count ? count : 1);
	for (size_t i = 0; i < count; i++)
		m->matchers[i] = tn_regex_matcher_new(hide->regexes[i]);
	m->lifelines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		NULL);
	return m;
}

void tn_seq_hide_matcher_destroy(struct tn_seq_hide_matcher *matcher)
{
	if (!matcher)
		return;
	for (size_t i = 0; i < tn_seq_hide_get_count(matcher->hide); i++)
		tn_regex_matcher_free(matcher->matchers[i]);
	g_free(matcher->matchers);
	g_hash_table_destroy(matcher->lifelines);
	tn_seq_hide_unref(matcher->hide);
	g_free(matcher);
}

bool tn_seq_hide_matcher_is_empty(const struct tn_seq_hide_matcher *matcher)
{
	return tn_seq_hide_get_count(matcher->hide) == 0;
}

static bool matches(struct tn_seq_hide_matcher *matcher, const char *text)
{
	for (size_t i = 0; i < tn_seq_hide_get_count(matcher->hide); i++)
		if (tn_regex_matches(matcher->matchers[i], text))
			return true;
	return false;
}

bool tn_seq_hide_lifeline(struct tn_seq_hide_matcher *matcher,
		const char *name)
{
	gpointer known;
	bool hidden;

	if (tn_seq_hide_matcher_is_empty(matcher))
		return false;
	known = g_hash_table_lookup(matcher->lifelines, name);
	if (known)
		return GPOINTER_TO_INT(known) == 2;
	hidden = matches(matcher, name);
	g_hash_table_insert(matcher->lifelines, g_strdup(name),
		GINT_TO_POINTER(hidden ? 2 : 1));
	return hidden;
}

bool tn_seq_hide_message(struct tn_seq_hide_matcher *matcher,
		const struct tn_seq_model *model,
		const struct tn_seq_message *message)
{
	if (tn_seq_hide_matcher_is_empty(matcher))
		return false;
	return matches(matcher, message->signal) ||
		tn_seq_hide_lifeline(matcher, tn_seq_model_borrow_lifeline(
			model, message->from)->name) ||
		tn_seq_hide_lifeline(matcher, tn_seq_model_borrow_lifeline(
			model, message->to)->name);
}

struct tn_seq_model *tn_seq_hide_filter(struct tn_seq_hide_matcher *matcher,
		const struct tn_seq_model *model)
{
	struct tn_seq_model *copy = tn_seq_model_create();
	size_t n = tn_seq_model_get_lifeline_count(model);
	size_t *map = g_new(size_t, n ? n : 1);

	for (size_t i = 0; i < n; i++) {
		const struct tn_seq_lifeline *l =
			tn_seq_model_borrow_lifeline(model, i);

		map[i] = SIZE_MAX;
		if (tn_seq_hide_lifeline(matcher, l->name))
			continue;
		map[i] = tn_seq_model_lifeline(copy, l->name, l->category,
			&l->first);
		if (l->has_created)
			tn_seq_model_set_created(copy, map[i], &l->created);
		if (l->has_stopped)
			tn_seq_model_set_stopped(copy, map[i], &l->stopped);
	}
	for (size_t i = 0; i < tn_seq_model_get_message_count(model); i++) {
		const struct tn_seq_message *m =
			tn_seq_model_borrow_message(model, i);
		struct tn_seq_message kept = *m;

		if (tn_seq_hide_message(matcher, model, m))
			continue;
		kept.from = map[m->from];
		kept.to = map[m->to];
		tn_seq_model_add_message(copy, &kept);
	}
	for (size_t i = 0; i < tn_seq_model_get_activation_count(model); i++) {
		struct tn_seq_activation a = *tn_seq_model_borrow_activation(
			model, i);

		if (map[a.lifeline] == SIZE_MAX)
			continue;
		a.lifeline = map[a.lifeline];
		tn_seq_model_add_activation(copy, &a);
	}
	g_free(map);
	return copy;
}
