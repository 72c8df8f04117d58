/* batch.h - --batch: run commands of the command table without a
 * terminal, results on stdout. */
#ifndef TRACENAV_BATCH_H
#define TRACENAV_BATCH_H

#include <stdbool.h>

#include "batch-script.h"
#include "tracenav/trace.h"

/* Rows a page moves in batch mode (a 24-line terminal's list). */
#define TN_BATCH_PAGE_ROWS 20

/* Run script's commands (separated by ';' or newlines; a file is run
 * as it is read, so that its length costs no memory and a program can
 * drive tracenav through a pipe) on trace (taken over: reload replaces
 * it, and it is destroyed before this returns), keeping
 * the checkpoint index in cache_dir (NULL: no cache; taken over), with
 * the sequence diagram rules (NULL: none; taken over), without the
 * index of the diagram's pages when no_seq_index (--no-seq-index), and
 * the symbols of call stacks (NULL: none; borrowed).  Returns the exit
 * status: 0; 1 with a message on stderr for each command that failed
 * (and, with keep_going, their number at the end) or when the file
 * cannot be read to its end; 2 when it cannot be opened. */
struct tn_seq_rules;
struct tn_symbols;
int batch_run(struct tn_trace *trace, const struct batch_script *script,
		bool gmt, char *cache_dir, struct tn_seq_rules *rules,
		bool no_seq_index, const struct tn_symbols *symbols);

#endif
