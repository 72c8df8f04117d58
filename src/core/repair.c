/* repair.c - stream files that libbabeltrace2 cannot read as they are:
 * each checked, and a plan of what its stand-in keeps of it, with a
 * note (see repair.h; repair-stand-in.c writes the stand-ins).
 *
 * What src.ctf.fs 2.0 does with a trace directory: it reads every
 * regular file but `metadata` and the hidden ones as a stream file,
 * skips empty ones, fails the whole trace on one it cannot open, and
 * indexes each: from index/FILE.idx when that file is sound and its
 * packets add up to the file's size (it checks nothing else: it reads
 * the packets at the offsets the entries give, each by the size its own
 * packet context says, so the bytes after the last packet it decodes
 * are skipped as padding), else by reading the packet headers of the
 * file, which fails when the last packet goes past the end of the file.
 * So a stand-in's index whose last entry is grown to cover an
 * incomplete tail makes it read the whole packets and leave the tail.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctf-index.h"
#include "repair-private.h"

/* The magic number that starts every CTF packet, in its byte order. */
#define PACKET_MAGIC UINT32_C(0xC1FC1FC1)
/* The smallest packet the fixed-size search looks for, and how far it
 * reads for the second one (bytes). */
#define MIN_PACKET 512
#define MAX_PACKET (64u << 20)
#define CUT_ADVICE "the trace is still being written, or the file was " \
	"cut short"


/* ---- plans and notes ---- */

static void file_plan_free(gpointer data)
{
	struct file_plan *plan = data;

	g_free(plan->name);
	tn_ctf_index_fini(&plan->idx);
	g_free(plan);
}

static void dir_plan_free(gpointer data)
{
	struct dir_plan *dp = data;

	g_free(dp->dir);
	g_free(dp->real);
	g_free(dp->stand_in);
	g_ptr_array_free(dp->files, TRUE);
	g_free(dp);
}

static void note_free(gpointer data)
{
	struct note *note = data;

	g_free(note->file);
	g_free(note->text);
	g_free(note);
}

static void add_note(struct tn_repair *repair, const char *file,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_kind_note(struct tn_repair *repair,
		enum tn_repair_note_kind kind, const char *file,
		const char *fmt, va_list args)
		__attribute__((format(printf, 4, 0)));

static void add_kind_note(struct tn_repair *repair,
		enum tn_repair_note_kind kind, const char *file,
		const char *fmt, va_list args)
{
	struct note *note = g_new0(struct note, 1);

	note->file = g_strdup(file);
	note->text = g_strdup_vprintf(fmt, args);
	note->kind = kind;
	g_ptr_array_add(repair->notes, note);
}

/* A note of damage: events are missing. */
static void add_note(struct tn_repair *repair, const char *file,
		const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	add_kind_note(repair, TN_REPAIR_NOTE_DAMAGE, file, fmt, args);
	va_end(args);
}

/* A note of another kind: a stream file read up to its last whole
 * packet, the rest an incomplete packet (TN_REPAIR_NOTE_INCOMPLETE,
 * damage too); a packet index not used (every event still read). */
static void add_note_of(struct tn_repair *repair,
		enum tn_repair_note_kind kind, const char *file,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void add_note_of(struct tn_repair *repair,
		enum tn_repair_note_kind kind, const char *file,
		const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	add_kind_note(repair, kind, file, fmt, args);
	va_end(args);
}

/* One more stream file of dp skipped, the last note saying so. */
static void count_skip(const struct tn_repair *repair, struct dir_plan *dp)
{
	if (dp->skipped++ == 0)
		dp->first_skip = repair->notes->len - 1;
}

/* A plan for stream file name of dp (replacing any), taking *idx; the
 * note saying why is made first. */
static struct file_plan *set_plan(const struct tn_repair *repair,
		struct dir_plan *dp, const char *name, enum action action,
		struct tn_ctf_index *idx, size_t count)
{
	struct file_plan *plan = tn_repair_find_plan(dp, name);

	if (!plan) {
		plan = g_new0(struct file_plan, 1);
		plan->name = g_strdup(name);
		g_ptr_array_add(dp->files, plan);
	}
	if (action == ACTION_SKIP && plan->action != ACTION_SKIP)
		count_skip(repair, dp);
	tn_ctf_index_fini(&plan->idx);
	plan->action = action;
	plan->count = count;
	plan->untimed = false;
	plan->written_size = 0;
	if (idx) {
		plan->idx = *idx;
		memset(idx, 0, sizeof(*idx));
	}
	return plan;
}

/* ---- looking at a stream file ---- */

static uint32_t word_of(const uint8_t *b)
{
	return (uint32_t) b[0] << 24 | (uint32_t) b[1] << 16 |
		(uint32_t) b[2] << 8 | b[3];
}

/* The 4 bytes at offset of the file fd as a big-endian number, or 0. */
static uint32_t word_at(int fd, uint64_t offset)
{
	uint8_t b[4];

	if (pread(fd, b, sizeof(b), (off_t) offset) != (ssize_t) sizeof(b))
		return 0;
	return word_of(b);
}

static bool is_packet_magic(uint32_t word)
{
	return word == PACKET_MAGIC || word == GUINT32_SWAP_LE_BE(PACKET_MAGIC);
}

static uint64_t entry_end(const struct tn_ctf_index *idx, size_t i)
{
	return tn_ctf_index_get(idx, i, TN_CTF_INDEX_OFFSET) +
		tn_ctf_index_get(idx, i, TN_CTF_INDEX_PACKET_SIZE) / 8;
}

/* Whether the entries of idx follow one another from byte 0, each of
 * whole bytes; else why not, in why. */
static bool entries_follow(const struct tn_ctf_index *idx, char *why,
		size_t why_size)
{
	uint64_t next = 0;

	for (size_t i = 0; i < idx->entry_count; i++) {
		uint64_t offset = tn_ctf_index_get(idx, i,
			TN_CTF_INDEX_OFFSET);
		uint64_t bits = tn_ctf_index_get(idx, i,
			TN_CTF_INDEX_PACKET_SIZE);

		if (bits == 0 || bits % 8 || offset != next ||
		    offset > UINT64_MAX / 2 ||
		    bits / 8 > UINT64_MAX / 2 - offset) {
			snprintf(why, why_size, "its entry %zu (a packet of %"
				PRIu64 " bits at byte %" PRIu64 ") does not "
				"follow the one before", i, bits, offset);
			return false;
		}
		next = offset + bits / 8;
	}
	return true;
}

/* The first of the entries [0, count) of idx whose packet does not
 * start with the packet magic in the file fd, or count. */
static size_t first_without_magic(int fd, const struct tn_ctf_index *idx,
		size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (!is_packet_magic(word_at(fd, tn_ctf_index_get(idx, i,
				TN_CTF_INDEX_OFFSET))))
			return i;
	return count;
}

/* Whether the size bytes after byte from of fd are whole packets of
 * packet bytes each (the magic at each start). */
static bool whole_packets(int fd, uint64_t from, uint64_t size,
		uint64_t packet)
{
	if (packet == 0 || size % packet)
		return false;
	for (uint64_t at = from; at < from + size; at += packet)
		if (!is_packet_magic(word_at(fd, at)))
			return false;
	return true;
}

/* Whether every entry of idx is a packet of the same size. */
static bool one_packet_size(const struct tn_ctf_index *idx)
{
	for (size_t i = 1; i < idx->entry_count; i++)
		if (tn_ctf_index_get(idx, i, TN_CTF_INDEX_PACKET_SIZE) !=
		    tn_ctf_index_get(idx, 0, TN_CTF_INDEX_PACKET_SIZE))
			return false;
	return true;
}

/* The stream file dir/name (size bytes, open as fd) and its index idx
 * (sound, with entries): what libbabeltrace2 reads of them. */
static void check_against_index(struct tn_repair *repair,
		struct dir_plan *dp, const char *name, int fd, uint64_t size,
		struct tn_ctf_index *idx)
{
	char *file = g_build_filename(dp->dir, name, NULL);
	size_t n = idx->entry_count, k = 0, in_file = 0, bad;
	uint64_t covered = entry_end(idx, n - 1), kept_end;
	char why[256];

	/* libbabeltrace2 checks that the sizes add up; slices, that the
	 * packets follow one another: an index that does not, it reads
	 * wrongly or ignores, and slices refuse. */
	if (!entries_follow(idx, why, sizeof(why))) {
		add_note_of(repair, TN_REPAIR_NOTE_INDEX_IGNORED, file,
			"its packet index is ignored: %s; the packets are read "
			"from the stream file itself", why);
		set_plan(repair, dp, name, ACTION_NO_INDEX, NULL, 0);
		goto out;
	}
	if (covered == size)
		goto out;	/* as it should be */
	/* An index one packet or more behind its file (LTTng writes the
	 * packet, then its entry): whole packets after it are read by
	 * libbabeltrace2 from the file. */
	if (covered < size && one_packet_size(idx) &&
	    whole_packets(fd, covered, size - covered,
		    tn_ctf_index_get(idx, 0, TN_CTF_INDEX_PACKET_SIZE) / 8))
		goto out;
	while (k < n && entry_end(idx, k) <= size)
		k++;
	while (in_file < n && tn_ctf_index_get(idx, in_file,
			TN_CTF_INDEX_OFFSET) < size)
		in_file++;
	bad = first_without_magic(fd, idx, in_file);
	if (bad < in_file) {
		add_note_of(repair, TN_REPAIR_NOTE_INDEX_IGNORED, file,
			"its packet index is ignored: it does not describe "
			"this file (no CTF packet starts at byte %" PRIu64
			", where its entry %zu says one does); the packets "
			"are read from the stream file itself",
			tn_ctf_index_get(idx, bad, TN_CTF_INDEX_OFFSET), bad);
		set_plan(repair, dp, name, ACTION_NO_INDEX, NULL, 0);
		goto out;
	}
	if (k == 0) {
		add_note(repair, file, "skipped, its events are missing: its "
			"first packet is incomplete, the file has %" PRIu64
			" of its %" PRIu64 " bytes (%s)", size,
			entry_end(idx, 0), CUT_ADVICE);
		set_plan(repair, dp, name, ACTION_SKIP, NULL, 0);
		goto out;
	}
	kept_end = entry_end(idx, k - 1);
	if (kept_end == size)
		;	/* said below */
	else if (covered < size)
		add_note_of(repair, TN_REPAIR_NOTE_INCOMPLETE, file,
			"read up to byte %" PRIu64 " of %" PRIu64 ": the %"
			PRIu64 " bytes after the %zu packets its index lists "
			"are left out (an incomplete packet: %s)", kept_end,
			size, size - kept_end, n, CUT_ADVICE);
	else if (kept_end < size)
		add_note_of(repair, TN_REPAIR_NOTE_INCOMPLETE, file,
			"read up to byte %" PRIu64 " of %" PRIu64 ": it ends "
			"inside its packet %zu, which should have %" PRIu64
			" bytes: that incomplete packet is left out (%s)",
			kept_end, size, k, entry_end(idx, k) - kept_end,
			CUT_ADVICE);
	if (kept_end == size) {
		/* Whole packets, which libbabeltrace2 finds in the file
		 * itself, with their own times: the index may not even be
		 * this file's. */
		add_note_of(repair, TN_REPAIR_NOTE_INDEX_IGNORED, file,
			"its packet index is ignored: it lists %zu packets, "
			"the file holds %zu whole ones (the file was cut "
			"short, or the index is another file's); the packets "
			"are read from the stream file itself", n, k);
		set_plan(repair, dp, name, ACTION_NO_INDEX, NULL, 0);
		goto out;
	}
	set_plan(repair, dp, name, ACTION_REINDEX, idx, k);
out:
	g_free(file);
}

/* The size of the stream file fd once its index was read (size when
 * it was listed, if fstat fails).  A file being recorded grows: LTTng
 * writes a packet, then its index entry, so this size holds every
 * packet the index lists; the size listed before may miss the last. */
static uint64_t size_after_index(int fd, uint64_t size)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && (uint64_t) st.st_size > size)
		return (uint64_t) st.st_size;
	return size;
}

/* Stream file dir/name, a regular file of size bytes. */
static void check_file(struct tn_repair *repair, struct dir_plan *dp,
		const char *name, uint64_t size)
{
	char *file = g_build_filename(dp->dir, name, NULL);
	struct tn_ctf_index idx = { 0 };
	struct tn_error err;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	/* Each index file read once to tell, then once to load. */
	bool indexed = tn_ctf_index_exists(dp->dir, name);
	bool foreign = !indexed && tn_ctf_index_is_foreign(dp->dir, name);

	if (size > 0)
		dp->streams++;
	/* No index, or another tool's. */
	if (fd >= 0 && size > 0 && !indexed)
		dp->unindexed++;
	if (fd < 0) {
		add_note(repair, file, "skipped, its events are missing: it "
			"cannot be read: %s%s", strerror(errno), errno == EACCES ?
			" (check its permissions)" : "");
		set_plan(repair, dp, name, ACTION_SKIP, NULL, 0);
	} else if (foreign) {
		/* Another tool's: libbabeltrace2 passes over it as over a
		 * missing one (with a warning, which it logs only for
		 * --verbose), no stand-in needed. */
		if (size > 0 && tn_ctf_index_load(dp->dir, name, &idx, &err))
			add_note_of(repair, TN_REPAIR_NOTE_INDEX_FOREIGN,
				file, "its packet index is ignored: %s; the "
				"packets are read from the stream file itself",
				err.message);
	} else if (!indexed) {
		/* libbabeltrace2 reads the packet headers itself; what it
		 * refuses, tn_repair_leave_out() handles. */
	} else if (tn_ctf_index_load(dp->dir, name, &idx, &err)) {
		if (size > 0) {
			add_note_of(repair, TN_REPAIR_NOTE_INDEX_IGNORED,
				file, "its packet index is ignored: %s; the "
				"packets are read from the stream file itself",
				err.message);
			set_plan(repair, dp, name, ACTION_NO_INDEX, NULL, 0);
		}
	} else if (idx.entry_count > 0) {
		uint64_t now = size_after_index(fd, size);

		if (now == 0) {
			add_note(repair, file, "skipped, its events are "
				"missing: it is empty, but its packet index "
				"lists %zu packets (the file was cut short)",
				idx.entry_count);
			dp->streams++;
			/* libbabeltrace2 passes over it */
			count_skip(repair, dp);
		} else {
			if (size == 0)
				dp->streams++;	/* written since listed */
			check_against_index(repair, dp, name, fd, now, &idx);
		}
	}
	if (fd >= 0)
		close(fd);
	tn_ctf_index_fini(&idx);
	g_free(file);
}

/* For g_ptr_array_sort(), which gives pointers to the elements. */
static gint compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

struct tn_repair *tn_repair_create(void)
{
	struct tn_repair *repair = g_new0(struct tn_repair, 1);

	repair->dirs = g_ptr_array_new_with_free_func(dir_plan_free);
	repair->notes = g_ptr_array_new_with_free_func(note_free);
	repair->refresh = g_new0(struct refresh_state, 1);
	pthread_mutex_init(&repair->refresh->lock, NULL);
	return repair;
}

void tn_repair_check_dir(struct tn_repair *repair, const char *dir)
{
	struct dir_plan *dp = g_new0(struct dir_plan, 1);
	char *real = realpath(dir, NULL);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GDir *listing = g_dir_open(dir, 0, NULL);
	const char *name;

	dp->dir = g_strdup(dir);
	dp->real = g_strdup(real ? real : dir);
	free(real);
	dp->files = g_ptr_array_new_with_free_func(file_plan_free);
	g_ptr_array_add(repair->dirs, dp);
	while (listing && (name = g_dir_read_name(listing)))
		if (name[0] != '.' && strcmp(name, "metadata") != 0)
			g_ptr_array_add(names, g_strdup(name));
	if (listing)
		g_dir_close(listing);
	g_ptr_array_sort(names, compare_names);
	for (guint i = 0; i < names->len; i++) {
		char *path = g_build_filename(dir, names->pdata[i], NULL);
		struct stat st;

		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			check_file(repair, dp, names->pdata[i],
				(uint64_t) st.st_size);
		else if (strcmp(names->pdata[i], "index") != 0 &&
			 tn_ctf_index_exists(dir, names->pdata[i])) {
			/* libbabeltrace2 passes over it without a word. */
			add_note(repair, path, "skipped, its events are "
				"missing: it has a packet index, but it is not "
				"a regular file");
			dp->streams++;
			count_skip(repair, dp);
		}
		g_free(path);
	}
	g_ptr_array_free(names, TRUE);
}

/* ---- what libbabeltrace2 refused ---- */

/* The plan of the directory that path (of a stream file) is in: its
 * stand-in or the directory itself. */
static struct dir_plan *dir_of_path(const struct tn_repair *repair,
		const char *path)
{
	char *dir = g_path_get_dirname(path);
	char *real = realpath(dir, NULL);
	struct dir_plan *found = NULL;

	for (guint i = 0; !found && i < repair->dirs->len; i++) {
		struct dir_plan *dp = repair->dirs->pdata[i];

		if (strcmp(dp->dir, dir) == 0 ||
		    (dp->stand_in && strcmp(dp->stand_in, dir) == 0) ||
		    (real && strcmp(dp->real, real) == 0))
			found = dp;
	}
	free(real);
	g_free(dir);
	return found;
}

/* The size of the packets of the stream file fd (size bytes) without
 * index when they are all one size and the last one is incomplete: the
 * first place after byte 0 where a packet magic (the same as at 0)
 * starts, if one starts at each multiple of it.  0 when not found. */
static uint64_t fixed_packet_size(int fd, uint64_t size)
{
	uint32_t first = word_at(fd, 0);
	uint8_t buf[65536];
	uint64_t at = 0, found = 0;

	if (!is_packet_magic(first))
		return 0;
	/* Packets start at multiples of 8 bytes; read on until the second
	 * one. */
	while (!found && at < size && at <= MAX_PACKET) {
		ssize_t got = pread(fd, buf, sizeof(buf), (off_t) at);

		if (got < 8)
			break;
		for (ssize_t i = 0; i + 4 <= got && !found; i += 8) {
			uint32_t word = (uint32_t) buf[i] << 24 |
				(uint32_t) buf[i + 1] << 16 |
				(uint32_t) buf[i + 2] << 8 | buf[i + 3];

			if (at + (uint64_t) i >= MIN_PACKET && word == first)
				found = at + (uint64_t) i;
		}
		at += (uint64_t) got - (uint64_t) got % 8;
	}
	if (!found || size % found == 0 ||
	    !whole_packets(fd, 0, size - size % found, found))
		return 0;
	return found;
}

int tn_repair_leave_out(struct tn_repair *repair, const char *path,
		const char *why)
{
	struct dir_plan *dp = dir_of_path(repair, path);
	char *name = g_path_get_basename(path);
	struct file_plan *plan = dp ? tn_repair_find_plan(dp, name) : NULL;
	char *file = dp ? g_build_filename(dp->dir, name, NULL) : NULL;
	struct tn_ctf_index idx = { 0 };
	uint64_t packet = 0, size = 0;
	struct stat st;
	int fd, status = 0;

	/* The last stream file of a directory is never left out: the
	 * trace is then unreadable, as libbabeltrace2 says. */
	if (!dp || (plan && plan->action == ACTION_SKIP) ||
	    stat(file, &st) != 0 || !S_ISREG(st.st_mode) ||
	    dp->streams - dp->skipped <= 1) {
		status = -1;
		goto out;
	}
	size = (uint64_t) st.st_size;
	/* Not read by its index: its packets, if all of one size. */
	if ((!plan || plan->action == ACTION_NO_INDEX) &&
	    (fd = open(file, O_RDONLY | O_CLOEXEC)) >= 0) {
		packet = fixed_packet_size(fd, size);
		close(fd);
	}
	if (packet) {
		tn_ctf_index_synthesise_untimed(&idx, size / packet, packet);
		add_note_of(repair, TN_REPAIR_NOTE_INCOMPLETE, file,
			"read up to byte %" PRIu64 " of %" PRIu64 ": it ends "
			"inside a packet (its packets are of %" PRIu64 " bytes), "
			"which is left out (%s)", size - size % packet, size,
			packet, CUT_ADVICE);
		plan = set_plan(repair, dp, name, ACTION_REINDEX, &idx, size / packet);
		plan->untimed = true;
	} else {
		/* libbabeltrace2's words for a file cut inside its first
		 * packet are its reader's state. */
		add_note(repair, file, "skipped, its events are missing: "
			"libbabeltrace2 cannot read it%s: %s",
			strstr(why, "returned EOF") ? " (it ends inside its "
			"first packet)" : "", why);
		set_plan(repair, dp, name, ACTION_SKIP, NULL, 0);
	}
out:
	g_free(file);
	g_free(name);
	return status;
}

bool tn_repair_dir_unreadable(const struct tn_repair *repair,
		const char *dir, const char **file, const char **text)
{
	for (guint i = 0; repair && i < repair->dirs->len; i++) {
		const struct dir_plan *dp = repair->dirs->pdata[i];
		const struct note *note;

		if (strcmp(dp->dir, dir) != 0 || dp->streams == 0 ||
		    dp->skipped < dp->streams)
			continue;
		note = repair->notes->pdata[dp->first_skip];
		*file = note->file;
		*text = note->text;
		return true;
	}
	return false;
}

bool tn_repair_has_unindexed(const struct tn_repair *repair,
		const char *dir)
{
	for (guint i = 0; repair && i < repair->dirs->len; i++) {
		const struct dir_plan *dp = repair->dirs->pdata[i];

		if (strcmp(dp->dir, dir) == 0)
			return dp->unindexed > 0;
	}
	return false;
}

bool tn_repair_has_untimed_index(const struct tn_repair *repair,
		const char *dir)
{
	for (guint i = 0; repair && i < repair->dirs->len; i++) {
		const struct dir_plan *dp = repair->dirs->pdata[i];

		if (strcmp(dp->dir, dir) != 0)
			continue;
		for (guint f = 0; f < dp->files->len; f++)
			if (((const struct file_plan *)
			     dp->files->pdata[f])->untimed)
				return true;
	}
	return false;
}

size_t tn_repair_get_note_count(const struct tn_repair *repair)
{
	return repair ? repair->notes->len : 0;
}

const char *tn_repair_get_note_file(const struct tn_repair *repair,
		size_t index)
{
	return ((const struct note *) repair->notes->pdata[index])->file;
}

enum tn_repair_note_kind tn_repair_get_note_kind(
		const struct tn_repair *repair, size_t index)
{
	return ((const struct note *) repair->notes->pdata[index])->kind;
}

const char *tn_repair_get_note_text(const struct tn_repair *repair,
		size_t index)
{
	return ((const struct note *) repair->notes->pdata[index])->text;
}

void tn_repair_destroy(struct tn_repair *repair)
{
	if (!repair)
		return;
	tn_repair_remove_stand_ins(repair);
	g_ptr_array_free(repair->dirs, TRUE);
	g_ptr_array_free(repair->notes, TRUE);
	pthread_mutex_destroy(&repair->refresh->lock);
	g_free(repair->refresh);
	g_free(repair);
}
