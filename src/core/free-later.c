/* free-later.c - frees handed to a helper thread (free-later.h). */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>

#include "free-later.h"
#include "tracenav/runtime.h"

struct later {
	GDestroyNotify free_fn;
	void *data;
	struct later *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queued = PTHREAD_COND_INITIALIZER;
static struct later *first, *last;
static bool started;

static void *free_thread(void *unused)
{
	(void) unused;
	for (;;) {
		struct later *l;

		pthread_mutex_lock(&lock);
		while (!first)
			pthread_cond_wait(&queued, &lock);
		l = first;
		first = l->next;
		if (!first)
			last = NULL;
		pthread_mutex_unlock(&lock);
		l->free_fn(l->data);
		g_free(l);
	}
	return NULL;
}

/* Start the helper thread once (under lock); false when it cannot. */
static bool start_thread(void)
{
	pthread_t thread;
	sigset_t all, before;

	if (started)
		return true;
	/* The cleanup's signals go to the other threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &before);
	started = pthread_create(&thread, NULL, free_thread, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &before, NULL);
	if (started)
		pthread_detach(thread);
	return started;
}

void tn_free_later(GDestroyNotify free_fn, void *data)
{
	struct later *l;

	if (!data)
		return;
	if (tn_runtime_frees_at_exit()) {
		free_fn(data);
		return;
	}
	l = g_new(struct later, 1);
	*l = (struct later) { free_fn, data, NULL };
	pthread_mutex_lock(&lock);
	if (!start_thread()) {
		pthread_mutex_unlock(&lock);
		g_free(l);
		free_fn(data);
		return;
	}
	if (last)
		last->next = l;
	else
		first = l;
	last = l;
	pthread_cond_signal(&queued);
	pthread_mutex_unlock(&lock);
}
