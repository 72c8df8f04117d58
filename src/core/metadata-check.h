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
#include "metadata-facts.h"

/* The size of a CTF metadata packet header, in bytes. */
#define TN_METADATA_PACKET_HEADER_SIZE 37

/* Check the metadata file at path.  Returns 0 when libbabeltrace2 may
 * be given it (it may still refuse its contents: a syntax error, an
 * unknown type), or -1 with err saying what is wrong with it ("the
 * metadata is cut short: ..."), without naming the file: the caller
 * says which trace it belongs to.  facts (may be NULL) gets what the
 * text says of its trace, when the check passes. */
int tn_metadata_check_file(const char *path,
		struct tn_metadata_facts *facts, struct tn_error *err);

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
