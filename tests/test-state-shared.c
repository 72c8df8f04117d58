/* test-state-shared.c - the state providers on the real traces of the
 * shared corpus, against answers computed independently from the text
 * of tracenav --dump:
 *
 *   - every kernel trace with sched_switch events: at events picked at
 *     random, the current thread of each CPU is the next_tid of the last
 *     sched_switch on that CPU before it (none yet: no current thread);
 *   - every trace with lttng_ust_cyg_profile events: at events picked at
 *     random, the call stack of each thread (vtid) is what its
 *     func_entry and func_exit lines so far push and pop (depth and top).
 *
 * The replay reads the events with tn_walk_next() and feeds the
 * providers; the dump's lines come in the same order, one an event.
 * Skipped when the corpus is not beside the repository.
 */
#define _GNU_SOURCE	/* memmem */
#include <inttypes.h>
#include <string.h>

#include "tap.h"
#include "tracenav/seek.h"
#include "tracenav/state-provider.h"
#include "tracenav/state.h"
#include "tracenav/trace.h"

/* One in PICK events is checked, and the last. */
#define PICK 37

static char *shared_dir(void)
{
	const char *env = getenv("TRACENAV_SHARED_TRACES");
	const char *top = getenv("top_srcdir");

	if (env && *env)
		return g_strdup(env);
	return g_strdup_printf("%s/../shared/traces", top ? top : ".");
}

/* The trace directories under dir whose metadata mentions word, sorted;
 * the corpus's traces meant to fail are left out. */
static void find_traces(const char *dir, const char *word, GPtrArray *out)
{
	char *metadata = g_build_filename(dir, "metadata", NULL);
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;
	char *text;
	gsize len;

	if (g_file_get_contents(metadata, &text, &len, NULL)) {
		if (memmem(text, len, word, strlen(word)))
			g_ptr_array_add(out, g_strdup(dir));
		g_free(text);
	}
	g_free(metadata);
	while (d && (name = g_dir_read_name(d))) {
		char *sub = g_build_filename(dir, name, NULL);

		if (strcmp(name, "fail") &&
				g_file_test(sub, G_FILE_TEST_IS_DIR))
			find_traces(sub, word, out);
		g_free(sub);
	}
	if (d)
		g_dir_close(d);
}

static gint compare_paths(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The integer after key ("next_tid = ") in line; false if none. */
static bool text_int(const char *line, const char *key, int64_t *out)
{
	const char *at = strstr(line, key);

	if (!at)
		return false;
	*out = g_ascii_strtoll(at + strlen(key), NULL, 0);
	return true;
}

/* What one trace's check is told of every event. */
struct checker {
	const char *what;
	/* Read one dump line of the event named name; false if the line
	 * is not that event's. */
	bool (*line)(void *data, const char *line, const char *name);
	/* Compare the state with what the lines said so far. */
	void (*check)(void *data, const struct tn_state *state);
	void *data;
	uint64_t compared, wrong;
};

static void wrong(struct checker *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void wrong(struct checker *c, const char *fmt, ...)
{
	va_list args;

	if (c->wrong++ >= 5)
		return;
	printf("#   ");
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	printf("\n");
}

/* Replay path and read its dump side by side; check at events picked at
 * random, and at the last.  Prints one TAP line naming the trace by
 * name (its path under the corpus). */
static void run(const char *path, const char *name, struct checker *c)
{
	const char *builddir = getenv("top_builddir");
	char *cmd = g_strdup_printf("'%s/tracenav' --dump '%s' 2>/dev/null",
		builddir ? builddir : ".", path);
	FILE *dump = popen(cmd, "r");
	struct tn_state_providers *providers = NULL;
	struct tn_state *state = tn_state_create();
	GRand *rand = g_rand_new_with_seed(11);
	uint64_t events = 0, picked = 0;
	struct tn_trace *trace = NULL;
	struct tn_walk *walk = NULL;
	char *line = NULL, *stop = NULL;
	size_t line_size = 0;
	struct tn_error err;
	struct tn_row row;
	int rc = 0;

	if (tn_trace_open(path, &trace, &err) < 0 ||
			tn_walk_open(trace, INT64_MIN, &walk, &err) < 0) {
		stop = g_strdup(err.message);
		goto out;
	}
	providers = tn_state_providers_create(trace);
	while ((rc = tn_walk_next(walk, NULL, &row, &err)) == 1) {
		const char *event = tn_event_get_name(&row.ev);

		if (row.ev.kind != TN_EVENT_KIND_EVENT) {
			tn_row_release(&row);
			continue;
		}
		if (getline(&line, &line_size, dump) < 0 ||
				!c->line(c->data, line, event)) {
			stop = g_strdup_printf("the dump does not follow the "
				"events at event %" PRIu64, events);
			tn_row_release(&row);
			break;
		}
		if (tn_state_providers_handle(providers, state, &row.ev,
				&row.pos, &err) < 0) {
			stop = g_strdup_printf("provider failed: %s",
				err.message);
			tn_row_release(&row);
			break;
		}
		events++;
		tn_row_release(&row);
		if (g_rand_int_range(rand, 0, PICK) == 0) {
			picked++;
			c->check(c->data, state);
		}
	}
	if (rc < 0)
		stop = g_strdup_printf("read stopped after %" PRIu64
			" events: %s", events, err.message);
	else if (!stop) {
		picked++;
		c->check(c->data, state);
	}
out:
	if (stop && (!providers || (rc < 0 && events == 0))) {
		/* a trace tracenav cannot read (test-dump-shared's business) */
		printf("ok %d # SKIP %s: %s\n", ++tap_count, name, stop);
	} else {
		/* a read that stops (the dump stops there too) is checked up
		 * to there */
		tap_ok((!stop || rc < 0) && c->wrong == 0 && c->compared > 0,
			"%s: %s: %" PRIu64 " events, %" PRIu64 " checked, %"
			PRIu64 " comparisons, %" PRIu64 " wrong%s%s", name,
			c->what, events, picked, c->compared, c->wrong,
			stop ? "; " : "", stop ? stop : "");
	}
	if (dump)
		pclose(dump);
	free(line);
	g_free(stop);
	g_free(cmd);
	g_rand_free(rand);
	tn_state_providers_destroy(providers);
	tn_state_destroy(state);
	tn_walk_destroy(walk);
	tn_trace_destroy(trace);
}

/* ---- kernel: the current thread of each CPU ---- */

struct cpus {
	GHashTable *current;	/* cpu -> next_tid of its last switch */
	struct checker *c;
};

static bool cpus_line(void *data, const char *line, const char *name)
{
	struct cpus *k = data;
	char *needle = g_strdup_printf(" %s: ", name);
	bool same = strstr(line, needle) != NULL;
	int64_t cpu, tid;

	g_free(needle);
	if (same && !strcmp(name, "sched_switch") &&
			text_int(line, "{ cpu_id = ", &cpu) &&
			text_int(line, " next_tid = ", &tid))
		g_hash_table_insert(k->current, GINT_TO_POINTER((int) cpu),
			GINT_TO_POINTER((int) tid));
	return same;
}

static void cpus_check(void *data, const struct tn_state *state)
{
	struct cpus *k = data;
	int cpus = tn_state_quark_lookup(state, TN_STATE_ROOT, "CPUs");
	GHashTableIter iter;
	gpointer key, value;

	/* every CPU that had a switch runs its last next_tid */
	g_hash_table_iter_init(&iter, k->current);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		char path[64];
		int q;
		const struct tn_state_value *v;

		snprintf(path, sizeof(path), "CPUs/%d/Current_thread",
			GPOINTER_TO_INT(key));
		q = tn_state_quark_lookup(state, TN_STATE_ROOT, path);
		v = q < 0 ? NULL : tn_state_get_value(state, q);
		k->c->compared++;
		if (!v || v->type != TN_STATE_INT ||
				v->u.i != GPOINTER_TO_INT(value))
			wrong(k->c, "%s is %d, the last switch went to %d",
				path, v && v->type == TN_STATE_INT ? v->u.i :
				-1, GPOINTER_TO_INT(value));
	}
	/* and the others have no current thread */
	for (size_t i = 0; cpus >= 0 &&
			i < tn_state_get_child_count(state, cpus); i++) {
		int cpu = tn_state_get_child(state, cpus, i);
		const char *name = tn_state_get_name(state, cpu);
		int q = tn_state_quark_child_lookup(state, cpu,
			"Current_thread");

		if (g_hash_table_contains(k->current, GINT_TO_POINTER(
				(int) g_ascii_strtoll(name, NULL, 10))))
			continue;
		k->c->compared++;
		if (q >= 0 && tn_state_get_value(state, q)->type !=
				TN_STATE_NULL)
			wrong(k->c, "CPUs/%s has a current thread before any "
				"sched_switch on it", name);
	}
}

static void check_kernel(const char *path, const char *name)
{
	struct checker c = { .what = "current thread of each CPU" };
	struct cpus k = {
		g_hash_table_new(g_direct_hash, g_direct_equal), &c,
	};

	c.line = cpus_line;
	c.check = cpus_check;
	c.data = &k;
	run(path, name, &c);
	g_hash_table_destroy(k.current);
}

/* ---- userspace: call stacks ---- */

struct stacks {
	GHashTable *by_vtid;	/* vtid -> GPtrArray of "0x..." */
	struct checker *c;
};

static bool stacks_line(void *data, const char *line, const char *name)
{
	struct stacks *u = data;
	char *needle = g_strdup_printf(" %s: ", name);
	bool same = strstr(line, needle) != NULL;
	bool entry = strstr(line, ":func_entry: ") != NULL;
	bool exit = strstr(line, ":func_exit: ") != NULL;
	const char *addr = strstr(line, " addr = ");
	GPtrArray *stack;
	int64_t vtid;

	g_free(needle);
	if (!same || (!entry && !exit) ||
			!text_int(line, " vtid = ", &vtid))
		return same;
	stack = g_hash_table_lookup(u->by_vtid, GINT_TO_POINTER((int) vtid));
	if (!stack) {
		stack = g_ptr_array_new_with_free_func(g_free);
		g_hash_table_insert(u->by_vtid, GINT_TO_POINTER((int) vtid),
			stack);
	}
	if (entry && addr) {
		addr += strlen(" addr = ");
		g_ptr_array_add(stack, g_strndup(addr, strcspn(addr, ", }")));
	} else if (exit && stack->len > 0) {
		g_ptr_array_remove_index(stack, stack->len - 1);
	}
	return true;
}

/* Processes/<any>/Threads/<vtid>/Call_stack, or -1. */
static int find_call_stack(const struct tn_state *state, int vtid)
{
	int processes = tn_state_quark_lookup(state, TN_STATE_ROOT,
		"Processes");
	char path[64];

	snprintf(path, sizeof(path), "Threads/%d/Call_stack", vtid);
	for (size_t i = 0; processes >= 0 &&
			i < tn_state_get_child_count(state, processes); i++) {
		int q = tn_state_quark_lookup(state,
			tn_state_get_child(state, processes, i), path);

		if (q >= 0)
			return q;
	}
	return -1;
}

static void stacks_check(void *data, const struct tn_state *state)
{
	struct stacks *u = data;
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, u->by_vtid);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		GPtrArray *stack = value;
		int vtid = GPOINTER_TO_INT(key);
		int q = find_call_stack(state, vtid), depth = 0;
		const struct tn_state_value *top = NULL;
		const char *want = stack->len ?
			g_ptr_array_index(stack, stack->len - 1) : NULL;

		if (q >= 0)
			top = tn_state_peek_stack(state, q, &depth);
		u->c->compared++;
		if (depth != (int) stack->len || (want ? !top ||
				top->type != TN_STATE_STRING ||
				strcmp(top->u.s, want) : top &&
				top->type != TN_STATE_NULL))
			wrong(u->c, "thread %d: depth %d top %s, the dump "
				"says depth %u top %s", vtid, depth,
				top && top->type == TN_STATE_STRING ?
				top->u.s : "(none)", stack->len,
				want ? want : "(none)");
	}
}

static void check_ust(const char *path, const char *name)
{
	struct checker c = { .what = "call stack of each thread" };
	struct stacks u = {
		g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
			(GDestroyNotify) g_ptr_array_unref), &c,
	};

	c.line = stacks_line;
	c.check = stacks_check;
	c.data = &u;
	run(path, name, &c);
	g_hash_table_destroy(u.by_vtid);
}

int main(void)
{
	char *dir = shared_dir();
	GPtrArray *kernel = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *ust = g_ptr_array_new_with_free_func(g_free);

	if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
		printf("ok 1 # SKIP no shared trace corpus at %s\n", dir);
		tap_count = 1;
		g_free(dir);
		return tap_done();
	}
	find_traces(dir, "sched_switch", kernel);
	find_traces(dir, "lttng_ust_cyg_profile", ust);
	g_ptr_array_sort(kernel, compare_paths);
	g_ptr_array_sort(ust, compare_paths);
	tap_ok(kernel->len >= 4 && ust->len >= 2, "the corpus has %u kernel "
		"traces with sched_switch and %u with cyg-profile call stacks",
		kernel->len, ust->len);
	for (guint i = 0; i < kernel->len; i++) {
		const char *path = g_ptr_array_index(kernel, i);

		check_kernel(path, path + strlen(dir) + 1);
	}
	for (guint i = 0; i < ust->len; i++) {
		const char *path = g_ptr_array_index(ust, i);

		check_ust(path, path + strlen(dir) + 1);
	}
	g_ptr_array_free(kernel, TRUE);
	g_ptr_array_free(ust, TRUE);
	g_free(dir);
	return tap_done();
}
