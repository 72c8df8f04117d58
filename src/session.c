/* session.c - what the front ends share. */
#include <string.h>

#include "session.h"
#include "tracenav/cache.h"

int tn_session_init(struct tn_session *session, struct tn_trace *trace,
		bool gmt, void (*output)(struct tn_session *session,
			enum tn_output_kind kind, const char *title,
			const char *text), struct tn_error *err)
{
	memset(session, 0, sizeof(*session));
	session->trace = trace;
	session->gmt = gmt;
	session->page_rows = 1;
	session->output = output;
	return tn_cursor_create(trace, NULL, &session->cursor, err);
}

static void message(struct tn_session *session, const char *text)
{
	if (session->output)
		session->output(session, TN_OUTPUT_MESSAGE, NULL, text);
}

static void use_index(struct tn_session *session, struct tn_index *index)
{
	session->index = index;
	tn_trace_set_packet_tables(session->trace,
		tn_index_borrow_packet_tables(index));
	tn_cursor_set_index(session->cursor, index);
}

/* Try the cache; true if it gave the index. */
static bool load_cached_index(struct tn_session *session)
{
	struct tn_index *index = NULL;
	struct tn_error err;
	char *text;

	if (!session->cache_dir)
		return false;
	switch (tn_cache_load(session->trace, session->cache_dir, &index,
			&err)) {
	case TN_CACHE_HIT:
		use_index(session, index);
		return true;
	case TN_CACHE_INVALID:
		text = g_strdup_printf("%s; indexing again", err.message);
		message(session, text);
		g_free(text);
		return false;
	case TN_CACHE_ERROR:
		text = g_strdup_printf("%s; the index stays in memory",
			err.message);
		message(session, text);
		g_free(text);
		session->cache_warned = true;
		return false;
	case TN_CACHE_MISS:
		return false;
	}
	return false;
}

int tn_session_start_index(struct tn_session *session, struct tn_error *err)
{
	if (session->index || session->indexer)
		return 0;
	if (load_cached_index(session))
		return 0;
	return tn_indexer_start(session->trace, 0, &session->indexer, err);
}

static void save_index(struct tn_session *session)
{
	struct tn_error err;
	char *text;

	if (!session->cache_dir || session->cache_warned)
		return;
	if (tn_cache_save(session->trace, session->cache_dir, session->index,
			&err) == 0)
		return;
	session->cache_warned = true;
	text = g_strdup_printf("%s; the index stays in memory", err.message);
	message(session, text);
	g_free(text);
}

bool tn_session_poll_index(struct tn_session *session)
{
	struct tn_index_progress progress;

	if (!session->indexer)
		return false;
	tn_indexer_get_progress(session->indexer, &progress);
	if (!progress.done && !progress.failed && !progress.cancelled)
		return true;
	if (progress.done) {
		use_index(session, tn_indexer_take_index(session->indexer));
		save_index(session);
	} else if (progress.failed) {
		char *text = g_strdup_printf("indexing stopped: %s",
			progress.message);

		message(session, text);
		g_free(text);
	}
	tn_indexer_destroy(session->indexer);
	session->indexer = NULL;
	return true;
}

void tn_session_cancel_index(struct tn_session *session)
{
	if (!session->indexer)
		return;
	tn_indexer_destroy(session->indexer);
	session->indexer = NULL;
	message(session, "indexing cancelled");
}

void tn_session_fini(struct tn_session *session)
{
	tn_indexer_destroy(session->indexer);
	session->indexer = NULL;
	tn_cursor_destroy(session->cursor);
	session->cursor = NULL;
	/* The trace may outlive the session: it must not see a freed index. */
	if (session->trace)
		tn_trace_set_packet_tables(session->trace, NULL);
	tn_index_destroy(session->index);
	session->index = NULL;
	g_free(session->cache_dir);
	session->cache_dir = NULL;
}
