/* calls.c - threads with call stacks of different depths, built with
 * -finstrument-functions and traced with liblttng-ust-cyg-profile (its
 * func_entry and func_exit events) beside the calldemo tracepoints
 * (calls-tp.h): the test trace of tracenav's UST state provider and
 * --symbols on a real trace (tools/record-ust-traces).
 *
 * "fib" computes Fibonacci numbers by plain recursion (up to FIB_N
 * deep), "chain" calls five functions one in the other, "parity" asks
 * whether numbers are even by mutual recursion (is_even, is_odd), and
 * the main thread walks a chain of its own between starting them and
 * joining them.  Each thread is named after its work (its procname
 * context) before its first instrumented call: LTTng-UST keeps a
 * thread's procname from its first event on.  The threads are spread
 * over the CPUs, so that the trace's streams (one a CPU) all have
 * events. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "calls-tp.h"

#define FIB_N 8
#define ROUNDS 6

/* noinline: each function keeps its own address and entry. */
#define NOINLINE __attribute__((noinline))

static volatile long sink;

NOINLINE static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

NOINLINE static long chain_e(long x) { return x * 3 + 1; }
NOINLINE static long chain_d(long x) { return chain_e(x + 1); }
NOINLINE static long chain_c(long x) { return chain_d(x + 1); }
NOINLINE static long chain_b(long x) { return chain_c(x + 1); }
NOINLINE static long chain_a(long x) { return chain_b(x + 1); }

NOINLINE static int is_odd(unsigned n);

NOINLINE static int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

NOINLINE static int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

NOINLINE static void fib_work(void)
{
	for (int round = 0; round < ROUNDS; round++) {
		tracepoint(calldemo, phase, "fib", round);
		sink = fib(FIB_N - round % 2);
		tracepoint(calldemo, result, "fib", sink);
	}
}

NOINLINE static void chain_work(void)
{
	for (int round = 0; round < ROUNDS * 5; round++) {
		if (round % 5 == 0)
			tracepoint(calldemo, phase, "chain", round);
		sink = chain_a(round);
	}
	tracepoint(calldemo, result, "chain", sink);
}

NOINLINE static void parity_work(void)
{
	for (int round = 0; round < ROUNDS * 2; round++) {
		tracepoint(calldemo, phase, "parity", round);
		sink = is_even(6 + 3 * round);
		tracepoint(calldemo, result, "parity", sink);
	}
}

struct work {
	const char *name;
	void (*run)(void);
	int cpu;		/* modulo the CPUs online */
};

/* A thread: named and put on its CPU, then at work (not instrumented,
 * so that its first event, the entry of its work, carries its name). */
__attribute__((no_instrument_function))
static void *thread_main(void *arg)
{
	const struct work *work = arg;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	pthread_setname_np(pthread_self(), work->name);
	if (cpus > 0) {
		CPU_ZERO(&set);
		CPU_SET(work->cpu % cpus, &set);
		/* elsewhere if not allowed: the events are the same */
		(void) pthread_setaffinity_np(pthread_self(), sizeof(set),
			&set);
	}
	work->run();
	return NULL;
}

static const struct work works[] = {
	{ "fib", fib_work, 0 }, { "chain", chain_work, 1 },
	{ "parity", parity_work, 2 },
};

NOINLINE static void start(pthread_t *threads)
{
	for (int i = 0; i < 3; i++)
		pthread_create(&threads[i], NULL, thread_main,
			(void *) &works[i]);
}

NOINLINE static void join(pthread_t *threads)
{
	for (int i = 0; i < 3; i++)
		pthread_join(threads[i], NULL);
}

int main(void)
{
	pthread_t threads[3];

	tracepoint(calldemo, phase, "main", 0);
	start(threads);
	sink = chain_a(100);
	join(threads);
	tracepoint(calldemo, result, "main", sink);
	printf("calls: done\n");
	return 0;
}
