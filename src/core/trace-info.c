/* trace-info.c - what `--info` says of a trace, without a reader (see
 * trace-object.h).
 *
 * The probe (trace-probe.c) sets a reader up, which parses the
 * metadata, and for the traces of some tracers decodes the last packet
 * of every stream (src.ctf.fs fixes their packet indexes up), while the
 * trace-infos query does the same work again in its child for the time
 * range.  `--info` needs no event: for a trace of one directory whose
 * metadata says its env and clock plainly (metadata-facts.c), the env,
 * the UUID and the clock come from tracenav's own reading of the text,
 * and the streams and the time range from the trace-infos query alone,
 * as babeltrace2's own `query` command gets them.  The infos are those
 * the probe would give: the name (the env's hostname, and the
 * directory's name below the path given), the env in its order, the
 * clock as libbabeltrace2 makes it.
 */
#include <glib.h>
#include <string.h>

#include "metadata-check.h"
#include "repair.h"
#include "trace-object.h"
#include "trace-private.h"

/* The env entry name of facts, or NULL. */
static const char *env_value(const struct tn_metadata_facts *facts,
		const char *name)
{
	for (guint i = 0; i + 1 < facts->env->len; i += 2)
		if (strcmp(facts->env->pdata[i], name) == 0)
			return facts->env->pdata[i + 1];
	return NULL;
}

/* The trace's info, as tn_trace_probe() makes it from libbabeltrace2's
 * trace object. */
static struct tn_trace_info *info_of(const struct tn_trace *trace,
		const struct tn_metadata_facts *facts, size_t streams)
{
	struct tn_trace_info *info = g_new0(struct tn_trace_info, 1);
	const char *hostname = env_value(facts, "hostname");
	const char *suffix = tn_trace_get_group_name_suffix(trace, 0);
	const char *domain = env_value(facts, "domain");

	/* src.ctf.fs: the hostname, then "/" and the suffix if any. */
	info->name = g_strdup_printf("%s%s%s", hostname ? hostname : "",
		hostname && suffix ? "/" : "", suffix ? suffix : "");
	info->hostname = g_strdup(hostname);
	info->domain = g_strdup(domain);
	if (facts->has_uuid)
		info->uuid = g_strdup(facts->uuid);
	info->env_count = facts->env->len / 2;
	info->env = g_new0(struct tn_env_entry, info->env_count);
	for (size_t i = 0; i < info->env_count; i++) {
		info->env[i].name = g_strdup(facts->env->pdata[2 * i]);
		info->env[i].value = g_strdup(facts->env->pdata[2 * i + 1]);
	}
	info->stream_count = streams;
	info->clock_count = 1;
	info->clocks = g_new0(struct tn_clock_info, 1);
	info->clocks[0] = (struct tn_clock_info) {
		.name = g_strdup(facts->clock.name),
		.frequency = facts->clock.frequency,
		.offset_seconds = facts->clock.offset_seconds,
		.offset_cycles = facts->clock.offset_cycles,
		.origin_is_unix_epoch = facts->clock.absolute,
	};
	info->dir_count = 1;
	info->dirs = g_new(char *, 1);
	info->dirs[0] = g_strdup(trace->dirs->pdata[0]);
	return info;
}

int tn_trace_probe_info(struct tn_trace *trace,
		const struct tn_metadata_facts *facts)
{
	struct trace_range range = { 0 };
	size_t streams = 0;

	/* One directory read as it is (no stand-in, nothing noted by the
	 * repair), whose metadata says its env and clock plainly. */
	if (trace->groups->len != 1 || trace->dirs->len != 1 ||
	    !tn_metadata_facts_plain(facts) ||
	    tn_repair_get_note_count(trace->repair) > 0 ||
	    strcmp(tn_trace_get_read_dir(trace, 0),
		   trace->dirs->pdata[0]) != 0)
		return 1;
	if (tn_trace_infos_finish(&range, NULL, tn_trace_infos_start(trace, false),
			&streams) || streams == 0)
		return 1;	/* the probe says why */
	trace->stream_count = streams;
	trace->has_clock = true;
	trace->shared->range = range;
	g_ptr_array_add(trace->infos, info_of(trace, facts, streams));
	return 0;
}
