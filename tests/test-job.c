/* test-job.c - the job interface: progress published and read back,
 * cancels honoured, failures reported, several jobs running at once on
 * threads of their own, waits with a timeout, and
 * tn_job_current_is_cancelled() true only on the cancelled job's
 * thread. */
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include <glib.h>

#include "tap.h"
#include "tracenav/job.h"

/* A gate a job waits at until the test opens it. */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	bool open;
};

static void gate_init(struct gate *gate)
{
	pthread_mutex_init(&gate->lock, NULL);
	pthread_cond_init(&gate->changed, NULL);
	gate->open = false;
}

static void gate_open(struct gate *gate)
{
	pthread_mutex_lock(&gate->lock);
	gate->open = true;
	pthread_cond_broadcast(&gate->changed);
	pthread_mutex_unlock(&gate->lock);
}

static void gate_pass(struct gate *gate)
{
	pthread_mutex_lock(&gate->lock);
	while (!gate->open)
		pthread_cond_wait(&gate->changed, &gate->lock);
	pthread_mutex_unlock(&gate->lock);
}

static void gate_fini(struct gate *gate)
{
	pthread_mutex_destroy(&gate->lock);
	pthread_cond_destroy(&gate->changed);
}

static double now_seconds(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double) now.tv_sec + (double) now.tv_nsec / 1e9;
}

/* Wait (boundedly) until the job published something. */
static bool wait_for_items(struct tn_job *job, uint64_t items)
{
	struct tn_job_progress progress;

	for (int i = 0; i < 5000; i++) {
		tn_job_get_progress(job, &progress);
		if (progress.items >= items)
			return true;
		g_usleep(1000);
	}
	return false;
}

/* ---- progress published with tn_job_set_progress() ---- */

struct staged {
	struct gate gate;
	uint64_t result;
	atomic_int freed;
};

static int run_staged(struct tn_job *job, void *data, struct tn_error *err)
{
	struct staged *staged = data;

	(void) err;
	tn_job_set_progress(job, 0.25, 42);
	gate_pass(&staged->gate);
	staged->result = 1234;
	return 0;
}

static void free_staged(void *data)
{
	struct staged *staged = data;

	atomic_store(&staged->freed, 1);
}

static const struct tn_job_class staged_class = {
	.name = "staged",
	.run = run_staged,
	.free = free_staged,
};

static void test_progress(void)
{
	struct staged staged = { .result = 0 };
	struct tn_job_progress progress;
	struct tn_error err;
	struct tn_job *job;

	gate_init(&staged.gate);
	atomic_init(&staged.freed, 0);
	if (!tap_ok(tn_job_start(&staged_class, &staged, &job, &err) == 0,
			"progress: starts")) {
		gate_fini(&staged.gate);
		return;
	}
	tap_ok(tn_job_borrow_class(job) == &staged_class &&
	       tn_job_borrow_data(job) == &staged,
		"progress: the job knows its class and data");
	tap_ok(wait_for_items(job, 42), "progress: published items show");
	tn_job_get_progress(job, &progress);
	tap_ok(progress.state == TN_JOB_RUNNING && progress.fraction == 0.25 &&
	       progress.items == 42 && !tn_job_has_ended(job),
		"progress: running, fraction %.2f, %" G_GUINT64_FORMAT
		" items read back", progress.fraction, progress.items);
	tap_ok(progress.elapsed_seconds >= 0 && progress.eta_seconds >= 0,
		"progress: elapsed %.3f s, eta %.3f s while running",
		progress.elapsed_seconds, progress.eta_seconds);
	gate_open(&staged.gate);
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	tap_ok(progress.state == TN_JOB_DONE && progress.fraction == 1 &&
	       progress.eta_seconds == 0 && progress.message[0] == '\0',
		"progress: done, fraction 1, eta 0, no message");
	tap_ok(tn_job_has_ended(job) && staged.result == 1234,
		"progress: the result is in the data once ended");
	tn_job_destroy(job);
	tap_ok(atomic_load(&staged.freed) == 1,
		"progress: destroy calls the class's free");
	gate_fini(&staged.gate);
}

/* ---- progress through the class's own counters ---- */

struct counting {
	struct gate gate;
	_Atomic uint64_t done;
	uint64_t total;
};

static int run_counting(struct tn_job *job, void *data, struct tn_error *err)
{
	struct counting *counting = data;

	(void) job;
	(void) err;
	atomic_store(&counting->done, counting->total / 2);
	gate_pass(&counting->gate);
	atomic_store(&counting->done, counting->total);
	return 0;
}

static void progress_counting(void *data, struct tn_job_progress *progress)
{
	struct counting *counting = data;
	uint64_t done = atomic_load(&counting->done);

	progress->items = done;
	progress->fraction = (double) done / (double) counting->total;
}

static const struct tn_job_class counting_class = {
	.name = "counting",
	.run = run_counting,
	.progress = progress_counting,
};

static void test_class_progress(void)
{
	struct counting counting = { .total = 1000 };
	struct tn_job_progress progress;
	struct tn_error err;
	struct tn_job *job;

	gate_init(&counting.gate);
	atomic_init(&counting.done, 0);
	if (!tap_ok(tn_job_start(&counting_class, &counting, &job, &err) == 0,
			"class progress: starts")) {
		gate_fini(&counting.gate);
		return;
	}
	tap_ok(wait_for_items(job, 500), "class progress: counters show");
	tn_job_get_progress(job, &progress);
	tap_ok(progress.state == TN_JOB_RUNNING && progress.fraction == 0.5 &&
	       progress.items == 500,
		"class progress: the class's function fills fraction %.2f and "
		"items %" G_GUINT64_FORMAT, progress.fraction, progress.items);
	gate_open(&counting.gate);
	tn_job_destroy(job);
	gate_fini(&counting.gate);
}

/* ---- cancel and failure ---- */

struct spinning {
	atomic_bool started;
	atomic_bool saw_cancel;		/* tn_job_is_cancelled() */
	atomic_bool current_saw_cancel;	/* tn_job_current_is_cancelled() */
	atomic_bool current_before;	/* ... before the cancel */
	atomic_bool current_wrong;	/* ... true while not cancelled */
	bool fail_after_cancel;
};

/* Spin until cancelled (bounded: 10 s). */
static int run_spinning(struct tn_job *job, void *data, struct tn_error *err)
{
	struct spinning *spin = data;

	atomic_store(&spin->current_before, tn_job_current_is_cancelled());
	atomic_store(&spin->started, true);
	for (int i = 0; i < 10000 && !tn_job_is_cancelled(job); i++) {
		/* A cancel only ever goes from false to true: current true
		 * and then the job's own flag still false means current
		 * answered for another job. */
		if (tn_job_current_is_cancelled() && !tn_job_is_cancelled(job))
			atomic_store(&spin->current_wrong, true);
		g_usleep(1000);
	}
	atomic_store(&spin->saw_cancel, tn_job_is_cancelled(job));
	atomic_store(&spin->current_saw_cancel, tn_job_current_is_cancelled());
	if (spin->fail_after_cancel) {
		tn_error_set(err, "stopped");
		return -1;
	}
	return 0;
}

static const struct tn_job_class spinning_class = {
	.name = "spinning",
	.run = run_spinning,
};

static void spinning_init(struct spinning *spin, bool fail_after_cancel)
{
	atomic_init(&spin->started, false);
	atomic_init(&spin->saw_cancel, false);
	atomic_init(&spin->current_saw_cancel, false);
	atomic_init(&spin->current_before, true);
	atomic_init(&spin->current_wrong, false);
	spin->fail_after_cancel = fail_after_cancel;
}

static bool wait_started(const struct spinning *spin)
{
	for (int i = 0; i < 5000 && !atomic_load(&spin->started); i++)
		g_usleep(1000);
	return atomic_load(&spin->started);
}

static void test_cancel(bool fail_after_cancel)
{
	const char *what = fail_after_cancel ? "cancel (run fails)" : "cancel";
	struct tn_job_progress progress;
	struct spinning spin;
	struct tn_error err;
	struct tn_job *job;

	spinning_init(&spin, fail_after_cancel);
	if (!tap_ok(tn_job_start(&spinning_class, &spin, &job, &err) == 0,
			"%s: starts", what))
		return;
	tap_ok(wait_started(&spin) && !tn_job_has_ended(job),
		"%s: runs until asked", what);
	tn_job_cancel(job);
	tap_ok(!tn_job_current_is_cancelled(),
		"%s: not cancelled on the thread that cancels", what);
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	tap_ok(progress.state == TN_JOB_CANCELLED && atomic_load(&spin.saw_cancel),
		"%s: honoured, ends as cancelled", what);
	tap_ok(!atomic_load(&spin.current_before) &&
	       atomic_load(&spin.current_saw_cancel),
		"%s: tn_job_current_is_cancelled() on the job's thread: false, "
		"then true", what);
	tn_job_cancel(job);	/* harmless after the end */
	tn_job_destroy(job);
}

static int run_failing(struct tn_job *job, void *data, struct tn_error *err)
{
	(void) job;
	(void) data;
	tn_error_set(err, "cannot frobnicate %s: no such thing", "x.ctf");
	return -1;
}

static const struct tn_job_class failing_class = {
	.name = "failing",
	.run = run_failing,
};

static void test_failure(void)
{
	struct tn_job_progress progress;
	struct tn_error err;
	struct tn_job *job;

	if (!tap_ok(tn_job_start(&failing_class, NULL, &job, &err) == 0,
			"failure: starts"))
		return;
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	tap_ok(progress.state == TN_JOB_FAILED, "failure: ends as failed");
	tap_str_eq(progress.message, "cannot frobnicate x.ctf: no such thing",
		"failure: the run's message");
	tn_job_destroy(job);
}

/* tn_job_destroy() of a running job cancels it and waits. */
static void test_destroy_running(void)
{
	struct spinning spin;
	struct tn_error err;
	struct tn_job *job;
	double start;

	spinning_init(&spin, false);
	if (!tap_ok(tn_job_start(&spinning_class, &spin, &job, &err) == 0,
			"destroy: starts"))
		return;
	wait_started(&spin);
	start = now_seconds();
	tn_job_destroy(job);
	tap_ok(atomic_load(&spin.saw_cancel) && now_seconds() - start < 5,
		"destroy: a running job is cancelled and joined");
	tn_job_destroy(NULL);
	tap_ok(true, "destroy: NULL-safe");
}

/* ---- tn_job_wait_for() ---- */

static void test_wait_for(void)
{
	struct staged staged = { .result = 0 };
	struct tn_error err;
	struct tn_job *job;
	double start, waited;
	bool ended;

	gate_init(&staged.gate);
	atomic_init(&staged.freed, 0);
	if (!tap_ok(tn_job_start(&staged_class, &staged, &job, &err) == 0,
			"wait_for: starts")) {
		gate_fini(&staged.gate);
		return;
	}
	start = now_seconds();
	ended = tn_job_wait_for(job, 120);
	waited = now_seconds() - start;
	tap_ok(!ended && waited >= 0.1 && waited < 5,
		"wait_for: times out on a blocked job (%.3f s for 120 ms)",
		waited);
	tap_ok(!tn_job_wait_for(job, 0), "wait_for: 0 ms, still running");
	gate_open(&staged.gate);
	start = now_seconds();
	ended = tn_job_wait_for(job, 10000);
	tap_ok(ended && now_seconds() - start < 5 && staged.result == 1234,
		"wait_for: returns true once it ended, without waiting the "
		"whole timeout");
	tap_ok(tn_job_wait_for(job, 0), "wait_for: 0 ms on an ended job");
	tn_job_destroy(job);
	gate_fini(&staged.gate);
}

/* ---- several jobs at once ---- */

#define PARALLEL_JOBS 6

struct summing {
	pthread_barrier_t *all_running;	/* every job reaches it together */
	uint64_t n;
	uint64_t sum;			/* the result: 1 + ... + n */
	pthread_t thread;
};

static int run_summing(struct tn_job *job, void *data, struct tn_error *err)
{
	struct summing *summing = data;

	(void) err;
	summing->thread = pthread_self();
	/* Only jobs that run at the same time get past this together. */
	pthread_barrier_wait(summing->all_running);
	for (uint64_t i = 1; i <= summing->n; i++) {
		summing->sum += i;
		if (i % 1000 == 0)
			tn_job_set_progress(job, (double) i /
				(double) summing->n, i);
	}
	return 0;
}

static const struct tn_job_class summing_class = {
	.name = "summing",
	.run = run_summing,
};

static void test_parallel(void)
{
	struct summing sums[PARALLEL_JOBS];
	struct tn_job *jobs[PARALLEL_JOBS];
	pthread_barrier_t barrier;
	struct tn_error err;
	bool right = true, distinct = true;

	pthread_barrier_init(&barrier, NULL, PARALLEL_JOBS);
	for (int i = 0; i < PARALLEL_JOBS; i++) {
		sums[i] = (struct summing) {
			.all_running = &barrier,
			.n = 100000 + (uint64_t) i * 777,
		};
		if (tn_job_start(&summing_class, &sums[i], &jobs[i], &err)) {
			/* The barrier would never open: nothing more. */
			tap_ok(false, "parallel: job %d starts (%s)", i,
				err.message);
			return;
		}
	}
	tap_ok(true, "parallel: %d jobs start", PARALLEL_JOBS);
	for (int i = PARALLEL_JOBS - 1; i >= 0; i--) {
		struct tn_job_progress progress;
		uint64_t n = sums[i].n;

		tn_job_wait(jobs[i]);
		tn_job_get_progress(jobs[i], &progress);
		right = right && progress.state == TN_JOB_DONE &&
			sums[i].sum == n * (n + 1) / 2;
	}
	tap_ok(right, "parallel: every job has its own right result");
	for (int i = 0; i < PARALLEL_JOBS; i++) {
		distinct = distinct && !pthread_equal(sums[i].thread,
			pthread_self());
		for (int k = 0; k < i; k++)
			distinct = distinct && !pthread_equal(sums[i].thread,
				sums[k].thread);
	}
	tap_ok(distinct, "parallel: each ran on a thread of its own");
	for (int i = 0; i < PARALLEL_JOBS; i++)
		tn_job_destroy(jobs[i]);
	pthread_barrier_destroy(&barrier);
}

/* One job cancelled while another runs: only the cancelled one's thread
 * sees tn_job_current_is_cancelled(). */
static void test_current_is_per_thread(void)
{
	struct spinning cancelled, running;
	struct tn_job *a, *b;
	struct tn_error err;

	spinning_init(&cancelled, false);
	spinning_init(&running, false);
	if (!tap_ok(tn_job_start(&spinning_class, &cancelled, &a, &err) == 0 &&
		    tn_job_start(&spinning_class, &running, &b, &err) == 0,
			"per thread: two jobs start"))
		return;
	wait_started(&cancelled);
	wait_started(&running);
	tn_job_cancel(a);
	tn_job_wait(a);
	g_usleep(20000);	/* b spins on meanwhile */
	tap_ok(atomic_load(&cancelled.current_saw_cancel) &&
	       !atomic_load(&running.current_wrong) &&
	       !tn_job_has_ended(b) && !tn_job_current_is_cancelled(),
		"per thread: the cancelled job's thread sees it, the test's "
		"does not");
	tn_job_cancel(b);
	tn_job_wait(b);
	tap_ok(atomic_load(&running.current_saw_cancel),
		"per thread: the other job sees its own cancel only");
	tn_job_destroy(a);
	tn_job_destroy(b);
}

/* ---- helpers that adopt the job ---- */

struct adopted {
	struct tn_job *job;
	bool saw_job, before, after;
};

static gpointer run_helper(gpointer data)
{
	struct adopted *helper = data;

	tn_job_current_adopt(helper->job);
	helper->saw_job = tn_job_current() == helper->job;
	/* Bounded (5 s): a helper that does not see the cancel fails the
	 * check rather than hanging. */
	for (int i = 0; i < 5000 && !tn_job_current_is_cancelled(); i++)
		g_usleep(1000);
	helper->after = tn_job_current_is_cancelled();
	tn_job_current_adopt(NULL);
	return NULL;
}

/* The job hands its tn_job_current() to a helper thread, which sees
 * the job's cancel through tn_job_current_is_cancelled(), and then
 * waits for it. */
static int run_with_helper(struct tn_job *job, void *data,
		struct tn_error *err)
{
	struct adopted *helper = data;
	GThread *thread;

	(void) err;
	helper->job = tn_job_current();
	helper->before = tn_job_current_is_cancelled();
	thread = g_thread_new("helper", run_helper, helper);
	g_thread_join(thread);
	(void) job;
	return 0;
}

static void test_adopt(void)
{
	static const struct tn_job_class cls = { .name = "helped",
		.run = run_with_helper };
	struct adopted helper = { NULL, false, true, false };
	struct tn_error err;
	struct tn_job *job;

	tap_ok(tn_job_current() == NULL, "adopt: no current job on the main "
		"thread");
	if (!tap_ok(tn_job_start(&cls, &helper, &job, &err) == 0,
			"adopt: starts"))
		return;
	g_usleep(20000);
	tn_job_cancel(job);
	tn_job_wait(job);
	tap_ok(helper.job == job && helper.saw_job && !helper.before &&
		helper.after, "adopt: a helper that adopts the job's "
		"tn_job_current() sees its cancel");
	tn_job_destroy(job);
}

/* tn_job_stop_all(): every running job cancelled and waited for, the
 * jobs left to their owners; a job that does not see its cancel holds it
 * up only until the timeout. */
static int run_gated(struct tn_job *job, void *data, struct tn_error *err)
{
	(void) job;
	(void) err;
	gate_pass(data);
	return 0;
}

static const struct tn_job_class gated_class = {
	.name = "gated",
	.run = run_gated,
};

static void test_stop_all(void)
{
	struct spinning spin[2];
	struct tn_job *jobs[2];
	struct tn_job_progress progress;
	struct tn_error err;
	struct gate gate;
	struct tn_job *deaf;
	double start;
	bool started = true;

	for (int i = 0; i < 2; i++) {
		spinning_init(&spin[i], false);
		started = started && tn_job_start(&spinning_class, &spin[i],
			&jobs[i], &err) == 0 && wait_started(&spin[i]);
	}
	if (!tap_ok(started, "stop all: two jobs run"))
		return;
	tap_ok(tn_job_stop_all(5000), "stop all: every job's thread ended");
	for (int i = 0; i < 2; i++) {
		tn_job_get_progress(jobs[i], &progress);
		tap_ok(progress.state == TN_JOB_CANCELLED &&
			atomic_load(&spin[i].saw_cancel),
			"stop all: job %d cancelled, still its owner's", i);
		tn_job_destroy(jobs[i]);
	}
	tap_ok(tn_job_stop_all(5000), "stop all: none running, at once");
	gate_init(&gate);
	if (tn_job_start(&gated_class, &gate, &deaf, &err) == 0) {
		start = now_seconds();
		tap_ok(!tn_job_stop_all(200) && now_seconds() - start < 3,
			"stop all: a job deaf to its cancel, given up on after "
			"the timeout");
		gate_open(&gate);
		tn_job_destroy(deaf);
	}
	gate_fini(&gate);
}

/* ---- the end pipe: readable once a job ends, not before ---- */

static bool end_fd_readable(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, timeout_ms) == 1 && (pfd.revents & POLLIN);
}

static void test_end_fd(void)
{
	int fd = tn_job_get_end_fd();
	struct staged staged = { .result = 0 };
	struct tn_job *job;
	struct tn_error err;

	if (!tap_ok(fd >= 0 && tn_job_get_end_fd() == fd,
			"end fd: made once, the same at every call"))
		return;
	tn_job_drain_end_fd();
	gate_init(&staged.gate);
	if (!tap_ok(tn_job_start(&staged_class, &staged, &job, &err) == 0,
			"end fd: a job starts"))
		return;
	tap_ok(wait_for_items(job, 42) && !end_fd_readable(fd, 50),
		"end fd: not readable while the job runs");
	gate_open(&staged.gate);
	tap_ok(end_fd_readable(fd, 5000) && tn_job_has_ended(job),
		"end fd: readable once the job ended");
	tn_job_drain_end_fd();
	tap_ok(!end_fd_readable(fd, 0), "end fd: drained, not readable");
	tn_job_destroy(job);
	gate_fini(&staged.gate);
}

int main(void)
{
	tap_ok(!tn_job_current_is_cancelled(),
		"no job on the main thread: not cancelled");
	test_progress();
	test_class_progress();
	test_cancel(false);
	test_cancel(true);
	test_failure();
	test_destroy_running();
	test_wait_for();
	test_parallel();
	test_current_is_per_thread();
	test_adopt();
	test_stop_all();
	test_end_fd();
	return tap_done();
}
