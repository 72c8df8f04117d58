/* live-viewer.h - the client side of the LTTng relay daemon's live
 * protocol, version 2.4 (the one babeltrace2 2.0 speaks, which every
 * later relay daemon serves): commands and their answers, in network
 * byte order over one TCP connection.  Used by the live mirror
 * (tracenav/live-mirror.h).
 *
 * Each call sends a command and waits for its whole answer.  It returns
 * 0, or -1 with err when the connection broke or the answer makes no
 * sense: the connection is then of no more use.  The relay daemon's
 * own status codes come back as they are (TN_VIEWER_*).
 */
#ifndef TRACENAV_LIVE_VIEWER_H
#define TRACENAV_LIVE_VIEWER_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"

/* Flags of an index or a packet: fetch the metadata, or the new
 * streams, first. */
#define TN_VIEWER_FLAG_NEW_METADATA 1u
#define TN_VIEWER_FLAG_NEW_STREAM 2u

enum {	/* attach */
	TN_VIEWER_ATTACH_OK = 1, TN_VIEWER_ATTACH_ALREADY = 2,
	TN_VIEWER_ATTACH_UNKNOWN = 3, TN_VIEWER_ATTACH_NOT_LIVE = 4,
};
enum {	/* next index */
	TN_VIEWER_INDEX_OK = 1, TN_VIEWER_INDEX_RETRY = 2,
	TN_VIEWER_INDEX_HUP = 3, TN_VIEWER_INDEX_ERR = 4,
	TN_VIEWER_INDEX_INACTIVE = 5, TN_VIEWER_INDEX_EOF = 6,
};
enum {	/* packet */
	TN_VIEWER_PACKET_OK = 1, TN_VIEWER_PACKET_RETRY = 2,
	TN_VIEWER_PACKET_ERR = 3, TN_VIEWER_PACKET_EOF = 4,
};
enum {	/* metadata */
	TN_VIEWER_METADATA_OK = 1, TN_VIEWER_METADATA_NONE = 2,
	TN_VIEWER_METADATA_ERR = 3, TN_VIEWER_METADATA_HUP = 4,
};
enum {	/* new streams */
	TN_VIEWER_STREAMS_OK = 1, TN_VIEWER_STREAMS_NONE = 2,
	TN_VIEWER_STREAMS_ERR = 3, TN_VIEWER_STREAMS_HUP = 4,
};

struct tn_viewer {
	int fd;
	char *relay;		/* net://HOST:PORT, for messages */
};

struct tn_viewer_session {
	uint64_t id;
	uint32_t live_timer_us;
	uint32_t clients;
	uint32_t streams;
	char host[65];
	char name[256];
};

struct tn_viewer_stream {
	uint64_t id;
	uint64_t trace_id;	/* the streams of one trace share it */
	bool metadata;		/* its trace's metadata stream */
	char path[4097];	/* the trace's directory, relative */
	char channel[256];	/* the stream file's name */
};

struct tn_viewer_index {
	uint64_t packet_size;	/* bits */
	uint64_t content_size;	/* bits */
	uint64_t timestamp_begin, timestamp_end;	/* clock cycles */
	uint64_t events_discarded;
	uint64_t stream_class;
	uint64_t offset;	/* in the relay daemon's file: for get_packet */
	uint32_t status;
	uint32_t flags;
};

/* Connect to relay (a live URL's relay part, "net://HOST:PORT"), say
 * hello and open a viewer session.  Returns 0 and *viewer, or -1 with
 * err (no relay daemon there: what to check). */
int tn_viewer_connect(const char *relay, struct tn_viewer *viewer,
		struct tn_error *err);

/* Unblock a call waiting on another thread (it then fails). */
void tn_viewer_shutdown(struct tn_viewer *viewer);
void tn_viewer_close(struct tn_viewer *viewer);

/* *out: struct tn_viewer_session, in the relay daemon's order. */
int tn_viewer_list_sessions(struct tn_viewer *viewer, GArray **out,
		struct tn_error *err);

/* Attach to session id from its beginning; *status, and *streams
 * (struct tn_viewer_stream) when it is TN_VIEWER_ATTACH_OK. */
int tn_viewer_attach(struct tn_viewer *viewer, uint64_t id,
		uint32_t *status, GArray **streams, struct tn_error *err);

/* The streams added since (*streams: struct tn_viewer_stream). */
int tn_viewer_new_streams(struct tn_viewer *viewer, uint64_t id,
		uint32_t *status, GArray **streams, struct tn_error *err);

/* The metadata of the metadata stream id not fetched yet, appended to
 * data when *status is TN_VIEWER_METADATA_OK. */
int tn_viewer_get_metadata(struct tn_viewer *viewer, uint64_t id,
		uint32_t *status, GByteArray *data, struct tn_error *err);

int tn_viewer_next_index(struct tn_viewer *viewer, uint64_t id,
		struct tn_viewer_index *index, struct tn_error *err);

/* The packet of index, appended to data when *status is
 * TN_VIEWER_PACKET_OK. */
int tn_viewer_get_packet(struct tn_viewer *viewer, uint64_t id,
		const struct tn_viewer_index *index, uint32_t *status,
		uint32_t *flags, GByteArray *data, struct tn_error *err);

#endif
