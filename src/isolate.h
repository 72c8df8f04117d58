/* isolate.h - --dump and --batch read the trace in a child process, so
 * that a crash of libbabeltrace2 on damage it does not check (an
 * assertion in its decoder aborts the process: a packet size of 2^63
 * bits and more in a packet context) is said and exits 1, as any other
 * damage, instead of killing tracenav.  The child writes the output
 * itself (stdout and stderr are its parent's), so nothing is copied. */
#ifndef TRACENAV_ISOLATE_H
#define TRACENAV_ISOLATE_H

#include <sys/types.h>

/* Fork the child that does the work.  Returns 0 in the child, its pid
 * in the parent, or -1 (with errno) when there can be no child: then
 * the caller does the work itself.  Call it with stdout flushed and no
 * thread running. */
pid_t isolate_fork(void);

/* In the parent: wait for the child and give the exit status to return:
 * the child's, or, when libbabeltrace2 crashed in it (SIGABRT, SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGKILL), 1 after a line on stderr naming
 * path and the crash.  SIGINT, SIGTERM and SIGHUP sent to the parent
 * meanwhile go to the child; a child stopped by one of them or by
 * SIGPIPE stops the parent the same way, once it is gone (its files
 * cleaned up). */
int isolate_wait(pid_t child, const char *path);

#endif
