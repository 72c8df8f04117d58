/* metadata-facts.h - what a trace's metadata text says of its trace,
 * read by tracenav itself (internal: not part of the public API; the
 * check of metadata-check.h gives them).
 */
#ifndef TRACENAV_CORE_METADATA_FACTS_H
#define TRACENAV_CORE_METADATA_FACTS_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the metadata says of its trace, read from the text's first
 * TN_METADATA_HEAD_BYTES (where LTTng and barectf write the `trace` and
 * `env` blocks), before libbabeltrace2 parses it: the trace's UUID
 * (src.ctf.fs groups the directories of one trace by it) and the tracer
 * (whether src.ctf.fs will fix the packet indexes up). */
#define TN_METADATA_HEAD_BYTES 65536
/* A `clock` block, as libbabeltrace2 2.0 makes its clock class. */
struct tn_metadata_clock {
	char name[64];
	uint64_t frequency;
	int64_t offset_seconds;
	uint64_t offset_cycles;		/* < frequency */
	bool absolute;			/* its origin is the Unix epoch */
};

struct tn_metadata_facts {
	bool has_uuid;		/* the `trace` block's uuid, lowercase */
	char uuid[40];
	bool has_tracer;	/* the `env` block's tracer_name */
	char tracer_name[32];
	/* tracer_major, _minor, _patchlevel, or -1 */
	long tracer_major, tracer_minor, tracer_patchlevel;
	/* For tracenav's own --info (trace-info.c), when
	 * tn_metadata_facts_plain(): the env entries in their order, as
	 * name, value, name, value... (char *, the value as libbabeltrace2
	 * prints it; NULL: no env block), and the one clock block, which a
	 * field maps (`clock.NAME.value`). */
	GPtrArray *env;
	bool env_plain;
	int clock_count;
	bool clock_plain, clock_mapped;
	struct tn_metadata_clock clock;
};

/* Whether the facts say all that libbabeltrace2 would of the env and
 * the clock (metadata-facts.c says when they do). */
bool tn_metadata_facts_plain(const struct tn_metadata_facts *facts);

/* Free what the facts hold (their env). */
void tn_metadata_facts_fini(struct tn_metadata_facts *facts);

/* Read the facts from the len bytes of metadata text: the `uuid = "...";`
 * of the top-level `trace { ... };` block, the entries of the `env { ...
 * };` block and those of the `clock { ... };` blocks (exposed for the
 * unit tests).  tn_metadata_facts_fini() frees them. */
void tn_metadata_read_facts(const char *text, size_t len,
		struct tn_metadata_facts *facts);

#endif
