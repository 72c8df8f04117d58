/* live-mirror.c - an LTTng live session copied into a trace directory
 * as it records (see tracenav/live-mirror.h). */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "live-viewer.h"
#include "tracenav/live-mirror.h"
#include "tracenav/runtime.h"

/* CTF index 1.0, as LTTng writes it (big-endian). */
#define INDEX_MAGIC 0xC1F1DCC1u
#define INDEX_ENTRY_SIZE 56

struct mirror_trace {
	uint64_t id;
	char *dir;
	int metadata_fd;		/* -1 until its metadata stream */
	uint64_t metadata_stream;
	bool metadata_done;		/* hung up: no more metadata */
	uint64_t metadata_bytes;	/* written */
	uint64_t metadata_skip;		/* sent again after a reconnect */
};

struct mirror_stream {
	uint64_t id;
	struct mirror_trace *trace;
	char *name;			/* its file's */
	int data_fd, index_fd;		/* -1 until its first packet */
	uint64_t offset;		/* its file's size */
	uint64_t packets;		/* written */
	uint64_t skip;			/* packets sent again after a
					 * reconnect, not fetched */
	bool hung_up;
	bool has_pending;		/* pending: an index whose packet the
					 * relay daemon had not ready yet */
	struct tn_viewer_index pending;
};

struct tn_live_mirror {
	struct tn_viewer viewer;
	struct tn_live_url url;		/* its strings owned */
	char *dir;
	bool private_dir;
	uint64_t session;
	uint64_t poll_us;
	GHashTable *traces;		/* id -> struct mirror_trace */
	GPtrArray *streams;		/* struct mirror_stream (data only) */
	GPtrArray *files, *dirs;	/* made, for the runtime's cleanup */
	struct tn_runtime_tree *tree;
	GThread *thread;
	/* pthread's, which ThreadSanitizer sees (GLib's are futexes). */
	pthread_mutex_t lock;		/* guards state, message */
	pthread_cond_t changed;		/* on CLOCK_MONOTONIC */
	enum tn_live_mirror_state state;
	char message[TN_ERROR_MAX];
	atomic_bool stop;
	atomic_uint_fast64_t packets, bytes;
};

static void trace_free(gpointer data)
{
	struct mirror_trace *trace = data;

	if (trace->metadata_fd >= 0)
		close(trace->metadata_fd);
	g_free(trace->dir);
	g_free(trace);
}

static void stream_free(gpointer data)
{
	struct mirror_stream *stream = data;

	if (stream->data_fd >= 0)
		close(stream->data_fd);
	if (stream->index_fd >= 0)
		close(stream->index_fd);
	g_free(stream->name);
	g_free(stream);
}

/* A private mirror's files are registered for removal as they come
 * (the new registration made before the old one is dropped: a signal
 * in between finds one of them). */
static void register_files(struct tn_live_mirror *m)
{
	struct tn_runtime_tree *tree;
	GPtrArray *dirs;
	struct tn_error err;

	if (!m->private_dir)
		return;
	/* Children before their parents: the reverse of their making. */
	dirs = g_ptr_array_new();
	for (guint i = m->dirs->len; i > 0; i--)
		g_ptr_array_add(dirs, m->dirs->pdata[i - 1]);
	if (tn_runtime_register((const char *const *) m->files->pdata,
			m->files->len, (const char *const *) dirs->pdata,
			dirs->len, &tree, &err) == 0) {
		tn_runtime_forget(m->tree);
		m->tree = tree;
	}
	g_ptr_array_free(dirs, TRUE);
}

/* Make dir and those above it under the mirror's directory. */
static int make_dirs(struct tn_live_mirror *m, const char *dir,
		struct tn_error *err)
{
	if (g_file_test(dir, G_FILE_TEST_IS_DIR))
		return 0;
	if (strlen(dir) > strlen(m->dir)) {
		char *parent = g_path_get_dirname(dir);
		int status = make_dirs(m, parent, err);

		g_free(parent);
		if (status)
			return -1;
	}
	if (g_mkdir(dir, 0700) && errno != EEXIST) {
		tn_error_set(err, "cannot make %s: %s", dir,
			g_strerror(errno));
		return -1;
	}
	g_ptr_array_add(m->dirs, g_strdup(dir));
	return 0;
}

/* A new file of the mirror (empty), opened for appending. */
static int make_file(struct tn_live_mirror *m, const char *path, int *fd,
		struct tn_error *err)
{
	char *dir = g_path_get_dirname(path);
	int status = -1;

	if (!tn_runtime_create_begin()) {
		tn_error_set(err, "tracenav is ending");
		g_free(dir);
		return -1;
	}
	if (make_dirs(m, dir, err) == 0) {
		*fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
			O_CLOEXEC, 0600);
		if (*fd < 0)
			tn_error_set(err, "cannot write %s: %s", path,
				g_strerror(errno));
		else {
			g_ptr_array_add(m->files, g_strdup(path));
			status = 0;
		}
	}
	register_files(m);
	tn_runtime_create_end();
	g_free(dir);
	return status;
}

static int write_all(int fd, const void *data, size_t size,
		const char *path, struct tn_error *err)
{
	const uint8_t *p = data;

	while (size > 0) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tn_error_set(err, "cannot write %s: %s", path,
				g_strerror(errno));
			return -1;
		}
		p += n;
		size -= (size_t) n;
	}
	return 0;
}

/* A component of the relay daemon's paths, made safe: nothing that
 * climbs out of the mirror's directory. */
static bool safe_component(const char *name)
{
	return name[0] && strcmp(name, ".") && strcmp(name, "..") &&
		!strchr(name, '/');
}

/* The directory of a trace whose streams the relay daemon places at
 * path (relative to its output directory). */
static char *trace_dir(const struct tn_live_mirror *m, const char *path)
{
	char **parts = g_strsplit(path, "/", -1);
	GString *dir = g_string_new(m->dir);
	bool any = false;

	for (char **p = parts; *p; p++) {
		if (safe_component(*p)) {
			g_string_append_printf(dir, "/%s", *p);
			any = true;
		}
	}
	if (!any)
		g_string_append(dir, "/trace");
	g_strfreev(parts);
	return g_string_free(dir, FALSE);
}

static struct mirror_trace *trace_of(struct tn_live_mirror *m,
		const struct tn_viewer_stream *s)
{
	struct mirror_trace *trace = g_hash_table_lookup(m->traces, &s->trace_id);
	GHashTableIter iter;
	gpointer value;
	char *dir;

	if (trace)
		return trace;
	/* Attached again to a relay daemon that numbers it anew: the
	 * trace of the same directory. */
	dir = trace_dir(m, s->path);
	g_hash_table_iter_init(&iter, m->traces);
	while (!trace && g_hash_table_iter_next(&iter, NULL, &value))
		if (!strcmp(((struct mirror_trace *) value)->dir, dir))
			trace = value;
	if (trace) {
		g_free(dir);
		g_hash_table_steal(m->traces, &trace->id);
	} else {
		trace = g_new0(struct mirror_trace, 1);
		trace->dir = dir;
		trace->metadata_fd = -1;
	}
	trace->id = s->trace_id;
	g_hash_table_insert(m->traces, &trace->id, trace);
	return trace;
}

/* The stream of trace whose file is name, copied before a reconnect,
 * or NULL. */
static struct mirror_stream *known_stream(struct tn_live_mirror *m,
		const struct mirror_trace *trace, const char *name)
{
	for (guint i = 0; i < m->streams->len; i++) {
		struct mirror_stream *stream = m->streams->pdata[i];

		if (stream->trace == trace && !strcmp(stream->name, name))
			return stream;
	}
	return NULL;
}

/* Take the streams the relay daemon announced. */
static int add_streams(struct tn_live_mirror *m, const GArray *streams,
		struct tn_error *err)
{
	for (guint i = 0; i < streams->len; i++) {
		const struct tn_viewer_stream *s = &g_array_index(streams,
			struct tn_viewer_stream, i);
		struct mirror_trace *trace = trace_of(m, s);
		struct mirror_stream *stream;
		bool plain = safe_component(s->channel) &&
			strcmp(s->channel, "metadata") &&
			strcmp(s->channel, "index");

		if (s->metadata) {
			char *path;
			int status;

			trace->metadata_stream = s->id;
			if (trace->metadata_fd >= 0)
				continue;
			path = g_build_filename(trace->dir, "metadata",
				NULL);
			status = make_file(m, path, &trace->metadata_fd, err);
			g_free(path);
			if (status)
				return -1;
			continue;
		}
		stream = plain ? known_stream(m, trace, s->channel) : NULL;
		if (stream) {
			/* Attached again: it comes from its first packet. */
			stream->id = s->id;
			stream->skip = stream->packets;
			stream->hung_up = stream->has_pending = false;
			continue;
		}
		stream = g_new0(struct mirror_stream, 1);
		stream->id = s->id;
		stream->trace = trace;
		stream->name = plain ? g_strdup(s->channel) :
			g_strdup_printf("stream-%" G_GUINT64_FORMAT, s->id);
		stream->data_fd = stream->index_fd = -1;
		g_ptr_array_add(m->streams, stream);
	}
	return 0;
}

/* Append data to the trace's metadata file, less what was written
 * before a reconnect (the relay daemon sends it from the start). */
static int write_metadata(struct mirror_trace *trace, const GByteArray *data,
		struct tn_error *err)
{
	uint64_t skip = MIN(trace->metadata_skip, data->len);

	trace->metadata_skip -= skip;
	if (write_all(trace->metadata_fd, data->data + skip, data->len - skip,
			trace->dir, err))
		return -1;
	trace->metadata_bytes += data->len - skip;
	return 0;
}

/* Fetch what is new of the metadata of every trace. */
static int fetch_metadata(struct tn_live_mirror *m, struct tn_error *err)
{
	GHashTableIter iter;
	gpointer value;
	GByteArray *data = g_byte_array_new();
	int status = 0;

	g_hash_table_iter_init(&iter, m->traces);
	while (status == 0 && g_hash_table_iter_next(&iter, NULL, &value)) {
		struct mirror_trace *trace = value;
		uint32_t answer = TN_VIEWER_METADATA_OK;

		if (trace->metadata_fd < 0 || trace->metadata_done)
			continue;
		while (status == 0 && answer == TN_VIEWER_METADATA_OK) {
			g_byte_array_set_size(data, 0);
			status = tn_viewer_get_metadata(&m->viewer,
				trace->metadata_stream, &answer, data, err);
			if (status == 0 && answer == TN_VIEWER_METADATA_OK)
				status = write_metadata(trace, data, err);
		}
		if (status == 0 && answer == TN_VIEWER_METADATA_HUP)
			trace->metadata_done = true;
		else if (status == 0 && answer == TN_VIEWER_METADATA_ERR) {
			tn_error_set(err, "the relay daemon at %s could not "
				"give the metadata of %s", m->viewer.relay,
				trace->dir);
			status = -1;
		}
	}
	g_byte_array_free(data, TRUE);
	return status;
}

/* The streams the session added since; *ended: it has none more to
 * give (destroyed). */
static int fetch_new_streams(struct tn_live_mirror *m, bool *ended,
		struct tn_error *err)
{
	GArray *streams;
	uint32_t answer;
	int status;

	*ended = false;
	if (tn_viewer_new_streams(&m->viewer, m->session, &answer, &streams,
			err))
		return -1;
	status = answer == TN_VIEWER_STREAMS_OK ?
		add_streams(m, streams, err) : 0;
	g_array_free(streams, TRUE);
	if (answer == TN_VIEWER_STREAMS_HUP)
		*ended = true;
	if (status == 0 && answer == TN_VIEWER_STREAMS_OK)
		status = fetch_metadata(m, err);
	return status;
}

/* What an index or packet's flags ask for first. */
static int follow_flags(struct tn_live_mirror *m, uint32_t flags,
		struct tn_error *err)
{
	bool ended;

	if ((flags & TN_VIEWER_FLAG_NEW_STREAM) &&
	    fetch_new_streams(m, &ended, err))
		return -1;
	if ((flags & TN_VIEWER_FLAG_NEW_METADATA) && fetch_metadata(m, err))
		return -1;
	return 0;
}

/* The stream's files, at its first packet: its file and its index
 * (the header). */
static int open_stream(struct tn_live_mirror *m, struct mirror_stream *s,
		struct tn_error *err)
{
	char *data = g_build_filename(s->trace->dir, s->name, NULL);
	char *idx_name = g_strdup_printf("%s.idx", s->name);
	char *index = g_build_filename(s->trace->dir, "index", idx_name,
		NULL);
	uint8_t header[16];
	uint32_t fields[4] = { INDEX_MAGIC, 1, 0, INDEX_ENTRY_SIZE };
	int status;

	for (int i = 0; i < 4; i++) {
		uint32_t be = GUINT32_TO_BE(fields[i]);

		memcpy(header + 4 * i, &be, 4);
	}
	status = make_file(m, data, &s->data_fd, err) ||
		make_file(m, index, &s->index_fd, err) ||
		write_all(s->index_fd, header, sizeof(header), index, err) ?
		-1 : 0;
	g_free(data);
	g_free(idx_name);
	g_free(index);
	return status;
}

/* The packet, then its index entry (as LTTng writes them: a reader
 * sees a packet whole once its entry is there). */
static int write_packet(struct tn_live_mirror *m, struct mirror_stream *s,
		const struct tn_viewer_index *index, const GByteArray *data,
		struct tn_error *err)
{
	uint64_t entry[7] = { s->offset, index->packet_size,
		index->content_size, index->timestamp_begin,
		index->timestamp_end, index->events_discarded,
		index->stream_class };

	if (s->data_fd < 0 && open_stream(m, s, err))
		return -1;
	for (int i = 0; i < 7; i++)
		entry[i] = GUINT64_TO_BE(entry[i]);
	if (write_all(s->data_fd, data->data, data->len, s->name, err) ||
	    write_all(s->index_fd, entry, sizeof(entry), s->name, err))
		return -1;
	s->offset += data->len;
	s->packets++;
	atomic_fetch_add(&m->packets, 1);
	atomic_fetch_add(&m->bytes, data->len);
	return 0;
}

/* Copy the stream's next packet if the relay daemon has it; *copied. */
static int pump_stream(struct tn_live_mirror *m, struct mirror_stream *s,
		GByteArray *data, bool *copied, struct tn_error *err)
{
	uint32_t answer, flags;

	*copied = false;
	if (!s->has_pending) {
		if (tn_viewer_next_index(&m->viewer, s->id, &s->pending, err) ||
		    follow_flags(m, s->pending.flags, err))
			return -1;
		switch (s->pending.status) {
		case TN_VIEWER_INDEX_OK:
			if (s->skip > 0) {
				/* Copied before the reconnect. */
				s->skip--;
				*copied = true;
				return 0;
			}
			s->has_pending = true;
			break;
		case TN_VIEWER_INDEX_HUP:
		case TN_VIEWER_INDEX_EOF:
			s->hung_up = true;
			return 0;
		case TN_VIEWER_INDEX_ERR:
			tn_error_set(err, "the relay daemon at %s could not "
				"give the next packet of %s", m->viewer.relay,
				s->name);
			return -1;
		default:	/* retry, inactive: nothing new yet */
			return 0;
		}
	}
	g_byte_array_set_size(data, 0);
	if (tn_viewer_get_packet(&m->viewer, s->id, &s->pending, &answer,
			&flags, data, err))
		return -1;
	switch (answer) {
	case TN_VIEWER_PACKET_OK:
		s->has_pending = false;
		*copied = true;
		return write_packet(m, s, &s->pending, data, err);
	case TN_VIEWER_PACKET_EOF:
		s->has_pending = false;
		s->hung_up = true;
		return 0;
	case TN_VIEWER_PACKET_ERR:
		if (flags)	/* asked after what it says first */
			return follow_flags(m, flags, err);
		tn_error_set(err, "the relay daemon at %s could not give a "
			"packet of %s", m->viewer.relay, s->name);
		return -1;
	default:	/* retry */
		return 0;
	}
}

static void set_state(struct tn_live_mirror *m,
		enum tn_live_mirror_state state, const char *message)
{
	pthread_mutex_lock(&m->lock);
	m->state = state;
	snprintf(m->message, sizeof(m->message), "%s", message ? message : "");
	pthread_cond_broadcast(&m->changed);
	pthread_mutex_unlock(&m->lock);
}

/* Wait on changed (the lock held) until the monotonic time until_us at
 * most. */
static void wait_until_us(struct tn_live_mirror *m, gint64 until_us)
{
	struct timespec ts = {
		.tv_sec = until_us / G_USEC_PER_SEC,
		.tv_nsec = (long) (until_us % G_USEC_PER_SEC) * 1000,
	};

	pthread_cond_timedwait(&m->changed, &m->lock, &ts);
}

/* Sleep us, or less when the mirror is stopped. */
static void pause_us(struct tn_live_mirror *m, uint64_t us)
{
	gint64 until = g_get_monotonic_time() + (gint64) us;

	pthread_mutex_lock(&m->lock);
	while (!atomic_load(&m->stop) && g_get_monotonic_time() < until)
		wait_until_us(m, until);
	pthread_mutex_unlock(&m->lock);
}

/* Copy until the session ends (returns 1), the mirror is stopped (0)
 * or the connection fails (-1 with err). */
static int receive(struct tn_live_mirror *m, struct tn_error *err)
{
	GByteArray *data = g_byte_array_new();
	int status = fetch_metadata(m, err);

	while (status == 0 && !atomic_load(&m->stop)) {
		bool progress = false, all_hung_up = true, ended;

		for (guint i = 0; status == 0 && i < m->streams->len; i++) {
			struct mirror_stream *s = m->streams->pdata[i];
			bool copied;

			if (s->hung_up)
				continue;
			/* A stream with packets waiting gives them all. */
			do {
				status = pump_stream(m, s, data, &copied, err);
				progress |= copied;
			} while (status == 0 && copied &&
				 !atomic_load(&m->stop));
			all_hung_up &= s->hung_up;
		}
		if (status == 0 && all_hung_up) {
			guint before = m->streams->len;

			status = fetch_new_streams(m, &ended, err);
			if (status == 0 && ended && m->streams->len == before)
				status = 1;
			progress |= m->streams->len > before;
		}
		if (status == 0 && !progress)
			pause_us(m, m->poll_us);
	}
	g_byte_array_free(data, TRUE);
	return status;
}

/* The session url names, among the relay daemon's: *id and its live
 * timer, or -1 with err naming those it has. */
static int find_session(struct tn_live_mirror *m,
		const struct tn_live_url *url, uint32_t *timer_us,
		struct tn_error *err)
{
	GArray *sessions;
	GString *names;
	int status = -1;

	if (tn_viewer_list_sessions(&m->viewer, &sessions, err))
		return -1;
	names = g_string_new(NULL);
	for (guint i = 0; i < sessions->len; i++) {
		const struct tn_viewer_session *s = &g_array_index(sessions,
			struct tn_viewer_session, i);

		if (!strcmp(s->host, url->target_host) &&
		    !strcmp(s->name, url->session) && status != 0) {
			m->session = s->id;
			*timer_us = s->live_timer_us;
			status = 0;
		}
		g_string_append_printf(names, "%s%s/%s", i ? ", " : "",
			s->host, s->name);
	}
	if (status)
		tn_live_no_such_session(err, url, names->str);
	g_string_free(names, TRUE);
	g_array_free(sessions, TRUE);
	return status;
}

static int attach(struct tn_live_mirror *m, const struct tn_live_url *url,
		struct tn_error *err)
{
	GArray *streams;
	uint32_t answer;
	int status;

	if (tn_viewer_attach(&m->viewer, m->session, &answer, &streams, err))
		return -1;
	status = answer == TN_VIEWER_ATTACH_OK ? add_streams(m, streams, err)
		: -1;
	g_array_free(streams, TRUE);
	if (answer == TN_VIEWER_ATTACH_ALREADY)
		tn_error_set(err, "another viewer is attached to %s/host/%s/%s "
			"(a relay daemon serves one viewer a session): close "
			"it first", url->relay, url->target_host,
			url->session);
	else if (answer == TN_VIEWER_ATTACH_NOT_LIVE)
		tn_error_set(err, "%s is not a live session (lttng create "
			"--live)", url->session);
	else if (answer != TN_VIEWER_ATTACH_OK)
		tn_error_set(err, "the relay daemon at %s refused to attach "
			"to %s (answer %u)", url->relay, url->session, answer);
	return status;
}

/* Attached again after the connection broke (tn_live_mirror_reconnect):
 * a new connection, the session found by its name, attached from its
 * beginning; what was copied is not fetched again (each stream skips
 * the packets it has, each metadata file the bytes it has). */
static int reattach(struct tn_live_mirror *m, struct tn_error *err)
{
	struct tn_viewer viewer = { .fd = -1 };
	GHashTableIter iter;
	gpointer value;
	uint32_t timer_us = 0;

	if (tn_viewer_connect(m->url.relay, &viewer, err))
		return -1;
	pthread_mutex_lock(&m->lock);
	tn_viewer_close(&m->viewer);
	m->viewer = viewer;
	if (atomic_load(&m->stop))
		tn_viewer_shutdown(&m->viewer);
	pthread_mutex_unlock(&m->lock);
	g_hash_table_iter_init(&iter, m->traces);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		struct mirror_trace *trace = value;

		trace->metadata_skip = trace->metadata_bytes;
		trace->metadata_done = false;
	}
	/* The streams the relay daemon does not announce again are over. */
	for (guint i = 0; i < m->streams->len; i++)
		((struct mirror_stream *) m->streams->pdata[i])->hung_up = true;
	if (find_session(m, &m->url, &timer_us, err) ||
	    attach(m, &m->url, err))
		return -1;
	m->poll_us = tn_live_poll_us(timer_us);
	set_state(m, TN_LIVE_MIRROR_RECEIVING, NULL);
	return 0;
}

static gpointer mirror_thread(gpointer data)
{
	struct tn_live_mirror *m = data;
	struct tn_error err;
	int status = tn_live_mirror_get_state(m, NULL, 0) ==
		TN_LIVE_MIRROR_RECONNECTING ? reattach(m, &err) : 0;

	if (status == 0)
		status = receive(m, &err);

	if (status == 1)
		set_state(m, TN_LIVE_MIRROR_ENDED, NULL);
	else if (status < 0 && !atomic_load(&m->stop))
		set_state(m, TN_LIVE_MIRROR_FAILED, err.message);
	else
		set_state(m, TN_LIVE_MIRROR_STOPPED, NULL);
	return NULL;
}

static int make_mirror_dir(struct tn_live_mirror *m, const char *dir,
		struct tn_error *err)
{
	if (!dir) {
		m->private_dir = true;
		if (tn_runtime_make_dir("live", &m->dir, err))
			return -1;
		g_ptr_array_add(m->dirs, g_strdup(m->dir));
		register_files(m);
		return 0;
	}
	m->dir = g_strdup(dir);
	if (g_mkdir(dir, 0700)) {
		tn_error_set(err, "cannot make %s for the session's copy: %s%s",
			dir, g_strerror(errno), errno == EEXIST ?
			" (give a directory that does not exist yet)" : "");
		return -1;
	}
	return 0;
}

int tn_live_mirror_start(const struct tn_live_url *url, const char *dir,
		struct tn_live_mirror **out, struct tn_error *err)
{
	struct tn_live_mirror *m = g_new0(struct tn_live_mirror, 1);
	pthread_condattr_t attr;
	uint32_t timer_us = 0;

	*out = NULL;
	m->viewer.fd = -1;
	m->traces = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
		trace_free);
	m->streams = g_ptr_array_new_with_free_func(stream_free);
	m->files = g_ptr_array_new_with_free_func(g_free);
	m->dirs = g_ptr_array_new_with_free_func(g_free);
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&attr);
	/* g_get_monotonic_time()'s clock. */
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&m->changed, &attr);
	pthread_condattr_destroy(&attr);
	g_assert(url->session && url->target_host);
	m->url.relay = g_strdup(url->relay);
	m->url.target_host = g_strdup(url->target_host);
	m->url.session = g_strdup(url->session);
	if (tn_viewer_connect(url->relay, &m->viewer, err) ||
	    find_session(m, url, &timer_us, err) ||
	    make_mirror_dir(m, dir, err) || attach(m, url, err)) {
		tn_live_mirror_destroy(m);
		return -1;
	}
	m->poll_us = tn_live_poll_us(timer_us);
	m->state = TN_LIVE_MIRROR_RECEIVING;
	m->thread = g_thread_new("live-mirror", mirror_thread, m);
	*out = m;
	return 0;
}

const char *tn_live_mirror_get_dir(const struct tn_live_mirror *mirror)
{
	return mirror->dir;
}

enum tn_live_mirror_state tn_live_mirror_get_state(
		struct tn_live_mirror *mirror, char *message, size_t size)
{
	enum tn_live_mirror_state state;

	pthread_mutex_lock(&mirror->lock);
	state = mirror->state;
	if (message && size)
		snprintf(message, size, "%s", mirror->message);
	pthread_mutex_unlock(&mirror->lock);
	return state;
}

uint64_t tn_live_mirror_get_packets(const struct tn_live_mirror *mirror)
{
	return atomic_load(&mirror->packets);
}

uint64_t tn_live_mirror_get_bytes(const struct tn_live_mirror *mirror)
{
	return atomic_load(&mirror->bytes);
}

bool tn_live_mirror_has_data(const struct tn_live_mirror *mirror)
{
	return tn_live_mirror_get_packets(mirror) > 0;
}

enum tn_live_mirror_state tn_live_mirror_wait_end(
		struct tn_live_mirror *m, int64_t timeout_us)
{
	gint64 until = timeout_us >= 0 ? g_get_monotonic_time() + timeout_us
		: G_MAXINT64;
	enum tn_live_mirror_state state;

	pthread_mutex_lock(&m->lock);
	while ((m->state == TN_LIVE_MIRROR_RECEIVING ||
		m->state == TN_LIVE_MIRROR_RECONNECTING) &&
	       g_get_monotonic_time() < until)
		wait_until_us(m, MIN(until, g_get_monotonic_time() +
			G_USEC_PER_SEC));
	state = m->state;
	pthread_mutex_unlock(&m->lock);
	return state;
}

int tn_live_mirror_reconnect(struct tn_live_mirror *m, struct tn_error *err)
{
	if (tn_live_mirror_get_state(m, NULL, 0) != TN_LIVE_MIRROR_FAILED) {
		tn_error_set(err, "the session's copy is not disconnected");
		return -1;
	}
	/* Its thread has ended: FAILED is the last thing it says. */
	g_thread_join(m->thread);
	set_state(m, TN_LIVE_MIRROR_RECONNECTING, NULL);
	m->thread = g_thread_new("live-mirror", mirror_thread, m);
	return 0;
}

void tn_live_mirror_destroy(struct tn_live_mirror *m)
{
	if (!m)
		return;
	if (m->thread) {
		pthread_mutex_lock(&m->lock);
		atomic_store(&m->stop, true);
		tn_viewer_shutdown(&m->viewer);
		pthread_cond_broadcast(&m->changed);
		pthread_mutex_unlock(&m->lock);
		g_thread_join(m->thread);
	}
	tn_viewer_close(&m->viewer);
	g_free(m->url.relay);
	g_free(m->url.target_host);
	g_free(m->url.session);
	g_hash_table_destroy(m->traces);
	g_ptr_array_free(m->streams, TRUE);
	if (m->private_dir && m->tree)
		tn_runtime_remove(m->tree);
	else
		tn_runtime_forget(m->tree);
	g_ptr_array_free(m->files, TRUE);
	g_ptr_array_free(m->dirs, TRUE);
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->changed);
	g_free(m->dir);
	g_free(m);
}
