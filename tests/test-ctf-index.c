/* test-ctf-index.c - CTF packet index files: synthesised entries, the
 * checks of a read (header, sizes), sliced copies, fixed-size packets
 * and their magics. */
#include <fcntl.h>
#include <glib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "tap.h"
#include "src/core/ctf-index.h"

#define PACKET 4096
#define COUNT 4

static const struct tn_clock_info ghz = { .frequency = 1000000000 };

static void write_be64(uint8_t *p, uint64_t value)
{
	for (int i = 7; i >= 0; i--, value >>= 8)
		p[i] = value & 0xff;
}

static char *dir_path(const char *name)
{
	char *dir = g_strdup_printf("%s/%s", gen_tmpdir(), name);

	g_mkdir_with_parents(dir, 0700);
	return dir;
}

/* A stream file of COUNT packets of PACKET bytes, each starting with
 * the CTF packet magic (big-endian). */
static char *write_stream(const char *dir, const char *name)
{
	static const uint8_t magic[4] = { 0xC1, 0xFC, 0x1F, 0xC1 };
	char *path = g_strdup_printf("%s/%s", dir, name);
	uint8_t *data = g_malloc0(PACKET * COUNT);

	for (int k = 0; k < COUNT; k++)
		memcpy(data + k * PACKET, magic, sizeof(magic));
	g_file_set_contents(path, (const char *) data, PACKET * COUNT, NULL);
	g_free(data);
	return path;
}

static void synthesise(struct tn_ctf_index *idx)
{
	int64_t begin_ns[COUNT], end_ns[COUNT];

	for (int k = 0; k < COUNT; k++) {
		begin_ns[k] = 1000 + k * 100;
		end_ns[k] = begin_ns[k] + 99;
	}
	memset(idx, 0, sizeof(*idx));
	tn_ctf_index_synthesise(idx, COUNT, PACKET, begin_ns, end_ns, &ghz);
}

static void test_synthesised(void)
{
	struct tn_ctf_index idx;
	struct tn_error err;
	bool fields = true;

	synthesise(&idx);
	tap_ok(idx.entry_count == COUNT && idx.entry_size == 72,
		"synthesised: %d entries of CTF index 1.1", COUNT);
	for (size_t k = 0; k < COUNT; k++)
		fields = fields &&
			tn_ctf_index_get(&idx, k, TN_CTF_INDEX_OFFSET) ==
				k * PACKET &&
			tn_ctf_index_get(&idx, k, TN_CTF_INDEX_PACKET_SIZE) ==
				PACKET * 8 &&
			tn_ctf_index_get(&idx, k,
				TN_CTF_INDEX_TIMESTAMP_BEGIN) == 1000 + k * 100 &&
			tn_ctf_index_get(&idx, k,
				TN_CTF_INDEX_TIMESTAMP_END) == 1099 + k * 100 &&
			tn_ctf_index_get(&idx, k,
				TN_CTF_INDEX_PACKET_SEQ_NUM) == k;
	tap_ok(fields, "synthesised: offsets, sizes, cycles, numbers");
	tap_ok(tn_ctf_index_check_entries(&idx, "s", PACKET * COUNT,
			&err) == 0, "synthesised: the packets cover the file");
	tap_ok(tn_ctf_index_check_entries(&idx, "s", PACKET * COUNT + 1,
			&err) == -1 && strstr(err.message, "its packets cover "
			"16384 bytes, but the stream file has 16385"),
		"a file of another size is refused: %s", err.message);
	tn_ctf_index_fini(&idx);
	tn_ctf_index_fini(&idx);
	tap_ok(idx.data == NULL, "fini twice is harmless");
}

static void test_files(void)
{
	char *dir = dir_path("files");
	char *index_dir = g_strdup_printf("%s/index", dir);
	char *idx_path = g_strdup_printf("%s/s.idx", index_dir);
	char *stream = write_stream(dir, "s");
	struct tn_ctf_index idx, back = { 0 };
	struct tn_error err;
	gchar *data = NULL;
	gsize size = 0;

	g_mkdir_with_parents(index_dir, 0700);
	tap_ok(!tn_ctf_index_exists(dir, "s"), "exists: not yet");
	tap_ok(tn_ctf_index_read(dir, "s", PACKET * COUNT, &back, &err) ==
	       -1 && strstr(err.message, "no packet index (index/s.idx)"),
		"read: a missing index says so");
	tn_ctf_index_fini(&back);
	synthesise(&idx);
	tap_ok(tn_ctf_index_write_from(&idx, 0, idx_path, &err) == 0 &&
	       tn_ctf_index_exists(dir, "s"), "write every entry");
	tap_ok(tn_ctf_index_write_from(&idx, 0, idx_path, &err) == -1 &&
	       strstr(err.message, "cannot write"),
		"write: an existing file is not overwritten");
	tap_ok(tn_ctf_index_read(dir, "s", PACKET * COUNT, &back, &err) == 0 &&
	       back.entry_count == COUNT && back.has_instance_id &&
	       memcmp(back.data, idx.data, 16 + COUNT * 72) == 0,
		"read it back, the same bytes");
	tn_ctf_index_fini(&back);

	/* A sliced copy: src.ctf.fs only adds the sizes up. */
	unlink(idx_path);
	tap_ok(tn_ctf_index_write_from(&idx, 2, idx_path, &err) == 0 &&
	       g_file_get_contents(idx_path, &data, &size, NULL) &&
	       size == 16 + 2 * 72, "write from entry 2");
	if (data) {
		memset(&back, 0, sizeof(back));
		back.data = (uint8_t *) data;
		back.entry_size = 72;
		back.entry_count = 2;
		tap_ok(tn_ctf_index_get(&back, 0, TN_CTF_INDEX_PACKET_SIZE) +
		       tn_ctf_index_get(&back, 1, TN_CTF_INDEX_PACKET_SIZE) ==
		       PACKET * COUNT * 8 &&
		       tn_ctf_index_get(&back, 0, TN_CTF_INDEX_OFFSET) ==
		       2 * PACKET, "the first kept packet grows by the bytes "
			"before it");
		tn_ctf_index_fini(&back);
	}
	memset(&back, 0, sizeof(back));
	tap_ok(tn_ctf_index_read(dir, "s", PACKET * COUNT, &back, &err) ==
	       -1 && strstr(err.message, "packet 0 is at byte 8192"),
		"a sliced copy fails the stricter check of a read: %s",
		err.message);
	tn_ctf_index_fini(&back);

	/* Damaged headers. */
	g_file_set_contents(idx_path, "\xC1\xF1\xDC", 3, NULL);
	tap_ok(tn_ctf_index_read(dir, "s", PACKET * COUNT, &back, &err) ==
	       -1 && strstr(err.message, "truncated header (3 bytes)"),
		"read: a truncated header");
	tn_ctf_index_fini(&back);
	g_file_set_contents(idx_path, "0123456789abcdef", 16, NULL);
	tap_ok(tn_ctf_index_read(dir, "s", PACKET * COUNT, &back, &err) ==
	       -1 && strstr(err.message, "not a CTF packet index"),
		"read: a bad magic");
	tn_ctf_index_fini(&back);
	/* A header and no entry, for an empty stream file: its callers
	 * would take entry 0 (found by tests/fuzz/fuzz-ctf-index). */
	memset(&back, 0, sizeof(back));
	tap_ok(tn_ctf_index_parse("e.idx", g_memdup2(idx.data, 16), 16, 0,
		&back, &err) == -1 && strstr(err.message, "e.idx: no entries "
		"after the header"), "parse: a header alone is refused: %s",
		err.message);
	tn_ctf_index_fini(&back);
	tap_ok(tn_ctf_index_parse("e.idx", g_memdup2(idx.data, 16 + 72),
		16 + 72, PACKET, &back, &err) == 0 && back.entry_count == 1,
		"parse: one entry, from memory");
	tn_ctf_index_fini(&back);
	/* Two packets of 2^60 bytes: a slice from the second one grew it
	 * to 2^64 bits, 0 in 64 bits (found by
	 * tests/fuzz/fuzz-ctf-index). */
	memset(&back, 0, sizeof(back));
	data = g_memdup2(idx.data, 16 + 2 * 72);
	write_be64((uint8_t *) data + 16 + TN_CTF_INDEX_OFFSET, 0);
	write_be64((uint8_t *) data + 16 + TN_CTF_INDEX_PACKET_SIZE,
		UINT64_C(1) << 63);
	write_be64((uint8_t *) data + 16 + 72 + TN_CTF_INDEX_OFFSET,
		UINT64_C(1) << 60);
	write_be64((uint8_t *) data + 16 + 72 + TN_CTF_INDEX_PACKET_SIZE,
		UINT64_C(1) << 63);
	tap_ok(tn_ctf_index_parse("big.idx", (uint8_t *) data, 16 + 2 * 72,
		UINT64_C(1) << 61, &back, &err) == -1 && strstr(err.message,
		"big.idx: a stream file of 2305843009213693952 bytes is too "
		"large"), "parse: packets too large to count in bits: %s",
		err.message);
	tn_ctf_index_fini(&back);
	data = NULL;
	tn_ctf_index_fini(&idx);
	g_free(stream);
	g_free(idx_path);
	g_free(index_dir);
	g_free(dir);
}

static void test_fixed_size(void)
{
	char *dir = dir_path("fixed");
	char *stream = write_stream(dir, "s");
	struct tn_error err;
	uint64_t size = 0;
	int fd;

	tap_ok(tn_ctf_index_fixed_size(stream, PACKET * COUNT, COUNT, &size,
			&err) == 0 && size == PACKET, "fixed size: %d bytes",
		PACKET);
	tap_ok(tn_ctf_index_fixed_size(stream, PACKET * COUNT + 1, COUNT,
			&size, &err) == -1 && strstr(err.message,
			"not a multiple of its 4 packets"),
		"fixed size: not a multiple of the count");
	tap_ok(tn_ctf_index_fixed_size(stream, 12, 3, &size, &err) == -1 &&
	       strstr(err.message, "packets of 4 bytes, not a multiple of 8"),
		"fixed size: not a multiple of 8 bytes");
	tap_ok(tn_ctf_index_check_magics(stream, COUNT, PACKET, &err) == 0,
		"magics at every boundary");
	fd = open(stream, O_WRONLY);
	if (fd >= 0) {
		(void) !pwrite(fd, "junk", 4, 2 * PACKET);
		close(fd);
	}
	tap_ok(tn_ctf_index_check_magics(stream, COUNT, PACKET, &err) == -1 &&
	       strstr(err.message, "no CTF packet magic at byte 8192"),
		"a boundary without the magic: %s", err.message);
	g_free(stream);
	g_free(dir);
}

int main(void)
{
	test_synthesised();
	test_files();
	test_fixed_size();
	gen_cleanup();
	return tap_done();
}
