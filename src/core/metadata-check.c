/* metadata-check.c - a trace's metadata file checked before
 * libbabeltrace2 reads it (see metadata-check.h).
 *
 * A packetized metadata file is a run of packets, each a 37-byte header
 * (magic 0x75D11D57 in the writer's byte order, UUID, checksum, then
 * content_size and packet_size in bits, the compression, encryption and
 * checksum schemes, major, minor) and its text up to content_size; the
 * rest of packet_size is padding, which the last packet may lack.
 * libbabeltrace2 2.0.4 reads content_size bits of text per packet and
 * never stops when the file ends before them; it does not check the
 * magic of the packets after the first one.  Plain text starts with
 * "/ * CTF 1.8" (without the blank); libbabeltrace2 reads the version
 * with fscanf() and uses it even when the signature is missing.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metadata-check.h"

#define PACKET_MAGIC 0x75D11D57u
#define CHUNK 65536
/* What the caller's user can do about metadata that ends too soon. */
#define CUT_SHORT_ADVICE "the trace is still being written, or was " \
	"copied while it was: read it again once its session has written " \
	"its metadata (lttng stop flushes it), or copy it again"

/* ---- the text ---- */

enum text_state {
	TEXT_CODE,
	TEXT_SLASH,		/* a '/' that may start a comment */
	TEXT_LINE_COMMENT,
	TEXT_BLOCK_COMMENT,
	TEXT_BLOCK_COMMENT_STAR,	/* a '*' that may end it */
	TEXT_STRING,
	TEXT_STRING_ESCAPE,
	TEXT_CHAR,
	TEXT_CHAR_ESCAPE,
};

void tn_metadata_text_init(struct tn_metadata_text *text)
{
	memset(text, 0, sizeof(*text));
	text->state = TEXT_CODE;
	text->line = 1;
}

static void significant(struct tn_metadata_text *text, char c)
{
	text->last = c;
	text->last_line = text->line;
}

/* Whether code_char() does nothing with c but note it as the last
 * significant character: no comment, string, block nor blank. */
static inline bool is_plain(char c)
{
	static const bool special[256] = {
		['/'] = true, ['"'] = true, ['\''] = true,
		['{'] = true, ['['] = true, ['('] = true,
		['}'] = true, [']'] = true, [')'] = true,
	};
	unsigned char u = (unsigned char) c;

	return u > ' ' && !special[u];
}

/* Most of the text: words, numbers and blanks, of which only the last
 * significant character and the newlines count.  Returns the index of
 * the first other character from i on (len if none). */
static size_t skip_code_run(struct tn_metadata_text *text, const char *bytes,
		size_t i, size_t len)
{
	for (; i < len; i++) {
		char c = bytes[i];

		if (is_plain(c))
			significant(text, c);
		else if (c == '\n')
			text->line++;
		else if (c != ' ' && c != '\t' && c != '\r' && c != '\f' &&
			 c != '\v')
			break;
	}
	return i;
}

/* One character outside comments and strings. */
static void code_char(struct tn_metadata_text *text, char c)
{
	switch (c) {
	case '/':
		text->state = TEXT_SLASH;
		return;
	case '"':
		text->state = TEXT_STRING;
		text->token_line = text->line;
		break;
	case '\'':
		text->state = TEXT_CHAR;
		text->token_line = text->line;
		break;
	case '{':
	case '[':
	case '(':
		if (text->depth++ == 0)
			text->block_line = text->line;
		break;
	case '}':
	case ']':
	case ')':
		/* One too many is the parser's to report. */
		if (text->depth > 0)
			text->depth--;
		break;
	case ' ':
	case '\t':
	case '\n':
	case '\r':
	case '\f':
	case '\v':
		return;
	default:
		break;
	}
	significant(text, c);
}

static void feed_char(struct tn_metadata_text *text, char c)
{
	switch ((enum text_state) text->state) {
	case TEXT_CODE:
		code_char(text, c);
		break;
	case TEXT_SLASH:
		if (c == '/') {
			text->state = TEXT_LINE_COMMENT;
		} else if (c == '*') {
			text->state = TEXT_BLOCK_COMMENT;
			text->token_line = text->line;
		} else {
			text->state = TEXT_CODE;
			significant(text, '/');
			code_char(text, c);
		}
		break;
	case TEXT_LINE_COMMENT:
		if (c == '\n')
			text->state = TEXT_CODE;
		break;
	case TEXT_BLOCK_COMMENT:
		if (c == '*')
			text->state = TEXT_BLOCK_COMMENT_STAR;
		break;
	case TEXT_BLOCK_COMMENT_STAR:
		if (c == '/')
			text->state = TEXT_CODE;
		else if (c != '*')
			text->state = TEXT_BLOCK_COMMENT;
		break;
	case TEXT_STRING:
	case TEXT_CHAR:
		if (c == '\\')
			text->state++;	/* to its _ESCAPE */
		else if (c == (text->state == TEXT_STRING ? '"' : '\''))
			text->state = TEXT_CODE;
		break;
	case TEXT_STRING_ESCAPE:
	case TEXT_CHAR_ESCAPE:
		text->state--;
		break;
	}
	if (c == '\n')
		text->line++;
}

void tn_metadata_text_feed(struct tn_metadata_text *text, const char *bytes,
		size_t len)
{
	if (text->head && text->head_len < TN_METADATA_HEAD_BYTES) {
		size_t room = TN_METADATA_HEAD_BYTES - text->head_len;
		size_t take = len < room ? len : room;

		memcpy(text->head + text->head_len, bytes, take);
		text->head_len += take;
	}
	for (size_t i = 0; i < len; i++) {
		if (text->state == TEXT_CODE)
			i = skip_code_run(text, bytes, i, len);
		if (i < len)
			feed_char(text, bytes[i]);
	}
}

int tn_metadata_text_finish(const struct tn_metadata_text *text,
		struct tn_error *err)
{
	switch ((enum text_state) text->state) {
	case TEXT_BLOCK_COMMENT:
	case TEXT_BLOCK_COMMENT_STAR:
		tn_error_set(err, "the metadata is cut short: it ends inside "
			"the comment of line %lu (%s)", text->token_line,
			CUT_SHORT_ADVICE);
		return -1;
	case TEXT_STRING:
	case TEXT_STRING_ESCAPE:
	case TEXT_CHAR:
	case TEXT_CHAR_ESCAPE:
		tn_error_set(err, "the metadata is cut short: it ends inside "
			"the string of line %lu (%s)", text->token_line,
			CUT_SHORT_ADVICE);
		return -1;
	default:
		break;
	}
	if (text->depth > 0) {
		tn_error_set(err, "the metadata is cut short: it ends inside a "
			"block, the one opened on line %lu (%s)",
			text->block_line, CUT_SHORT_ADVICE);
		return -1;
	}
	if (text->state == TEXT_SLASH ||
	    (text->last != 0 && text->last != ';')) {
		tn_error_set(err, "the metadata is cut short: its last "
			"declaration (line %lu) has no closing `;` (%s)",
			text->last_line, CUT_SHORT_ADVICE);
		return -1;
	}
	return 0;
}

/* ---- the file ---- */

/* Read len bytes at offset: the count read (less at the end of the
 * file), or -1 with errno. */
static ssize_t read_at(int fd, void *buf, size_t len, uint64_t offset)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (char *) buf + got, len - got,
			(off_t) (offset + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t) n;
	}
	return (ssize_t) got;
}

/* Feed the len bytes of the file at offset to the text scanner. */
static int feed_from_file(int fd, uint64_t offset, uint64_t len,
		struct tn_metadata_text *text, struct tn_error *err)
{
	char buf[CHUNK];

	while (len > 0) {
		size_t want = len < sizeof(buf) ? (size_t) len : sizeof(buf);
		ssize_t got = read_at(fd, buf, want, offset);

		if (got < 0) {
			tn_error_set(err, "the metadata cannot be read: %s",
				strerror(errno));
			return -1;
		}
		if ((size_t) got < want) {
			tn_error_set(err, "the metadata is cut short: it ended "
				"while it was read (%s)", CUT_SHORT_ADVICE);
			return -1;
		}
		tn_metadata_text_feed(text, buf, want);
		offset += want;
		len -= want;
	}
	return 0;
}

static uint32_t get_u32(const uint8_t *p, bool big_endian)
{
	return big_endian ?
		(uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 |
		(uint32_t) p[2] << 8 | p[3] :
		(uint32_t) p[3] << 24 | (uint32_t) p[2] << 16 |
		(uint32_t) p[1] << 8 | p[0];
}

/* The header of the packet at offset (number index): its content and
 * packet sizes in bytes, checked against the file's size. */
static int check_packet_header(int fd, uint64_t offset, uint64_t index,
		uint64_t file_size, bool big_endian, uint64_t *content,
		uint64_t *packet, struct tn_error *err)
{
	uint8_t h[TN_METADATA_PACKET_HEADER_SIZE];
	ssize_t got = read_at(fd, h, sizeof(h), offset);
	uint32_t content_bits, packet_bits;

	if (got < 0) {
		tn_error_set(err, "the metadata cannot be read: %s",
			strerror(errno));
		return -1;
	}
	if ((size_t) got < sizeof(h)) {
		tn_error_set(err, "the metadata is cut short: the header of "
			"its packet %" PRIu64 " (byte %" PRIu64 ") has %zd of "
			"its %d bytes (%s)", index, offset, got,
			TN_METADATA_PACKET_HEADER_SIZE, CUT_SHORT_ADVICE);
		return -1;
	}
	if (get_u32(h, big_endian) != PACKET_MAGIC) {
		tn_error_set(err, "the metadata is damaged: its packet %"
			PRIu64 " (byte %" PRIu64 ") does not start with the "
			"metadata packet magic number 0x75d11d57", index,
			offset);
		return -1;
	}
	content_bits = get_u32(h + 24, big_endian);
	packet_bits = get_u32(h + 28, big_endian);
	if (content_bits % 8 || packet_bits % 8 ||
	    content_bits < 8 * TN_METADATA_PACKET_HEADER_SIZE ||
	    content_bits > packet_bits) {
		tn_error_set(err, "the metadata is damaged: its packet %"
			PRIu64 " (byte %" PRIu64 ") has impossible sizes "
			"(content %" PRIu32 " bits, packet %" PRIu32 " bits: "
			"whole bytes, the content at least the %d bytes of the "
			"header and at most the packet)", index, offset,
			content_bits, packet_bits,
			TN_METADATA_PACKET_HEADER_SIZE);
		return -1;
	}
	/* Then the compression, encryption and checksum schemes, which
	 * libbabeltrace2 explains itself, and the version. */
	if (h[35] != 1 || h[36] != 8) {
		tn_error_set(err, "the metadata is not CTF 1.8: its packet %"
			PRIu64 " (byte %" PRIu64 ") says version %u.%u",
			index, offset, h[35], h[36]);
		return -1;
	}
	*content = content_bits / 8;
	*packet = packet_bits / 8;
	if (offset + *content > file_size) {
		tn_error_set(err, "the metadata is cut short: its packet %"
			PRIu64 " (byte %" PRIu64 ") holds %" PRIu64 " bytes "
			"but the file ends after %" PRIu64 " of them (%s)",
			index, offset, *content, file_size - offset,
			CUT_SHORT_ADVICE);
		return -1;
	}
	return 0;
}

/* Walk the packets of packetized metadata, and scan their text. */
static int check_packets(int fd, uint64_t file_size, bool big_endian,
		struct tn_metadata_text *text, struct tn_error *err)
{
	uint64_t offset = 0;

	for (uint64_t index = 0; offset < file_size; index++) {
		uint64_t content, packet;

		if (check_packet_header(fd, offset, index, file_size,
				big_endian, &content, &packet, err) ||
		    feed_from_file(fd, offset + TN_METADATA_PACKET_HEADER_SIZE,
				content - TN_METADATA_PACKET_HEADER_SIZE,
				text, err))
			return -1;
		/* The last packet may lack its padding. */
		offset += packet;
	}
	return tn_metadata_text_finish(text, err);
}

/* The "/ * CTF MAJOR.MINOR" signature of plain text (without the
 * blank), as libbabeltrace2 reads it with fscanf(). */
static int check_signature(const char *head, size_t len,
		struct tn_error *err)
{
	char copy[64];
	unsigned major, minor;

	snprintf(copy, sizeof(copy), "%.*s", (int) len, head);
	if (sscanf(copy, "/* CTF %10u.%10u", &major, &minor) != 2) {
		tn_error_set(err, "not CTF metadata: the file starts neither "
			"with a metadata packet (magic number 0x75d11d57) nor "
			"with the text signature `/* CTF 1.8`, which is "
			"missing");
		return -1;
	}
	if (major != 1 || minor != 8) {
		tn_error_set(err, "the metadata is not CTF 1.8: its signature "
			"says CTF %u.%u", major, minor);
		return -1;
	}
	return 0;
}

static int check_text(int fd, uint64_t file_size, const char *head,
		size_t len, struct tn_metadata_text *text, struct tn_error *err)
{
	if (check_signature(head, len, err))
		return -1;
	if (feed_from_file(fd, 0, file_size, text, err))
		return -1;
	return tn_metadata_text_finish(text, err);
}

int tn_metadata_check_file(const char *path,
		struct tn_metadata_facts *facts, struct tn_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct tn_metadata_text text;
	char head[32];
	struct stat st;
	ssize_t len;
	int status;

	if (fd < 0) {
		tn_error_set(err, "the `metadata` file cannot be read: %s%s",
			strerror(errno), errno == EACCES ?
			" (check its permissions)" : "");
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		tn_error_set(err, "the `metadata` file is not a regular file");
		close(fd);
		return -1;
	}
	if (st.st_size == 0) {
		tn_error_set(err, "the `metadata` file is empty (%s)",
			CUT_SHORT_ADVICE);
		close(fd);
		return -1;
	}
	len = read_at(fd, head, sizeof(head), 0);
	if (len < 0) {
		tn_error_set(err, "the `metadata` file cannot be read: %s",
			strerror(errno));
		close(fd);
		return -1;
	}
	tn_metadata_text_init(&text);
	if (facts)
		text.head = g_malloc(TN_METADATA_HEAD_BYTES);
	if (len >= 4 && get_u32((const uint8_t *) head, false) ==
			PACKET_MAGIC)
		status = check_packets(fd, (uint64_t) st.st_size, false, &text,
			err);
	else if (len >= 4 && get_u32((const uint8_t *) head, true) ==
			PACKET_MAGIC)
		status = check_packets(fd, (uint64_t) st.st_size, true, &text,
			err);
	else
		status = check_text(fd, (uint64_t) st.st_size, head,
			(size_t) len, &text, err);
	if (facts && status == 0)
		tn_metadata_read_facts(text.head, text.head_len, facts);
	g_free(text.head);
	close(fd);
	return status;
}
