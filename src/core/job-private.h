/* job-private.h - what job.c shares with fanout.c (internal: not part
 * of the public API). */
#ifndef TRACENAV_CORE_JOB_PRIVATE_H
#define TRACENAV_CORE_JOB_PRIVATE_H

#include <signal.h>
#include <time.h>

/* Block, on the calling thread, the signals that ask the program
 * something (Ctrl-C, a resize, a stop), saving the old mask in *saved:
 * a thread started meanwhile inherits the mask, and leaves them to the
 * front end's thread.  Restore with pthread_sigmask(SIG_SETMASK). */
void tn_job_block_asking_signals(sigset_t *saved);

/* The CLOCK_REALTIME time timeout_ms from now, for
 * pthread_cond_timedwait(). */
void tn_job_deadline(struct timespec *deadline, int timeout_ms);

#endif
