/* test-state-kernel.c - the kernel state provider against the known
 * answers of generated traces: gen-trace --state-plan writes the thread
 * on each CPU and what each thread and CPU does at a sample of events
 * (its simulated system's own state); a replay of the trace through the
 * providers must give the same at those times.  Also: a replay that
 * goes on from a snapshot, with fresh providers, ends in the same state
 * as the straight replay (providers keep no memory of their own), and
 * which providers apply to which trace. */
#include <inttypes.h>
#include <string.h>

#include "gen.h"
#include "tap.h"
#include "tracenav/seek.h"
#include "tracenav/state-provider.h"
#include "tracenav/state.h"
#include "tracenav/trace.h"

struct plan_line {
	bool is_cpu;
	int64_t id;		/* CPU or tid */
	bool current_known;
	int64_t current;
	char status[16];	/* "?" when unknown */
};

struct sample {
	int64_t ns;
	uint64_t events;	/* at or before ns */
	GArray *lines;		/* struct plan_line */
};

/* The samples of a --state-plan file, in order. */
static GArray *read_state_plan(const char *path)
{
	GArray *samples = g_array_new(FALSE, FALSE, sizeof(struct sample));
	char *text = NULL;
	gchar **lines;

	if (!g_file_get_contents(path, &text, NULL, NULL)) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(99);
	}
	lines = g_strsplit(text, "\n", -1);
	for (gchar **l = lines; *l && **l; l++) {
		struct plan_line line = { 0 };
		char current[32], status[16];
		int64_t ns, id;
		uint64_t events;
		struct sample *last;

		if (sscanf(*l, "at %" SCNd64 " events %" SCNu64, &ns,
				&events) == 2) {
			struct sample s = { ns, events, g_array_new(FALSE,
				FALSE, sizeof(struct plan_line)) };

			g_array_append_val(samples, s);
			continue;
		}
		if (sscanf(*l, "at %" SCNd64 " CPU %" SCNd64 " current %31s "
				"status %15s", &ns, &id, current, status) == 4) {
			line.is_cpu = true;
			line.current_known = strcmp(current, "?") != 0;
			line.current = g_ascii_strtoll(current, NULL, 10);
		} else if (sscanf(*l, "at %" SCNd64 " thread %" SCNd64
				" status %15s", &ns, &id, status) != 3) {
			fprintf(stderr, "bad state plan line: %s\n", *l);
			exit(99);
		}
		line.id = id;
		g_strlcpy(line.status, status, sizeof(line.status));
		last = samples->len ? &g_array_index(samples, struct sample,
			samples->len - 1) : NULL;
		if (!last || last->ns != ns) {
			fprintf(stderr, "state plan line before its "
				"'at NS events K': %s\n", *l);
			exit(99);
		}
		g_array_append_val(last->lines, line);
	}
	g_strfreev(lines);
	g_free(text);
	return samples;
}

static void free_samples(GArray *samples)
{
	for (guint i = 0; i < samples->len; i++)
		g_array_free(g_array_index(samples, struct sample, i).lines,
			TRUE);
	g_array_free(samples, TRUE);
}

/* The value at path, or NULL when the state has no such attribute. */
static const struct tn_state_value *value_at(const struct tn_state *state,
		const char *path)
{
	int quark = tn_state_quark_lookup(state, TN_STATE_ROOT, path);

	return quark < 0 ? NULL : tn_state_get_value(state, quark);
}

static bool is_unset(const struct tn_state_value *v)
{
	return !v || v->type == TN_STATE_NULL;
}

static bool string_is(const struct tn_state_value *v, const char *s)
{
	return v && v->type == TN_STATE_STRING && !strcmp(v->u.s, s);
}

static void describe(const struct tn_state_value *v, char *buf, size_t size)
{
	if (!v)
		snprintf(buf, size, "(none)");
	else if (v->type == TN_STATE_STRING)
		snprintf(buf, size, "\"%s\"", v->u.s);
	else if (v->type == TN_STATE_INT)
		snprintf(buf, size, "%d", v->u.i);
	else
		snprintf(buf, size, "%s", tn_state_type_name(v->type));
}

struct tally {
	uint64_t samples, lines, wrong, tied;
	uint64_t events;	/* replayed so far */
};

static void mismatch(struct tally *tally, int64_t ns, const char *path,
		const char *want, const struct tn_state_value *got)
{
	char text[64];

	if (tally->wrong++ >= 5)
		return;
	describe(got, text, sizeof(text));
	printf("#   at %" PRId64 ": %s is %s, the plan says %s\n", ns, path,
		text, want);
}

/* Compare the state with one sample of the plan. */
static void check_sample(const struct tn_state *state,
		const struct sample *sample, struct tally *tally)
{
	GHashTable *listed = g_hash_table_new(g_direct_hash, g_direct_equal);
	int threads;
	char path[64];

	tally->samples++;
	if (tally->events != sample->events && tally->wrong++ < 5)
		printf("#   at %" PRId64 ": %" PRIu64 " events replayed, the "
			"plan says %" PRIu64 "\n", sample->ns, tally->events,
			sample->events);
	for (guint i = 0; i < sample->lines->len; i++) {
		const struct plan_line *l = &g_array_index(sample->lines,
			struct plan_line, i);
		const struct tn_state_value *v;
		bool unknown = !strcmp(l->status, "?");

		tally->lines++;
		if (!l->is_cpu) {
			g_hash_table_add(listed, GINT_TO_POINTER((int) l->id));
			/* what the order of events of one time decides */
			if (!strcmp(l->status, "tied")) {
				tally->tied++;
				continue;
			}
			snprintf(path, sizeof(path), "Threads/%" PRId64
				"/Status", l->id);
			v = value_at(state, path);
			if (!string_is(v, l->status))
				mismatch(tally, sample->ns, path, l->status,
					v);
			continue;
		}
		snprintf(path, sizeof(path), "CPUs/%" PRId64
			"/Current_thread", l->id);
		v = value_at(state, path);
		if (l->current_known ? !v || v->type != TN_STATE_INT ||
				v->u.i != l->current : !is_unset(v)) {
			char want[32];

			snprintf(want, sizeof(want), l->current_known ?
				"%" PRId64 : "unknown", l->current);
			mismatch(tally, sample->ns, path, want, v);
		}
		if (!strcmp(l->status, "tied")) {
			tally->tied++;
			continue;
		}
		snprintf(path, sizeof(path), "CPUs/%" PRId64 "/Status",
			l->id);
		v = value_at(state, path);
		if (unknown ? !is_unset(v) : !string_is(v, l->status))
			mismatch(tally, sample->ns, path, l->status, v);
	}
	/* and no other thread is alive in the state (the dead are null) */
	threads = tn_state_quark_lookup(state, TN_STATE_ROOT, "Threads");
	for (size_t i = 0; threads >= 0 &&
			i < tn_state_get_child_count(state, threads); i++) {
		int t = tn_state_get_child(state, threads, i);
		const char *name = tn_state_get_name(state, t);
		int status = tn_state_quark_child_lookup(state, t, "Status");

		if (g_str_has_prefix(name, "0_") || status < 0 ||
				tn_state_get_value(state, status)->type ==
					TN_STATE_NULL ||
				g_hash_table_contains(listed, GINT_TO_POINTER(
					(int) g_ascii_strtoll(name, NULL, 10))))
			continue;
		snprintf(path, sizeof(path), "Threads/%s/Status", name);
		mismatch(tally, sample->ns, path, "not alive (unlisted)",
			tn_state_get_value(state, status));
	}
	g_hash_table_destroy(listed);
}

/* Every attribute of a has the path and value it has in b, and b has no
 * other. */
static bool same_state(const struct tn_state *a, const struct tn_state *b,
		int *differences)
{
	*differences = 0;
	if (tn_state_get_attribute_count(a) != tn_state_get_attribute_count(b))
		(*differences)++;
	for (int q = 0; q < tn_state_get_attribute_count(a); q++) {
		char *path = tn_state_get_path(a, q);
		int other = tn_state_quark_lookup(b, TN_STATE_ROOT, path);

		if (other < 0 || !tn_state_value_equal(tn_state_get_value(a,
				q), tn_state_get_value(b, other))) {
			if ((*differences)++ < 3)
				printf("#   %s differs\n", path);
		}
		g_free(path);
	}
	return *differences == 0;
}

struct replay {
	struct tally tally;
	uint64_t events;
	bool failed;
	int differences;	/* the replay from the snapshot's */
	char providers[64];
};

static bool feed(struct tn_state_providers *providers, struct tn_state *state,
		const struct tn_row *row, struct replay *r)
{
	struct tn_error err;

	if (tn_state_providers_handle(providers, state, &row->ev, &row->pos,
			&err) == 0)
		return true;
	if (!r->failed)
		printf("#   provider failed: %s\n", err.message);
	r->failed = true;
	return false;
}

/* Replay trace from its start through the providers, checking the state
 * at every sample; at the middle sample, also go on from a snapshot of
 * the state with fresh providers, and compare both at the end. */
static void replay(const char *path, GArray *samples, struct replay *r)
{
	struct tn_state_providers *providers = NULL, *providers2 = NULL;
	struct tn_state *state = tn_state_create(), *state2 = NULL;
	guint next = 0, middle = samples->len / 2;
	struct tn_trace *trace = NULL;
	struct tn_walk *walk = NULL;
	struct tn_error err;
	struct tn_row row;
	int rc;

	memset(r, 0, sizeof(*r));
	if (tn_trace_open(path, &trace, &err) < 0 ||
			tn_walk_open(trace, INT64_MIN, &walk, &err) < 0) {
		printf("#   %s\n", err.message);
		r->failed = true;
		goto out;
	}
	providers = tn_state_providers_create(trace);
	g_strlcpy(r->providers, tn_state_providers_get_names(providers),
		sizeof(r->providers));
	while ((rc = tn_walk_next(walk, NULL, &row, &err)) == 1) {
		while (next < samples->len && row.ev.has_ns &&
				row.ev.ns > g_array_index(samples, struct sample,
					next).ns) {
			check_sample(state, &g_array_index(samples,
				struct sample, next), &r->tally);
			if (next++ == middle) {
				GByteArray *blob = g_byte_array_new();

				tn_state_save(state, blob);
				state2 = tn_state_create();
				if (tn_state_restore(state2, blob->data,
						blob->len, &err) < 0) {
					printf("#   restore: %s\n", err.message);
					r->failed = true;
				}
				g_byte_array_unref(blob);
				providers2 = tn_state_providers_create(trace);
				tn_state_providers_reset(providers2);
			}
		}
		r->events++;
		r->tally.events++;
		feed(providers, state, &row, r);
		if (providers2)
			feed(providers2, state2, &row, r);
		tn_row_release(&row);
	}
	if (rc < 0) {
		printf("#   read: %s\n", err.message);
		r->failed = true;
	}
	while (next < samples->len)
		check_sample(state, &g_array_index(samples, struct sample,
			next++), &r->tally);
	if (state2)
		same_state(state, state2, &r->differences);
	else
		r->differences = -1;
out:
	tn_state_providers_destroy(providers);
	tn_state_providers_destroy(providers2);
	tn_state_destroy(state);
	tn_state_destroy(state2);
	tn_walk_destroy(walk);
	tn_trace_destroy(trace);
}

static void check_generated(const char *name, const char *options,
		const char *want_providers)
{
	char *gen_options = g_strdup_printf("%s --state-plan '%s/%s.state'",
		options, gen_tmpdir(), name);
	char *path = gen_trace(name, gen_options);
	char *plan = g_strdup_printf("%s.state", path);
	GArray *samples = read_state_plan(plan);
	struct replay r;

	replay(path, samples, &r);
	tap_ok(!r.failed && r.tally.wrong == 0 && r.tally.samples ==
		samples->len && samples->len > 0,
		"%s (%s): %" PRIu64 " events, the state at %" PRIu64
		" samples agrees with the generator's (%" PRIu64 " lines, %"
		PRIu64 " tied, %" PRIu64 " wrong)", name, options, r.events,
		r.tally.samples, r.tally.lines, r.tally.tied, r.tally.wrong);
	tap_ok(r.differences == 0, "%s: going on from a snapshot with fresh "
		"providers ends in the same state (%d differences)", name,
		r.differences);
	tap_str_eq(r.providers, want_providers, "%s: providers %s", name,
		want_providers);
	free_samples(samples);
	g_free(plan);
	g_free(path);
	g_free(gen_options);
}

static void check_classes(void)
{
	const struct tn_state_provider_class *const *classes =
		tn_state_provider_classes();
	static const char *const kernel_names[] = { "irq_handler_entry",
		"sched_switch", NULL };
	static const char *const old_names[] = { "exit_syscall",
		"sys_open", NULL };
	static const char *const ust_names[] = {
		"lttng_ust_cyg_profile:func_entry", NULL };
	static const char *const none[] = { "kmem_kfree", "power_cpu_idle",
		NULL };
	size_t count = 0;

	while (classes[count])
		count++;
	tap_int_eq(count, 2, "two provider classes");
	tap_ok(classes[0]->applies(kernel_names) &&
		classes[0]->applies(old_names) &&
		!classes[0]->applies(ust_names) && !classes[0]->applies(none),
		"the kernel provider applies to kernel event names, LTTng 2.0 "
		"ones too");
	tap_ok(classes[1]->applies(ust_names) &&
		!classes[1]->applies(kernel_names),
		"the userspace provider applies to provider:event names");
}

int main(void)
{
	check_classes();
	check_generated("k4", "--events 30000 --seed 1", "kernel");
	check_generated("k1", "--events 20000 --cpus 1 --seed 2", "kernel");
	check_generated("ties", "--events 20000 --cpus 8 --ties 2 --seed 3",
		"kernel");
	check_generated("ties2", "--events 20000 --cpus 8 --ties 2 "
		"--seed 22", "kernel");
	check_generated("both", "--events 20000 --domain both --seed 4",
		"kernel, ust");
	check_generated("cpus64", "--events 6000 --cpus 64 --seed 5",
		"kernel");
	check_generated("mixed", "--events 10000 --mix mixed --hang-every 100 "
		"--no-packet-times --packet-size 4096 --seed 6",
		"kernel, ust");
	gen_cleanup();
	return tap_done();
}
