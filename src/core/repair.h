/* repair.h - the stream files of a trace that libbabeltrace2 cannot read
 * as they are, and the private stand-ins of its directories that leave
 * their damage out (internal: not part of the public API).
 *
 * libbabeltrace2 2.0 refuses a whole trace when one of its stream files
 * ends inside a packet ("Failed to index CTF stream file": a trace read
 * while its session writes it, a copy cut short), cannot be opened, or
 * has a first packet it cannot decode.  tn_repair_check_dir() compares
 * each stream file with its packet index (index/FILE.idx) before
 * libbabeltrace2 sees it: the packets that lie whole in the file are
 * read and the incomplete tail is left out; a file without a whole
 * packet, or that cannot be read, is left out; an index that does not
 * describe its file is not given to libbabeltrace2 (it finds the
 * packets in the file itself).  What libbabeltrace2 still refuses when
 * the trace opens, tn_repair_leave_out() handles: a stream file without
 * index that ends inside a packet keeps its whole packets when they are
 * all one size (the CTF packet magic at every multiple of it), else it
 * is left out.  Each such finding is a note naming the file, what is
 * wrong and what was read of it.
 *
 * The stand-ins: when any directory needs one, every directory of the
 * trace gets a private one (mode 0700, under the runtime directory),
 * named so that they sort as the directories do, holding symlinks to
 * its metadata and stream files, the packet indexes as they are or as
 * repaired, and nothing of what is left out.  Their packet indexes keep
 * the packets found whole when the trace opened; a file that grows
 * since then (still being written) has its new bytes counted as the
 * padding of its last packet kept (tn_repair_refresh()), so that every
 * reader sees the trace as it was opened until it is opened again.
 *
 * Threads: checks, leave-outs and the writing of the stand-ins happen
 * while the trace opens; then the repair is only read, except
 * tn_repair_refresh(), which any thread may call (under a mutex).
 */
#ifndef TRACENAV_CORE_REPAIR_H
#define TRACENAV_CORE_REPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"

struct tn_repair;

/* A new repair, finding nothing yet.  Never NULL. */
struct tn_repair *tn_repair_create(void);

/* Remove the stand-ins and free the repair.  NULL-safe. */
void tn_repair_destroy(struct tn_repair *repair);

/* Check the stream files of trace directory dir (as the trace names
 * it) against their packet indexes, noting what is wrong.  Once per
 * directory. */
void tn_repair_check_dir(struct tn_repair *repair, const char *dir);

/* libbabeltrace2 refused the stream file at path (a stream file of one
 * of the directories checked, as a stand-in or the directory itself
 * names it), saying why: keep its whole packets when they can be found
 * without its index, else leave it out.  Returns 0 when something
 * changed (the stand-ins are to be written again, and the trace opened
 * again), -1 when path is not a stream file of the trace, was left out
 * already, or is the last one of its directory not left out (then
 * libbabeltrace2's error is the trace's). */
int tn_repair_leave_out(struct tn_repair *repair, const char *path,
		const char *why);

/* Whether the trace needs stand-ins. */
bool tn_repair_needed(const struct tn_repair *repair);

/* Write the stand-ins (again) when tn_repair_needed().  Returns 0, or
 * -1 with err (the runtime directory cannot be written). */
int tn_repair_write(struct tn_repair *repair, struct tn_error *err);

/* The directory libbabeltrace2 reads for trace directory dir: its
 * stand-in once written, else dir itself.  Valid as long as the
 * repair. */
const char *tn_repair_read_dir(const struct tn_repair *repair,
		const char *dir);

/* Whether every stream file of dir is skipped (none can be read): then
 * *file and *text are the note of the first one (valid as long as the
 * repair). */
bool tn_repair_dir_unreadable(const struct tn_repair *repair,
		const char *dir, const char **file, const char **text);

/* Whether a stream file of dir is read without a packet index (it has
 * none, one of another tool's, or one that is ignored): finding its
 * packets' time range reads its packet headers. */
bool tn_repair_has_unindexed(const struct tn_repair *repair,
		const char *dir);

/* Whether a stream file of dir has an index made up without packet
 * times (tn_repair_leave_out() kept its packets): the packets' time
 * range of dir is not known from its packet indexes. */
bool tn_repair_has_untimed_index(const struct tn_repair *repair,
		const char *dir);

/* Grow the last packet kept of each repaired stream file to the file's
 * size now, in its stand-in's index (see above).  Any thread. */
void tn_repair_refresh(const struct tn_repair *repair);

/* How many times tn_repair_refresh() found a repaired stream file
 * grown and wrote its index again: when it changed while a reader was
 * made on a slice of the trace, that reader may have been refused
 * (libbabeltrace2 read a file larger than the slice's index says), and
 * is to be made again with a new slice.  Any thread. */
uint64_t tn_repair_get_generation(const struct tn_repair *repair);

/* What a note says: events are missing (a file read in part or
 * skipped), or only that a packet index is not used (every event is
 * read, from the stream file itself), its format not LTTng's or its
 * entries not the file's. */
enum tn_repair_note_kind {
	TN_REPAIR_NOTE_DAMAGE,
	/* Damage that a trace being written has: a stream file read up
	 * to its last whole packet, the rest an incomplete packet. */
	TN_REPAIR_NOTE_INCOMPLETE,
	TN_REPAIR_NOTE_INDEX_FOREIGN,
	TN_REPAIR_NOTE_INDEX_IGNORED,
};

/* The notes: the file each is about (its path under the trace
 * directory), and what was found and done, in the user's words ("read
 * up to byte 8192 of 10000: ..." or "skipped, its events are missing:
 * ..."). */
size_t tn_repair_get_note_count(const struct tn_repair *repair);
enum tn_repair_note_kind tn_repair_get_note_kind(
		const struct tn_repair *repair, size_t index);
const char *tn_repair_get_note_file(const struct tn_repair *repair,
		size_t index);
const char *tn_repair_get_note_text(const struct tn_repair *repair,
		size_t index);

/* The path of the trace file that the path of a file of a stand-in
 * (a stream name, as libbabeltrace2 names a stream after its file)
 * stands for, to be freed; NULL when path is in no stand-in alive.  Any
 * thread. */
char *tn_repair_original_path(const char *path);

#endif
