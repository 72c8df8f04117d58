/* fanout.c - a job's helper threads (see job.h): started together,
 * each adopting the starter's job, the first failure kept, their items
 * summed, and the helpers still running counted for a starter that
 * waits for them while it polls.
 *
 * Threads are pthreads and the shared counters C11 atomics, as
 * everywhere in the core: ThreadSanitizer sees both.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "tracenav/core.h"
#include "tracenav/job.h"
#include "job-private.h"

struct helper {
	struct tn_fanout *fanout;
	unsigned i;
	pthread_t thread;
	bool started;
};

struct tn_fanout {
	tn_fanout_fn fn;
	void *data;
	struct tn_job *job;		/* the starter's, adopted */
	unsigned count;
	struct helper *helpers;
	atomic_bool failed;
	_Atomic uint64_t items;
	pthread_mutex_t lock;		/* guards what follows */
	char message[TN_ERROR_MAX];
	unsigned running;		/* started helpers whose fn runs */
	pthread_cond_t returned;	/* running went down */
};

void tn_fanout_fail(struct tn_fanout *fanout, const struct tn_error *err)
{
	pthread_mutex_lock(&fanout->lock);
	if (!fanout->message[0])
		snprintf(fanout->message, sizeof(fanout->message), "%s",
			err->message[0] ? err->message : "failed");
	pthread_mutex_unlock(&fanout->lock);
	atomic_store(&fanout->failed, true);
}

bool tn_fanout_should_stop(const struct tn_fanout *fanout)
{
	return atomic_load_explicit(&fanout->failed, memory_order_relaxed) ||
		(fanout->job && tn_job_is_cancelled(fanout->job));
}

void tn_fanout_add_items(struct tn_fanout *fanout, uint64_t n)
{
	atomic_fetch_add_explicit(&fanout->items, n, memory_order_relaxed);
}

uint64_t tn_fanout_get_items(const struct tn_fanout *fanout)
{
	return atomic_load_explicit(&fanout->items, memory_order_relaxed);
}

static void run_helper(struct tn_fanout *fanout, unsigned i)
{
	struct tn_error err;

	tn_error_clear(&err);
	if (fanout->fn(fanout, fanout->data, i, &err))
		tn_fanout_fail(fanout, &err);
}

static void *helper_thread(void *arg)
{
	struct helper *helper = arg;
	struct tn_fanout *fanout = helper->fanout;

	tn_job_current_adopt(fanout->job);
	run_helper(fanout, helper->i);
	tn_job_current_adopt(NULL);
	pthread_mutex_lock(&fanout->lock);
	fanout->running--;
	pthread_cond_broadcast(&fanout->returned);
	pthread_mutex_unlock(&fanout->lock);
	/* What libbabeltrace2 may still hold for this thread. */
	tn_core_thread_cleanup();
	return NULL;
}

static struct tn_fanout *fanout_new(unsigned count, tn_fanout_fn fn,
		void *data)
{
	struct tn_fanout *fanout = g_new0(struct tn_fanout, 1);

	fanout->fn = fn;
	fanout->data = data;
	fanout->job = tn_job_current();
	fanout->count = count;
	fanout->helpers = g_new0(struct helper, count);
	atomic_init(&fanout->failed, false);
	atomic_init(&fanout->items, 0);
	pthread_mutex_init(&fanout->lock, NULL);
	pthread_cond_init(&fanout->returned, NULL);
	return fanout;
}

/* Start helpers first .. count - 1; false when none started. */
static bool start_helpers(struct tn_fanout *fanout, unsigned first)
{
	sigset_t saved;
	bool any = false;

	tn_job_block_asking_signals(&saved);
	for (unsigned i = first; i < fanout->count; i++) {
		struct helper *helper = &fanout->helpers[i];
		int status;

		helper->fanout = fanout;
		helper->i = i;
		/* Counted before it runs: it may return at once. */
		pthread_mutex_lock(&fanout->lock);
		fanout->running++;
		pthread_mutex_unlock(&fanout->lock);
		status = pthread_create(&helper->thread, NULL, helper_thread,
			helper);
		if (status) {
			struct tn_error err;

			pthread_mutex_lock(&fanout->lock);
			fanout->running--;
			pthread_mutex_unlock(&fanout->lock);
			tn_error_set(&err, "cannot start a thread: %s",
				strerror(status));
			tn_fanout_fail(fanout, &err);
			continue;
		}
		helper->started = true;
		any = true;
	}
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return any;
}

bool tn_fanout_wait_for(struct tn_fanout *fanout, int timeout_ms)
{
	struct timespec deadline;
	bool returned;

	tn_job_deadline(&deadline, timeout_ms);
	pthread_mutex_lock(&fanout->lock);
	while (fanout->running > 0 &&
	       pthread_cond_timedwait(&fanout->returned, &fanout->lock,
			&deadline) != ETIMEDOUT)
		;
	returned = fanout->running == 0;
	pthread_mutex_unlock(&fanout->lock);
	return returned;
}

int tn_fanout_join(struct tn_fanout *fanout, struct tn_error *err)
{
	int status = 0;

	if (!fanout)
		return 0;
	for (unsigned i = 0; i < fanout->count; i++)
		if (fanout->helpers[i].started)
			pthread_join(fanout->helpers[i].thread, NULL);
	if (atomic_load(&fanout->failed)) {
		tn_error_set(err, "%s", fanout->message);
		status = -1;
	}
	pthread_mutex_destroy(&fanout->lock);
	pthread_cond_destroy(&fanout->returned);
	g_free(fanout->helpers);
	g_free(fanout);
	return status;
}

int tn_fanout_start(unsigned count, tn_fanout_fn fn, void *data,
		struct tn_fanout **out, struct tn_error *err)
{
	struct tn_fanout *fanout = fanout_new(count, fn, data);

	if (count > 0 && !start_helpers(fanout, 0)) {
		tn_fanout_join(fanout, err);
		return -1;
	}
	*out = fanout;
	return 0;
}

int tn_fanout_run(unsigned count, tn_fanout_fn fn, void *data,
		struct tn_error *err)
{
	struct tn_fanout *fanout = fanout_new(count, fn, data);

	if (count > 1)
		(void) start_helpers(fanout, 1);
	if (count > 0)
		run_helper(fanout, 0);
	return tn_fanout_join(fanout, err);
}
