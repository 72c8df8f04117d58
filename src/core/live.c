/* live.c - LTTng live sessions through src.ctf.lttng-live (see live.h). */
#include <babeltrace2/babeltrace.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracenav/live.h"
#include "bt-util.h"
#include "reader-private.h"

#define DEFAULT_PORT 5344
#define URL_FORMS "net://HOST[:PORT] (a relay daemon's sessions) or " \
	"net://HOST[:PORT]/host/TARGET_HOST/SESSION (one of them)"

/* Poll the relay daemon twice a live-timer period, within these. */
#define MIN_RETRY_US 10000
#define MAX_RETRY_US 100000

static const char *const SCHEMES[] = { "net://", "net4://", "net6://" };

/* The scheme of text ("net://"...), or NULL. */
static const char *scheme_of(const char *text)
{
	for (size_t i = 0; i < G_N_ELEMENTS(SCHEMES); i++)
		if (g_str_has_prefix(text, SCHEMES[i]))
			return SCHEMES[i];
	return NULL;
}

bool tn_live_is_url(const char *text)
{
	return scheme_of(text) != NULL;
}

static bool is_port(const char *text, size_t len)
{
	unsigned long port = 0;

	if (len == 0 || len > 5)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!g_ascii_isdigit(text[i]))
			return false;
		port = port * 10 + (unsigned long) (text[i] - '0');
	}
	return port > 0 && port < 65536;
}

int tn_live_url_parse(const char *url, struct tn_live_url *out,
		struct tn_error *err)
{
	const char *scheme = scheme_of(url);
	const char *host, *host_end, *path, *port = NULL;
	char **parts = NULL;
	size_t host_len;

	memset(out, 0, sizeof(*out));
	if (!scheme)
		goto bad;
	host = url + strlen(scheme);
	path = strchr(host, '/');
	if (!path)
		path = host + strlen(host);
	host_end = path;
	if (host[0] == '[') {		/* net6://[::1]:5344 */
		const char *close = memchr(host, ']', (size_t) (path - host));

		if (!close)
			goto bad;
		host_end = close + 1;
		if (host_end < path && *host_end != ':')
			goto bad;
	} else {
		host_end = memchr(host, ':', (size_t) (path - host));
		if (!host_end)
			host_end = path;
	}
	if (host_end < path) {
		port = host_end + 1;
		if (!is_port(port, (size_t) (path - port)))
			goto bad;
	}
	host_len = (size_t) (host_end - host);
	if (host_len == 0)
		goto bad;
	if (*path && strcmp(path, "/") != 0) {
		parts = g_strsplit(path + 1, "/", -1);
		if (g_strv_length(parts) != 3 || strcmp(parts[0], "host") ||
		    !parts[1][0] || !parts[2][0])
			goto bad;
		out->target_host = g_strdup(parts[1]);
		out->session = g_strdup(parts[2]);
		g_strfreev(parts);
	}
	out->relay = port ? g_strdup_printf("%s%.*s:%.*s", scheme,
			(int) host_len, host, (int) (path - port), port) :
		g_strdup_printf("%s%.*s:%d", scheme, (int) host_len, host,
			DEFAULT_PORT);
	return 0;
bad:
	g_strfreev(parts);
	tn_live_url_fini(out);
	tn_error_set(err, "%s: not a live URL: write %s", url, URL_FORMS);
	return -1;
}

void tn_live_url_fini(struct tn_live_url *url)
{
	g_free(url->relay);
	g_free(url->target_host);
	g_free(url->session);
	memset(url, 0, sizeof(*url));
}

static void session_clear(gpointer data)
{
	struct tn_live_session *s = data;

	g_free(s->url);
	g_free(s->target_host);
	g_free(s->name);
}

void tn_live_sessions_free(GArray *sessions)
{
	if (sessions)
		g_array_free(sessions, TRUE);
}

static const char *map_string(const bt_value *map, const char *key)
{
	const bt_value *v = bt_value_map_borrow_entry_value_const(map, key);

	return v && bt_value_is_string(v) ? bt_value_string_get(v) : NULL;
}

static uint64_t map_unsigned(const bt_value *map, const char *key)
{
	const bt_value *v = bt_value_map_borrow_entry_value_const(map, key);

	return v && bt_value_is_unsigned_integer(v) ?
		bt_value_integer_unsigned_get(v) : 0;
}

/* The sessions of the `sessions` query's result. */
static int read_sessions(const bt_value *result, GArray *sessions,
		struct tn_error *err)
{
	if (!bt_value_is_array(result))
		goto bad;
	for (uint64_t i = 0; i < bt_value_array_get_length(result); i++) {
		const bt_value *map =
			bt_value_array_borrow_element_by_index_const(result, i);
		struct tn_live_session s = { 0 };

		if (!bt_value_is_map(map) || !map_string(map, "url") ||
		    !map_string(map, "session-name") ||
		    !map_string(map, "target-hostname"))
			goto bad;
		s.url = g_strdup(map_string(map, "url"));
		s.target_host = g_strdup(map_string(map, "target-hostname"));
		s.name = g_strdup(map_string(map, "session-name"));
		s.timer_us = map_unsigned(map, "timer-us");
		s.stream_count = map_unsigned(map, "stream-count");
		s.client_count = map_unsigned(map, "client-count");
		g_array_append_val(sessions, s);
	}
	return 0;
bad:
	tn_error_set(err, "the relay daemon's list of sessions is not one "
		"libbabeltrace2 2.0 gives");
	return -1;
}

/* err: the relay daemon at relay cannot be reached, and why. */
static void unreachable(struct tn_error *err, const char *relay)
{
	char prefix[TN_ERROR_MAX];

	snprintf(prefix, sizeof(prefix), "no relay daemon answers at %s "
		"(is lttng-relayd running there, its live port open to this "
		"machine?)", relay);
	tn_bt_set_error(err, NULL, prefix);
}

int tn_live_list_sessions(const struct tn_live_url *url, GArray **out,
		struct tn_error *err)
{
	const bt_component_class_source *cls = NULL;
	bt_query_executor *query = NULL;
	const bt_value *result = NULL;
	bt_value *params = bt_value_map_create();
	bt_query_executor_query_status status =
		BT_QUERY_EXECUTOR_QUERY_STATUS_ERROR;
	GArray *sessions;

	if (!params || bt_value_map_insert_string_entry(params, "url",
			url->relay)) {
		bt_value_put_ref(params);
		tn_error_set(err, "out of memory");
		return -1;
	}
	tn_bt_classes_lock();
	if (tn_bt_source_class("ctf", "lttng-live", &cls, err) == 0)
		query = bt_query_executor_create(
			bt_component_class_source_as_component_class_const(cls),
			"sessions", params);
	if (query)
		bt_query_executor_set_logging_level(query,
			tn_bt_component_log_level());
	tn_bt_classes_unlock();
	bt_value_put_ref(params);
	if (!query) {
		if (!cls)
			return -1;	/* err says the class is missing */
		tn_error_set(err, "out of memory");
		return -1;
	}
	do
		status = bt_query_executor_query(query, &result);
	while (status == BT_QUERY_EXECUTOR_QUERY_STATUS_AGAIN);
	tn_bt_classes_lock();
	bt_query_executor_put_ref(query);
	tn_bt_classes_unlock();
	if (status != BT_QUERY_EXECUTOR_QUERY_STATUS_OK) {
		unreachable(err, url->relay);
		return -1;
	}
	sessions = g_array_new(FALSE, FALSE, sizeof(struct tn_live_session));
	g_array_set_clear_func(sessions, session_clear);
	if (read_sessions(result, sessions, err)) {
		bt_value_put_ref(result);
		g_array_free(sessions, TRUE);
		return -1;
	}
	bt_value_put_ref(result);
	*out = sessions;
	return 0;
}

void tn_live_no_such_session(struct tn_error *err,
		const struct tn_live_url *url, const char *names)
{
	tn_error_set(err, "the relay daemon at %s has no session %s of host "
		"%s (%s%s; `tracenav --dump %s` lists them)", url->relay,
		url->session, url->target_host, *names ?
		"it has " : "it has none yet", names, url->relay);
}

uint64_t tn_live_poll_us(uint64_t timer_us)
{
	return CLAMP(timer_us / 2, MIN_RETRY_US, MAX_RETRY_US);
}

/* err: url's session is not among sessions (which it names). */
static void no_such_session(struct tn_error *err, const struct tn_live_url *url,
		const GArray *sessions)
{
	GString *names = g_string_new(NULL);

	for (guint i = 0; i < sessions->len; i++) {
		const struct tn_live_session *s = &g_array_index(sessions,
			struct tn_live_session, i);

		g_string_append_printf(names, "%s%s/%s", i ? ", " : "",
			s->target_host, s->name);
	}
	tn_live_no_such_session(err, url, names->str);
	g_string_free(names, TRUE);
}

int tn_live_reader_create(const struct tn_live_url *url,
		struct tn_reader **out, struct tn_error *err)
{
	const struct tn_live_session *found = NULL;
	GArray *sessions;
	bt_value *params = NULL, *inputs = NULL;
	char *session_url;
	uint64_t retry_us;
	int status = -1;

	if (tn_live_list_sessions(url, &sessions, err))
		return -1;
	for (guint i = 0; !found && i < sessions->len; i++) {
		const struct tn_live_session *s = &g_array_index(sessions,
			struct tn_live_session, i);

		if (!strcmp(s->target_host, url->target_host) &&
		    !strcmp(s->name, url->session))
			found = s;
	}
	if (!found) {
		no_such_session(err, url, sessions);
		tn_live_sessions_free(sessions);
		return -1;
	}
	retry_us = tn_live_poll_us(found->timer_us);
	session_url = g_strdup_printf("%s/host/%s/%s", url->relay,
		url->target_host, url->session);
	tn_live_sessions_free(sessions);
	params = bt_value_map_create();
	/* Destroyed meanwhile: the reader ends, as the session would. */
	if (!params ||
	    bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) ||
	    bt_value_array_append_string_element(inputs, session_url) ||
	    bt_value_map_insert_string_entry(params,
			"session-not-found-action", "end"))
		tn_error_set(err, "out of memory");
	else
		status = tn_reader_create_on_source("ctf", "lttng-live",
			params, true, retry_us, out, err);
	bt_value_put_ref(params);
	g_free(session_url);
	return status;
}
