/* chunk-queue.h - chunks of work handed from one thread to another, in
 * order, at most a few ahead, and handed back empty to be filled again
 * (the timelines' summary: the state pass's thread fills, a helper
 * applies).  pthread's mutex and condition, which ThreadSanitizer sees
 * (GLib's queue locks with futexes it does not). */
#ifndef TRACENAV_CHUNK_QUEUE_H
#define TRACENAV_CHUNK_QUEUE_H

#include <glib.h>

struct tn_chunk_queue;

/* A queue on which at most `ahead` chunks wait to be taken. */
struct tn_chunk_queue *tn_chunk_queue_new(unsigned ahead);

/* Free q and the chunks it still holds (free_chunk on each). */
void tn_chunk_queue_free(struct tn_chunk_queue *q,
		GDestroyNotify free_chunk);

/* Hand chunk over; waits while `ahead` chunks wait already. */
void tn_chunk_queue_push(struct tn_chunk_queue *q, void *chunk);

/* The next chunk handed over; waits for one; NULL once the queue ended
 * and none is left. */
void *tn_chunk_queue_pop(struct tn_chunk_queue *q);

/* No more chunks will come. */
void tn_chunk_queue_end(struct tn_chunk_queue *q);

/* A chunk done with, to be filled again; and one to fill, NULL when
 * none was given back. */
void tn_chunk_queue_give_back(struct tn_chunk_queue *q, void *chunk);
void *tn_chunk_queue_take_back(struct tn_chunk_queue *q);

#endif
