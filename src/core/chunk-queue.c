/* chunk-queue.c - chunks handed from one thread to another (see
 * chunk-queue.h). */
#include <pthread.h>
#include <stdbool.h>

#include "src/core/chunk-queue.h"

struct tn_chunk_queue {
	pthread_mutex_t lock;		/* guards what follows */
	pthread_cond_t changed;		/* full or ended changed */
	unsigned ahead;
	GQueue full;			/* handed over, not taken yet */
	GQueue empty;			/* given back */
	bool ended;
};

struct tn_chunk_queue *tn_chunk_queue_new(unsigned ahead)
{
	struct tn_chunk_queue *q = g_new0(struct tn_chunk_queue, 1);

	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->changed, NULL);
	q->ahead = ahead ? ahead : 1;
	g_queue_init(&q->full);
	g_queue_init(&q->empty);
	return q;
}

void tn_chunk_queue_free(struct tn_chunk_queue *q, GDestroyNotify free_chunk)
{
	if (!q)
		return;
	g_queue_clear_full(&q->full, free_chunk);
	g_queue_clear_full(&q->empty, free_chunk);
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->changed);
	g_free(q);
}

void tn_chunk_queue_push(struct tn_chunk_queue *q, void *chunk)
{
	pthread_mutex_lock(&q->lock);
	while (q->full.length >= q->ahead)
		pthread_cond_wait(&q->changed, &q->lock);
	g_queue_push_tail(&q->full, chunk);
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->lock);
}

void *tn_chunk_queue_pop(struct tn_chunk_queue *q)
{
	void *chunk;

	pthread_mutex_lock(&q->lock);
	while (q->full.length == 0 && !q->ended)
		pthread_cond_wait(&q->changed, &q->lock);
	chunk = g_queue_pop_head(&q->full);
	/* A place is free for the pusher. */
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->lock);
	return chunk;
}

void tn_chunk_queue_end(struct tn_chunk_queue *q)
{
	pthread_mutex_lock(&q->lock);
	q->ended = true;
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->lock);
}

void tn_chunk_queue_give_back(struct tn_chunk_queue *q, void *chunk)
{
	pthread_mutex_lock(&q->lock);
	g_queue_push_tail(&q->empty, chunk);
	pthread_mutex_unlock(&q->lock);
}

void *tn_chunk_queue_take_back(struct tn_chunk_queue *q)
{
	void *chunk;

	pthread_mutex_lock(&q->lock);
	chunk = g_queue_pop_head(&q->empty);
	pthread_mutex_unlock(&q->lock);
	return chunk;
}
