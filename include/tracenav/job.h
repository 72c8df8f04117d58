/* job.h - slow work in the background: start, progress, cancel, result.
 *
 * Everything that may read much of a trace (the preparse that builds the
 * index, a seek that reads packets, a search, a count, a state query, an
 * export) runs as a job on a thread of its own, so that the front end's
 * input loop never waits: it polls the job's progress, redraws, and lets
 * the user cancel.
 *
 * A job is described by a class (what to run) and the caller's data,
 * which holds the job's inputs and, once it ended, its result.  The
 * rules: the thread that starts a job does not touch its data until
 * tn_job_get_progress() (or tn_job_wait()) says the job ended; the job's
 * run function does not touch what the starter keeps using.  Progress
 * goes the other way through tn_job_set_progress(), or through the
 * class's progress function reading the job's own atomics.
 */
#ifndef TRACENAV_JOB_H
#define TRACENAV_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"

struct tn_job;

enum tn_job_state {
	TN_JOB_RUNNING,
	TN_JOB_DONE,		/* run returned 0: the result is in the data */
	TN_JOB_FAILED,		/* run returned -1: message says why */
	TN_JOB_CANCELLED,	/* asked to stop, and it did */
};

/* A snapshot of a job, taken at once from any thread. */
struct tn_job_progress {
	enum tn_job_state state;
	double fraction;	/* of the work done, 0..1; < 0 when unknown */
	uint64_t items;		/* e.g. events read so far */
	double elapsed_seconds;
	double items_per_second;
	double eta_seconds;	/* < 0 when unknown */
	/* What the code the job runs says it does, when it said so with
	 * tn_job_current_set_progress() ("searching"); else empty. */
	char activity[32];
	char message[TN_ERROR_MAX];	/* the failure when FAILED */
};

struct tn_job_class {
	const char *name;	/* what it does, for progress lines
				 * ("indexing", "seeking") */
	/* Do the work on the job's thread, looking at
	 * tn_job_is_cancelled() now and then.  Returns 0 when done, or -1
	 * with err; after a cancel, whatever it returns, the job ends as
	 * cancelled. */
	int (*run)(struct tn_job *job, void *data, struct tn_error *err);
	/* Optional: fill progress->fraction and progress->items from the
	 * job's own counters; called from any thread, while it runs. */
	void (*progress)(void *data, struct tn_job_progress *progress);
	/* Optional: free data; called by tn_job_destroy() after the run
	 * ended. */
	void (*free)(void *data);
};

/* Start running cls->run(data) on a new thread.  Returns 0 and sets
 * *out, or -1 with err (no thread could be started; data is not freed
 * then). */
int tn_job_start(const struct tn_job_class *cls, void *data,
		struct tn_job **out, struct tn_error *err);

/* For the run function: whether a cancel was asked for. */
bool tn_job_is_cancelled(const struct tn_job *job);

/* For code that a job runs without knowing it (the reading loops of the
 * core): whether the calling thread runs a job that was asked to stop.
 * false on a thread that runs no job. */
bool tn_job_current_is_cancelled(void);

/* For code that hands part of its work to helper threads: the job the
 * calling thread runs (NULL for none), and, on a helper, run as that
 * job (NULL: as none), so that the helper's reading loops see its
 * cancel.  A helper ends before the job it adopted does. */
struct tn_job *tn_job_current(void);
void tn_job_current_adopt(struct tn_job *job);

/* For the run function: publish how far it got (fraction < 0: unknown). */
void tn_job_set_progress(struct tn_job *job, double fraction,
		uint64_t items);

/* For code that a job runs without knowing it (a search run by a
 * command of the command queue): publish how far it got, and what it
 * does (activity, e.g. "searching"; NULL or "" clears it), on the job
 * of the calling thread.  Nothing on a thread that runs no job. */
void tn_job_current_set_progress(const char *activity, double fraction,
		uint64_t items);

/* A consistent snapshot of the job's state and progress. */
void tn_job_get_progress(struct tn_job *job, struct tn_job_progress *progress);

/* Whether the job ended (done, failed or cancelled). */
bool tn_job_has_ended(struct tn_job *job);

/* Ask the job to stop soon.  Harmless after it ended. */
void tn_job_cancel(struct tn_job *job);

/* Block until the job ends. */
void tn_job_wait(struct tn_job *job);

/* Block until the job ends or timeout_ms passes; true if it ended. */
bool tn_job_wait_for(struct tn_job *job, int timeout_ms);

/* The data given to tn_job_start(); read its result only once the job
 * has ended. */
void *tn_job_borrow_data(const struct tn_job *job);

/* The job's class. */
const struct tn_job_class *tn_job_borrow_class(const struct tn_job *job);

/* Cancel if running, wait for the run to end, free the data (class's
 * free) and the job.  NULL-safe. */
void tn_job_destroy(struct tn_job *job);

/* A file descriptor that becomes readable when any job of the process
 * ends, for a loop that waits for its input and for jobs at once (it
 * would otherwise see an end only at its next timeout); -1 when it
 * cannot be made.  Made at the first call: a job that ends before it is
 * not told.  tn_job_drain_end_fd() reads it empty. */
int tn_job_get_end_fd(void);
void tn_job_drain_end_fd(void);

/* Cancel every job not destroyed yet and wait until no job's thread
 * runs, or timeout_ms passes; the jobs are left as they are (not
 * freed), for a process that ends without freeing what it holds
 * (tn_runtime_frees_at_exit()).  true if every job's thread ended.  Not
 * from a job's thread. */
bool tn_job_stop_all(int timeout_ms);

/* The CPU time the calling thread took so far, in seconds (what a job's
 * threads cost, for benchmarks). */
double tn_job_thread_cpu_seconds(void);

/* ---- fan-outs: a job's helper threads ----
 *
 * Work split over threads (the slices of a search, the parts of a read)
 * goes through one helper: each of `count` helpers runs fn(fanout,
 * data, i) on a thread of its own that adopts the job of the thread
 * that started it (tn_job_current()), so that its reading loops see a
 * cancel, and that starts with the signals the front end takes
 * blocked, as a job's thread does.  The first failure wins: its
 * message is the fan-out's, and tn_fanout_should_stop() tells the
 * others to stop early.  Helpers may add to a count of items done,
 * which the job's progress function can read (tn_fanout_get_items()). */
struct tn_fanout;

typedef int (*tn_fanout_fn)(struct tn_fanout *fanout, void *data,
		unsigned i, struct tn_error *err);

/* Start helpers 0 .. count - 1 and return at once.  A helper that
 * cannot be started counts as a failure (the others run).  Returns 0
 * and *out, or -1 with err when none could be started (nothing to
 * join then). */
int tn_fanout_start(unsigned count, tn_fanout_fn fn, void *data,
		struct tn_fanout **out, struct tn_error *err);

/* For the starter of tn_fanout_start(), which works or polls
 * meanwhile: block until every started helper's fn returned, or
 * timeout_ms passes; true if they all did (tn_fanout_join() then waits
 * only for their threads to exit). */
bool tn_fanout_wait_for(struct tn_fanout *fanout, int timeout_ms);

/* Wait for every helper and free the fan-out.  Returns 0, or -1 with
 * the first failure in err.  NULL-safe (returns 0). */
int tn_fanout_join(struct tn_fanout *fanout, struct tn_error *err);

/* Run fn for i = 0 .. count - 1, helper 0 on the calling thread and the
 * others on helper threads, and wait for them all.  Returns 0, or -1
 * with the first failure in err. */
int tn_fanout_run(unsigned count, tn_fanout_fn fn, void *data,
		struct tn_error *err);

/* Record a failure (for work done beside the helpers); the first one
 * wins.  Any thread. */
void tn_fanout_fail(struct tn_fanout *fanout, const struct tn_error *err);

/* Whether a helper failed, or the job they adopted was cancelled: a
 * helper's cue to stop.  Any thread. */
bool tn_fanout_should_stop(const struct tn_fanout *fanout);

/* Add n to the items done, and read their sum.  Any thread. */
void tn_fanout_add_items(struct tn_fanout *fanout, uint64_t n);
uint64_t tn_fanout_get_items(const struct tn_fanout *fanout);

#endif
