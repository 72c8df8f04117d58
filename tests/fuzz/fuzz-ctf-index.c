/* fuzz-ctf-index.c - libFuzzer harness of CTF packet index files
 * (index/<stream>.idx, as LTTng writes them: src/core/ctf-index.c).
 *
 * The input is an index file.  It is checked (tn_ctf_index_parse())
 * against the stream file size its own entries add up to, so that the
 * checks of the entries are reached, and against one byte more.  A
 * slice of an accepted one is written (tn_ctf_index_write_from(), as
 * a seek does) from its middle entry.
 *
 * Checks: a refused file's message names it; an accepted one has
 * entries that follow one another from byte 0 to the file's end; its
 * slice keeps the header and the entries from the middle, its packet
 * sizes still adding up to the stream file's size. */
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "src/core/ctf-index.h"

#define PATH "fuzz.idx"
#define HEADER_SIZE 16

static char *slice_dir;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void) argc;
	(void) argv;
	slice_dir = g_dir_make_tmp("tracenav-fuzz-XXXXXX", NULL);
	if (!slice_dir) {
		fprintf(stderr, "fuzz-ctf-index: cannot make a temporary "
			"directory\n");
		exit(1);
	}
	return 0;
}

__attribute__((destructor))
static void remove_slice_dir(void)
{
	if (slice_dir)
		rmdir(slice_dir);
}

static uint64_t get_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* The bytes the last whole entry ends at (its offset and size), or 0:
 * the stream file size a sound index describes. */
static uint64_t described_size(const uint8_t *data, size_t size)
{
	uint64_t entry_size, last;

	if (size < HEADER_SIZE + 16)
		return 0;
	entry_size = (uint64_t) data[12] << 24 | (uint64_t) data[13] << 16 |
		(uint64_t) data[14] << 8 | data[15];
	if (entry_size < 16 || (size - HEADER_SIZE) / entry_size == 0)
		return 0;
	last = HEADER_SIZE + ((size - HEADER_SIZE) / entry_size - 1) *
		entry_size;
	return get_be64(data + last) + get_be64(data + last + 8) / 8;
}

static void check_slice(const struct tn_ctf_index *idx, uint64_t file_size)
{
	size_t first = idx->entry_count / 2, kept = idx->entry_count - first;
	char *path = g_build_filename(slice_dir, "slice.idx", NULL);
	struct tn_error err;
	uint64_t bytes = 0;
	gchar *written;
	gsize size;

	FUZZ_CHECK(tn_ctf_index_write_from(idx, first, path, &err) == 0,
		"%s", err.message);
	FUZZ_CHECK(g_file_get_contents(path, &written, &size, NULL) &&
		size == HEADER_SIZE + kept * idx->entry_size &&
		memcmp(written, idx->data, HEADER_SIZE) == 0,
		"a slice of %zu entries from %zu", idx->entry_count, first);
	for (size_t i = 0; i < kept; i++)
		bytes += get_be64((const uint8_t *) written + HEADER_SIZE +
			i * idx->entry_size + TN_CTF_INDEX_PACKET_SIZE) / 8;
	FUZZ_CHECK(bytes == file_size, "a slice's packets cover %" PRIu64
		" bytes of %" PRIu64, bytes, file_size);
	g_free(written);
	unlink(path);
	g_free(path);
}

static void check(const uint8_t *data, size_t size, uint64_t file_size)
{
	struct tn_ctf_index idx = { 0 };
	struct tn_error err;
	uint64_t next = 0;
	uint8_t *copy = g_memdup2(data, size);
	double clock = fuzz_clock_start();
	int status = tn_ctf_index_parse(PATH, copy, size, file_size, &idx,
		&err);

	fuzz_clock_stop(clock);
	if (status) {
		FUZZ_CHECK(g_str_has_prefix(err.message, PATH ": "), "%s",
			err.message);
		tn_ctf_index_fini(&idx);
		return;
	}
	FUZZ_CHECK(idx.entry_count >= 1, "an index without entries");
	for (size_t i = 0; i < idx.entry_count; i++) {
		FUZZ_CHECK(tn_ctf_index_get(&idx, i, TN_CTF_INDEX_OFFSET) ==
			next, "entry %zu", i);
		next += tn_ctf_index_get(&idx, i, TN_CTF_INDEX_PACKET_SIZE) /
			8;
		(void) tn_ctf_index_get(&idx, i, TN_CTF_INDEX_TIMESTAMP_END);
		if (idx.has_instance_id)
			(void) tn_ctf_index_get(&idx, i,
				TN_CTF_INDEX_STREAM_INSTANCE_ID);
	}
	FUZZ_CHECK(next == file_size, "%" PRIu64 " bytes of %" PRIu64, next,
		file_size);
	check_slice(&idx, file_size);
	tn_ctf_index_fini(&idx);
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	uint64_t file_size = described_size(data, size);

	check(data, size, file_size);
	check(data, size, file_size + 1);
}
