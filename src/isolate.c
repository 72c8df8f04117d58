/* isolate.c - the work of --dump and --batch in a child process (see
 * isolate.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isolate.h"
#include "tracenav/runtime.h"

/* libbabeltrace2's assertions abort(): the events printed before are
 * still in stdout's buffer, which goes out first.  fflush() is not
 * async-signal-safe: a child that aborted inside stdio would wait for
 * ever, so an alarm ends it then (the parent says it crashed all the
 * same).  The other crashes are left to the default handlers (and to
 * the sanitizers', which report them). */
static void on_abort(int signo)
{
	/* Its private directories go too (signal-safe, runtime.h). */
	tn_runtime_cleanup();
	alarm(2);
	fflush(stdout);
	signal(signo, SIG_DFL);
	raise(signo);
}

pid_t isolate_fork(void)
{
	pid_t parent = getpid();
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid != 0)
		return pid;
	/* A tracenav killed (by `timeout`, say) takes its child along. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
		_exit(1);
	signal(SIGABRT, on_abort);
	return 0;
}

/* The child the parent waits for: a signal that would end the parent
 * goes to it instead, and ends the parent once the child has cleaned up
 * after itself (its private directories, a write's temporary file) and
 * died of it. */
static volatile sig_atomic_t waited_child;

static void forward_signal(int signo)
{
	if (waited_child > 0)
		kill((pid_t) waited_child, signo);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP };

int isolate_wait(pid_t child, const char *path)
{
	struct sigaction forward = { .sa_handler = forward_signal };
	struct sigaction saved[sizeof(forwarded) / sizeof(forwarded[0])];
	int wstatus, signo, status = 0;

	waited_child = child;
	sigemptyset(&forward.sa_mask);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaction(forwarded[i], &forward, &saved[i]);
	while (waitpid(child, &wstatus, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	waited_child = 0;
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaction(forwarded[i], &saved[i], NULL);
	if (status < 0)
		return 1;
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	signo = WTERMSIG(wstatus);
	switch (signo) {
	case SIGPIPE:
	case SIGINT:
	case SIGTERM:
	case SIGHUP:
		/* What stopped the child stops the parent as it would
		 * have stopped tracenav (the handlers clean up). */
		fflush(stdout);
		raise(signo);
		return 128 + signo;
	default:
		fflush(stdout);
		fprintf(stderr, "tracenav: %s: libbabeltrace2 crashed while "
			"reading it (%s): the trace is damaged in a way that "
			"it does not check (its own message is above); what "
			"was read before was printed\n", path, strsignal(signo));
		return 1;
	}
}
