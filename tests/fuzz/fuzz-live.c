/* fuzz-live.c - libFuzzer harness of the relay daemon's answers (the
 * client side of LTTng's live protocol: src/core/live-viewer.c).
 *
 * The input is what a relay daemon sends, read through a socket pair
 * (its first 256 KiB: what the pair holds unread) in one conversation
 * as the live mirror has it: list the sessions, attach to the first,
 * ask for new streams, then for each stream announced (at most 8) its
 * metadata when it is a metadata stream, else its next index and, when
 * the index says a packet is ready, the packet; until an answer fails.
 *
 * Checks: each call returns 0 or -1, -1 with a message and nothing
 * left allocated in what it gives; the lists it gives hold at most the
 * 100,000 items the protocol allows, each text NUL-terminated within
 * its field; a packet received is as long as its index says. */
#include <sys/socket.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "src/core/live-viewer.h"

#define MAX_ANSWERS (256 * 1024)
#define MAX_STREAMS 8

/* A viewer reading data: the relay daemon's end written and shut
 * (the viewer's commands still go to it, unread). */
static bool open_viewer(struct tn_viewer *viewer, int *relay_fd,
		const uint8_t *data, size_t size)
{
	int fds[2];
	int room = MAX_ANSWERS * 2;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds))
		return false;
	setsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &room, sizeof(room));
	setsockopt(fds[0], SOL_SOCKET, SO_RCVBUF, &room, sizeof(room));
	setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &room, sizeof(room));
	setsockopt(fds[1], SOL_SOCKET, SO_RCVBUF, &room, sizeof(room));
	if (size > 0 && write(fds[1], data, size) != (ssize_t) size) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	shutdown(fds[1], SHUT_WR);
	viewer->fd = fds[0];
	viewer->relay = g_strdup("net://fuzz:5344");
	*relay_fd = fds[1];
	return true;
}

static void check_failed(int status, const struct tn_error *err,
		const char *what)
{
	FUZZ_CHECK(status == 0 || status == -1, "%s: status %d\n", what,
		status);
	FUZZ_CHECK(status == 0 || err->message[0], "%s: no message\n",
		what);
}

static void check_streams(int status, const GArray *streams)
{
	FUZZ_CHECK((status == 0) == (streams != NULL),
		"streams given on a failure, or none on a success\n");
	if (!streams)
		return;
	FUZZ_CHECK(streams->len <= 100000, "%u streams\n", streams->len);
	for (guint i = 0; i < streams->len; i++) {
		const struct tn_viewer_stream *s = &g_array_index(streams,
			struct tn_viewer_stream, i);

		FUZZ_CHECK(memchr(s->path, '\0', sizeof(s->path)) &&
			memchr(s->channel, '\0', sizeof(s->channel)),
			"an unterminated text\n");
	}
}

/* The next index of stream id, and its packet when ready; false when
 * the conversation is over. */
static bool fetch_packet(struct tn_viewer *viewer, uint64_t id,
		GByteArray *data)
{
	struct tn_viewer_index index;
	struct tn_error err = { .message = "" };
	uint32_t status = 0, flags = 0;
	int rc;

	rc = tn_viewer_next_index(viewer, id, &index, &err);
	check_failed(rc, &err, "next index");
	if (rc || index.status != TN_VIEWER_INDEX_OK)
		return rc == 0;
	g_byte_array_set_size(data, 0);
	err.message[0] = '\0';
	rc = tn_viewer_get_packet(viewer, id, &index, &status, &flags, data,
		&err);
	check_failed(rc, &err, "packet");
	FUZZ_CHECK(rc || status != TN_VIEWER_PACKET_OK ||
		data->len == index.packet_size / 8,
		"a packet of %u bytes, its index says %" PRIu64 " bits\n",
		data->len, index.packet_size);
	return rc == 0;
}

static void converse(struct tn_viewer *viewer)
{
	struct tn_error err = { .message = "" };
	GArray *sessions = NULL, *streams = NULL, *more = NULL;
	GByteArray *data = g_byte_array_new();
	uint64_t session = 0;
	uint32_t status = 0;
	int rc;

	rc = tn_viewer_list_sessions(viewer, &sessions, &err);
	check_failed(rc, &err, "list");
	FUZZ_CHECK((rc == 0) == (sessions != NULL), "sessions on failure\n");
	if (rc)
		goto out;
	FUZZ_CHECK(sessions->len <= 100000, "%u sessions\n", sessions->len);
	for (guint i = 0; i < sessions->len; i++) {
		const struct tn_viewer_session *s = &g_array_index(sessions,
			struct tn_viewer_session, i);

		FUZZ_CHECK(memchr(s->host, '\0', sizeof(s->host)) &&
			memchr(s->name, '\0', sizeof(s->name)),
			"an unterminated session text\n");
	}
	if (sessions->len)
		session = g_array_index(sessions, struct tn_viewer_session,
			0).id;
	rc = tn_viewer_attach(viewer, session, &status, &streams, &err);
	check_failed(rc, &err, "attach");
	check_streams(rc, streams);
	if (rc)
		goto out;
	rc = tn_viewer_new_streams(viewer, session, &status, &more, &err);
	check_failed(rc, &err, "new streams");
	check_streams(rc, more);
	if (rc)
		goto out;
	for (guint i = 0; i < streams->len && i < MAX_STREAMS; i++) {
		const struct tn_viewer_stream *s = &g_array_index(streams,
			struct tn_viewer_stream, i);

		if (s->metadata) {
			g_byte_array_set_size(data, 0);
			err.message[0] = '\0';
			rc = tn_viewer_get_metadata(viewer, s->id, &status,
				data, &err);
			check_failed(rc, &err, "metadata");
			if (rc)
				break;
		} else if (!fetch_packet(viewer, s->id, data)) {
			break;
		}
	}
out:
	if (sessions)
		g_array_free(sessions, TRUE);
	if (streams)
		g_array_free(streams, TRUE);
	if (more)
		g_array_free(more, TRUE);
	g_byte_array_free(data, TRUE);
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	struct tn_viewer viewer = { .fd = -1 };
	int relay_fd;
	double clock;

	if (size > MAX_ANSWERS)
		size = MAX_ANSWERS;
	if (!open_viewer(&viewer, &relay_fd, data, size))
		return;
	clock = fuzz_clock_start();
	converse(&viewer);
	fuzz_clock_stop(clock);
	tn_viewer_close(&viewer);
	close(relay_fd);
}
