/* live-mirror.h - an LTTng live session copied, as it records, into a
 * trace directory that the event list follows.
 *
 * The mirror speaks the relay daemon's live protocol itself (version
 * 2.4, as babeltrace2 2.0 does): it attaches to the session from the
 * beginning of what the relay daemon holds, then fetches the metadata
 * and every packet of every stream, and writes them as LTTng writes a
 * trace being recorded: per trace, its metadata file, a file per
 * stream and its packet index (index/STREAM.idx, CTF index 1.0), the
 * packet's bytes first, its index entry after.  So everything that
 * reads trace directories (the event list in follow mode, --batch,
 * any CTF reader) reads what has arrived, with the position, search,
 * filters and marks of a directory trace.
 *
 * One thread receives; nothing here calls libbabeltrace2.  The relay
 * daemon is polled twice a live-timer period when it has nothing new
 * (10 ms to 100 ms), the session's own pace.
 */
#ifndef TRACENAV_LIVE_MIRROR_H
#define TRACENAV_LIVE_MIRROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/live.h"

struct tn_live_mirror;

enum tn_live_mirror_state {
	TN_LIVE_MIRROR_RECEIVING,	/* attached, copying */
	TN_LIVE_MIRROR_ENDED,		/* the session was destroyed: all of
					 * it is in the directory */
	TN_LIVE_MIRROR_FAILED,		/* the connection broke (see the
					 * message): what came stays */
	TN_LIVE_MIRROR_STOPPED,		/* tn_live_mirror_stop() */
	TN_LIVE_MIRROR_RECONNECTING,	/* tn_live_mirror_reconnect() */
};

/* Attach to the session url names (url->session set) and start
 * copying it into dir, which must not exist yet (it is made, 0700, and
 * stays), or, dir NULL, into a private directory removed by
 * tn_live_mirror_destroy() (and by a signal that ends tracenav).  The
 * connection and the attach happen here: a relay daemon that cannot be
 * reached, a session it does not offer, one that another viewer holds,
 * fail at once.  Returns 0 and *out, or -1 with err saying what to
 * do. */
int tn_live_mirror_start(const struct tn_live_url *url, const char *dir,
		struct tn_live_mirror **out, struct tn_error *err);

/* The directory the session is copied into. */
const char *tn_live_mirror_get_dir(const struct tn_live_mirror *mirror);

/* Where the copy stands; with TN_LIVE_MIRROR_FAILED, message (size
 * bytes, may be NULL) says why. */
enum tn_live_mirror_state tn_live_mirror_get_state(
		struct tn_live_mirror *mirror, char *message, size_t size);

/* Packets and bytes copied so far (metadata not counted). */
uint64_t tn_live_mirror_get_packets(const struct tn_live_mirror *mirror);
uint64_t tn_live_mirror_get_bytes(const struct tn_live_mirror *mirror);

/* Whether some stream has a packet in the directory: the trace then
 * opens (its metadata is written before any packet). */
bool tn_live_mirror_has_data(const struct tn_live_mirror *mirror);

/* Wait until the session ends or the connection breaks (or, with
 * timeout_us >= 0, that long at most).  Returns the state then. */
enum tn_live_mirror_state tn_live_mirror_wait_end(
		struct tn_live_mirror *mirror, int64_t timeout_us);

/* After TN_LIVE_MIRROR_FAILED: connect to the relay daemon again, on
 * the mirror's thread (this returns at once: the state says
 * TN_LIVE_MIRROR_RECONNECTING, then RECEIVING, or FAILED again with
 * why), find the session by its name, attach from its beginning and go
 * on copying where the copy stopped: the packets and metadata it has
 * are not fetched again.  -1 with err when the copy is not
 * disconnected. */
int tn_live_mirror_reconnect(struct tn_live_mirror *mirror,
		struct tn_error *err);

/* Stop copying (the connection closed, the directory as it is) and
 * free; a private directory is removed.  NULL-safe. */
void tn_live_mirror_destroy(struct tn_live_mirror *mirror);

#endif
