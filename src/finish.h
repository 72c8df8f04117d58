/* finish.h - the end of the process, without freeing what it holds
 * (tn_runtime_frees_at_exit() says when it frees instead). */
#ifndef TRACENAV_FINISH_H
#define TRACENAV_FINISH_H

/* Stop the jobs still running (cancelled, waited for a moment), write
 * out stdout and stderr, remove the private directories and end the
 * process with status, on the spot: no exit handler runs, nothing is
 * freed.  What must be finished (the cache's save) is the caller's to
 * wait for first.  Not from a job's thread. */
void finish_process(int status) __attribute__((noreturn));

#endif
