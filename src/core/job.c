/* job.c - slow work in the background (see job.h).
 *
 * One thread per job.  The state and the published progress are behind
 * a pthread mutex (not a GMutex: ThreadSanitizer sees pthread locks, and
 * the test suite runs under it); the cancel flag is an atomic that the
 * reading loops poll.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "tracenav/core.h"
#include "tracenav/job.h"
#include "job-private.h"

struct tn_job {
	const struct tn_job_class *cls;
	void *data;
	pthread_t thread;
	atomic_bool cancel;
	struct timespec start;

	pthread_mutex_t lock;	/* guards what follows */
	pthread_cond_t ended;
	enum tn_job_state state;
	double fraction;
	uint64_t items;
	double end_seconds;	/* elapsed at the end */
	char activity[32];
	char message[TN_ERROR_MAX];

	struct tn_job *prev_live, *next_live;	/* under live_lock */
};

/* The jobs not destroyed yet, for tn_job_stop_all(), and how many job
 * threads still run. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t live_ended = PTHREAD_COND_INITIALIZER;
static struct tn_job *live_jobs;
static unsigned live_threads;

static void add_live(struct tn_job *job)
{
	pthread_mutex_lock(&live_lock);
	job->next_live = live_jobs;
	if (live_jobs)
		live_jobs->prev_live = job;
	live_jobs = job;
	live_threads++;
	pthread_mutex_unlock(&live_lock);
}

static void remove_live(struct tn_job *job)
{
	pthread_mutex_lock(&live_lock);
	if (job->prev_live)
		job->prev_live->next_live = job->next_live;
	else
		live_jobs = job->next_live;
	if (job->next_live)
		job->next_live->prev_live = job->prev_live;
	pthread_mutex_unlock(&live_lock);
}

/* The pipe of tn_job_get_end_fd(): both ends -1 until made. */
static pthread_once_t end_pipe_once = PTHREAD_ONCE_INIT;
static int end_pipe[2] = { -1, -1 };
static atomic_int end_write_fd = -1;

static void make_end_pipe(void)
{
	if (pipe(end_pipe))
		return;
	for (int i = 0; i < 2; i++) {
		fcntl(end_pipe[i], F_SETFD, FD_CLOEXEC);
		fcntl(end_pipe[i], F_SETFL, O_NONBLOCK);
	}
	atomic_store(&end_write_fd, end_pipe[1]);
}

int tn_job_get_end_fd(void)
{
	pthread_once(&end_pipe_once, make_end_pipe);
	return end_pipe[0];
}

void tn_job_drain_end_fd(void)
{
	char buf[64];
	int fd = tn_job_get_end_fd();

	while (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
		;
}

/* Tell the loop waiting on tn_job_get_end_fd(), if any. */
static void tell_end(void)
{
	int fd = atomic_load(&end_write_fd);
	ssize_t written;

	if (fd < 0)
		return;
	/* A full pipe (EAGAIN) has told the loop already. */
	written = write(fd, "", 1);
	(void) written;
}

/* The last thing a job's thread does: it touches the job no more. */
static void thread_ended(void)
{
	pthread_mutex_lock(&live_lock);
	if (--live_threads == 0)
		pthread_cond_broadcast(&live_ended);
	pthread_mutex_unlock(&live_lock);
}

static const int asking_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT,
	SIGTTIN, SIGTTOU, SIGPIPE,
};

/* The job the calling thread runs, for tn_job_current_is_cancelled(). */
static _Thread_local struct tn_job *current_job;

void tn_job_block_asking_signals(sigset_t *saved)
{
	sigset_t asks;

	sigemptyset(&asks);
	for (size_t i = 0; i < G_N_ELEMENTS(asking_signals); i++)
		sigaddset(&asks, asking_signals[i]);
	pthread_sigmask(SIG_BLOCK, &asks, saved);
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double) (now.tv_sec - start->tv_sec) +
		(double) (now.tv_nsec - start->tv_nsec) / 1e9;
}

static void *run_job(void *arg)
{
	struct tn_job *job = arg;
	struct tn_error err;
	int status;

	tn_error_clear(&err);
	current_job = job;
	status = job->cls->run(job, job->data, &err);
	current_job = NULL;
	/* What libbabeltrace2 may still hold for this thread. */
	tn_core_thread_cleanup();
	pthread_mutex_lock(&job->lock);
	if (atomic_load(&job->cancel))
		job->state = TN_JOB_CANCELLED;
	else if (status)
		job->state = TN_JOB_FAILED;
	else
		job->state = TN_JOB_DONE;
	if (job->state == TN_JOB_FAILED)
		snprintf(job->message, sizeof(job->message), "%s",
			err.message[0] ? err.message : "failed");
	job->end_seconds = seconds_since(&job->start);
	pthread_cond_broadcast(&job->ended);
	pthread_mutex_unlock(&job->lock);
	tell_end();
	thread_ended();
	return NULL;
}

int tn_job_start(const struct tn_job_class *cls, void *data,
		struct tn_job **out, struct tn_error *err)
{
	struct tn_job *job = g_new0(struct tn_job, 1);
	sigset_t saved;
	int status;

	job->cls = cls;
	job->data = data;
	job->fraction = -1;
	atomic_init(&job->cancel, false);
	pthread_mutex_init(&job->lock, NULL);
	pthread_cond_init(&job->ended, NULL);
	job->state = TN_JOB_RUNNING;
	clock_gettime(CLOCK_MONOTONIC, &job->start);
	/* The signals that ask the program something (Ctrl-C, a resize,
	 * a stop) are the front end's thread's to take: the job's thread
	 * starts with them blocked.  Crashes still reach their handlers. */
	tn_job_block_asking_signals(&saved);
	add_live(job);
	status = pthread_create(&job->thread, NULL, run_job, job);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (status) {
		remove_live(job);
		thread_ended();
		tn_error_set(err, "cannot start a thread for %s: %s",
			cls->name, strerror(status));
		pthread_mutex_destroy(&job->lock);
		pthread_cond_destroy(&job->ended);
		g_free(job);
		return -1;
	}
	*out = job;
	return 0;
}

bool tn_job_is_cancelled(const struct tn_job *job)
{
	return atomic_load_explicit(&job->cancel, memory_order_relaxed);
}

struct tn_job *tn_job_current(void)
{
	return current_job;
}

void tn_job_current_adopt(struct tn_job *job)
{
	current_job = job;
}

bool tn_job_current_is_cancelled(void)
{
	return current_job && tn_job_is_cancelled(current_job);
}

void tn_job_set_progress(struct tn_job *job, double fraction, uint64_t items)
{
	pthread_mutex_lock(&job->lock);
	job->fraction = fraction;
	job->items = items;
	pthread_mutex_unlock(&job->lock);
}

void tn_job_current_set_progress(const char *activity, double fraction,
		uint64_t items)
{
	struct tn_job *job = current_job;

	if (!job)
		return;
	pthread_mutex_lock(&job->lock);
	snprintf(job->activity, sizeof(job->activity), "%s",
		activity ? activity : "");
	job->fraction = fraction;
	job->items = items;
	pthread_mutex_unlock(&job->lock);
}

void tn_job_get_progress(struct tn_job *job, struct tn_job_progress *progress)
{
	memset(progress, 0, sizeof(*progress));
	pthread_mutex_lock(&job->lock);
	progress->state = job->state;
	progress->fraction = job->fraction;
	progress->items = job->items;
	progress->elapsed_seconds = job->state == TN_JOB_RUNNING ?
		seconds_since(&job->start) : job->end_seconds;
	snprintf(progress->activity, sizeof(progress->activity), "%s",
		job->activity);
	snprintf(progress->message, sizeof(progress->message), "%s",
		job->message);
	pthread_mutex_unlock(&job->lock);
	/* The class's own counters, where it keeps them (lock-free). */
	if (progress->state == TN_JOB_RUNNING && job->cls->progress)
		job->cls->progress(job->data, progress);
	if (progress->state == TN_JOB_DONE)
		progress->fraction = 1;
	if (progress->elapsed_seconds > 0)
		progress->items_per_second = (double) progress->items /
			progress->elapsed_seconds;
	if (progress->state == TN_JOB_DONE)
		progress->eta_seconds = 0;
	else if (progress->state == TN_JOB_RUNNING && progress->fraction > 0)
		progress->eta_seconds = progress->elapsed_seconds *
			(1 - progress->fraction) / progress->fraction;
	else
		progress->eta_seconds = -1;
}

bool tn_job_has_ended(struct tn_job *job)
{
	bool ended;

	pthread_mutex_lock(&job->lock);
	ended = job->state != TN_JOB_RUNNING;
	pthread_mutex_unlock(&job->lock);
	return ended;
}

void tn_job_cancel(struct tn_job *job)
{
	atomic_store(&job->cancel, true);
}

void tn_job_wait(struct tn_job *job)
{
	pthread_mutex_lock(&job->lock);
	while (job->state == TN_JOB_RUNNING)
		pthread_cond_wait(&job->ended, &job->lock);
	pthread_mutex_unlock(&job->lock);
}

void tn_job_deadline(struct timespec *deadline, int timeout_ms)
{
	clock_gettime(CLOCK_REALTIME, deadline);
	deadline->tv_sec += timeout_ms / 1000;
	deadline->tv_nsec += (long) (timeout_ms % 1000) * 1000000L;
	if (deadline->tv_nsec >= 1000000000L) {
		deadline->tv_sec++;
		deadline->tv_nsec -= 1000000000L;
	}
}

bool tn_job_wait_for(struct tn_job *job, int timeout_ms)
{
	struct timespec deadline;
	bool ended;

	tn_job_deadline(&deadline, timeout_ms);
	pthread_mutex_lock(&job->lock);
	while (job->state == TN_JOB_RUNNING &&
	       pthread_cond_timedwait(&job->ended, &job->lock,
			&deadline) != ETIMEDOUT)
		;
	ended = job->state != TN_JOB_RUNNING;
	pthread_mutex_unlock(&job->lock);
	return ended;
}

void *tn_job_borrow_data(const struct tn_job *job)
{
	return job->data;
}

const struct tn_job_class *tn_job_borrow_class(const struct tn_job *job)
{
	return job->cls;
}

void tn_job_destroy(struct tn_job *job)
{
	if (!job)
		return;
	remove_live(job);
	tn_job_cancel(job);
	pthread_join(job->thread, NULL);
	if (job->cls->free)
		job->cls->free(job->data);
	pthread_mutex_destroy(&job->lock);
	pthread_cond_destroy(&job->ended);
	g_free(job);
}

bool tn_job_stop_all(int timeout_ms)
{
	struct timespec deadline;
	bool stopped;

	tn_job_deadline(&deadline, timeout_ms);
	pthread_mutex_lock(&live_lock);
	for (struct tn_job *job = live_jobs; job; job = job->next_live)
		tn_job_cancel(job);
	while (live_threads > 0 && pthread_cond_timedwait(&live_ended,
			&live_lock, &deadline) != ETIMEDOUT)
		;
	stopped = live_threads == 0;
	pthread_mutex_unlock(&live_lock);
	return stopped;
}

double tn_job_thread_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}
