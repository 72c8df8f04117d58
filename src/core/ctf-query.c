/* ctf-query.c - src.ctf.fs's queries, in a child process (see
 * ctf-query.h). */
#define _GNU_SOURCE	/* F_SETPIPE_SZ */
#include <babeltrace2/babeltrace.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tracenav/file.h"
#include "bt-util.h"
#include "bytes.h"
#include "ctf-query.h"
#include "trace-private.h"

static void put_string(GByteArray *out, const char *text)
{
	tn_bytes_put_string(out, text, strlen(text));
}

static void put_value(GByteArray *out, const bt_value *value);

static bt_value_map_foreach_entry_const_func_status put_entry(const char *key,
		const bt_value *value, void *data)
{
	put_string(data, key);
	put_value(data, value);
	return BT_VALUE_MAP_FOREACH_ENTRY_CONST_FUNC_STATUS_OK;
}

/* A value as one type letter and its contents. */
static void put_value(GByteArray *out, const bt_value *value)
{
	switch (bt_value_get_type(value)) {
	case BT_VALUE_TYPE_BOOL:
		tn_bytes_put_u8(out, 'b');
		tn_bytes_put_u8(out, bt_value_bool_get(value) ? 1 : 0);
		break;
	case BT_VALUE_TYPE_UNSIGNED_INTEGER:
		tn_bytes_put_u8(out, 'u');
		tn_bytes_put_u64(out, bt_value_integer_unsigned_get(value));
		break;
	case BT_VALUE_TYPE_SIGNED_INTEGER:
		tn_bytes_put_u8(out, 'i');
		tn_bytes_put_u64(out,
			(uint64_t) bt_value_integer_signed_get(value));
		break;
	case BT_VALUE_TYPE_REAL:
		tn_bytes_put_u8(out, 'r');
		tn_bytes_put_double(out, bt_value_real_get(value));
		break;
	case BT_VALUE_TYPE_STRING:
		tn_bytes_put_u8(out, 's');
		put_string(out, bt_value_string_get(value));
		break;
	case BT_VALUE_TYPE_ARRAY:
		tn_bytes_put_u8(out, 'a');
		tn_bytes_put_u64(out, bt_value_array_get_length(value));
		for (uint64_t i = 0; i < bt_value_array_get_length(value); i++)
			put_value(out, bt_value_array_borrow_element_by_index_const(
				value, i));
		break;
	case BT_VALUE_TYPE_MAP:
		tn_bytes_put_u8(out, 'm');
		tn_bytes_put_u64(out, bt_value_map_get_size(value));
		bt_value_map_foreach_entry_const(value, put_entry, out);
		break;
	default:
		tn_bytes_put_u8(out, 'n');
		break;
	}
}

/* A string put_string() wrote (owned), or NULL if the record is cut
 * short. */
static char *get_string(struct tn_bytes_reader *r)
{
	const char *text;
	size_t len;

	if (tn_bytes_take_string(r, &text, &len, "a string"))
		return NULL;
	return g_strndup(text, len);
}

/* The value put_value() wrote, or NULL if the record is cut short. */
static bt_value *get_value(struct tn_bytes_reader *r, int depth)
{
	bt_value *value = NULL;
	uint8_t type, flag;
	uint64_t number, count;
	double real;
	char *text;

	if (depth > 64 || tn_bytes_take_u8(r, &type, "a value's type"))
		return NULL;
	switch (type) {
	case 'n':
		bt_value_get_ref(bt_value_null);
		return bt_value_null;
	case 'b':
		return tn_bytes_take_u8(r, &flag, "a bool") ? NULL :
			bt_value_bool_create_init(flag ? BT_TRUE : BT_FALSE);
	case 'u':
		return tn_bytes_take_u64(r, &number, "an unsigned") ? NULL :
			bt_value_integer_unsigned_create_init(number);
	case 'i':
		return tn_bytes_take_u64(r, &number, "a signed") ? NULL :
			bt_value_integer_signed_create_init((int64_t) number);
	case 'r':
		return tn_bytes_take_double(r, &real, "a real") ? NULL :
			bt_value_real_create_init(real);
	case 's':
		text = get_string(r);
		value = text ? bt_value_string_create_init(text) : NULL;
		g_free(text);
		return value;
	case 'a':
		if (tn_bytes_take_u64(r, &count, "an array's length") ||
		    !(value = bt_value_array_create()))
			return NULL;
		for (uint64_t i = 0; i < count; i++) {
			bt_value *element = get_value(r, depth + 1);

			if (!element || bt_value_array_append_element(value,
					element)) {
				bt_value_put_ref(element);
				bt_value_put_ref(value);
				return NULL;
			}
			bt_value_put_ref(element);
		}
		return value;
	case 'm':
		if (tn_bytes_take_u64(r, &count, "a map's size") ||
		    !(value = bt_value_map_create()))
			return NULL;
		for (uint64_t i = 0; i < count; i++) {
			char *key = get_string(r);
			bt_value *entry = key ? get_value(r, depth + 1) : NULL;
			bool ok = entry && bt_value_map_insert_entry(value, key,
				entry) == BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK;

			g_free(key);
			bt_value_put_ref(entry);
			if (!ok) {
				bt_value_put_ref(value);
				return NULL;
			}
		}
		return value;
	default:
		return NULL;
	}
}

/* Run one query (in the child: no lock). */
static const bt_value *run_query(const bt_component_class *cls,
		const char *object, const bt_value *params)
{
	bt_query_executor *query = bt_query_executor_create(cls, object,
		params);
	const bt_value *result = NULL;
	bt_query_executor_query_status status;

	if (!query)
		return NULL;
	bt_query_executor_set_logging_level(query, tn_bt_component_log_level());
	do {
		status = bt_query_executor_query(query, &result);
	} while (status == BT_QUERY_EXECUTOR_QUERY_STATUS_AGAIN);
	bt_query_executor_put_ref(query);
	return status == BT_QUERY_EXECUTOR_QUERY_STATUS_OK ? result : NULL;
}

/* The child: run queries [from, count) and write a record for each:
 * its index, 1 and the result, or 0 and the error. */
static void __attribute__((noreturn)) query_child(int fd, int go_fd,
		pid_t parent, const bt_component_class *cls,
		const struct tn_ctf_query *queries, size_t from, size_t count)
{
	char go;

	/* A signal that stops tracenav stops the child as it is (the
	 * parent's handlers clean up after the parent). */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	/* Nor does it outlive a tracenav killed while it runs (by
	 * `timeout`, SIGKILL): a query that loops would spin for ever. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(1);
	/* Held: the parent's byte releases it; the parent's end closed
	 * without one (abandoned) ends it. */
	if (go_fd >= 0) {
		ssize_t got;

		while ((got = read(go_fd, &go, 1)) < 0 && errno == EINTR)
			;
		if (got != 1)
			_exit(0);
		close(go_fd);
	}
	for (size_t i = from; i < count; i++) {
		GByteArray *record = g_byte_array_new();
		const bt_value *result = run_query(cls, queries[i].object,
			queries[i].params);
		bool written;

		tn_bytes_put_u64(record, i);
		if (result) {
			tn_bytes_put_u8(record, 1);
			put_value(record, result);
			bt_value_put_ref(result);
		} else {
			struct tn_error err;

			tn_bt_set_error(&err, NULL, queries[i].where);
			tn_bytes_put_u8(record, 0);
			put_string(record, err.message);
		}
		written = tn_file_write_all(fd, record->data, record->len);
		g_byte_array_free(record, TRUE);
		if (!written)
			_exit(1);
	}
	_exit(0);
}

/* Take the whole records among the len bytes of data, those of queries
 * [from, count); returns the index of the first query without one, and
 * the bytes taken in *used (a record cut short is left for later). */
static size_t take_records(const uint8_t *data, size_t len,
		struct tn_ctf_query *queries, size_t from, size_t count, size_t *used)
{
	struct tn_bytes_reader r;
	size_t next = from;

	*used = 0;
	tn_bytes_reader_init(&r, data, len);
	while (next < count) {
		uint64_t index;
		uint8_t ok;

		if (tn_bytes_take_u64(&r, &index, "a query's number") ||
		    index != next || tn_bytes_take_u8(&r, &ok, "a status"))
			break;
		if (ok) {
			bt_value *result = get_value(&r, 0);

			if (!result)
				break;
			queries[next].result = result;
		} else {
			char *error = get_string(&r);

			if (!error)
				break;
			queries[next].error = error;
		}
		next++;
		*used = (size_t) (r.at - data);
	}
	return next;
}

/* Read the records of the child pid on fd as they come, those of
 * queries [from, count), until it closes the pipe or a query runs out of
 * time (then the child is killed and *timed_out set).  Returns the index
 * of the first query without a record. */
static size_t collect_records(int fd, pid_t pid, struct tn_ctf_query *queries,
		size_t from, size_t count, bool *timed_out)
{
	GByteArray *data = g_byte_array_new();
	gint64 deadline = g_get_monotonic_time() +
		(gint64) queries[from].timeout_ms * 1000;
	size_t next = from, taken = 0;
	uint8_t buf[65536];

	*timed_out = false;
	while (next < count) {
		struct pollfd wait = { .fd = fd, .events = POLLIN };
		gint64 now = g_get_monotonic_time();
		size_t used, before = next;
		int ready;
		ssize_t got;

		if (now >= deadline) {
			kill(pid, SIGKILL);
			*timed_out = true;
			break;
		}
		ready = poll(&wait, 1, (int) MIN((deadline - now + 999) / 1000,
			G_MAXINT));
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0)
			break;
		if (ready == 0)
			continue;	/* the deadline, checked above */
		got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		tn_bytes_put_raw(data, buf, (size_t) got);
		next = take_records(data->data + taken, data->len - taken,
			queries, next, count, &used);
		taken += used;
		if (next != before && next < count)
			deadline = g_get_monotonic_time() +
				(gint64) queries[next].timeout_ms * 1000;
	}
	g_byte_array_free(data, TRUE);
	return next;
}

static void fail_queries(struct tn_ctf_query *queries, size_t from, size_t count,
		const char *why)
{
	for (size_t i = from; i < count; i++)
		queries[i].error = g_strdup_printf("%s: %s", queries[i].where,
			why);
}

enum { PIPE_BYTES = 1 << 20 };

struct tn_ctf_query_run {
	struct tn_ctf_query *queries;
	size_t count;
	size_t from;		/* the first query of the child */
	int fd;			/* the child's pipe, or -1: none runs */
	int go_fd;		/* what releases a held child, or -1 */
	pid_t pid;
};

/* Start a child for the queries [run->from, run->count): run->fd and
 * run->pid, or -1 with the queries failed; held, run->go_fd too. */
static void start_child(struct tn_ctf_query_run *run, bool held)
{
	const bt_component_class_source *fs;
	struct tn_error err;
	int fds[2], go[2] = { -1, -1 };
	pid_t parent;

	run->fd = -1;
	run->go_fd = -1;
	if (tn_bt_source_class("ctf", "fs", &fs, &err)) {
		fail_queries(run->queries, run->from, run->count, err.message);
		return;
	}
	if (pipe(fds)) {
		fail_queries(run->queries, run->from, run->count,
			strerror(errno));
		return;
	}
	/* A socket, not a pipe: the release's send() to a child that died
	 * must not raise SIGPIPE (tracenav's cleanup handles it). */
	if (held && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go)) {
		close(fds[0]);
		close(fds[1]);
		fail_queries(run->queries, run->from, run->count,
			strerror(errno));
		return;
	}
	/* Room for the results of a collection's queries while the parent
	 * does something else (best effort: the child waits otherwise). */
	fcntl(fds[1], F_SETPIPE_SZ, PIPE_BYTES);
	tn_bt_classes_lock();
	parent = getpid();
	run->pid = fork();
	if (run->pid == 0) {
		close(fds[0]);
		if (go[1] >= 0)
			close(go[1]);
		query_child(fds[1], go[0], parent,
			bt_component_class_source_as_component_class_const(fs),
			run->queries, run->from, run->count);
	}
	tn_bt_classes_unlock();
	close(fds[1]);
	if (go[0] >= 0)
		close(go[0]);
	if (run->pid < 0) {
		char *why = g_strdup_printf("cannot start a process for "
			"libbabeltrace2: %s", strerror(errno));

		close(fds[0]);
		if (go[1] >= 0)
			close(go[1]);
		fail_queries(run->queries, run->from, run->count, why);
		g_free(why);
		return;
	}
	run->fd = fds[0];
	run->go_fd = go[1];
}

static struct tn_ctf_query_run *start(struct tn_ctf_query *queries,
		size_t count, bool held)
{
	struct tn_ctf_query_run *run = g_new0(struct tn_ctf_query_run, 1);

	run->queries = queries;
	run->count = count;
	run->fd = -1;
	run->go_fd = -1;
	if (count > 0)
		start_child(run, held);
	return run;
}

struct tn_ctf_query_run *tn_ctf_queries_start(struct tn_ctf_query *queries,
		size_t count)
{
	return start(queries, count, false);
}

struct tn_ctf_query_run *tn_ctf_queries_start_held(
		struct tn_ctf_query *queries, size_t count)
{
	return start(queries, count, true);
}

void tn_ctf_queries_release(struct tn_ctf_query_run *run)
{
	ssize_t written;

	if (run->go_fd < 0)
		return;
	/* A child that died already (the byte goes nowhere) is seen by
	 * finish(). */
	written = send(run->go_fd, "", 1, MSG_NOSIGNAL);
	(void) written;
	close(run->go_fd);
	run->go_fd = -1;
}

void tn_ctf_queries_finish(struct tn_ctf_query_run *run)
{
	struct tn_ctf_query *queries = run->queries;

	tn_ctf_queries_release(run);
	while (run->fd >= 0) {
		int wstatus = 0;
		bool timed_out;
		size_t next = collect_records(run->fd, run->pid, queries,
			run->from, run->count, &timed_out);

		close(run->fd);
		run->fd = -1;
		while (waitpid(run->pid, &wstatus, 0) < 0 && errno == EINTR)
			;
		if (next >= run->count)
			break;
		/* The child ended while it ran query `next`. */
		if (timed_out) {
			queries[next].timed_out = true;
			queries[next].crash_signal = SIGKILL;
			queries[next].error = g_strdup_printf("%s: libbabeltrace2 "
				"did not answer within %" PRIu64 " s: it loops on "
				"this input (the trace is damaged, or of a kind it "
				"cannot read)", queries[next].where,
				(queries[next].timeout_ms + 999) / 1000);
		} else if (WIFSIGNALED(wstatus)) {
			queries[next].crash_signal = WTERMSIG(wstatus);
			queries[next].error = g_strdup_printf("%s: libbabeltrace2 "
				"crashed on it (%s)", queries[next].where,
				strsignal(WTERMSIG(wstatus)));
		} else {
			queries[next].error = g_strdup_printf("%s: libbabeltrace2 "
				"stopped on it", queries[next].where);
		}
		run->from = next + 1;
		if (run->from < run->count)
			start_child(run, false);
	}
	g_free(run);
}

bool tn_ctf_queries_ended(const struct tn_ctf_query_run *run)
{
	struct pollfd pfd = { run->fd, POLLIN, 0 };

	if (run->fd < 0)
		return true;
	if (run->go_fd >= 0)
		return false;
	while (poll(&pfd, 1, 0) < 0)
		if (errno != EINTR)
			return false;
	return (pfd.revents & (POLLHUP | POLLERR)) != 0;
}

void tn_ctf_queries_abandon(struct tn_ctf_query_run *run)
{
	if (run->go_fd >= 0)
		close(run->go_fd);
	if (run->fd >= 0) {
		kill(run->pid, SIGKILL);
		close(run->fd);
		while (waitpid(run->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	for (size_t i = 0; i < run->count; i++) {
		bt_value_put_ref(run->queries[i].result);
		run->queries[i].result = NULL;
		g_clear_pointer(&run->queries[i].error, g_free);
	}
	g_free(run);
}

void tn_ctf_queries_run(struct tn_ctf_query *queries, size_t count)
{
	tn_ctf_queries_finish(tn_ctf_queries_start(queries, count));
}

void tn_ctf_query_fini(struct tn_ctf_query *query)
{
	bt_value_put_ref(query->params);
	bt_value_put_ref(query->result);
	g_free(query->where);
	g_free(query->error);
}

int tn_trace_query_ctf_fs(const char *object, const bt_value *params,
		uint64_t timeout_ms, const bt_value **result, int *crash_signal,
		struct tn_error *err)
{
	struct tn_ctf_query query = { .object = object, .params = params,
		.timeout_ms = timeout_ms };
	int status = -1;

	bt_value_get_ref(params);
	query.where = g_strdup_printf("src.ctf.fs query %s", object);
	tn_ctf_queries_run(&query, 1);
	*crash_signal = query.crash_signal;
	if (query.result) {
		*result = query.result;
		query.result = NULL;
		status = 0;
	} else {
		tn_error_set(err, "%s", query.error);
	}
	tn_ctf_query_fini(&query);
	return status;
}

