/* metadata-check.h - a trace's metadata file checked before
 * libbabeltrace2 reads it (internal: not part of the public API).
 *
 * libbabeltrace2 2.0.4 reads a packetized metadata file (LTTng's) packet
 * by packet, and loops for ever, at 100% CPU, when the file ends inside
 * a packet's text: its read loop takes a read of 0 bytes for progress.
 * A metadata file copied or read while its session still writes it ends
 * that way.  So tracenav walks the packet headers first (magic, header
 * size, content and packet sizes against the file's size), and checks
 * that the text, packetized or plain, is whole: it starts with the CTF
 * 1.8 signature (plain text) and ends outside any comment, string or
 * block, after a complete top-level declaration.  What it finds is said
 * in the user's words, with what to do next.
 *
 * The check reads the file only (no libbabeltrace2), a few kilobytes at
 * a time; any thread.
 */
#ifndef TRACENAV_CORE_METADATA_CHECK_H
#define TRACENAV_CORE_METADATA_CHECK_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"

/* The size of a CTF metadata packet header, in bytes. */
#define TN_METADATA_PACKET_HEADER_SIZE 37

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

/* Check the metadata file at path.  Returns 0 when libbabeltrace2 may
 * be given it (it may still refuse its contents: a syntax error, an
 * unknown type), or -1 with err saying what is wrong with it ("the
 * metadata is cut short: ..."), without naming the file: the caller
 * says which trace it belongs to.  facts (may be NULL) gets what the
 * text says of its trace, when the check passes. */
int tn_metadata_check_file(const char *path,
		struct tn_metadata_facts *facts, struct tn_error *err);

/* Read the facts from the len bytes of metadata text: the `uuid = "...";`
 * of the top-level `trace { ... };` block, the entries of the `env { ...
 * };` block and those of the `clock { ... };` blocks (exposed for the
 * unit tests; metadata-facts.c).  tn_metadata_facts_fini() frees them. */
void tn_metadata_read_facts(const char *text, size_t len,
		struct tn_metadata_facts *facts);

/* The scanner of the metadata's text, fed in pieces (exposed for the
 * unit tests): tn_metadata_text_init(), then tn_metadata_text_feed()
 * with the text as it comes, then tn_metadata_text_finish(), which
 * returns 0 when the text ends where a declaration may end, or -1 with
 * err saying where it stops ("inside a block: the `{` of line 12 is not
 * closed"). */
struct tn_metadata_text {
	int state;		/* where the scanner is (metadata-check.c) */
	unsigned long depth;	/* blocks open: { [ ( */
	unsigned long line;	/* the line being read, from 1 */
	unsigned long block_line;	/* where the outermost open block
					 * began */
	unsigned long token_line;	/* where the open comment or string
					 * began */
	unsigned long last_line;	/* of the last significant character */
	char last;		/* the last significant character, or 0 */
	char *head;		/* NULL, or where the first bytes go */
	size_t head_len;	/* of the TN_METADATA_HEAD_BYTES */
};

void tn_metadata_text_init(struct tn_metadata_text *text);
void tn_metadata_text_feed(struct tn_metadata_text *text, const char *bytes,
		size_t len);
int tn_metadata_text_finish(const struct tn_metadata_text *text,
		struct tn_error *err);

#endif
