/* guard.c - what keeps the user's terminal usable whatever happens while
 * the screen is ours: the signals that end the program, crashes, and
 * writes on stderr.
 *
 * SIGINT, SIGTERM and SIGHUP only set a flag that the main loop sees
 * (it waits for keys with a timeout), so the screen is restored the
 * normal way; a terminal that hung up without a SIGHUP for us counts as
 * one (tn_tui_guard_hangup()).  A crash (SIGSEGV, SIGABRT...) restores
 * it from the signal handler, then lets the previous handler (the
 * default, or a sanitizer's) do its job.  A crash on another thread
 * (libbabeltrace2 aborting in a background job's reader) asks the main
 * thread, which draws, to restore the screen (RESTORE_SIGNAL) and waits
 * for it: ncurses restoring it on one thread while the other draws could
 * crash again and leave the terminal raw.  The crash then goes on in its
 * own thread, so that a sanitizer reports where it happened.  Libraries may write on stderr
 * (libbabeltrace2 logs errors of corrupt traces there), which would tear
 * the screen: a terminal stderr goes to a temporary file that is copied
 * back afterwards.
 */
#include <curses.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tui-private.h"

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static const int crash_signals[] = {
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
};

/* Process-wide, as signal handlers are. */
static struct sigaction saved_stop[G_N_ELEMENTS(stop_signals)];
static struct sigaction saved_crash[G_N_ELEMENTS(crash_signals)];
static volatile sig_atomic_t caught;
/* Read and written by the handlers of several threads: lock-free
 * atomics, which signal handlers may use. */
static atomic_int screen_up;
/* How a crash on another thread has the main one restore the screen. */
#define RESTORE_SIGNAL SIGRTMIN
static pthread_t main_thread;	/* the one that draws */
static struct sigaction saved_restore;
static atomic_int restored;
static int real_stderr = -1;	/* the terminal, while stderr is captured */
static FILE *captured;		/* what was written on stderr meanwhile */

static void on_stop(int signo)
{
	caught = signo;
}

/* Copy what was captured to the real stderr and point stderr back at
 * it; only async-signal-safe calls (it also runs in on_crash). */
static void give_back_stderr(void)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if (real_stderr < 0)
		return;
	fd = fileno(captured);
	dup2(real_stderr, STDERR_FILENO);
	close(real_stderr);
	real_stderr = -1;
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(STDERR_FILENO, buf, (size_t) n) != n)
			break;
}

/* The terminal given back: the normal screen, stderr.  endwin() is not
 * async-signal-safe, but the process is dying and a terminal left raw
 * in the alternate screen is worse. */
static void restore_screen(void)
{
	if (atomic_exchange(&screen_up, 0))
		endwin();
	give_back_stderr();
}

/* On the main thread, asked by a crash on another one: the screen
 * restored, it stops there (drawing again would take the screen back)
 * until the crash ends the process. */
static void on_restore(int signo)
{
	(void) signo;
	restore_screen();
	atomic_store(&restored, 1);
	for (;;)
		pause();
}

static void on_crash(int signo)
{
	/* Another thread: the main one restores the screen (a second at
	 * most to begin, then this one does).  Once it has begun (the
	 * screen is no longer up), it is waited for until it is done (10 s
	 * at most): what this thread writes before then goes to the
	 * alternate screen, which endwin() then leaves, or to stderr while
	 * it is still captured. */
	if (atomic_load(&screen_up) &&
	    !pthread_equal(pthread_self(), main_thread) &&
	    pthread_kill(main_thread, RESTORE_SIGNAL) == 0) {
		struct timespec pause = { 0, 5 * 1000 * 1000 };

		for (int i = 0; i < 200 && !atomic_load(&restored) &&
		     atomic_load(&screen_up); i++)
			nanosleep(&pause, NULL);
		for (int i = 0; i < 2000 && !atomic_load(&restored) &&
		     !atomic_load(&screen_up); i++)
			nanosleep(&pause, NULL);
	}
	restore_screen();
	/* libbabeltrace2 asserts on some damage it does not check (its
	 * message is above): say what to do instead. */
	if (signo == SIGABRT) {
		static const char text[] = "tracenav: aborted while reading "
			"the trace (libbabeltrace2's message is above): it is "
			"damaged in a way the reader does not check; tracenav "
			"--dump prints the events before the damage\n";

		if (write(STDERR_FILENO, text, sizeof(text) - 1) < 0)
			(void) 0;	/* nothing more can be done */
	}
	for (size_t i = 0; i < G_N_ELEMENTS(crash_signals); i++)
		if (crash_signals[i] == signo)
			sigaction(signo, &saved_crash[i], NULL);
	raise(signo);	/* delivered to the previous handler on return */
}

void tn_tui_guard_begin(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked read returns at once.  Installed before
	 * newterm(), which then leaves these signals to us (ncurses only
	 * takes those whose handler is the default). */
	sa.sa_handler = on_stop;
	caught = 0;
	for (size_t i = 0; i < G_N_ELEMENTS(stop_signals); i++)
		sigaction(stop_signals[i], &sa, &saved_stop[i]);
	sa.sa_handler = on_crash;
	for (size_t i = 0; i < G_N_ELEMENTS(crash_signals); i++)
		sigaction(crash_signals[i], &sa, &saved_crash[i]);
	main_thread = pthread_self();
	atomic_store(&restored, 0);
	sa.sa_handler = on_restore;
	sigaction(RESTORE_SIGNAL, &sa, &saved_restore);
}

void tn_tui_guard_screen(bool up)
{
	atomic_store(&screen_up, up);
	if (!up || !isatty(STDERR_FILENO) || real_stderr >= 0)
		return;
	captured = tmpfile();
	if (!captured)
		return;
	fflush(stderr);
	real_stderr = dup(STDERR_FILENO);
	if (real_stderr >= 0 &&
			dup2(fileno(captured), STDERR_FILENO) >= 0)
		return;
	if (real_stderr >= 0)
		close(real_stderr);
	real_stderr = -1;
	fclose(captured);
	captured = NULL;
}

int tn_tui_guard_caught(void)
{
	return caught;
}

void tn_tui_guard_forget(void)
{
	caught = 0;
}

void tn_tui_guard_hangup(void)
{
	if (!caught)
		caught = SIGHUP;
}

void tn_tui_guard_end(void)
{
	atomic_store(&screen_up, 0);
	fflush(stderr);
	give_back_stderr();
	if (captured)
		fclose(captured);
	captured = NULL;
	for (size_t i = 0; i < G_N_ELEMENTS(crash_signals); i++)
		sigaction(crash_signals[i], &saved_crash[i], NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(stop_signals); i++)
		sigaction(stop_signals[i], &saved_stop[i], NULL);
	sigaction(RESTORE_SIGNAL, &saved_restore, NULL);
}
