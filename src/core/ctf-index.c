/* ctf-index.c - CTF packet index files (see ctf-index.h). */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "ctf-index.h"

#define INDEX_MAGIC UINT32_C(0xC1F1DCC1)
#define HEADER_SIZE 16		/* magic, major, minor, entry size */
#define ENTRY_1_0_SIZE 56
#define ENTRY_1_1_SIZE 72
/* The magic number that starts every CTF packet (in its byte order). */
#define PACKET_MAGIC UINT32_C(0xC1FC1FC1)

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 |
		(uint32_t) p[2] << 8 | p[3];
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t) get_be32(p) << 32 | get_be32(p + 4);
}

static void put_be64(uint8_t *p, uint64_t value)
{
	for (int i = 7; i >= 0; i--, value >>= 8)
		p[i] = value & 0xff;
}

static void put_be32(uint8_t *p, uint32_t value)
{
	for (int i = 3; i >= 0; i--, value >>= 8)
		p[i] = value & 0xff;
}

static const uint8_t *entry_at(const struct tn_ctf_index *idx, size_t i)
{
	return idx->data + HEADER_SIZE + i * idx->entry_size;
}

uint64_t tn_ctf_index_get(const struct tn_ctf_index *idx, size_t entry,
		enum tn_ctf_index_field field)
{
	return get_be64(entry_at(idx, entry) + field);
}

/* Whether the index file at path is in another tool's format: 4 bytes
 * that are not the magic of a CTF packet index. */
static bool is_foreign(const char *path)
{
	uint8_t magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool foreign = fd >= 0 && read(fd, magic, sizeof(magic)) ==
		(ssize_t) sizeof(magic) && get_be32(magic) != INDEX_MAGIC;

	if (fd >= 0)
		close(fd);
	return foreign;
}

bool tn_ctf_index_exists(const char *dir, const char *name)
{
	char *path = g_strdup_printf("%s/index/%s.idx", dir, name);
	struct stat st;
	bool exists = stat(path, &st) == 0 || errno != ENOENT;

	if (exists && S_ISREG(st.st_mode) && is_foreign(path))
		exists = false;
	g_free(path);
	return exists;
}

bool tn_ctf_index_is_foreign(const char *dir, const char *name)
{
	char *path = g_strdup_printf("%s/index/%s.idx", dir, name);
	bool foreign = is_foreign(path);

	g_free(path);
	return foreign;
}

static int check_header(const char *path, const uint8_t *data, size_t size,
		struct tn_error *err)
{
	uint32_t entry_size;

	if (size < HEADER_SIZE) {
		tn_error_set(err, "%s: truncated header (%zu bytes)", path,
			size);
		return -1;
	}
	if (get_be32(data) != INDEX_MAGIC) {
		tn_error_set(err, "%s: not a CTF packet index (magic 0x%08"
			PRIx32 ")", path, get_be32(data));
		return -1;
	}
	if (get_be32(data + 4) != 1) {
		tn_error_set(err, "%s: unknown index version %" PRIu32 ".%"
			PRIu32, path, get_be32(data + 4), get_be32(data + 8));
		return -1;
	}
	entry_size = get_be32(data + 12);
	if (entry_size < ENTRY_1_0_SIZE) {
		tn_error_set(err, "%s: entries of %" PRIu32 " bytes, less "
			"than the %d of CTF index 1.0", path, entry_size,
			ENTRY_1_0_SIZE);
		return -1;
	}
	/* A stream file has a packet at least (an empty one is not
	 * read): the callers take the first and the last entry. */
	if (size == HEADER_SIZE) {
		tn_error_set(err, "%s: no entries after the header: an index "
			"has one a packet", path);
		return -1;
	}
	if ((size - HEADER_SIZE) % entry_size) {
		tn_error_set(err, "%s: truncated: %zu bytes after the header, "
			"not a whole number of %" PRIu32 "-byte entries", path,
			size - HEADER_SIZE, entry_size);
		return -1;
	}
	return 0;
}

int tn_ctf_index_check_entries(const struct tn_ctf_index *idx,
		const char *path, uint64_t file_size, struct tn_error *err)
{
	uint64_t next_offset = 0;

	/* Sizes are in bits: a slice's first packet, grown by the bytes
	 * before it, must still count in 64 bits. */
	if (file_size > UINT64_MAX / 8) {
		tn_error_set(err, "%s: a stream file of %" PRIu64 " bytes is "
			"too large for a CTF index (sizes in 64-bit counts of "
			"bits)", path, file_size);
		return -1;
	}
	for (size_t i = 0; i < idx->entry_count; i++) {
		uint64_t offset = tn_ctf_index_get(idx, i, TN_CTF_INDEX_OFFSET);
		uint64_t bits = tn_ctf_index_get(idx, i,
			TN_CTF_INDEX_PACKET_SIZE);

		if (bits == 0 || bits % 8) {
			tn_error_set(err, "%s: packet %zu has a size of %"
				PRIu64 " bits", path, i, bits);
			return -1;
		}
		if (offset != next_offset) {
			tn_error_set(err, "%s: packet %zu is at byte %" PRIu64
				", not right after the previous one (byte %"
				PRIu64 ")", path, i, offset, next_offset);
			return -1;
		}
		if (__builtin_add_overflow(offset, bits / 8, &next_offset))
			next_offset = UINT64_MAX;
	}
	if (next_offset != file_size) {
		tn_error_set(err, "%s: its packets cover %" PRIu64 " bytes, "
			"but the stream file has %" PRIu64, path, next_offset,
			file_size);
		return -1;
	}
	return 0;
}

/* The header of data, the size bytes of the packet index at path, and
 * the entries' layout into *idx, which owns data from then on. */
static int parse_header(const char *path, uint8_t *data, size_t size,
		struct tn_ctf_index *idx, struct tn_error *err)
{
	idx->data = data;
	if (check_header(path, data, size, err))
		return -1;
	idx->entry_size = get_be32(data + 12);
	idx->entry_count = (size - HEADER_SIZE) / idx->entry_size;
	idx->has_instance_id = get_be32(data + 8) >= 1 &&
		idx->entry_size >= TN_CTF_INDEX_STREAM_INSTANCE_ID + 8;
	return 0;
}

int tn_ctf_index_parse(const char *path, uint8_t *data, size_t size,
		uint64_t file_size, struct tn_ctf_index *idx,
		struct tn_error *err)
{
	if (parse_header(path, data, size, idx, err))
		return -1;
	return tn_ctf_index_check_entries(idx, path, file_size, err);
}

int tn_ctf_index_load(const char *dir, const char *name,
		struct tn_ctf_index *idx, struct tn_error *err)
{
	char *path = g_strdup_printf("%s/index/%s.idx", dir, name);
	GError *error = NULL;
	gchar *data;
	gsize size;
	int status;

	if (!g_file_get_contents(path, &data, &size, &error)) {
		if (g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			tn_error_set(err, "%s/%s: no packet index "
				"(index/%s.idx)", dir, name, name);
		else
			tn_error_set(err, "%s", error->message);
		g_error_free(error);
		g_free(path);
		return -1;
	}
	status = parse_header(path, (uint8_t *) data, size, idx, err);
	g_free(path);
	return status;
}

int tn_ctf_index_read(const char *dir, const char *name, uint64_t file_size,
		struct tn_ctf_index *idx, struct tn_error *err)
{
	char *path;
	int status;

	if (tn_ctf_index_load(dir, name, idx, err))
		return -1;
	path = g_strdup_printf("%s/index/%s.idx", dir, name);
	status = tn_ctf_index_check_entries(idx, path, file_size, err);
	g_free(path);
	return status;
}

int tn_ctf_index_fixed_size(const char *path, uint64_t file_size,
		uint64_t count, uint64_t *size, struct tn_error *err)
{
	if (file_size % count) {
		tn_error_set(err, "%s: %" PRIu64 " bytes, not a multiple of "
			"its %" PRIu64 " packets", path, file_size, count);
		return -1;
	}
	*size = file_size / count;
	if (*size == 0 || *size % 8) {
		tn_error_set(err, "%s: packets of %" PRIu64 " bytes, not a "
			"multiple of 8", path, *size);
		return -1;
	}
	return 0;
}

static bool read_u32_at(int fd, uint64_t offset, uint32_t *value)
{
	uint8_t bytes[4];

	if (pread(fd, bytes, sizeof(bytes), (off_t) offset) != sizeof(bytes))
		return false;
	*value = get_be32(bytes);
	return true;
}

int tn_ctf_index_check_magics(const char *path, uint64_t count,
		uint64_t size, struct tn_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint32_t first = 0, magic = 0;
	uint64_t k = 0;

	if (fd < 0) {
		tn_error_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (read_u32_at(fd, 0, &first) &&
	    (first == PACKET_MAGIC || first == GUINT32_SWAP_LE_BE(PACKET_MAGIC)))
		for (k = 1; k < count; k++)
			if (!read_u32_at(fd, k * size, &magic) ||
			    magic != first)
				break;
	close(fd);
	if (k == count && count > 0)
		return 0;
	tn_error_set(err, "%s: no CTF packet magic at byte %" PRIu64 ": its "
		"packets are not all of %" PRIu64 " bytes", path, k * size,
		size);
	return -1;
}

/* Start idx as a version 1.minor index of count entries of entry_size
 * bytes, each a packet of size bytes, one after the other. */
static void synthesise_plain(struct tn_ctf_index *idx, uint32_t minor,
		size_t entry_size, uint64_t count, uint64_t size)
{
	idx->entry_size = entry_size;
	idx->entry_count = count;
	idx->has_instance_id = false;
	idx->data = g_malloc0(HEADER_SIZE + idx->entry_count *
		idx->entry_size);
	put_be32(idx->data, INDEX_MAGIC);
	put_be32(idx->data + 4, 1);
	put_be32(idx->data + 8, minor);
	put_be32(idx->data + 12, (uint32_t) entry_size);
	for (size_t k = 0; k < idx->entry_count; k++) {
		uint8_t *e = idx->data + HEADER_SIZE + k * idx->entry_size;

		put_be64(e + TN_CTF_INDEX_OFFSET, k * size);
		put_be64(e + TN_CTF_INDEX_PACKET_SIZE, size * 8);
		put_be64(e + TN_CTF_INDEX_CONTENT_SIZE, size * 8);
	}
}

void tn_ctf_index_synthesise(struct tn_ctf_index *idx, uint64_t count,
		uint64_t size, const int64_t *begin_ns, const int64_t *end_ns,
		const struct tn_clock_info *clock)
{
	synthesise_plain(idx, 1, ENTRY_1_1_SIZE, count, size);
	for (size_t k = 0; k < idx->entry_count; k++) {
		uint8_t *e = idx->data + HEADER_SIZE + k * idx->entry_size;

		put_be64(e + TN_CTF_INDEX_TIMESTAMP_BEGIN,
			tn_clock_cycles_not_after(clock, begin_ns[k]));
		put_be64(e + TN_CTF_INDEX_TIMESTAMP_END,
			tn_clock_cycles_not_before(clock, end_ns[k]));
		put_be64(e + TN_CTF_INDEX_PACKET_SEQ_NUM, k);
	}
}

static int write_all(int fd, const uint8_t *data, size_t size)
{
	while (size > 0) {
		ssize_t done = write(fd, data, size);

		if (done < 0 && errno == EINTR)
			continue;
		if (done <= 0)
			return -1;
		data += done;
		size -= (size_t) done;
	}
	return 0;
}

int tn_ctf_index_write_from(const struct tn_ctf_index *idx, size_t first,
		const char *path, struct tn_error *err)
{
	size_t kept = idx->entry_count - first;
	size_t size = HEADER_SIZE + kept * idx->entry_size;
	uint8_t *data = g_malloc(size);
	uint8_t *head = data + HEADER_SIZE;
	int fd, status = -1;

	memcpy(data, idx->data, HEADER_SIZE);
	memcpy(head, entry_at(idx, first), kept * idx->entry_size);
	put_be64(head + TN_CTF_INDEX_PACKET_SIZE,
		get_be64(head + TN_CTF_INDEX_PACKET_SIZE) +
		8 * get_be64(head + TN_CTF_INDEX_OFFSET));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		status = write_all(fd, data, size);
		if (close(fd) != 0)
			status = -1;
	}
	if (status)
		tn_error_set(err, "cannot write %s: %s", path,
			strerror(errno));
	g_free(data);
	return status;
}

void tn_ctf_index_synthesise_untimed(struct tn_ctf_index *idx,
		uint64_t count, uint64_t size)
{
	synthesise_plain(idx, 0, ENTRY_1_0_SIZE, count, size);
}

int tn_ctf_index_write_first(const struct tn_ctf_index *idx, size_t count,
		uint64_t file_size, const char *path, struct tn_error *err)
{
	size_t size = HEADER_SIZE + count * idx->entry_size;
	uint8_t *data = g_malloc(size);
	uint8_t *last = data + HEADER_SIZE + (count - 1) * idx->entry_size;
	char *temp = g_strdup_printf("%s.tmp", path);
	int fd, status = -1;

	memcpy(data, idx->data, size);
	put_be64(last + TN_CTF_INDEX_PACKET_SIZE,
		8 * (file_size - get_be64(last + TN_CTF_INDEX_OFFSET)));
	fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		status = write_all(fd, data, size);
		if (close(fd) != 0)
			status = -1;
	}
	if (status == 0 && rename(temp, path) != 0)
		status = -1;
	if (status) {
		tn_error_set(err, "cannot write %s: %s", path,
			strerror(errno));
		unlink(temp);
	}
	g_free(temp);
	g_free(data);
	return status;
}

void tn_ctf_index_fini(struct tn_ctf_index *idx)
{
	g_free(idx->data);
	idx->data = NULL;
	idx->entry_count = 0;
}
