/* live-viewer.c - the relay daemon's live protocol, client side (see
 * live-viewer.h). */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "live-viewer.h"

#define PROTOCOL_MAJOR 2
#define PROTOCOL_MINOR 4

enum {
	CMD_CONNECT = 1, CMD_LIST_SESSIONS = 2, CMD_ATTACH_SESSION = 3,
	CMD_GET_NEXT_INDEX = 4, CMD_GET_PACKET = 5, CMD_GET_METADATA = 6,
	CMD_GET_NEW_STREAMS = 7, CMD_CREATE_SESSION = 8,
};
#define CLIENT_COMMAND 1
#define SEEK_BEGINNING 1
#define CREATE_SESSION_OK 1

/* The sizes of the protocol's packed structures. */
#define HEADER_SIZE 16		/* data size, command, its version */
#define CONNECT_SIZE 20		/* session id, major, minor, type */
#define SESSION_SIZE (8 + 4 + 4 + 4 + 64 + 255)
#define STREAM_SIZE (8 + 8 + 4 + 4096 + 255)
#define INDEX_SIZE (7 * 8 + 4 + 4)
/* More than any relay daemon sends: a damaged answer is refused. */
#define MAX_COUNT 100000
#define MAX_DATA UINT64_C(0xffffffff)
/* What recv_append() takes room for at a time. */
#define RECV_PIECE ((guint) 1 << 20)

static void put32(uint8_t *p, uint32_t v)
{
	v = GUINT32_TO_BE(v);
	memcpy(p, &v, sizeof(v));
}

static void put64(uint8_t *p, uint64_t v)
{
	v = GUINT64_TO_BE(v);
	memcpy(p, &v, sizeof(v));
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return GUINT32_FROM_BE(v);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return GUINT64_FROM_BE(v);
}

/* A fixed-size text field, NUL-terminated into out (size + 1 bytes). */
static void get_text(char *out, const uint8_t *p, size_t size)
{
	memcpy(out, p, size);
	out[size] = '\0';
}

static int broken(struct tn_viewer *viewer, const char *what, int errnum,
		struct tn_error *err)
{
	if (errnum)
		tn_error_set(err, "the connection to the relay daemon at %s "
			"broke (%s: %s)", viewer->relay, what,
			g_strerror(errnum));
	else
		tn_error_set(err, "the relay daemon at %s closed the "
			"connection (%s)", viewer->relay, what);
	return -1;
}

static int send_all(struct tn_viewer *viewer, const uint8_t *data,
		size_t size, struct tn_error *err)
{
	while (size > 0) {
		ssize_t n = send(viewer->fd, data, size, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return broken(viewer, "send", n < 0 ? errno : 0, err);
		data += n;
		size -= (size_t) n;
	}
	return 0;
}

static int recv_all(struct tn_viewer *viewer, void *buf, size_t size,
		struct tn_error *err)
{
	uint8_t *data = buf;

	while (size > 0) {
		ssize_t n = recv(viewer->fd, data, size, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return broken(viewer, "receive", n < 0 ? errno : 0,
				err);
		data += n;
		size -= (size_t) n;
	}
	return 0;
}

/* Receive size bytes appended to data, a piece at a time: an answer
 * that announces more than it sends fails at its end without having
 * taken the memory it announced. */
static int recv_append(struct tn_viewer *viewer, GByteArray *data,
		uint64_t size, struct tn_error *err)
{
	guint old = data->len;

	if (size > MAX_DATA || size > G_MAXUINT - old) {
		tn_error_set(err, "the relay daemon at %s sent a size of %"
			G_GUINT64_FORMAT " bytes: not a live protocol answer",
			viewer->relay, size);
		return -1;
	}
	while (size > 0) {
		guint at = data->len, piece = (guint) MIN(size, RECV_PIECE);

		g_byte_array_set_size(data, at + piece);
		if (recv_all(viewer, data->data + at, piece, err)) {
			g_byte_array_set_size(data, old);
			return -1;
		}
		size -= piece;
	}
	return 0;
}

/* Send command cmd with its payload. */
static int command(struct tn_viewer *viewer, uint32_t cmd,
		const uint8_t *payload, size_t size, struct tn_error *err)
{
	uint8_t header[HEADER_SIZE];

	put64(header, size);
	put32(header + 8, cmd);
	put32(header + 12, 0);
	if (send_all(viewer, header, sizeof(header), err))
		return -1;
	return size ? send_all(viewer, payload, size, err) : 0;
}

/* "net://HOST:PORT", "net6://[ADDR]:PORT": its host and port. */
static bool split_relay(const char *relay, char **host, char **port,
		int *family)
{
	const char *rest = strstr(relay, "://"), *colon;

	*family = g_str_has_prefix(relay, "net4:") ? AF_INET :
		g_str_has_prefix(relay, "net6:") ? AF_INET6 : AF_UNSPEC;
	if (!rest)
		return false;
	rest += 3;
	colon = strrchr(rest, ':');
	if (!colon)
		return false;
	if (rest[0] == '[' && colon > rest && colon[-1] == ']')
		*host = g_strndup(rest + 1, (gsize) (colon - rest - 2));
	else
		*host = g_strndup(rest, (gsize) (colon - rest));
	*port = g_strdup(colon + 1);
	return true;
}

static int open_socket(const char *relay, int *fd, struct tn_error *err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *found, *a;
	char *host, *port;
	int family, status, errnum = 0;

	if (!split_relay(relay, &host, &port, &family)) {
		tn_error_set(err, "%s: not a relay daemon's address", relay);
		return -1;
	}
	hints.ai_family = family;
	status = getaddrinfo(host, port, &hints, &found);
	if (status) {
		tn_error_set(err, "no relay daemon answers at %s: %s", relay,
			gai_strerror(status));
		g_free(host);
		g_free(port);
		return -1;
	}
	*fd = -1;
	for (a = found; a && *fd < 0; a = a->ai_next) {
		*fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC,
			a->ai_protocol);
		if (*fd >= 0 && connect(*fd, a->ai_addr, a->ai_addrlen)) {
			errnum = errno;
			close(*fd);
			*fd = -1;
		}
	}
	freeaddrinfo(found);
	g_free(host);
	g_free(port);
	if (*fd < 0) {
		tn_error_set(err, "no relay daemon answers at %s (is "
			"lttng-relayd running there, its live port open to "
			"this machine?): %s", relay, g_strerror(errnum));
		return -1;
	}
	return 0;
}

int tn_viewer_connect(const char *relay, struct tn_viewer *viewer,
		struct tn_error *err)
{
	uint8_t hello[CONNECT_SIZE], reply[CONNECT_SIZE], created[4];

	viewer->relay = g_strdup(relay);
	viewer->fd = -1;
	if (open_socket(relay, &viewer->fd, err))
		goto fail;
	put64(hello, 0);
	put32(hello + 8, PROTOCOL_MAJOR);
	put32(hello + 12, PROTOCOL_MINOR);
	put32(hello + 16, CLIENT_COMMAND);
	if (command(viewer, CMD_CONNECT, hello, sizeof(hello), err) ||
	    recv_all(viewer, reply, sizeof(reply), err))
		goto fail;
	if (get32(reply + 8) != PROTOCOL_MAJOR) {
		tn_error_set(err, "the relay daemon at %s speaks the live "
			"protocol %u, not %d", relay, get32(reply + 8),
			PROTOCOL_MAJOR);
		goto fail;
	}
	if (command(viewer, CMD_CREATE_SESSION, NULL, 0, err) ||
	    recv_all(viewer, created, sizeof(created), err))
		goto fail;
	if (get32(created) != CREATE_SESSION_OK) {
		tn_error_set(err, "the relay daemon at %s refused a viewer "
			"session", relay);
		goto fail;
	}
	return 0;
fail:
	tn_viewer_close(viewer);
	return -1;
}

void tn_viewer_shutdown(struct tn_viewer *viewer)
{
	if (viewer->fd >= 0)
		shutdown(viewer->fd, SHUT_RDWR);
}

void tn_viewer_close(struct tn_viewer *viewer)
{
	if (viewer->fd >= 0)
		close(viewer->fd);
	viewer->fd = -1;
	g_free(viewer->relay);
	viewer->relay = NULL;
}

/* count, then that many sizes: refused when it is beyond any relay
 * daemon's. */
static int check_count(struct tn_viewer *viewer, uint32_t count,
		struct tn_error *err)
{
	if (count <= MAX_COUNT)
		return 0;
	tn_error_set(err, "the relay daemon at %s announced %u items: not a "
		"live protocol answer", viewer->relay, count);
	return -1;
}

int tn_viewer_list_sessions(struct tn_viewer *viewer, GArray **out,
		struct tn_error *err)
{
	uint8_t head[4], item[SESSION_SIZE];
	uint32_t count;

	*out = NULL;
	if (command(viewer, CMD_LIST_SESSIONS, NULL, 0, err) ||
	    recv_all(viewer, head, sizeof(head), err))
		return -1;
	count = get32(head);
	if (check_count(viewer, count, err))
		return -1;
	*out = g_array_new(FALSE, TRUE, sizeof(struct tn_viewer_session));
	for (uint32_t i = 0; i < count; i++) {
		struct tn_viewer_session s;

		if (recv_all(viewer, item, sizeof(item), err)) {
			g_array_free(*out, TRUE);
			*out = NULL;
			return -1;
		}
		s.id = get64(item);
		s.live_timer_us = get32(item + 8);
		s.clients = get32(item + 12);
		s.streams = get32(item + 16);
		get_text(s.host, item + 20, 64);
		get_text(s.name, item + 84, 255);
		g_array_append_val(*out, s);
	}
	return 0;
}

/* status, count, then count streams. */
static int recv_streams(struct tn_viewer *viewer, uint32_t *status,
		GArray **streams, struct tn_error *err)
{
	uint8_t head[8];
	uint8_t *item;
	uint32_t count;

	*streams = NULL;
	if (recv_all(viewer, head, sizeof(head), err))
		return -1;
	*status = get32(head);
	count = get32(head + 4);
	if (check_count(viewer, count, err))
		return -1;
	*streams = g_array_new(FALSE, TRUE, sizeof(struct tn_viewer_stream));
	item = g_malloc(STREAM_SIZE);
	for (uint32_t i = 0; i < count; i++) {
		struct tn_viewer_stream s;

		if (recv_all(viewer, item, STREAM_SIZE, err)) {
			g_free(item);
			g_array_free(*streams, TRUE);
			*streams = NULL;
			return -1;
		}
		s.id = get64(item);
		s.trace_id = get64(item + 8);
		s.metadata = get32(item + 16) != 0;
		get_text(s.path, item + 20, 4096);
		get_text(s.channel, item + 20 + 4096, 255);
		g_array_append_val(*streams, s);
	}
	g_free(item);
	return 0;
}

int tn_viewer_attach(struct tn_viewer *viewer, uint64_t id,
		uint32_t *status, GArray **streams, struct tn_error *err)
{
	uint8_t request[20];

	put64(request, id);
	put64(request + 8, 0);
	put32(request + 16, SEEK_BEGINNING);
	if (command(viewer, CMD_ATTACH_SESSION, request, sizeof(request),
			err))
		return -1;
	return recv_streams(viewer, status, streams, err);
}

int tn_viewer_new_streams(struct tn_viewer *viewer, uint64_t id,
		uint32_t *status, GArray **streams, struct tn_error *err)
{
	uint8_t request[8];

	put64(request, id);
	if (command(viewer, CMD_GET_NEW_STREAMS, request, sizeof(request),
			err))
		return -1;
	return recv_streams(viewer, status, streams, err);
}

int tn_viewer_get_metadata(struct tn_viewer *viewer, uint64_t id,
		uint32_t *status, GByteArray *data, struct tn_error *err)
{
	uint8_t request[8], head[12];
	uint64_t len;

	put64(request, id);
	if (command(viewer, CMD_GET_METADATA, request, sizeof(request), err) ||
	    recv_all(viewer, head, sizeof(head), err))
		return -1;
	len = get64(head);
	*status = get32(head + 8);
	if (*status != TN_VIEWER_METADATA_OK)
		return 0;
	return recv_append(viewer, data, len, err);
}

int tn_viewer_next_index(struct tn_viewer *viewer, uint64_t id,
		struct tn_viewer_index *index, struct tn_error *err)
{
	uint8_t request[8], reply[INDEX_SIZE];

	put64(request, id);
	if (command(viewer, CMD_GET_NEXT_INDEX, request, sizeof(request),
			err) || recv_all(viewer, reply, sizeof(reply), err))
		return -1;
	index->offset = get64(reply);
	index->packet_size = get64(reply + 8);
	index->content_size = get64(reply + 16);
	index->timestamp_begin = get64(reply + 24);
	index->timestamp_end = get64(reply + 32);
	index->events_discarded = get64(reply + 40);
	index->stream_class = get64(reply + 48);
	index->status = get32(reply + 56);
	index->flags = get32(reply + 60);
	return 0;
}

int tn_viewer_get_packet(struct tn_viewer *viewer, uint64_t id,
		const struct tn_viewer_index *index, uint32_t *status,
		uint32_t *flags, GByteArray *data, struct tn_error *err)
{
	uint8_t request[20], head[12];
	uint64_t len = index->packet_size / 8;

	if (len == 0 || len > MAX_DATA) {
		tn_error_set(err, "the relay daemon at %s announced a packet "
			"of %" G_GUINT64_FORMAT " bits", viewer->relay,
			index->packet_size);
		return -1;
	}
	put64(request, id);
	put64(request + 8, index->offset);
	put32(request + 16, (uint32_t) len);
	if (command(viewer, CMD_GET_PACKET, request, sizeof(request), err) ||
	    recv_all(viewer, head, sizeof(head), err))
		return -1;
	*status = get32(head);
	*flags = get32(head + 8);
	if (*status != TN_VIEWER_PACKET_OK)
		return 0;
	if (get32(head + 4) != len) {
		tn_error_set(err, "the relay daemon at %s sent %u bytes of a "
			"packet of %" G_GUINT64_FORMAT, viewer->relay,
			get32(head + 4), len);
		return -1;
	}
	return recv_append(viewer, data, len, err);
}
