/*
 * gen-script: random tracenav command scripts for long sessions (the
 * soak test, tests/test-soak.sh), deterministic from a seed.
 *
 * It writes COUNT commands for `tracenav --keep-going --batch-file`:
 * moves near and far, searches (regexes that match and some that do
 * not), filters (regexes and expressions, stacked, toggled, removed,
 * cleared), state queries, the sequence diagram, marks, ranges,
 * statistics and analyses; and, at random points, probes:
 *
 *     echo @probe ID
 *     where
 *     print N
 *     [count]
 *
 * With --expect FILE it writes what a checker needs to hold each probe
 * to `tracenav --dump` (tab-separated lines):
 *
 *     probe ID N COUNTED SIGN REGEX SIGN REGEX ...
 *         the probe prints N events and (COUNTED 1) the count; the
 *         enabled filters then, each as a regex over the event's --dump
 *         line without its delta that an event passes when it matches
 *         (SIGN +) or when it does not (SIGN -): an expression filter
 *         gets the regex that holds on the same events of these traces
 *     move ID OP ARG...
 *         one command ran between probe ID-1 and probe ID, and probe
 *         ID's position follows from ID-1's: OP is down K, up K (pages
 *         are 20 events), first, last, rank K (event or match number K,
 *         the last when past it), time T (the first event at or after
 *         the time of day T, else the last), reltime NS (the same from
 *         the time of ID-1's event plus NS), search REGEX (the first
 *         match of REGEX over the --dump line from ID-1's event on,
 *         wrapping around; none: it stays), next K REGEX, prev K REGEX
 *         (the K-th match after or before it, wrapping around),
 *         refilter (the filters changed: the first event from ID-1's
 *         that passes them, else the last one), stay.
 *
 * The commands come from one table (kinds[]): a name, a weight, whether
 * it is probed every time, and the function that writes it (and says
 * how its move is checked); a new command is one more line there.  The
 * script begins with `index` (the event numbers, the state snapshots and
 * the diagram's pages), so that every command after it runs on them.
 *
 * Only libc is used.  Output depends only on the options and the plan.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "splitmix64.h"

#define PROGRAM "gen-script"

enum {
	MAX_NAMES = 64,		/* event names read from the plan */
	MAX_NAME = 128,
	MAX_FILTERS = 3,	/* a deeper stack is no more interesting */
	MAX_MARKS = 6,		/* marks listing costs a seek per mark */
	MAX_HIDDEN = 3,
	PAGE_ROWS = 20,		/* tracenav --batch's page */
	MAX_ORACLE = 256,
	MAX_KINDS = 32,		/* entries of kinds[] */
};

/* ---- the trace, from gen-trace's --plan ---- */

struct plan {
	uint64_t events;
	int64_t first_ns, last_ns;
	int cpus;		/* streams per trace */
	char names[MAX_NAMES][MAX_NAME];
	int name_count;
};

/* ---- what the script did so far ---- */

struct filter {
	char command[MAX_ORACLE];	/* "filter-in sched" */
	char sign;			/* its oracle: '+' or '-' */
	char oracle[MAX_ORACLE];
	bool enabled;
};

struct gen {
	uint64_t rng;
	uint64_t left;			/* commands still to write */
	FILE *script, *expect;
	const struct plan *plan;
	int probe_every;
	uint64_t next_probe;		/* id of the next probe */
	bool after_probe;		/* the last thing written is a probe */
	struct filter filters[MAX_FILTERS];
	int filter_count;
	char search[MAX_ORACLE];	/* the last search, "" if none */
	int marks, hidden;
	unsigned weights[MAX_KINDS];	/* of kinds[], as --kinds chose */
};

/* A command's oracle: how probe ID's position follows from ID-1's, or
 * none (the command moves in a way the checker does not follow). */
struct move {
	bool known;
	char text[2 * MAX_ORACLE];	/* "down 5", "search RE" */
};

/* ---- PRNG (splitmix64) ---- */

static uint64_t next_random(struct gen *g)
{
	return splitmix64_next(&g->rng);
}

/* A number in [0, n). */
static uint64_t below(struct gen *g, uint64_t n)
{
	return n ? next_random(g) % n : 0;
}

/* true about once in n. */
static bool one_in(struct gen *g, uint64_t n)
{
	return below(g, n) == 0;
}

static const char *pick(struct gen *g, const char *const *choices,
		size_t count)
{
	return choices[below(g, count)];
}

#define PICK(g, array) pick((g), (array), sizeof(array) / sizeof((array)[0]))

static const char *random_name(struct gen *g)
{
	return g->plan->names[below(g, (uint64_t) g->plan->name_count)];
}

/* ---- writing ---- */

static void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROGRAM ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

/* Write one command line (counted). */
static void cmd(struct gen *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void cmd(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(g->script, fmt, ap);
	va_end(ap);
	fputc('\n', g->script);
	if (g->left)
		g->left--;
	g->after_probe = false;
}

static void expect(struct gen *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void expect(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	if (!g->expect)
		return;
	va_start(ap, fmt);
	vfprintf(g->expect, fmt, ap);
	va_end(ap);
}

static void set_move(struct move *move, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_move(struct move *move, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(move->text, sizeof(move->text), fmt, ap);
	va_end(ap);
	move->known = true;
}

/* A time of day (UTC, as the soak test runs with TZ=UTC):
 * HH:MM:SS.NNNNNNNNN, for ns from the epoch. */
static void time_of_day(int64_t ns, char *out, size_t size)
{
	int64_t day_ns = ns % (86400LL * 1000000000LL);
	int64_t s = day_ns / 1000000000LL;

	snprintf(out, size, "%02d:%02d:%02d.%09d", (int) (s / 3600),
		(int) (s / 60 % 60), (int) (s % 60),
		(int) (day_ns % 1000000000LL));
}

/* The probe: where the cursor is and what is there, with the filters'
 * oracles. */
static void probe(struct gen *g)
{
	int n = one_in(g, 4) ? 1 + (int) below(g, 30) : 1 + (int) below(g, 4);
	bool counted = one_in(g, 10);

	cmd(g, "echo @probe %" PRIu64, g->next_probe);
	cmd(g, "where");
	cmd(g, "print %d", n);
	if (counted)
		cmd(g, "count");
	expect(g, "probe\t%" PRIu64 "\t%d\t%d", g->next_probe, n,
		counted ? 1 : 0);
	for (int i = 0; i < g->filter_count; i++)
		if (g->filters[i].enabled)
			expect(g, "\t%c\t%s", g->filters[i].sign,
				g->filters[i].oracle);
	expect(g, "\n");
	g->next_probe++;
	g->after_probe = true;
}

/* ---- the commands ---- */

static void emit_down(struct gen *g, struct move *m)
{
	int k = one_in(g, 3) ? 1 : 1 + (int) below(g, 60);

	cmd(g, "%s %d", one_in(g, 2) ? "down" : "j", k);
	set_move(m, "down %d", k);
}

static void emit_up(struct gen *g, struct move *m)
{
	int k = one_in(g, 3) ? 1 : 1 + (int) below(g, 60);

	cmd(g, "%s %d", one_in(g, 2) ? "up" : "k", k);
	set_move(m, "up %d", k);
}

static void emit_page(struct gen *g, struct move *m)
{
	int k = 1 + (int) below(g, 3);
	bool down = one_in(g, 2);

	if (k == 1 && one_in(g, 2))
		cmd(g, "%s", down ? "pgdn" : "pgup");
	else
		cmd(g, "%s %d", down ? "pgdn" : "pgup", k);
	set_move(m, "%s %d", down ? "down" : "up", k * PAGE_ROWS);
}

static void emit_ends(struct gen *g, struct move *m)
{
	bool top = one_in(g, 2);

	cmd(g, "%s", top ? "top" : "bottom");
	set_move(m, "%s", top ? "first" : "last");
}

/* Far: a time, an event number, a share of the time range. */
static void emit_goto(struct gen *g, struct move *m)
{
	const struct plan *p = g->plan;
	char when[64];
	uint64_t k;

	switch (below(g, 6)) {
	case 0:
		/* Past the last number now and then. */
		k = 1 + below(g, p->events + p->events / 50);
		cmd(g, "goto #%" PRIu64, k);
		set_move(m, "rank %" PRIu64, k);
		break;
	case 1:
		cmd(g, "goto %d%%", (int) below(g, 101));
		break;
	case 2: {
		int64_t us = (int64_t) below(g, 2000) - 1000;

		cmd(g, "goto %+" PRId64 "us", us);
		set_move(m, "reltime %" PRId64, us * 1000);
		break;
	}
	default: {
		/* A time of the trace (sometimes a bit outside it), as a
		 * time of day or in seconds from the clock's origin. */
		int64_t ns = p->first_ns - 1000 + (int64_t) below(g,
			(uint64_t) (p->last_ns - p->first_ns) + 2000);

		time_of_day(ns, when, sizeof(when));
		if (one_in(g, 2))
			cmd(g, "goto %s", when);
		else
			cmd(g, "goto %" PRId64 ".%09d", ns / 1000000000,
				(int) (ns % 1000000000));
		set_move(m, "time %s", when);
		break;
	}
	}
}

/* Search regexes over --dump's line: some match often, some rarely,
 * some never (smart case: an upper-case letter makes it exact). */
static const char *const search_regexes[] = {
	"sched_switch", "prev_tid = 1\\d{3},", "signal = \"ping\"",
	"ret = -\\d+", "app:(send|receive).*seq = \\d*7\\b",
	"sched_process_(fork|exec)", "zq_no_such_event", "SCHED_SWITCH",
	"irq = [01],", "procname = \"gateway\"",
};

static void emit_search(struct gen *g, struct move *m)
{
	const char *re = one_in(g, 3) ? random_name(g) :
		PICK(g, search_regexes);

	cmd(g, "search %s", re);
	snprintf(g->search, sizeof(g->search), "%s", re);
	set_move(m, "search %s", re);
}

static void emit_next(struct gen *g, struct move *m)
{
	int k = one_in(g, 4) ? 1 + (int) below(g, 5) : 1;
	bool next = one_in(g, 2);

	if (!g->search[0]) {
		emit_search(g, m);
		return;
	}
	if (k == 1)
		cmd(g, "%s", next ? "next" : "prev");
	else
		cmd(g, "%s %d", next ? "next" : "prev", k);
	set_move(m, "%s %d %s", next ? "next" : "prev", k, g->search);
}

/* A filter and the regex over the line without its delta that holds
 * on the same events: "[TIME] HOST NAME: { cpu_id = C }, ...". */
static void make_filter(struct gen *g, struct filter *f)
{
	static const char *const regexes[] = {
		"sched_switch", "syscall_(entry|exit)_read", "app:",
		"irq", "cpu_id = [02] }", "zq_no_such_event", "Xorg|sshd",
		"prev_state = \\d+ }",
	};
	const char *name = random_name(g);
	const char *regex = PICK(g, regexes);
	char regex_sign = one_in(g, 2) ? '+' : '-';
	int cpu = (int) below(g, (uint64_t) g->plan->cpus);

	f->enabled = true;
	switch (below(g, 6)) {
	case 0:
	case 1:
		/* A regex filter sees what its oracle sees. */
		f->sign = regex_sign;
		snprintf(f->oracle, sizeof(f->oracle), "%s", regex);
		snprintf(f->command, sizeof(f->command), "filter-%s %s",
			regex_sign == '+' ? "in" : "out", regex);
		break;
	case 2:
		/* (?-i): an expression compares names exactly. */
		f->sign = '+';
		snprintf(f->oracle, sizeof(f->oracle),
			"(?-i)^\\[[^]]*\\] \\S+ \\Q%s\\E: ", name);
		snprintf(f->command, sizeof(f->command),
			"filter name == \"%s\"", name);
		break;
	case 3:
		f->sign = '+';
		snprintf(f->oracle, sizeof(f->oracle), "(?-i)^\\[[^]]*\\] "
			"\\S+ (sched_|irq_)|\\{ cpu_id = %d \\}", cpu);
		snprintf(f->command, sizeof(f->command),
			"filter name =~ \"^(sched_|irq_)\" || cpu == %d", cpu);
		break;
	case 4:
		f->sign = '-';
		snprintf(f->oracle, sizeof(f->oracle),
			"(?-i)\\{ cpu_id = %d \\}", cpu);
		snprintf(f->command, sizeof(f->command), "filter !(cpu == %d)",
			cpu);
		break;
	default:
		f->sign = '+';
		snprintf(f->oracle, sizeof(f->oracle), "(?-i)^\\[[^]]*\\] "
			"\\S+ (\\Q%s\\E|sched_wakeup): ", name);
		snprintf(f->command, sizeof(f->command),
			"filter name == \"%s\" || name == \"sched_wakeup\"",
			name);
		break;
	}
}

/* Add a filter, or change the stack: toggle, remove, clear. */
static void emit_filter(struct gen *g, struct move *m)
{
	uint64_t what = below(g, 10);

	if (g->filter_count == MAX_FILTERS && what < 5)
		what = 9;
	if (g->filter_count == 0 || what < 5) {
		struct filter *f = &g->filters[g->filter_count++];

		make_filter(g, f);
		cmd(g, "%s", f->command);
	} else if (what < 7) {
		int n = (int) below(g, (uint64_t) g->filter_count);

		g->filters[n].enabled = !g->filters[n].enabled;
		cmd(g, "filter-toggle %d", n + 1);
	} else if (what < 9) {
		int n = (int) below(g, (uint64_t) g->filter_count);

		memmove(&g->filters[n], &g->filters[n + 1],
			(size_t) (g->filter_count - n - 1) *
			sizeof(g->filters[0]));
		g->filter_count--;
		cmd(g, "filter-remove %d", n + 1);
	} else {
		g->filter_count = 0;
		cmd(g, "clear-filters");
	}
	set_move(m, "refilter");
}

static void emit_listing(struct gen *g, struct move *m)
{
	static const char *const commands[] = {
		"filters", "count", "where", "traces", "help", "help goto",
		"detail", "seq-hidden", "echo between",
	};

	cmd(g, "%s", PICK(g, commands));
	set_move(m, "stay");
}

static void emit_print(struct gen *g, struct move *m)
{
	cmd(g, "%s %d", one_in(g, 2) ? "print" : "p", 1 + (int) below(g, 8));
	set_move(m, "stay");
}

static void emit_state(struct gen *g, struct move *m)
{
	static const char *const globs[] = {
		"", " CPUs/*/Current_thread", " Threads/*/Status",
		" Processes/**", " CPUs/**", " no/such/*", " **/System_call",
	};

	cmd(g, "state%s", PICK(g, globs));
	set_move(m, "stay");
}

static void emit_seqdiag(struct gen *g, struct move *m)
{
	static const char *const forms[] = {
		"seqdiag", "seqdiag --unicode", "seqdiag 80", "seqdiag 60 2",
		"seqdiag --unicode 100 3", "seqdiag-list 5", "seqdiag 40 9",
	};

	cmd(g, "%s", PICK(g, forms));
	set_move(m, "stay");
}

static void emit_seqfind(struct gen *g, struct move *m)
{
	static const char *const regexes[] = {
		"ping", "gateway", "^node", "data|ack", "zq_no_such_signal",
		"PING", "sshd",
	};

	(void) m;
	cmd(g, "seqdiag-find %s%s", one_in(g, 3) ? "--backward " : "",
		PICK(g, regexes));
}

static void emit_seqhide(struct gen *g, struct move *m)
{
	static const char *const regexes[] = {
		"gate", "ping", "^node", "back",
	};

	if (g->hidden >= MAX_HIDDEN || (g->hidden && one_in(g, 3))) {
		if (one_in(g, 2)) {
			cmd(g, "seq-unhide");
			g->hidden = 0;
		} else {
			/* Maybe not one of them: an error, harmless. */
			cmd(g, "seq-unhide %s", PICK(g, regexes));
		}
	} else {
		cmd(g, "seq-hide %s", PICK(g, regexes));
		g->hidden++;
	}
	set_move(m, "stay");
}

static void emit_marks(struct gen *g, struct move *m)
{
	switch (below(g, 4)) {
	case 0:
	case 1:
		if (g->marks >= MAX_MARKS) {
			cmd(g, "unmark all");
			g->marks = 0;
			set_move(m, "stay");
		} else {
			cmd(g, "mark");
			g->marks++;
			set_move(m, "stay");
		}
		break;
	case 2:
		cmd(g, "%s", one_in(g, 2) ? "next-mark" : "prev-mark");
		break;
	default:
		/* marks reads each marked event: a seek each. */
		cmd(g, "%s", one_in(g, 10) ? "marks" : "unmark");
		set_move(m, "stay");
		break;
	}
}

static void emit_range(struct gen *g, struct move *m)
{
	int from = (int) below(g, 95);

	switch (below(g, 4)) {
	case 0:
		cmd(g, "range clear");
		break;
	case 1:
		cmd(g, "range");
		break;
	default:
		/* Narrow ones mostly: a wide range is read at its edges
		 * only, but its analyses replay all of it. */
		cmd(g, "range %d%% %d%%", from, from + 1 + (int) below(g, 5));
		break;
	}
	set_move(m, "stay");
}

static void emit_stats(struct gen *g, struct move *m)
{
	static const char *const commands[] = {
		"stats", "stats percent", "histogram", "histogram 7",
		"histogram 64", "cputop", "syscallstats", "irqstats",
		"schedtop", "stats all",
	};

	cmd(g, "%s", PICK(g, commands));
	set_move(m, "stay");
}

/* The table: what a script is made of, and how often (weights out of
 * their sum).  Cheap moves dominate: a jump costs a seek (a few ms), and
 * whole-trace work (a search that finds nothing, a filter's count pass,
 * stats all) tens of ms on a 20 000-event trace, so that they are rarer
 * for 100 000 commands to run in about a minute.  The rare ones are
 * checked every time (probed before and after: a probe costs less than
 * they do); the others one time in --probe-every. */
static const struct kind {
	const char *name;
	unsigned weight;
	bool always_probed;
	void (*emit)(struct gen *g, struct move *m);
} kinds[] = {
	{ "down", 2400, false, emit_down },
	{ "up", 1900, false, emit_up },
	{ "page", 1200, false, emit_page },
	{ "print", 900, false, emit_print },
	{ "listing", 700, false, emit_listing },
	{ "state", 130, false, emit_state },
	{ "marks", 150, false, emit_marks },
	{ "ends", 15, true, emit_ends },
	{ "goto", 100, true, emit_goto },
	{ "search", 10, true, emit_search },
	{ "next", 20, true, emit_next },
	{ "filter", 10, true, emit_filter },
	{ "seqdiag", 40, false, emit_seqdiag },
	{ "seqdiag-find", 5, true, emit_seqfind },
	{ "seq-hide", 20, false, emit_seqhide },
	{ "range", 10, false, emit_range },
	{ "stats", 20, false, emit_stats },
};

#define KIND_COUNT (sizeof(kinds) / sizeof(kinds[0]))
_Static_assert(KIND_COUNT <= MAX_KINDS, "kinds[] outgrew MAX_KINDS");

static const struct kind *pick_kind(struct gen *g)
{
	unsigned total = 0;
	uint64_t r;

	for (size_t i = 0; i < KIND_COUNT; i++)
		total += g->weights[i];
	r = below(g, total);
	for (size_t i = 0; i < KIND_COUNT; i++) {
		if (r < g->weights[i])
			return &kinds[i];
		r -= g->weights[i];
	}
	return &kinds[0];
}

/* --kinds: only the kinds named in list (comma-separated). */
static void select_kinds(struct gen *g, const char *list)
{
	char *copy = strdup(list), *save = NULL;
	unsigned total = 0;

	if (!copy)
		die("out of memory");
	memset(g->weights, 0, sizeof(g->weights));
	for (char *name = strtok_r(copy, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < KIND_COUNT && strcmp(kinds[i].name, name); i++)
			;
		if (i == KIND_COUNT)
			die("--kinds: no kind '%s' (--help lists them)", name);
		g->weights[i] = kinds[i].weight;
		total += kinds[i].weight;
	}
	free(copy);
	if (!total)
		die("--kinds: name at least one kind (--help lists them)");
}

/* One command; now and then between two probes, the second one's
 * position checked against the first one's. */
static void step(struct gen *g)
{
	const struct kind *kind = pick_kind(g);
	bool checked = kind->always_probed ||
		one_in(g, (uint64_t) g->probe_every);
	struct move move = { false, "" };

	if (checked && !g->after_probe)
		probe(g);
	kind->emit(g, &move);
	if (checked) {
		if (move.known)
			expect(g, "move\t%" PRIu64 "\t%s\n", g->next_probe,
				move.text);
		probe(g);
	}
}

/* ---- the plan ---- */

static void read_plan(const char *path, struct plan *p)
{
	FILE *file = fopen(path, "r");
	char line[512], name[MAX_NAME];
	int streams = 0, traces = 0;

	if (!file)
		die("%s: %s", path, strerror(errno));
	memset(p, 0, sizeof(*p));
	while (fgets(line, sizeof(line), file)) {
		uint64_t u;
		int64_t i;

		if (sscanf(line, "events %" SCNu64, &u) == 1)
			p->events = u;
		else if (sscanf(line, "first_ns %" SCNd64, &i) == 1)
			p->first_ns = i;
		else if (sscanf(line, "last_ns %" SCNd64, &i) == 1)
			p->last_ns = i;
		else if (sscanf(line, "streams %d", &streams) == 1)
			continue;
		else if (sscanf(line, "traces %d", &traces) == 1)
			continue;
		else if (sscanf(line, "event_count %127s", name) == 1 &&
			 p->name_count < MAX_NAMES)
			snprintf(p->names[p->name_count++], MAX_NAME, "%s",
				name);
	}
	fclose(file);
	if (!p->events || !p->name_count || p->last_ns < p->first_ns ||
	    streams <= 0 || traces <= 0)
		die("%s: not a plan of gen-trace (events, first_ns, last_ns, "
			"streams, traces, event_count lines)", path);
	p->cpus = streams / traces > 0 ? streams / traces : 1;
}

/* ---- command line ---- */

static void print_usage(FILE *out)
{
	char names[512] = "";

	for (size_t i = 0; i < KIND_COUNT; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			"%s%s", i ? " " : "", kinds[i].name);
	fprintf(out,
"Usage: " PROGRAM " --plan FILE [OPTIONS]\n"
"\n"
"Write a random tracenav command script (for tracenav --keep-going\n"
"--batch-file) on standard output: moves, searches, filters, state,\n"
"sequence diagram, marks, ranges, statistics, and probes (echo @probe ID;\n"
"where; print N).  The same options and plan give the same script.\n"
"\n"
"Options:\n"
"  --plan FILE         the trace's plan, as gen-trace --plan writes it\n"
"                      (event count, time range, event names, streams)\n"
"  --count N           commands to write (default 100000)\n"
"  --seed S            PRNG seed (default 1)\n"
"  --probe-every N     check about one command in N between two probes\n"
"                      (default 8)\n"
"  --expect FILE       write the probes' checks to FILE (see the\n"
"                      comment at the top of tools/gen-script.c)\n"
"  --kinds LIST        only these kinds of commands (comma-separated;\n"
"                      default: all of them, each as often as its weight):\n"
"                      %s\n"
"  -h, --help          show this help and exit\n"
"\n"
"Exit status: 0 on success, 2 on bad usage or an unreadable plan.\n",
		names);
}

static uint64_t parse_number(const char *option, const char *text,
		uint64_t min)
{
	char *end;
	unsigned long long value;

	errno = 0;
	value = strtoull(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || *end || errno || value < min)
		die("--%s: expected an integer of at least %" PRIu64
			", got '%s'", option, min, text);
	return value;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "plan", required_argument, NULL, 'p' },
		{ "count", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "probe-every", required_argument, NULL, 'e' },
		{ "expect", required_argument, NULL, 'x' },
		{ "kinds", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *plan_path = NULL, *expect_path = NULL, *kind_list = NULL;
	struct gen g = { 0 };
	struct plan plan;
	int c;

	g.left = 100000;
	g.rng = 1;
	g.probe_every = 8;
	g.next_probe = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (c) {
		case 'p': plan_path = optarg; break;
		case 'n': g.left = parse_number("count", optarg, 1); break;
		case 's': g.rng = parse_number("seed", optarg, 0); break;
		case 'e':
			g.probe_every = (int) parse_number("probe-every",
				optarg, 1);
			break;
		case 'x': expect_path = optarg; break;
		case 'k': kind_list = optarg; break;
		case 'h': print_usage(stdout); return 0;
		case ':': die("option '%s' needs a value", argv[optind - 1]);
		default: die("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die("unexpected argument '%s'", argv[optind]);
	if (!plan_path)
		die("--plan FILE is needed (gen-trace --plan writes it)");
	for (size_t i = 0; i < KIND_COUNT; i++)
		g.weights[i] = kinds[i].weight;
	if (kind_list)
		select_kinds(&g, kind_list);
	read_plan(plan_path, &plan);
	g.plan = &plan;
	g.script = stdout;
	if (expect_path && !(g.expect = fopen(expect_path, "w")))
		die("%s: %s", expect_path, strerror(errno));
	cmd(&g, "index");
	while (g.left)
		step(&g);
	if (g.expect && fclose(g.expect))
		die("%s: %s", expect_path, strerror(errno));
	if (fflush(stdout) || ferror(stdout))
		die("standard output: %s", strerror(errno));
	return 0;
}
