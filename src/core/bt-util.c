/* bt-util.c - small helpers over libbabeltrace2 shared by the core. */
#define _GNU_SOURCE
#include <glib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bt-util.h"
#include "tracenav/core.h"

static bool verbose_logs;
static bool explaining;

void tn_core_set_verbose(bool verbose)
{
	verbose_logs = verbose;
	bt_logging_set_global_level(verbose ? BT_LOGGING_LEVEL_WARNING :
			BT_LOGGING_LEVEL_NONE);
}

bt_logging_level tn_bt_component_log_level(void)
{
	return verbose_logs || explaining ? BT_LOGGING_LEVEL_WARNING :
		BT_LOGGING_LEVEL_NONE;
}

/* The installed plugins, loaded once for the life of the process: finding
 * them scans the plugin directories and loads shared objects.  Guarded
 * for the worker threads that open readers (a pthread mutex, which
 * ThreadSanitizer sees, unlike GLib's futex-based GMutex). */
static pthread_mutex_t plugins_lock = PTHREAD_MUTEX_INITIALIZER;
/* See tn_bt_classes_lock(). */
static pthread_mutex_t classes_lock = PTHREAD_MUTEX_INITIALIZER;
static const bt_plugin_set *plugins;

static int find_plugin(const char *name, const bt_plugin **out,
		struct tn_error *err)
{
	const bt_plugin *plugin = NULL;

	pthread_mutex_lock(&plugins_lock);
	if (!plugins) {
		/* The CTF metadata parser reads its log level from the
		 * environment when the plugin loads; without it, syntax
		 * errors go unexplained.  Errors only: they happen while a
		 * trace is opened (and the log is captured), never later
		 * with metadata already found valid. */
		setenv("BABELTRACE_PLUGIN_CTF_METADATA_LOG_LEVEL", "E", 0);
		if (bt_plugin_find_all(BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE,
				BT_FALSE, &plugins) != BT_PLUGIN_FIND_ALL_STATUS_OK) {
			bt_current_thread_clear_error();
			plugins = NULL;
		}
	}
	for (uint64_t i = 0; plugins &&
	     i < bt_plugin_set_get_plugin_count(plugins); i++) {
		const bt_plugin *candidate =
			bt_plugin_set_borrow_plugin_by_index_const(plugins, i);

		if (strcmp(bt_plugin_get_name(candidate), name) == 0)
			plugin = candidate;
	}
	pthread_mutex_unlock(&plugins_lock);
	if (!plugin) {
		bool ours = !strcmp(name, "ctf") || !strcmp(name, "utils") ||
			!strcmp(name, "text") || !strcmp(name, "lttng-utils");

		tn_error_set(err, "the libbabeltrace2 plugin \"%s\" is not "
			"installed%s", name, ours ? ": install the Debian "
			"package babeltrace2 (apt-get install babeltrace2)" :
			"");
		return -1;
	}
	*out = plugin;
	return 0;
}

void tn_bt_classes_lock(void)
{
	pthread_mutex_lock(&classes_lock);
}

void tn_bt_classes_unlock(void)
{
	pthread_mutex_unlock(&classes_lock);
}

/* err: plugin_name has no component class kind.name; -1. */
static int no_class(struct tn_error *err, const char *kind,
		const char *plugin_name, const char *name)
{
	tn_error_set(err, "libbabeltrace2 has no component class %s.%s.%s",
		kind, plugin_name, name);
	return -1;
}

int tn_bt_source_class(const char *plugin_name, const char *name,
		const bt_component_class_source **cls, struct tn_error *err)
{
	const bt_plugin *plugin;

	if (find_plugin(plugin_name, &plugin, err))
		return -1;
	*cls = bt_plugin_borrow_source_component_class_by_name_const(plugin,
		name);
	return *cls ? 0 : no_class(err, "source", plugin_name, name);
}

int tn_bt_sink_class(const char *plugin_name, const char *name,
		const bt_component_class_sink **cls, struct tn_error *err)
{
	const bt_plugin *plugin;

	if (find_plugin(plugin_name, &plugin, err))
		return -1;
	*cls = bt_plugin_borrow_sink_component_class_by_name_const(plugin,
		name);
	return *cls ? 0 : no_class(err, "sink", plugin_name, name);
}

int tn_bt_filter_class(const char *plugin_name, const char *name,
		const bt_component_class_filter **cls, struct tn_error *err)
{
	const bt_plugin *plugin;

	if (find_plugin(plugin_name, &plugin, err))
		return -1;
	*cls = bt_plugin_borrow_filter_component_class_by_name_const(plugin,
		name);
	return *cls ? 0 : no_class(err, "filter", plugin_name, name);
}

static void append(char *buf, size_t size, const char *text)
{
	size_t len = strlen(buf);

	if (len + 1 < size)
		snprintf(buf + len, size - len, "%s", text);
}

/* Causes with a component or message-iterator actor carry the reader's
 * own explanation; the library's only say which call failed. */
static bool cause_is_useful(const bt_error_cause *cause)
{
	switch (bt_error_cause_get_actor_type(cause)) {
	case BT_ERROR_CAUSE_ACTOR_TYPE_COMPONENT:
	case BT_ERROR_CAUSE_ACTOR_TYPE_COMPONENT_CLASS:
	case BT_ERROR_CAUSE_ACTOR_TYPE_MESSAGE_ITERATOR:
		return true;
	default:
		return false;
	}
}

/* Append a libbabeltrace2 message made readable: one line, and without
 * the object addresses ("msg-it-addr=0x55..") that mean nothing to a
 * user.  Messages end with "text: key=value, key=value". */
static void append_readable(char *buf, size_t size, const char *message)
{
	gchar **items = g_strsplit(message, ", ", -1);
	bool first = true;

	for (gchar **item = items; *item; item++) {
		char *text = *item, *key_end;

		g_strdelimit(text, "\n\t", ' ');
		/* In "text: addr=0x..", keep "text" only. */
		key_end = strstr(text, "addr=0x");
		if (key_end) {
			char *colon = g_strrstr_len(text, key_end - text, ": ");

			if (!colon)
				continue;
			*colon = '\0';
		}
		if (!first)
			append(buf, size, ", ");
		append(buf, size, text);
		first = false;
	}
	g_strfreev(items);
}

/* See tn_bt_get_failed_file(). */
static __thread char failed_file[4096];

/* The file a cause names: what follows "stream file " between quotes
 * (` ... ` or ' ... '), into failed_file. */
static bool find_stream_file(const char *message)
{
	const char *at = strstr(message, "stream file ");
	const char *end;
	char close;

	if (!at)
		return false;
	at += strlen("stream file ");
	if (*at != '`' && *at != '\'')
		return false;
	close = *at == '`' ? '`' : '\'';
	end = strchr(at + 1, close);
	if (!end || end == at + 1 ||
	    (size_t) (end - at) > sizeof(failed_file))
		return false;
	snprintf(failed_file, sizeof(failed_file), "%.*s",
		(int) (end - at - 1), at + 1);
	return true;
}

const char *tn_bt_get_failed_file(void)
{
	return failed_file;
}

static void append_innermost_cause(char *buf, size_t size)
{
	const bt_error *error = bt_current_thread_take_error();
	uint64_t count;

	failed_file[0] = '\0';
	if (!error)
		return;
	count = bt_error_get_cause_count(error);
	for (uint64_t i = 0; i < count; i++)
		if (find_stream_file(bt_error_cause_get_message(
				bt_error_borrow_cause_by_index(error, i))))
			break;
	/* Cause 0 is the root cause, appended first; the callers up the
	 * stack append theirs after it. */
	for (uint64_t i = 0; i < count; i++) {
		const bt_error_cause *cause =
			bt_error_borrow_cause_by_index(error, i);

		if (cause_is_useful(cause)) {
			append_readable(buf, size,
				bt_error_cause_get_message(cause));
			break;
		}
	}
	bt_error_release(error);
}

void tn_bt_set_error(struct tn_error *err, const char *detail,
		const char *prefix)
{
	char cause[TN_ERROR_MAX] = "";

	if (detail && *detail) {
		bt_current_thread_clear_error();
		failed_file[0] = '\0';
		snprintf(cause, sizeof(cause), "%s", detail);
	} else {
		append_innermost_cause(cause, sizeof(cause));
	}
	if (*cause)
		tn_error_set(err, "%s: %s", prefix, cause);
	else
		tn_error_set(err, "%s", prefix);
}

/* A libbabeltrace2 log line looks like
 *   MM-DD HH:MM:SS.mmm PID TID L TAG func@file.c:LINE [comp-name] message
 * Return its level letter and point *message at its message. */
static char parse_log_line(char *line, const char **tag, char **message)
{
	char level, tag_buf[64], *at;
	int pid, tid;

	if (sscanf(line, "%*s %*s %d %d %c %63s", &pid, &tid, &level,
			tag_buf) != 4)
		return 0;
	*tag = strstr(line, tag_buf);
	at = strchr(line, '@');
	if (!at || !(*message = strchr(at, ' ')))
		return 0;
	(*message)++;
	if (**message == '[') {
		char *end = strstr(*message, "] ");

		if (end)
			*message = end + 2;
	}
	return level;
}

/* The first error line of log, with up to two plugin warnings just
 * before it (they often say what is wrong, the error what failed). */
static void explain_log(char *log, char *buf, size_t size)
{
	char *warnings[2] = { NULL, NULL };

	for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n")) {
		const char *tag = "";
		char *message = NULL;
		char level = parse_log_line(line, &tag, &message);

		if (level == 'W' && strncmp(tag, "PLUGIN", 6) == 0) {
			warnings[0] = warnings[1];
			warnings[1] = message;
		} else if (level == 'E') {
			for (int i = 0; i < 2; i++) {
				if (!warnings[i])
					continue;
				append_readable(buf, size, warnings[i]);
				append(buf, size, "; ");
			}
			append_readable(buf, size, message);
			return;
		} else if (level) {
			warnings[0] = warnings[1] = NULL;
		}
	}
}

void tn_bt_capture_begin(struct tn_bt_log_capture *capture, bool explain)
{
	capture->saved_stderr = -1;
	capture->fd = memfd_create("tracenav-bt-log", 0);
	if (capture->fd < 0)
		return;
	fflush(stderr);
	capture->saved_stderr = dup(STDERR_FILENO);
	if (capture->saved_stderr < 0 ||
	    dup2(capture->fd, STDERR_FILENO) < 0) {
		close(capture->fd);
		capture->fd = -1;
		return;
	}
	explaining = explain;
	if (explain)
		bt_logging_set_global_level(BT_LOGGING_LEVEL_WARNING);
}

void tn_bt_capture_end(struct tn_bt_log_capture *capture, char *buf,
		size_t size)
{
	char log[32768];
	ssize_t len;

	buf[0] = '\0';
	if (capture->fd < 0)
		return;
	fflush(stderr);
	dup2(capture->saved_stderr, STDERR_FILENO);
	close(capture->saved_stderr);
	explaining = false;
	tn_core_set_verbose(verbose_logs);
	len = pread(capture->fd, log, sizeof(log) - 1, 0);
	close(capture->fd);
	if (len <= 0)
		return;
	log[len] = '\0';
	if (verbose_logs)
		fputs(log, stderr);
	explain_log(log, buf, size);
}

void tn_core_thread_cleanup(void)
{
	bt_current_thread_clear_error();
}
