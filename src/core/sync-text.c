/* sync-text.c - a correction as text: what `sync` prints, what
 * `sync save` writes and `sync load` reads (see sync.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracenav/sync.h"

static const char *const quality_names[] = {
	[TN_SYNC_REFERENCE] = "reference",
	[TN_SYNC_ABSENT] = "absent",
	[TN_SYNC_INCOMPLETE] = "incomplete",
	[TN_SYNC_APPROXIMATE] = "approximate",
	[TN_SYNC_ACCURATE] = "accurate",
	[TN_SYNC_FAILED] = "failed",
};

const char *tn_sync_quality_name(enum tn_sync_quality quality)
{
	return (size_t) quality < G_N_ELEMENTS(quality_names) ?
		quality_names[quality] : "?";
}

void tn_sync_destroy(struct tn_sync *sync)
{
	if (!sync)
		return;
	for (size_t i = 0; i < sync->host_count; i++)
		g_free(sync->hosts[i].name);
	g_free(sync->hosts);
	g_free(sync);
}

const struct tn_sync_host *tn_sync_host_of_event(const struct tn_sync *sync,
		const struct tn_event *ev)
{
	const struct tn_sync_host *host;

	if (!sync)
		return NULL;
	host = tn_sync_find_host(sync, tn_event_get_hostname(ev));
	return host ? host : tn_sync_find_host(sync,
		tn_event_get_trace_name(ev));
}

struct tn_sync *tn_sync_copy(const struct tn_sync *sync)
{
	struct tn_sync *copy = g_memdup2(sync, sizeof(*sync));

	copy->hosts = g_memdup2(sync->hosts,
		sync->host_count * sizeof(*sync->hosts));
	for (size_t i = 0; i < sync->host_count; i++)
		copy->hosts[i].name = g_strdup(sync->hosts[i].name);
	return copy;
}

const struct tn_sync_host *tn_sync_find_host(const struct tn_sync *sync,
		const char *name)
{
	for (size_t i = 0; sync && name && i < sync->host_count; i++)
		if (strcmp(sync->hosts[i].name, name) == 0)
			return &sync->hosts[i];
	return NULL;
}

void tn_sync_round(struct tn_sync *sync)
{
	char text[64];

	for (size_t i = 0; i < sync->host_count; i++) {
		struct tn_sync_transform *tr = &sync->hosts[i].transform;

		snprintf(text, sizeof(text), "%.20Lf", tr->slope);
		tr->slope = strtold(text, NULL);
		snprintf(text, sizeof(text), "%.3Lf", tr->offset);
		tr->offset = strtold(text, NULL);
	}
}

void tn_sync_format(const struct tn_sync *sync, GString *out)
{
	for (size_t i = 0; i < sync->host_count; i++) {
		const struct tn_sync_host *host = &sync->hosts[i];

		g_string_append_printf(out, "%s\t%.20Lf\t%.3Lf\t%s\t",
			host->name, host->transform.slope,
			host->transform.offset,
			tn_sync_quality_name(host->quality));
		if (host->accuracy < 0)
			g_string_append(out, "-");
		else
			g_string_append_printf(out, "%.3Lf", host->accuracy);
		g_string_append_printf(out, "\t%" PRIu64 "\n", host->matches);
	}
}

/* ---- reading it back ---- */

static bool parse_real(const char *text, long double *out)
{
	char *end;

	errno = 0;
	*out = strtold(text, &end);
	return !errno && end != text && !*end && isfinite(*out);
}

static bool parse_quality(const char *text, enum tn_sync_quality *out)
{
	for (size_t i = 0; i < G_N_ELEMENTS(quality_names); i++)
		if (strcmp(text, quality_names[i]) == 0) {
			*out = (enum tn_sync_quality) i;
			return true;
		}
	return false;
}

/* One line's host; false when a column is wrong (*what says which). */
static bool parse_host(char **cols, struct tn_sync_host *host,
		const char **what)
{
	char *end;

	host->parent = -1;
	host->name = g_strdup(cols[0]);
	if (!*cols[0])
		return (*what = "an empty host name"), false;
	if (!parse_real(cols[1], &host->transform.slope) ||
	    host->transform.slope <= 0)
		return (*what = "SLOPE, a number above 0"), false;
	if (!parse_real(cols[2], &host->transform.offset))
		return (*what = "OFFSET_NS, a number"), false;
	if (!parse_quality(cols[3], &host->quality))
		return (*what = "QUALITY, one of reference, absent, "
			"incomplete, approximate, accurate, failed"), false;
	if (strcmp(cols[4], "-") == 0)
		host->accuracy = -1;
	else if (!parse_real(cols[4], &host->accuracy) || host->accuracy < 0)
		return (*what = "ACCURACY, a number or -"), false;
	errno = 0;
	host->matches = strtoull(cols[5], &end, 10);
	if (errno || end == cols[5] || *end || *cols[5] == '-')
		return (*what = "MATCHES, a count"), false;
	return true;
}

int tn_sync_parse(const char *text, struct tn_sync **out,
		struct tn_error *err)
{
	char **lines = g_strsplit(text, "\n", -1);
	struct tn_sync *sync = g_new0(struct tn_sync, 1);
	GArray *hosts = g_array_new(FALSE, TRUE, sizeof(struct tn_sync_host));
	int status = 0;

	for (size_t i = 0; lines[i] && status == 0; i++) {
		char *line = g_strchomp(lines[i]);
		struct tn_sync_host host = { 0 };
		const char *what = NULL;
		char **cols;

		if (!*line || *line == '#')
			continue;
		cols = g_strsplit(line, "\t", -1);
		if (g_strv_length(cols) != 6)
			what = "6 columns separated by tabs: HOST SLOPE "
				"OFFSET_NS QUALITY ACCURACY MATCHES";
		else if (!parse_host(cols, &host, &what))
			;
		else if (tn_sync_find_host(&(struct tn_sync) { hosts->len,
				(struct tn_sync_host *) (void *) hosts->data,
				0, 0, 0 }, host.name))
			what = "a host named twice";
		g_strfreev(cols);
		if (what) {
			g_free(host.name);
			tn_error_set(err, "line %zu: expected %s", i + 1, what);
			status = -1;
		} else {
			g_array_append_val(hosts, host);
		}
	}
	g_strfreev(lines);
	sync->host_count = hosts->len;
	sync->hosts = (struct tn_sync_host *) (void *) g_array_free(hosts,
		FALSE);
	if (status == 0 && sync->host_count == 0) {
		tn_error_set(err, "no host in it (one line per host: HOST "
			"SLOPE OFFSET_NS QUALITY ACCURACY MATCHES)");
		status = -1;
	}
	if (status)
		tn_sync_destroy(sync);
	else
		*out = sync;
	return status;
}

int tn_sync_load_file(const char *path, struct tn_sync **out,
		struct tn_error *err)
{
	GError *gerr = NULL;
	struct tn_error why;
	char *text;

	if (!g_file_get_contents(path, &text, NULL, &gerr)) {
		tn_error_set(err, "cannot read the correction %s: %s", path,
			gerr->message);
		g_error_free(gerr);
		return -1;
	}
	if (tn_sync_parse(text, out, &why)) {
		tn_error_set(err, "%s is not a correction as `sync save` "
			"writes it: %s", path, why.message);
		g_free(text);
		return -1;
	}
	g_free(text);
	return 0;
}
