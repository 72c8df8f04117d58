/* test-state.c - unit tests of the state system (src/core/state*.c):
 * paths and quarks, values and their types, increments, stacks, remove,
 * intervals kept by equal values, time order, snapshots (round trip,
 * damaged blobs refused cleanly), and a replay property: a state saved
 * and restored midway and replayed on ends equal to one replayed all
 * along; what lives (a value, or one under it) is what the lists of
 * live children and a query's result hold, through changes, removes,
 * restores and rollbacks.  Prints a rough speed of changes (not
 * asserted). */
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "src/core/bytes.h"
#include "src/core/state-history-private.h"
#include "src/core/state-private.h"
#include "tap.h"
#include "tracenav/state.h"

static struct tn_state_stamp at(int64_t ns)
{
	return (struct tn_state_stamp) {
		.ns = ns, .has_pos = true, .pos = { ns, 0 },
	};
}

static char *value_text(const struct tn_state_value *value)
{
	GString *buf = g_string_new(NULL);

	tn_state_value_append(buf, value);
	return g_string_free(buf, FALSE);
}

static void is_text(const struct tn_state_value *value, const char *want,
		const char *what)
{
	char *got = value_text(value);

	tap_str_eq(got, want, "%s", what);
	g_free(got);
}

static void is_path(const struct tn_state *state, int quark,
		const char *want, const char *what)
{
	char *got = tn_state_get_path(state, quark);

	tap_str_eq(got, want, "%s", what);
	g_free(got);
}

static bool stamp_equal(const struct tn_state_stamp *a,
		const struct tn_state_stamp *b)
{
	if (a->ns != b->ns || a->has_pos != b->has_pos)
		return false;
	return !a->has_pos || (a->pos.ns == b->pos.ns
		&& a->pos.tie == b->pos.tie);
}

/* Whether a and b hold the same attributes (same quarks, paths, types,
 * values and starts) and current time; why says the first difference. */
static bool states_equal(const struct tn_state *a, const struct tn_state *b,
		char *why, size_t why_size)
{
	int count = tn_state_get_attribute_count(a);

	if (count != tn_state_get_attribute_count(b)) {
		snprintf(why, why_size, "%d attributes, not %d", count,
			tn_state_get_attribute_count(b));
		return false;
	}
	if (tn_state_get_current_time(a) != tn_state_get_current_time(b)) {
		snprintf(why, why_size, "current time %" PRId64 ", not %"
			PRId64, tn_state_get_current_time(a),
			tn_state_get_current_time(b));
		return false;
	}
	for (int q = 0; q < count; q++) {
		char *pa = tn_state_get_path(a, q);
		char *pb = tn_state_get_path(b, q);
		bool same = strcmp(pa, pb) == 0
			&& tn_state_get_parent(a, q) == tn_state_get_parent(b, q)
			&& tn_state_get_type(a, q) == tn_state_get_type(b, q)
			&& tn_state_value_equal(tn_state_get_value(a, q),
				tn_state_get_value(b, q))
			&& stamp_equal(tn_state_get_start(a, q),
				tn_state_get_start(b, q));

		if (!same) {
			char *va = value_text(tn_state_get_value(a, q));
			char *vb = value_text(tn_state_get_value(b, q));

			snprintf(why, why_size, "quark %d: %s = %s (%s) since "
				"%" PRId64 " vs %s = %s (%s) since %" PRId64,
				q, pa, va,
				tn_state_type_name(tn_state_get_type(a, q)),
				tn_state_get_start(a, q)->ns, pb, vb,
				tn_state_type_name(tn_state_get_type(b, q)),
				tn_state_get_start(b, q)->ns);
			g_free(va);
			g_free(vb);
		}
		g_free(pa);
		g_free(pb);
		if (!same)
			return false;
	}
	return true;
}

/* Whether what state says lives (tn_state_is_live(), the lists of live
 * children, a result made of it) is what its values say: an attribute
 * lives when it or one under it holds a non-null value. */
static bool live_right(const struct tn_state *state, char *why,
		size_t why_size)
{
	int count = tn_state_get_attribute_count(state);
	bool *lives = g_new0(bool, count + 1), ok = true;
	struct tn_position pos = { 0, 0 };
	struct tn_state_result_source source = { .pos = &pos };
	struct tn_state_result *result;
	size_t live_count = 0, held = 0;

	/* Children come after their parents. */
	for (int q = count - 1; q >= 0; q--) {
		int parent = tn_state_get_parent(state, q);

		lives[q] |= tn_state_get_value(state, q)->type !=
			TN_STATE_NULL;
		if (lives[q] && parent != TN_STATE_ROOT)
			lives[parent] = true;
		live_count += lives[q];
	}
	for (int q = TN_STATE_ROOT; ok && q < count; q++) {
		size_t n = tn_state_get_child_count(state, q), listed = 0;
		size_t want = 0;

		if (q >= 0 && tn_state_is_live(state, q) != lives[q]) {
			snprintf(why, why_size, "quark %d lives: %d, not %d", q,
				tn_state_is_live(state, q), lives[q]);
			ok = false;
		}
		for (size_t i = 0; i < n; i++)
			want += lives[tn_state_get_child(state, q, i)];
		for (int c = tn_state_get_first_live_child(state, q);
				ok && c >= 0 && listed <= n;
				c = tn_state_get_next_live_sibling(state, c)) {
			listed++;
			if (c >= count || tn_state_get_parent(state, c) != q ||
			    !lives[c]) {
				snprintf(why, why_size, "quark %d lists %d "
					"among its live children", q, c);
				ok = false;
			}
		}
		if (ok && listed != want) {
			snprintf(why, why_size, "quark %d lists %zu live "
				"children, not %zu", q, listed, want);
			ok = false;
		}
	}
	/* The result holds each live attribute once, and no other. */
	result = tn_state_result_build(state, &source);
	for (size_t i = 0; ok && i < result->count; i++) {
		int q = result->entries[i].quark;

		if (q < 0 || q >= count || !lives[q]) {
			snprintf(why, why_size, "the result holds %s, which "
				"does not live", result->entries[i].path);
			ok = false;
		} else {
			lives[q] = false;
			held++;
		}
	}
	if (ok && held != live_count) {
		snprintf(why, why_size, "the result holds %zu of the %zu "
			"attributes that live", held, live_count);
		ok = false;
	}
	tn_state_result_destroy(result);
	g_free(lives);
	return ok;
}

static void test_paths(void)
{
	struct tn_state *state = tn_state_create();
	struct tn_error err = { "" };
	int cpus, cpu0, cur, q = -42, odd, slash, empty, ctl;

	tap_int_eq(tn_state_get_attribute_count(state), 0,
		"a new state has no attribute");
	tap_int_eq(tn_state_get_current_time(state), INT64_MIN,
		"a new state has no current time");
	cur = tn_state_quark_add(state, TN_STATE_ROOT, "CPUs/0/Current_thread");
	tap_int_eq(tn_state_get_attribute_count(state), 3,
		"add on demand: CPUs, 0 and Current_thread");
	cpus = tn_state_quark_lookup(state, TN_STATE_ROOT, "CPUs");
	cpu0 = tn_state_quark_lookup(state, cpus, "0");
	tap_ok(cpus == 0 && cpu0 == 1 && cur == 2,
		"quarks in order of creation: %d %d %d", cpus, cpu0, cur);
	tap_int_eq(tn_state_quark_add(state, TN_STATE_ROOT,
		"CPUs/0/Current_thread"), cur, "adding again finds it");
	tap_int_eq(tn_state_quark_lookup(state, cpus, "0/Current_thread"), cur,
		"relative lookup");
	tap_int_eq(tn_state_quark_lookup(state, TN_STATE_ROOT,
		"/CPUs//0/Current_thread/"), cur,
		"empty components are skipped");
	tap_int_eq(tn_state_quark_lookup(state, cpu0, ""), cpu0,
		"an empty path is the parent itself");
	tap_ok(tn_state_quark_find(state, TN_STATE_ROOT, "CPUs/0", &q, &err)
		== 0 && q == cpu0, "find: absolute");
	tap_int_eq(tn_state_quark_lookup(state, TN_STATE_ROOT, "CPUs/9"), -1,
		"lookup of a missing attribute: -1");
	tap_int_eq(tn_state_get_attribute_count(state), 3,
		"a lookup adds nothing");
	q = -42;
	tap_ok(tn_state_quark_find(state, TN_STATE_ROOT, "CPUs/9", &q, &err)
		== -1 && q == -42, "find of a missing attribute fails");
	tap_str_eq(err.message, "no attribute CPUs/9 in the state",
		"its message");
	tap_int_eq(tn_state_quark_find(state, cpu0, "Status", &q, &err), -1,
		"relative find of a missing attribute fails");
	tap_str_eq(err.message, "no attribute CPUs/0/Status in the state",
		"its message names the whole path");
	tap_ok(tn_state_quark_find(state, TN_STATE_ROOT, "/", &q, &err) == 0
		&& q == TN_STATE_ROOT, "find of an empty path from the root: "
		"the root");
	tap_int_eq(tn_state_quark_find(state, 99, "x", &q, &err), -1,
		"find under an unknown parent fails");
	tap_int_eq(tn_state_quark_lookup(state, 99, "x"), -1,
		"lookup under an unknown parent: -1");

	tap_str_eq(tn_state_get_name(state, cur), "Current_thread", "name");
	tap_int_eq(tn_state_get_parent(state, cur), cpu0, "parent");
	tap_int_eq(tn_state_get_parent(state, cpus), TN_STATE_ROOT,
		"parent of a top-level attribute: the root");
	is_path(state, cur, "CPUs/0/Current_thread", "path");
	tn_state_quark_add(state, cpus, "1");
	tn_state_quark_add(state, cpus, "10");
	tn_state_quark_add(state, TN_STATE_ROOT, "Threads");
	tap_int_eq(tn_state_get_child_count(state, cpus), 3, "child count");
	tap_ok(strcmp(tn_state_get_name(state, tn_state_get_child(state, cpus,
		1)), "1") == 0 && strcmp(tn_state_get_name(state,
		tn_state_get_child(state, cpus, 2)), "10") == 0,
		"children in order of creation");
	tap_int_eq(tn_state_get_child_count(state, TN_STATE_ROOT), 2,
		"the root's children: CPUs, Threads");
	tap_int_eq(tn_state_get_child(state, TN_STATE_ROOT, 1),
		tn_state_quark_lookup(state, TN_STATE_ROOT, "Threads"),
		"the root's second child");

	/* quark_child: any character, no '/' parsing. */
	odd = tn_state_quark_child(state, TN_STATE_ROOT, "Odd");
	slash = tn_state_quark_child(state, odd, "a/b");
	tap_int_eq(tn_state_quark_child(state, odd, "a/b"), slash,
		"quark_child finds what it added");
	tap_int_eq(tn_state_quark_lookup(state, odd, "a/b"), -1,
		"a path a/b is not the child named a/b");
	tap_int_eq(tn_state_quark_child_lookup(state, odd, "a/b"), slash,
		"child lookup of a name with a slash");
	tap_str_eq(tn_state_get_name(state, slash), "a/b",
		"the name keeps its slash");
	empty = tn_state_quark_child(state, odd, "");
	ctl = tn_state_quark_child(state, odd, "tab\there \"q\" \xc3\xa9");
	tap_ok(empty >= 0 && empty != slash && ctl >= 0 && ctl != empty,
		"an empty name and one with control characters are children "
		"too");
	tap_int_eq(tn_state_quark_child_lookup(state, odd,
		"tab\there \"q\" \xc3\xa9"), ctl, "found again by name");
	tap_int_eq(tn_state_quark_child_lookup(state, odd, "tab"), -1,
		"a prefix of a name is not that name");
	tap_int_eq(tn_state_quark_child_lookup(state, cpus, "a/b"), -1,
		"a name under another parent is another attribute");

	/* Many children: the index grows. */
	{
		int threads = tn_state_quark_add(state, TN_STATE_ROOT,
			"Threads");
		bool all = true;
		char name[16];

		for (int i = 0; i < 5000; i++) {
			snprintf(name, sizeof(name), "%d", i);
			tn_state_quark_child(state, threads, name);
		}
		for (int i = 0; i < 5000; i++) {
			int c = tn_state_get_child(state, threads, (size_t) i);

			snprintf(name, sizeof(name), "%d", i);
			all &= tn_state_quark_child_lookup(state, threads,
				name) == c && strcmp(tn_state_get_name(state,
				c), name) == 0;
		}
		tap_ok(all, "5000 children found by name");
	}
	tn_state_clear(state);
	tap_int_eq(tn_state_get_attribute_count(state), 0,
		"clear forgets every attribute");
	tap_int_eq(tn_state_quark_lookup(state, TN_STATE_ROOT, "CPUs"), -1,
		"and their names");
	tap_int_eq(tn_state_quark_add(state, TN_STATE_ROOT, "X"), 0,
		"quarks start from 0 again");
	tn_state_destroy(state);
	tn_state_destroy(NULL);
}

static void test_values(void)
{
	struct tn_state *state = tn_state_create();
	struct tn_error err = { "" };
	struct tn_state_stamp t = at(10);
	struct tn_state_value v;
	int qi = tn_state_quark_add(state, TN_STATE_ROOT, "Threads/42/Prio");
	int ql = tn_state_quark_add(state, TN_STATE_ROOT, "L");
	int qd = tn_state_quark_add(state, TN_STATE_ROOT, "D");
	int qs = tn_state_quark_add(state, TN_STATE_ROOT, "S");
	int qn = tn_state_quark_add(state, TN_STATE_ROOT, "N");
	char text[64];

	tap_int_eq(tn_state_get_type(state, qi), TN_STATE_NULL,
		"a new attribute has no type");
	is_text(tn_state_get_value(state, qi), "null",
		"a new attribute is null");
	tap_ok(tn_state_get_start(state, qi)->ns == INT64_MIN
		&& !tn_state_get_start(state, qi)->has_pos,
		"a new attribute was never set");

	v = tn_state_value_int(-7);
	tap_int_eq(tn_state_modify(state, qi, &v, &t, &err), 0, "modify int");
	v = tn_state_value_long(INT64_C(1) << 40);
	tap_int_eq(tn_state_modify(state, ql, &v, &t, &err), 0,
		"modify long");
	v = tn_state_value_double(0.1);
	tap_int_eq(tn_state_modify(state, qd, &v, &t, &err), 0,
		"modify double");
	snprintf(text, sizeof(text), "a\"b\\c\nd");
	v = tn_state_value_string(text);
	tap_int_eq(tn_state_modify(state, qs, &v, &t, &err), 0,
		"modify string");
	snprintf(text, sizeof(text), "changed");
	tap_str_eq(tn_state_get_value(state, qs)->u.s, "a\"b\\c\nd",
		"a string is copied into the state");
	tap_ok(tn_state_get_type(state, qi) == TN_STATE_INT
		&& tn_state_get_type(state, ql) == TN_STATE_LONG
		&& tn_state_get_type(state, qd) == TN_STATE_DOUBLE
		&& tn_state_get_type(state, qs) == TN_STATE_STRING,
		"each keeps the type of its first value");
	is_text(tn_state_get_value(state, qi), "-7", "int as text");
	is_text(tn_state_get_value(state, ql), "1099511627776",
		"long as text");
	is_text(tn_state_get_value(state, qd), "0.1",
		"double as text: shortest exact");
	is_text(tn_state_get_value(state, qs), "\"a\\\"b\\\\c\\nd\"",
		"string as text: quoted, escaped");
	v = tn_state_value_double(0.1 + 0.2);
	is_text(&v, "0.30000000000000004", "a double that needs 17 digits");
	v = tn_state_value_double(1.0 / 3);
	is_text(&v, "0.3333333333333333", "one that needs 16");
	v = tn_state_value_double(-2.5e300);
	is_text(&v, "-2.5e+300", "a large double");
	v = tn_state_value_int(INT32_MIN);
	is_text(&v, "-2147483648", "the smallest int");
	tap_ok(tn_state_get_start(state, qi)->ns == 10,
		"the start is the change's time");
	tap_str_eq(tn_state_type_name(TN_STATE_LONG), "long", "type name");

	/* Wrong types are refused and change nothing. */
	v = tn_state_value_string("high");
	tap_int_eq(tn_state_modify(state, qi, &v, &t, &err), -1,
		"a string into an int attribute is refused");
	tap_str_eq(err.message,
		"attribute Threads/42/Prio holds int values, not string",
		"its message");
	is_text(tn_state_get_value(state, qi), "-7", "the value stays");
	v = tn_state_value_long(3);
	tap_int_eq(tn_state_modify(state, qi, &v, &t, &err), -1,
		"a long into an int attribute is refused");
	v = tn_state_value_int(3);
	tap_int_eq(tn_state_modify(state, ql, &v, &t, &err), -1,
		"an int into a long attribute is refused");
	tap_int_eq(tn_state_modify(state, qd, &v, &t, &err), -1,
		"an int into a double attribute is refused");

	/* Null is always allowed, and the type stays. */
	v = tn_state_value_null();
	tap_ok(tn_state_modify(state, qi, &v, &t, &err) == 0
		&& tn_state_modify(state, qs, &v, &t, &err) == 0
		&& tn_state_modify(state, qn, &v, &t, &err) == 0,
		"null into any attribute");
	tap_ok(tn_state_get_value(state, qi)->type == TN_STATE_NULL
		&& tn_state_get_type(state, qi) == TN_STATE_INT,
		"a nulled int attribute still keeps ints");
	v = tn_state_value_string("x");
	tap_int_eq(tn_state_modify(state, qi, &v, &t, &err), -1,
		"and still refuses strings");
	tap_int_eq(tn_state_get_type(state, qn), TN_STATE_NULL,
		"null gives no type");
	v = tn_state_value_string(NULL);
	tap_int_eq(v.type, TN_STATE_NULL, "a NULL string is a null value");

	/* Unknown quarks. */
	v = tn_state_value_int(1);
	tap_int_eq(tn_state_modify(state, 99, &v, &t, &err), -1,
		"modify of an unknown quark fails");
	tap_str_eq(err.message, "no attribute with quark 99 in the state "
		"(it has 7)", "its message");
	tap_int_eq(tn_state_modify(state, TN_STATE_ROOT, &v, &t, &err), -1,
		"the root holds no value");

	/* Equality. */
	{
		struct tn_state_value a = tn_state_value_string("same");
		char other[8] = "same";
		struct tn_state_value b = tn_state_value_string(other);
		struct tn_state_value n1 = tn_state_value_double(NAN);
		struct tn_state_value n2 = tn_state_value_double(NAN);
		struct tn_state_value i = tn_state_value_int(1);
		struct tn_state_value l = tn_state_value_long(1);

		tap_ok(tn_state_value_equal(&a, &b), "strings equal by content");
		tap_ok(!tn_state_value_equal(&i, &l),
			"an int is not a long of the same value");
		tap_ok(tn_state_value_equal(&n1, &n2), "NaN equals NaN");
	}
	tn_state_destroy(state);
}

static void test_increment(void)
{
	struct tn_state *state = tn_state_create();
	struct tn_error err = { "" };
	struct tn_state_stamp t = at(5);
	struct tn_state_value v;
	int qa = tn_state_quark_add(state, TN_STATE_ROOT, "Count");
	int qb = tn_state_quark_add(state, TN_STATE_ROOT, "Big");
	int qc = tn_state_quark_add(state, TN_STATE_ROOT, "Long");
	int qs = tn_state_quark_add(state, TN_STATE_ROOT, "Name");

	tap_int_eq(tn_state_increment(state, qa, 1, &t, &err), 0,
		"increment of a null attribute");
	tap_ok(tn_state_get_value(state, qa)->type == TN_STATE_INT
		&& tn_state_get_value(state, qa)->u.i == 1,
		"null counts as 0 and becomes an int");
	tn_state_increment(state, qa, 41, &t, &err);
	is_text(tn_state_get_value(state, qa), "42", "int + 41");
	tn_state_increment(state, qa, -50, &t, &err);
	is_text(tn_state_get_value(state, qa), "-8", "int - 50");
	v = tn_state_value_null();
	tn_state_modify(state, qa, &v, &t, &err);
	tn_state_increment(state, qa, 3, &t, &err);
	is_text(tn_state_get_value(state, qa), "3",
		"a nulled int counts from 0");
	tap_int_eq(tn_state_increment(state, qa, INT64_C(1) << 40, &t, &err),
		-1, "an int attribute refuses a sum beyond 32 bits");
	tap_str_eq(err.message, "attribute Count holds int values: "
		"3 + 1099511627776 is out of their range", "its message");

	tap_int_eq(tn_state_increment(state, qb, INT64_C(1) << 40, &t, &err),
		0, "a delta beyond 32 bits on a null attribute");
	tap_int_eq(tn_state_get_type(state, qb), TN_STATE_LONG,
		"makes it a long");
	v = tn_state_value_long(10);
	tn_state_modify(state, qc, &v, &t, &err);
	tn_state_increment(state, qc, -11, &t, &err);
	is_text(tn_state_get_value(state, qc), "-1", "long - 11");
	tap_int_eq(tn_state_get_type(state, qc), TN_STATE_LONG,
		"a long stays a long");
	v = tn_state_value_long(INT64_MAX);
	tn_state_modify(state, qc, &v, &t, &err);
	tap_int_eq(tn_state_increment(state, qc, 1, &t, &err), -1,
		"a long that would overflow is refused");
	v = tn_state_value_string("bash");
	tn_state_modify(state, qs, &v, &t, &err);
	tap_int_eq(tn_state_increment(state, qs, 1, &t, &err), -1,
		"increment of a string attribute is refused");
	tap_str_eq(err.message, "attribute Name holds string values: it "
		"cannot be incremented", "its message");
	tn_state_destroy(state);
}

static void test_stack(void)
{
	struct tn_state *state = tn_state_create();
	struct tn_error err = { "" };
	struct tn_state_value v, popped;
	int stack = tn_state_quark_add(state, TN_STATE_ROOT,
		"Threads/7/Call_stack");
	int depth = -1;
	const struct tn_state_value *top;

	top = tn_state_peek_stack(state, stack, &depth);
	tap_ok(top->type == TN_STATE_NULL && depth == 0,
		"an empty stack: null on top, depth 0");
	v = tn_state_value_string("main");
	tap_int_eq(tn_state_push(state, stack, &v, &(struct tn_state_stamp)
		{ .ns = 1 }, &err), 0, "push main");
	v = tn_state_value_string("f");
	tn_state_push(state, stack, &v, &(struct tn_state_stamp) { .ns = 2 },
		&err);
	v = tn_state_value_string("g");
	tn_state_push(state, stack, &v, &(struct tn_state_stamp) { .ns = 3 },
		&err);
	top = tn_state_peek_stack(state, stack, &depth);
	tap_ok(depth == 3 && strcmp(top->u.s, "g") == 0, "peek: g at depth 3");
	is_text(tn_state_get_value(state, stack), "3",
		"the attribute holds the depth");
	tap_int_eq(tn_state_get_type(state, stack), TN_STATE_INT,
		"as an int");
	is_text(tn_state_get_value(state, tn_state_quark_lookup(state, stack,
		"1")), "\"main\"", "child 1 holds the bottom");
	is_text(tn_state_get_value(state, tn_state_quark_lookup(state, stack,
		"3")), "\"g\"", "child 3 the top");
	tap_int_eq(tn_state_get_start(state, tn_state_quark_lookup(state,
		stack, "3"))->ns, 3, "pushed at 3");
	tap_int_eq(tn_state_pop(state, stack, &popped,
		&(struct tn_state_stamp) { .ns = 4 }, &err), 0, "pop");
	tap_ok(popped.type == TN_STATE_STRING
		&& strcmp(popped.u.s, "g") == 0, "popped g");
	is_text(tn_state_get_value(state, tn_state_quark_lookup(state, stack,
		"3")), "null", "its level is null again");
	tap_int_eq(tn_state_get_start(state, stack)->ns, 4,
		"the depth changed at 4");
	tn_state_pop(state, stack, NULL, &(struct tn_state_stamp) { .ns = 5 },
		&err);
	tn_state_pop(state, stack, &popped,
		&(struct tn_state_stamp) { .ns = 6 }, &err);
	tap_str_eq(popped.u.s, "main", "popped main last");
	is_text(tn_state_get_value(state, stack), "null",
		"an emptied stack is null");
	tap_int_eq(tn_state_pop(state, stack, &popped,
		&(struct tn_state_stamp) { .ns = 7 }, &err), 0,
		"pop of an empty stack is no error");
	tap_int_eq(popped.type, TN_STATE_NULL, "and gives null");
	tap_int_eq(tn_state_get_start(state, stack)->ns, 6,
		"and changes nothing");
	v = tn_state_value_string("again");
	tn_state_push(state, stack, &v, &(struct tn_state_stamp) { .ns = 8 },
		&err);
	tap_int_eq(tn_state_get_child_count(state, stack), 3,
		"pushing again reuses the levels");

	/* A level keeps its type like any attribute. */
	v = tn_state_value_int(5);
	tap_int_eq(tn_state_push(state, stack, &v, &(struct tn_state_stamp)
		{ .ns = 9 }, &err), -1, "an int on level 2, a string level, "
		"is refused");
	tap_str_eq(err.message, "attribute Threads/7/Call_stack/2 holds "
		"string values, not int", "its message");
	top = tn_state_peek_stack(state, stack, &depth);
	tap_ok(depth == 1 && strcmp(top->u.s, "again") == 0,
		"the refused push left the stack as it was");

	/* An attribute that holds a string is no stack. */
	{
		int name = tn_state_quark_add(state, TN_STATE_ROOT, "Name");

		v = tn_state_value_string("x");
		tn_state_modify(state, name, &v, &(struct tn_state_stamp)
			{ .ns = 10 }, &err);
		tap_int_eq(tn_state_push(state, name, &v,
			&(struct tn_state_stamp) { .ns = 10 }, &err), -1,
			"push on a string attribute is refused");
		tap_str_eq(err.message, "attribute Name holds string values: "
			"it is not a stack", "its message");
		tap_int_eq(tn_state_pop(state, name, NULL,
			&(struct tn_state_stamp) { .ns = 10 }, &err), -1,
			"so is pop");
	}
	tn_state_destroy(state);
}

static void test_remove_and_time(void)
{
	struct tn_state *state = tn_state_create();
	struct tn_error err = { "" };
	struct tn_state_stamp t1 = at(100), t2 = at(200), t3 = at(300);
	struct tn_state_value v = tn_state_value_int(1);
	int t1a = tn_state_quark_add(state, TN_STATE_ROOT, "Threads/1/a");
	int t1b = tn_state_quark_add(state, TN_STATE_ROOT, "Threads/1/b/c");
	int t1n = tn_state_quark_add(state, TN_STATE_ROOT, "Threads/1/n");
	int t2a = tn_state_quark_add(state, TN_STATE_ROOT, "Threads/2/a");
	int th1 = tn_state_quark_lookup(state, TN_STATE_ROOT, "Threads/1");
	int count;

	tn_state_modify(state, th1, &v, &t1, &err);
	tn_state_modify(state, t1a, &v, &t1, &err);
	tn_state_modify(state, t1b, &v, &t1, &err);
	tn_state_modify(state, t2a, &v, &t1, &err);
	count = tn_state_get_attribute_count(state);
	tap_int_eq(tn_state_remove(state, th1, &t2, &err), 0,
		"remove Threads/1");
	tap_ok(tn_state_get_value(state, th1)->type == TN_STATE_NULL
		&& tn_state_get_value(state, t1a)->type == TN_STATE_NULL
		&& tn_state_get_value(state, t1b)->type == TN_STATE_NULL,
		"it and everything under it is null");
	tap_ok(tn_state_get_start(state, th1)->ns == 200
		&& tn_state_get_start(state, t1a)->ns == 200
		&& tn_state_get_start(state, t1b)->ns == 200,
		"from the time of the remove");
	tap_ok(tn_state_get_start(state, t1n)->ns == INT64_MIN,
		"an attribute null already keeps its start");
	tap_ok(tn_state_get_value(state, t2a)->u.i == 1
		&& tn_state_get_start(state, t2a)->ns == 100,
		"Threads/2 is untouched");
	tap_int_eq(tn_state_get_attribute_count(state), count,
		"the attributes stay");
	tap_int_eq(tn_state_get_type(state, t1a), TN_STATE_INT,
		"and keep their types");

	/* An equal value keeps the interval. */
	tn_state_modify(state, t2a, &v, &t2, &err);
	tap_int_eq(tn_state_get_start(state, t2a)->ns, 100,
		"setting the same value keeps the start");
	{
		int s = tn_state_quark_add(state, TN_STATE_ROOT, "S");
		char buf[8] = "abc";
		struct tn_state_value sv = tn_state_value_string(buf);

		tn_state_modify(state, s, &sv, &t2, &err);
		snprintf(buf, sizeof(buf), "abc");
		tn_state_modify(state, s, &sv, &t3, &err);
		tap_int_eq(tn_state_get_start(state, s)->ns, 200,
			"an equal string (another copy) keeps the start");
	}
	v = tn_state_value_int(2);
	tn_state_modify(state, t2a, &v, &t3, &err);
	tap_int_eq(tn_state_get_start(state, t2a)->ns, 300,
		"another value starts a new interval");

	/* Time order. */
	tap_int_eq(tn_state_get_current_time(state), 300,
		"the current time is the last change's");
	tap_int_eq(tn_state_modify(state, t2a, &v, &t1, &err), -1,
		"a change before the current time is refused");
	tap_str_eq(err.message,
		"time 100 is before the state's current time 300",
		"its message");
	tap_int_eq(tn_state_increment(state, t2a, 1, &t1, &err), -1,
		"so is an increment");
	tap_int_eq(tn_state_remove(state, t2a, &t1, &err), -1,
		"and a remove");
	tap_int_eq(tn_state_push(state, t2a, &v, &t1, &err), -1,
		"and a push");
	tap_int_eq(tn_state_get_value(state, t2a)->u.i, 2,
		"nothing changed");
	v = tn_state_value_int(3);
	t3.pos.tie = 1;
	tap_int_eq(tn_state_modify(state, t2a, &v, &t3, &err), 0,
		"a change at the current time (another event at that time)");
	tap_int_eq(tn_state_get_start(state, t2a)->pos.tie, 1,
		"its position is kept");
	tn_state_destroy(state);
}

static void test_change_log(void)
{
	struct tn_state *state = tn_state_create();
	struct tn_state_changes changes = { 0 }, *log = &changes;
	GByteArray *blob = g_byte_array_new();
	struct tn_error err;
	struct tn_state_value one = tn_state_value_int(1);
	int a = tn_state_quark_add(state, TN_STATE_ROOT, "A");
	int b = tn_state_quark_add(state, TN_STATE_ROOT, "A/B");
	int s = tn_state_quark_add(state, TN_STATE_ROOT, "S");

	tn_state_modify(state, a, &one, &(struct tn_state_stamp) { .ns = 1 },
		&err);
	tn_state_set_change_log(state, log);
	tn_state_modify(state, a, &one, &(struct tn_state_stamp) { .ns = 2 },
		&err);
	tap_int_eq(log->len, 0, "change log: an equal value is no change");
	tn_state_modify(state, b, &one, &(struct tn_state_stamp) { .ns = 3 },
		&err);
	tn_state_push(state, s, &one, &(struct tn_state_stamp) { .ns = 3 },
		&err);
	tap_ok(log->len == 3 && log->quarks[0] == b
		&& log->quarks[2] == s,
		"a modify and a push (level and depth) are logged");
	log->len = 0;
	tn_state_remove(state, a, &(struct tn_state_stamp) { .ns = 4 }, &err);
	tap_int_eq(log->len, 2, "a remove logs what it nulls");
	tn_state_save(state, blob);
	log->len = 0;
	tn_state_restore(state, blob->data, blob->len, &err);
	tap_int_eq(log->len, 0, "a restore logs nothing");
	tn_state_modify(state, a, &one, &(struct tn_state_stamp) { .ns = 5 },
		&err);
	tap_int_eq(log->len, 1, "and keeps the log");
	tn_state_set_change_log(state, NULL);
	tn_state_modify(state, b, &one, &(struct tn_state_stamp) { .ns = 5 },
		&err);
	tap_int_eq(log->len, 1, "NULL stops it");
	g_byte_array_free(blob, TRUE);
	tn_state_changes_fini(log);
	tn_state_destroy(state);
}

/* A state with every kind of value, stacks and odd names. */
static struct tn_state *sample_state(void)
{
	struct tn_state *state = tn_state_create();
	struct tn_error err;
	struct tn_state_value v;
	struct tn_state_stamp t = at(1000);
	int q;

	v = tn_state_value_int(-3);
	tn_state_modify(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"CPUs/0/Current_thread"), &v, &t, &err);
	v = tn_state_value_long(INT64_MIN);
	tn_state_modify(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"CPUs/0/Long"), &v, &t, &err);
	t = at(1500);
	t.pos.tie = 7;
	v = tn_state_value_double(-0.0);
	tn_state_modify(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"D/neg0"), &v, &t, &err);
	v = tn_state_value_double(NAN);
	tn_state_modify(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"D/nan"), &v, &t, &err);
	t = (struct tn_state_stamp) { .ns = 1600 };
	v = tn_state_value_string("\"quoted\"\n\xc3\xa9");
	q = tn_state_quark_add(state, TN_STATE_ROOT, "Threads/42/Exec_name");
	tn_state_modify(state, q, &v, &t, &err);
	v = tn_state_value_string("bash");
	tn_state_modify(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"Threads/43/Exec_name"), &v, &t, &err);
	tn_state_modify(state, tn_state_quark_child(state,
		tn_state_quark_add(state, TN_STATE_ROOT, "Odd"), "a/b"), &v,
		&t, &err);
	tn_state_quark_child(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"Odd"), "");
	t = (struct tn_state_stamp) { .ns = 1700, .has_pos = true,
		.pos = { 1650, 3 } };
	q = tn_state_quark_add(state, TN_STATE_ROOT, "Threads/42/Call_stack");
	v = tn_state_value_long(0x400000);
	tn_state_push(state, q, &v, &t, &err);
	v = tn_state_value_long(0x400100);
	tn_state_push(state, q, &v, &t, &err);
	tn_state_quark_add(state, TN_STATE_ROOT, "Never/set");
	v = tn_state_value_int(1);
	tn_state_modify(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"Then/null"), &v, &t, &err);
	v = tn_state_value_null();
	tn_state_modify(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"Then/null"), &v, &(struct tn_state_stamp) { .ns = 2000 }, &err);
	return state;
}

/* FNV-1a (64 bits), as the snapshot's checksum, to reseal a blob that
 * a test changed on purpose. */
static void reseal(uint8_t *data, size_t size)
{
	tn_bytes_set_le(data + size - 8, tn_bytes_fnv1a64(data, size - 8), 8);
}

static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static void test_save(void)
{
	struct tn_state *a = sample_state(), *b = tn_state_create();
	struct tn_error err = { "" };
	GByteArray *blob = g_byte_array_new(), *again = g_byte_array_new();
	char why[512] = "";
	bool all_failed = true, all_empty = true, all_messages = true;
	int count = tn_state_get_attribute_count(a);
	int resealed_ok = 0, resealed_failed = 0;
	bool resealed_sane = true;

	g_byte_array_append(blob, (const guint8 *) "prefix", 6);
	tn_state_save(a, blob);
	g_byte_array_remove_range(blob, 0, 6);
	tap_ok(tn_state_restore(b, blob->data, blob->len, &err) == 0,
		"restore of a saved state (%u bytes, saved after a prefix): %s",
		blob->len, err.message);
	tap_ok(states_equal(a, b, why, sizeof(why)),
		"equals the original: paths, quarks, types, values, starts "
		"%s", why);
	tap_int_eq(tn_state_quark_lookup(b, TN_STATE_ROOT,
		"Threads/42/Exec_name"), tn_state_quark_lookup(a,
		TN_STATE_ROOT, "Threads/42/Exec_name"), "keeps the quarks");
	{
		const struct tn_state_value *neg0 = tn_state_get_value(b,
			tn_state_quark_lookup(b, TN_STATE_ROOT, "D/neg0"));

		tap_ok(neg0->type == TN_STATE_DOUBLE && signbit(neg0->u.d),
			"-0.0 keeps its sign");
	}
	tn_state_save(b, again);
	tap_ok(again->len == blob->len
		&& memcmp(again->data, blob->data, blob->len) == 0,
		"saving the restored state gives the same bytes");

	/* Restore replaces what a state held. */
	tap_ok(tn_state_restore(a, blob->data, blob->len, &err) == 0
		&& tn_state_get_attribute_count(a) == count,
		"restore into a state that holds the same");
	{
		struct tn_state *empty = tn_state_create();
		GByteArray *e = g_byte_array_new();

		tn_state_save(empty, e);
		tap_ok(tn_state_restore(a, e->data, e->len, &err) == 0
			&& tn_state_get_attribute_count(a) == 0
			&& tn_state_get_current_time(a) == INT64_MIN,
			"an empty state round trip (%u bytes)", e->len);
		tn_state_destroy(empty);
		g_byte_array_free(e, TRUE);
	}

	/* Every truncation fails cleanly and leaves the state empty. */
	for (guint len = 0; len < blob->len; len++) {
		tn_state_restore(a, blob->data, blob->len, &err);
		err.message[0] = '\0';
		all_failed &= tn_state_restore(a, blob->data, len, &err) == -1;
		all_empty &= tn_state_get_attribute_count(a) == 0;
		all_messages &= g_str_has_prefix(err.message,
			"state snapshot damaged: ");
	}
	tap_ok(all_failed, "every truncation (%u of them) is refused",
		blob->len);
	tap_ok(all_empty, "and leaves the state empty");
	tap_ok(all_messages, "with a message");

	/* Flipped bits: the checksum catches each. */
	rng_state = 12345;
	all_failed = true;
	for (guint i = 0; i < blob->len; i++) {
		uint8_t *copy = g_memdup2(blob->data, blob->len);

		copy[i] ^= (uint8_t) (1u << (rng() % 8));
		all_failed &= tn_state_restore(b, copy, blob->len, &err) == -1
			&& tn_state_get_attribute_count(b) == 0;
		g_free(copy);
	}
	tap_ok(all_failed, "a flipped bit in any of the %u bytes is refused",
		blob->len);
	tap_ok(strstr(err.message, "checksum") != NULL,
		"as a checksum mismatch: %s", err.message);

	/* Flipped bytes with the checksum made right again: the parser's
	 * own checks, which must never read out of bounds; what passes
	 * them is a state that saves and restores again. */
	for (int round = 0; round < 20000; round++) {
		uint8_t *copy = g_memdup2(blob->data, blob->len);
		int flips = 1 + (int) (rng() % 3);

		for (int f = 0; f < flips; f++) {
			size_t i = rng() % (blob->len - 8);

			copy[i] = (rng() % 2) ? (uint8_t) rng()
				: copy[i] ^ (uint8_t) (1u << (rng() % 8));
		}
		reseal(copy, blob->len);
		if (tn_state_restore(b, copy, blob->len, &err) == 0) {
			GByteArray *re = g_byte_array_new();

			resealed_ok++;
			tn_state_save(b, re);
			resealed_sane &= tn_state_restore(a, re->data, re->len,
				&err) == 0 && states_equal(a, b, why,
				sizeof(why));
			g_byte_array_free(re, TRUE);
		} else {
			resealed_failed++;
			resealed_sane &= tn_state_get_attribute_count(b) == 0
				&& g_str_has_prefix(err.message,
				"state snapshot damaged: ");
		}
		g_free(copy);
	}
	tap_ok(resealed_sane, "20000 damaged blobs with a right checksum: "
		"%d refused, %d read as a state that round-trips %s",
		resealed_failed, resealed_ok, why);
	{
		uint8_t *copy = g_memdup2(blob->data, blob->len);

		copy[4] = 9;
		reseal(copy, blob->len);
		tn_state_restore(b, copy, blob->len, &err);
		tap_str_eq(err.message,
			"state snapshot damaged: version 9, not 1",
			"another version is refused");
		memcpy(copy, "XXXX", 4);
		tn_state_restore(b, copy, blob->len, &err);
		tap_str_eq(err.message, "state snapshot damaged: "
			"it is not a state snapshot", "another magic");
		g_free(copy);
	}
	g_byte_array_free(blob, TRUE);
	g_byte_array_free(again, TRUE);
	tn_state_destroy(a);
	tn_state_destroy(b);
}

/* --- The replay property --- */

enum op_kind { OP_MODIFY, OP_INCREMENT, OP_PUSH, OP_POP, OP_REMOVE };

struct op {
	enum op_kind kind;
	const char *path;
	struct tn_state_value value;
	int64_t delta;
	struct tn_state_stamp at;
};

static const char *const op_paths[] = {
	"CPUs/0/Current_thread", "CPUs/1/Current_thread", "CPUs/0/Status",
	"Threads/1/Status", "Threads/1/Exec_name", "Threads/2/Exec_name",
	"Threads/2/Call_stack", "Threads/1/Call_stack", "Counters/a",
	"Counters/b", "D", "Threads/1", "Threads", "Odd/x y",
};
static const char *const op_strings[] = {
	"bash", "sshd", "", "kworker/0:1", "a\"b", "bash",
};

static struct op random_op(int64_t *now)
{
	struct op op = { 0 };
	uint64_t r = rng();

	op.kind = (enum op_kind) (r % 10 < 5 ? OP_MODIFY : r % 10 - 5 == 4
		? (rng() % 8 ? OP_POP : OP_REMOVE) : r % 10 - 5);
	size_t path = rng() % G_N_ELEMENTS(op_paths);

	op.path = op_paths[path];
	/* Mostly the type the path keeps, sometimes another (refused). */
	switch (rng() % 8 ? path % 6 : rng() % 6) {
	case 0: op.value = tn_state_value_null(); break;
	case 1: op.value = tn_state_value_int((int32_t) (rng() % 5)); break;
	case 2: op.value = tn_state_value_long((int64_t) (rng() % 5)); break;
	case 3: op.value = tn_state_value_double((double) (rng() % 3) / 2);
		break;
	default:
		op.value = tn_state_value_string(
			op_strings[rng() % G_N_ELEMENTS(op_strings)]);
	}
	op.delta = rng() % 16 == 0 ? INT64_C(1) << 33
		: (int64_t) (rng() % 7) - 3;
	/* Mostly forward, sometimes at the same time, rarely back. */
	switch (rng() % 64) {
	case 0: *now -= 5; break;
	case 1: case 2: case 3: break;
	default: *now += 1 + (int64_t) (rng() % 100);
	}
	op.at = (struct tn_state_stamp) { .ns = *now, .has_pos = rng() % 4,
		.pos = { *now, rng() % 3 } };
	return op;
}

static int apply(struct tn_state *state, const struct op *op)
{
	struct tn_error err;
	int q = tn_state_quark_add(state, TN_STATE_ROOT, op->path);

	switch (op->kind) {
	case OP_MODIFY:
		return tn_state_modify(state, q, &op->value, &op->at, &err);
	case OP_INCREMENT:
		return tn_state_increment(state, q, op->delta, &op->at, &err);
	case OP_PUSH:
		return tn_state_push(state, q, &op->value, &op->at, &err);
	case OP_POP:
		return tn_state_pop(state, q, NULL, &op->at, &err);
	case OP_REMOVE:
		return tn_state_remove(state, q, &op->at, &err);
	}
	return -1;
}

static void test_replay(void)
{
	bool all_equal = true, same_results = true;
	char why[512] = "";
	int failed_changes = 0, total = 0;

	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct tn_state *a = tn_state_create(), *b = tn_state_create();
		GByteArray *blob = g_byte_array_new();
		struct tn_error err;
		int64_t now = 0;
		int n = 200 + (int) (seed * 37 % 800);
		int cut;

		rng_state = seed * 0x9e3779b97f4a7c15ull;
		cut = (int) (rng() % (uint64_t) n);
		for (int i = 0; i < n; i++) {
			struct op op = random_op(&now);
			int ra = apply(a, &op);

			total++;
			if (i == cut) {
				tn_state_save(a, blob);
				if (tn_state_restore(b, blob->data, blob->len,
						&err) < 0) {
					same_results = false;
					snprintf(why, sizeof(why), "seed %"
						PRIu64 ": %.400s", seed,
						err.message);
				}
			} else if (i > cut) {
				int rb = apply(b, &op);

				same_results &= ra == rb;
			}
			failed_changes += ra < 0;
		}
		if (!states_equal(a, b, why, sizeof(why))) {
			all_equal = false;
			printf("# seed %" PRIu64 ": %s\n", seed, why);
		}
		g_byte_array_free(blob, TRUE);
		tn_state_destroy(a);
		tn_state_destroy(b);
	}
	tap_ok(same_results, "replay: the restored state accepts and refuses "
		"the same changes %s", why);
	tap_ok(all_equal, "replay: 40 random sequences (%d changes, %d "
		"refused), saved and restored at a random point and replayed "
		"on, end equal", total, failed_changes);
}

/* The paths of a result, one a line. */
static char *result_paths(const struct tn_state_result *result)
{
	GString *text = g_string_new(NULL);

	for (size_t i = 0; i < result->count; i++)
		g_string_append_printf(text, "%s%s", i ? " " : "",
			result->entries[i].path);
	return g_string_free(text, FALSE);
}

static void test_live(void)
{
	struct tn_state *state = tn_state_create();
	struct tn_state_value v;
	struct tn_position pos = { 0, 0 };
	struct tn_state_result_source source = { .pos = &pos };
	struct tn_state_result *result;
	struct tn_state_stamp t = at(10);
	struct tn_error err;
	bool all_right = true;
	char why[256] = "";
	char *paths;
	int ops = 0;

	v = tn_state_value_int(5);
	tn_state_modify(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"CPUs/0/Current_thread"), &v, &t, &err);
	tn_state_quark_add(state, TN_STATE_ROOT, "CPUs/1/Current_thread");
	v = tn_state_value_string("run");
	tn_state_modify(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"Threads/1/Status"), &v, &t, &err);
	tn_state_modify(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"Threads/2/Status"), &v, &t, &err);
	v = tn_state_value_string("bash");
	tn_state_modify(state, tn_state_quark_add(state, TN_STATE_ROOT,
		"Threads/1/Exec_name"), &v, &t, &err);
	t = at(20);
	tn_state_remove(state, tn_state_quark_lookup(state, TN_STATE_ROOT,
		"Threads/1"), &t, &err);
	result = tn_state_result_build(state, &source);
	paths = result_paths(result);
	tap_str_eq(paths, "CPUs CPUs/0 CPUs/0/Current_thread Threads "
		"Threads/2 Threads/2/Status", "a result holds what lives: not "
		"a removed thread, not a CPU that holds nothing");
	tap_ok(!tn_state_is_live(state, tn_state_quark_lookup(state,
		TN_STATE_ROOT, "Threads/1")) && tn_state_is_live(state,
		tn_state_quark_lookup(state, TN_STATE_ROOT, "Threads")),
		"a removed thread does not live, its parent does");
	g_free(paths);
	tn_state_result_destroy(result);
	tn_state_destroy(state);

	/* Random changes, then a save and restore, an in-place restore
	 * from changes (delta) and a rollback: what lives is right all
	 * along. */
	for (uint64_t seed = 1; seed <= 30 && all_right; seed++) {
		struct tn_state *a = tn_state_create(), *b = tn_state_create();
		struct tn_state *c = tn_state_create();
		GByteArray *blob = g_byte_array_new();
		GByteArray *full = g_byte_array_new();
		GByteArray *delta = g_byte_array_new();
		GArray *undo = g_array_new(FALSE, FALSE,
			sizeof(struct tn_state_undo));
		struct tn_state_changes changes = { 0 };
		GArray *changed = g_array_new(FALSE, FALSE, sizeof(int));
		int64_t now = 0, cut_time = 0;
		int n = 100 + (int) (seed * 53 % 400), cut_count = 0;
		int cut;

		rng_state = seed * 0x2545f4914f6cdd1dull;
		cut = (int) (rng() % (uint64_t) n);
		for (int i = 0; i < n && all_right; i++) {
			struct op op = random_op(&now);

			if (i == cut) {
				tn_state_save(a, blob);
				tn_state_delta_save(a, 0, NULL, full);
				cut_count = tn_state_get_attribute_count(a);
				cut_time = tn_state_get_current_time(a);
				tn_state_set_undo_log(a, undo);
				tn_state_set_change_log(a, &changes);
			}
			apply(a, &op);
			ops++;
			if (i % 7 == 0 && !live_right(a, why, sizeof(why)))
				all_right = false;
		}
		if (all_right && !live_right(a, why, sizeof(why)))
			all_right = false;
		g_array_append_vals(changed, changes.quarks, changes.len);
		tn_state_delta_save(a, cut_count, changed, delta);
		/* A new state from the changes: the cut's, then since. */
		if (all_right && (tn_state_delta_apply(c, full->data,
				full->len, true, &err) || tn_state_delta_apply(c,
				delta->data, delta->len, true, &err) ||
				!live_right(c, why, sizeof(why)))) {
			all_right = false;
			g_strlcat(why, " (a state made of changes)",
				sizeof(why));
		}
		/* Taken back to the cut: by undoing, and in place from
		 * its changes. */
		tn_state_set_undo_log(a, NULL);
		tn_state_set_change_log(a, NULL);
		tn_state_rollback(a, undo, cut_count, cut_time);
		tn_state_restore(b, blob->data, blob->len, &err);
		if (all_right && (!live_right(a, why, sizeof(why)) ||
				!live_right(b, why, sizeof(why)) ||
				!states_equal(a, b, why, sizeof(why)))) {
			all_right = false;
			g_strlcat(why, " (rolled back, restored)",
				sizeof(why));
		}
		tn_state_reset_values(c);
		if (all_right && (tn_state_delta_apply(c, full->data,
				full->len, false, &err) || (tn_state_truncate(c,
				cut_count), !live_right(c, why, sizeof(why))) ||
				!states_equal(b, c, why, sizeof(why)))) {
			all_right = false;
			g_strlcat(why, " (restored in place)", sizeof(why));
		}
		if (!all_right)
			printf("# seed %" PRIu64 ": %s\n", seed, why);
		g_array_free(undo, TRUE);
		g_array_free(changed, TRUE);
		tn_state_changes_fini(&changes);
		g_byte_array_free(blob, TRUE);
		g_byte_array_free(full, TRUE);
		g_byte_array_free(delta, TRUE);
		tn_state_destroy(a);
		tn_state_destroy(b);
		tn_state_destroy(c);
	}
	tap_ok(all_right, "what lives, its lists and a result are right "
		"through %d random changes, restores (whole, from changes, in "
		"place) and rollbacks %s", ops, why);
}

/* Attributes dropped from the end stay hidden: no lookup finds them,
 * no child count counts them; the same one added again shows again
 * (same quark, as new), another one drops them for good. */
static void test_hidden(void)
{
	struct tn_state *state = tn_state_create();
	struct tn_state_stamp t = at(10);
	struct tn_state_value v = tn_state_value_int(7);
	struct tn_error err;
	int y, z, c;

	tn_state_quark_add(state, TN_STATE_ROOT, "A/x");
	y = tn_state_quark_add(state, TN_STATE_ROOT, "A/y");
	z = tn_state_quark_add(state, TN_STATE_ROOT, "B/z");
	tn_state_modify(state, y, &v, &t, &err);
	tn_state_modify(state, z, &v, &t, &err);
	tn_state_truncate(state, 2);
	tap_ok(tn_state_get_attribute_count(state) == 2 &&
		tn_state_quark_lookup(state, TN_STATE_ROOT, "A/y") < 0 &&
		tn_state_quark_lookup(state, TN_STATE_ROOT, "B") < 0 &&
		tn_state_get_child_count(state, 0) == 1 &&
		tn_state_get_child_count(state, TN_STATE_ROOT) == 1,
		"dropped attributes: no lookup finds them, no count has them");
	tap_ok(tn_state_quark_add(state, TN_STATE_ROOT, "A/y") == y &&
		tn_state_get_value(state, y)->type == TN_STATE_NULL &&
		tn_state_get_type(state, y) == TN_STATE_NULL &&
		tn_state_get_start(state, y)->ns == INT64_MIN &&
		tn_state_get_child_count(state, 0) == 2 &&
		!tn_state_is_live(state, 0),
		"the same attribute added again: its quark, as new");
	c = tn_state_quark_add(state, TN_STATE_ROOT, "C");
	tap_ok(c == 3 && tn_state_quark_lookup(state, TN_STATE_ROOT, "B") < 0 &&
		strcmp(tn_state_get_name(state, c), "C") == 0 &&
		tn_state_get_child_count(state, TN_STATE_ROOT) == 2 &&
		tn_state_quark_add(state, TN_STATE_ROOT, "B/z") == 5,
		"another one: the hidden ones go for good");
	tn_state_destroy(state);
}

/* Whether every attribute of state is found by its parent and name. */
static bool all_found(const struct tn_state *state)
{
	for (int q = 0; q < tn_state_get_attribute_count(state); q++)
		if (tn_state_quark_child_lookup(state,
				tn_state_get_parent(state, q),
				tn_state_get_name(state, q)) != q)
			return false;
	return true;
}

/* A restore indexes every attribute it adds, whether many (put into
 * the child index at once, in the order of their slots) or a few (one
 * by one), and on a state whose hidden attributes show again. */
static void test_restore_index(void)
{
	struct tn_state *a = tn_state_create(), *b = tn_state_create();
	GByteArray *many = g_byte_array_new(), *few = g_byte_array_new();
	int threads = tn_state_quark_add(a, TN_STATE_ROOT, "Threads");
	struct tn_error err;
	int count;

	for (int i = 0; i < 20; i++) {
		char path[32];

		snprintf(path, sizeof(path), "%d/Status", 4000 + i);
		tn_state_quark_add(a, threads, path);
	}
	tn_state_save(a, few);
	for (int i = 20; i < 5000; i++) {
		char path[32];

		snprintf(path, sizeof(path), "%d/Status", 4000 + i);
		tn_state_quark_add(a, threads, path);
		snprintf(path, sizeof(path), "%d/Exec_name", 4000 + i);
		tn_state_quark_add(a, threads, path);
	}
	tn_state_save(a, many);
	count = tn_state_get_attribute_count(a);
	tap_ok(tn_state_restore(b, many->data, many->len, &err) == 0 &&
		tn_state_get_attribute_count(b) == count && all_found(b),
		"a restore of %d attributes: each found by its parent and "
		"name", count);
	tap_ok(tn_state_quark_child_lookup(b, threads, "9999") < 0 &&
		tn_state_quark_child(b, threads, "9999") == count &&
		tn_state_quark_child_lookup(b, threads, "9999") == count,
		"after it, a new attribute is indexed at once");
	tap_ok(tn_state_restore(b, few->data, few->len, &err) == 0 &&
		tn_state_get_attribute_count(b) == 41 && all_found(b),
		"a restore of 41: each found");
	/* Hidden ones shown again, then new ones after them. */
	tn_state_truncate(b, 21);
	tap_ok(tn_state_delta_apply(b, many->data, many->len, true, &err)
		== 0 && tn_state_get_attribute_count(b) == count &&
		all_found(b) &&
		tn_state_quark_child_lookup(b, threads, "4030") >= 0,
		"restored over hidden attributes: each found");
	g_byte_array_free(many, TRUE);
	g_byte_array_free(few, TRUE);
	tn_state_destroy(a);
	tn_state_destroy(b);
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Not asserted: how fast changes go, for the record. */
static void test_speed(void)
{
	struct tn_state *state = tn_state_create();
	struct tn_error err;
	const int threads = 2000, changes = 4000000;
	int *status = g_new(int, threads), *name = g_new(int, threads);
	int root = tn_state_quark_add(state, TN_STATE_ROOT, "Threads");
	static const char *const names[] = { "bash", "sshd", "make", "cc1" };
	double start, took;
	bool ok = true;
	GByteArray *blob = g_byte_array_new();

	for (int i = 0; i < threads; i++) {
		char tid[16];
		int thread;

		snprintf(tid, sizeof(tid), "%d", 1000 + i);
		thread = tn_state_quark_child(state, root, tid);
		status[i] = tn_state_quark_child(state, thread, "Status");
		name[i] = tn_state_quark_child(state, thread, "Exec_name");
	}
	start = seconds();
	for (int i = 0; i < changes; i++) {
		struct tn_state_stamp t = { .ns = i, .has_pos = true,
			.pos = { i, 0 } };
		int th = (int) ((unsigned) i * 2654435761u % (unsigned) threads);
		struct tn_state_value v;

		if (i % 4 == 3) {
			v = tn_state_value_string(names[(i >> 3) % 4]);
			ok &= tn_state_modify(state, name[th], &v, &t, &err)
				== 0;
		} else {
			v = tn_state_value_int(i % 5);
			ok &= tn_state_modify(state, status[th], &v, &t, &err)
				== 0;
		}
	}
	took = seconds() - start;
	tap_ok(ok, "speed run: %d changes applied", changes);
	printf("# %.1f M changes/s (modify: 3 ints, 1 string in 4, over %d "
		"threads)\n", changes / took / 1e6, threads);
	start = seconds();
	for (int i = 0; i < changes / 4; i++) {
		char tid[16];

		snprintf(tid, sizeof(tid), "%d", 1000 + i % threads);
		ok &= tn_state_quark_child(state, root, tid) >= 0;
	}
	took = seconds() - start;
	printf("# %.1f M child lookups/s (by name, with its snprintf)\n",
		changes / 4 / took / 1e6);
	start = seconds();
	for (int i = 0; i < 100; i++) {
		g_byte_array_set_size(blob, 0);
		tn_state_save(state, blob);
	}
	took = seconds() - start;
	printf("# save of %d attributes: %u bytes, %.2f ms\n",
		tn_state_get_attribute_count(state), blob->len,
		took / 100 * 1e3);
	start = seconds();
	for (int i = 0; i < 100; i++)
		ok &= tn_state_restore(state, blob->data, blob->len, &err)
			== 0;
	took = seconds() - start;
	printf("# restore: %.2f ms\n", took / 100 * 1e3);
	tap_ok(ok, "speed run: lookups, saves and restores succeeded");
	g_byte_array_free(blob, TRUE);
	g_free(status);
	g_free(name);
	tn_state_destroy(state);
}

int main(void)
{
	test_paths();
	test_values();
	test_increment();
	test_stack();
	test_remove_and_time();
	test_change_log();
	test_save();
	test_replay();
	test_live();
	test_hidden();
	test_restore_index();
	test_speed();
	return tap_done();
}
