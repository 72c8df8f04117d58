/* index-sources.c - events to their sources, with a memo (see
 * index-sources.h). */
#include <string.h>

#include "pointer-hash.h"
#include "index-sources.h"

void tn_index_source_of_event(const struct tn_event *ev,
		struct tn_index_source *out)
{
	const char *trace = tn_event_get_hostname(ev);

	if (!trace || !trace[0])
		trace = tn_event_get_trace_name(ev);
	/* The const goes: the caller owns out but not this string, which
	 * it copies before keeping it. */
	out->trace = (char *) (uintptr_t) (trace && trace[0] ? trace : "-");
	out->stream_class_id = tn_event_get_stream_class_id(ev);
	out->stream_id = tn_event_get_stream_id(ev);
	out->cpu = tn_event_get_cpu(ev);
	out->count = 0;
}

void tn_source_memo_clear(struct tn_source_memo *memo)
{
	memset(memo, 0, sizeof(*memo));
}

long tn_source_memo_lookup(struct tn_source_memo *memo,
		const struct tn_event *ev,
		long (*miss)(void *data, const struct tn_index_source *source),
		void *data)
{
	const void *stream = tn_event_get_stream_key(ev);
	int64_t cpu = tn_event_get_cpu(ev);
	/* The stream and the CPU both spread the slots. */
	size_t slot = tn_pointer_slot((const char *) stream + cpu * 4099,
		TN_SOURCE_MEMO_SLOTS);
	struct tn_index_source source;

	if (memo->slots[slot].stream == stream && memo->slots[slot].cpu == cpu)
		return memo->slots[slot].value;
	tn_index_source_of_event(ev, &source);
	memo->slots[slot].stream = stream;
	memo->slots[slot].cpu = cpu;
	memo->slots[slot].value = miss(data, &source);
	return memo->slots[slot].value;
}
