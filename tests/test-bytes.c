/* test-bytes.c - the byte codec of the core's binary formats: known
 * encodings, round trips, checksums against published and independent
 * values, and a reader that fails on every cut of its bytes, naming
 * what it was reading, without reading past them. */
#include <glib.h>
#include <string.h>

#include "tap.h"
#include "src/core/bytes.h"

/* out holds exactly the len bytes of want. */
static bool bytes_are(const GByteArray *out, const char *want, size_t len)
{
	if (out->len == len && (len == 0 ||
	    memcmp(out->data, want, len) == 0))
		return true;
	printf("#   got:");
	for (guint i = 0; i < out->len; i++)
		printf(" %02x", out->data[i]);
	printf("\n");
	return false;
}

#define ENCODES(call, want, ...) do { \
		GByteArray *out_ = g_byte_array_new(); \
		call; \
		tap_ok(bytes_are(out_, want, sizeof(want) - 1), __VA_ARGS__); \
		g_byte_array_free(out_, TRUE); \
	} while (0)

static void test_writer(void)
{
	ENCODES(tn_bytes_put_u8(out_, 0xab), "\xab", "u8");
	ENCODES(tn_bytes_put_u16(out_, 0x0102), "\x02\x01",
		"u16 little-endian");
	ENCODES(tn_bytes_put_u32(out_, 0x01020304), "\x04\x03\x02\x01",
		"u32 little-endian");
	ENCODES(tn_bytes_put_u64(out_, UINT64_C(0x0102030405060708)),
		"\x08\x07\x06\x05\x04\x03\x02\x01", "u64 little-endian");
	ENCODES(tn_bytes_put_double(out_, -0.0),
		"\0\0\0\0\0\0\0\x80", "double: the IEEE 754 bits of -0.0");
	ENCODES(tn_bytes_put_varint(out_, 0), "\0", "varint 0: one byte");
	ENCODES(tn_bytes_put_varint(out_, 127), "\x7f", "varint 127");
	ENCODES(tn_bytes_put_varint(out_, 128), "\x80\x01", "varint 128");
	ENCODES(tn_bytes_put_varint(out_, 300), "\xac\x02", "varint 300");
	ENCODES(tn_bytes_put_varint(out_, UINT64_MAX),
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
		"varint 2^64 - 1: ten bytes");
	ENCODES(tn_bytes_put_zigzag(out_, 0), "\0", "zigzag 0");
	ENCODES(tn_bytes_put_zigzag(out_, -1), "\x01", "zigzag -1");
	ENCODES(tn_bytes_put_zigzag(out_, 1), "\x02", "zigzag 1");
	ENCODES(tn_bytes_put_zigzag(out_, -2), "\x03", "zigzag -2");
	ENCODES(tn_bytes_put_zigzag(out_, INT64_MIN),
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", "zigzag INT64_MIN");
	ENCODES(tn_bytes_put_zigzag(out_, INT64_MAX),
		"\xfe\xff\xff\xff\xff\xff\xff\xff\xff\x01", "zigzag INT64_MAX");
	ENCODES(tn_bytes_put_string(out_, "abc", 2), "\x02" "ab",
		"string: its length, then its bytes");
	ENCODES(tn_bytes_put_string(out_, "", 0), "\0", "empty string");
	ENCODES(tn_bytes_put_raw(out_, NULL, 0), "", "nothing raw");
	{
		uint8_t p[8] = { 0 };

		tn_bytes_set_le(p, 0x0a0b0c, 3);
		tap_ok(p[0] == 0x0c && p[1] == 0x0b && p[2] == 0x0a &&
			p[3] == 0, "set_le writes the low bytes only");
		tap_int_eq(tn_bytes_get_le(p, 3), 0x0a0b0c,
			"get_le reads them");
	}
}

static void test_checksums(void)
{
	/* FNV-1a 64: the published test vectors. */
	tap_ok(tn_bytes_fnv1a64("", 0) == UINT64_C(0xcbf29ce484222325),
		"FNV-1a of nothing: the offset basis");
	tap_ok(tn_bytes_fnv1a64("a", 1) == UINT64_C(0xaf63dc4c8601ec8c),
		"FNV-1a of \"a\"");
	tap_ok(tn_bytes_fnv1a64("foobar", 6) ==
		UINT64_C(0x85944171f73967e8), "FNV-1a of \"foobar\"");
	/* The section's checksum, as computed apart from this code. */
	tap_ok(tn_bytes_hash64("", 0) == UINT64_C(0x8632f0229a99a2d8),
		"hash64 of nothing");
	tap_ok(tn_bytes_hash64("a", 1) == UINT64_C(0x6741d9f59f2e097a),
		"hash64 of one byte");
	tap_ok(tn_bytes_hash64("0123456789abcdefXYZ", 19) ==
		UINT64_C(0xb54a33d5d82fc109),
		"hash64 of two words and three bytes");
	/* The cache file's, likewise: four lanes, then the tail. */
	{
		uint8_t bytes[77], flipped[77];
		size_t changed = 0;

		for (size_t i = 0; i < sizeof(bytes); i++)
			bytes[i] = (uint8_t) i;
		tap_ok(tn_bytes_checksum64("", 0) ==
			UINT64_C(0x6ee6ee3ac73ef561), "checksum64 of nothing");
		tap_ok(tn_bytes_checksum64("a", 1) ==
			UINT64_C(0x8afbd4ac39218aab),
			"checksum64 of one byte");
		tap_ok(tn_bytes_checksum64(bytes, sizeof(bytes)) ==
			UINT64_C(0xeb411b37fe348ed2),
			"checksum64 of two rows of four words and a tail");
		/* Every bit of every lane and of the tail counts. */
		for (size_t bit = 0; bit < sizeof(bytes) * 8; bit++) {
			memcpy(flipped, bytes, sizeof(bytes));
			flipped[bit / 8] ^= (uint8_t) (1u << (bit % 8));
			changed += tn_bytes_checksum64(flipped,
				sizeof(flipped)) != tn_bytes_checksum64(bytes,
				sizeof(bytes));
		}
		tap_int_eq(changed, sizeof(bytes) * 8,
			"checksum64: each of the %zu bits changes it",
			sizeof(bytes) * 8);
		/* Two words swapped between lanes. */
		memcpy(flipped, bytes, sizeof(bytes));
		memcpy(flipped, bytes + 8, 8);
		memcpy(flipped + 8, bytes, 8);
		tap_ok(tn_bytes_checksum64(flipped, sizeof(flipped)) !=
			tn_bytes_checksum64(bytes, sizeof(bytes)),
			"checksum64: two words swapped change it");
	}
}

/* Every kind of item, in the order check_items() takes them. */
static GByteArray *sample_items(void)
{
	GByteArray *out = g_byte_array_new();

	tn_bytes_put_u8(out, 7);
	tn_bytes_put_u16(out, 0xbeef);
	tn_bytes_put_u32(out, 0xdeadbeef);
	tn_bytes_put_u64(out, UINT64_MAX - 1);
	tn_bytes_put_u64(out, (uint64_t) INT64_MIN);
	tn_bytes_put_double(out, -2.5);
	tn_bytes_put_varint(out, 5);
	tn_bytes_put_varint(out, UINT64_C(1) << 40);
	tn_bytes_put_zigzag(out, -123456789);
	tn_bytes_put_string(out, "name", 4);
	tn_bytes_put_raw(out, "RAW", 3);
	return out;
}

/* Take the items of sample_items() from r: the number taken before the
 * first failure (11: all), each checked against what was put. */
static int check_items(struct tn_bytes_reader *r, bool *same)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64, v1, v2;
	int64_t i64, z;
	double d;
	const char *s;
	size_t len;
	const uint8_t *raw;
	int n = 0;

	*same = true;
#define TAKE(call, check) do { \
		if (call) \
			return n; \
		*same &= (check); \
		n++; \
	} while (0)
	TAKE(tn_bytes_take_u8(r, &u8, "a u8"), u8 == 7);
	TAKE(tn_bytes_take_u16(r, &u16, "a u16"), u16 == 0xbeef);
	TAKE(tn_bytes_take_u32(r, &u32, "a u32"), u32 == 0xdeadbeef);
	TAKE(tn_bytes_take_u64(r, &u64, "a u64"), u64 == UINT64_MAX - 1);
	TAKE(tn_bytes_take_i64(r, &i64, "an i64"), i64 == INT64_MIN);
	TAKE(tn_bytes_take_double(r, &d, "a double"), d == -2.5);
	TAKE(tn_bytes_take_varint(r, &v1, "a short varint"), v1 == 5);
	TAKE(tn_bytes_take_varint(r, &v2, "a long varint"),
		v2 == UINT64_C(1) << 40);
	TAKE(tn_bytes_take_zigzag(r, &z, "a zigzag"), z == -123456789);
	TAKE(tn_bytes_take_string(r, &s, &len, "a string"),
		len == 4 && memcmp(s, "name", 4) == 0);
	TAKE(tn_bytes_take_raw(r, 3, &raw, "the raw part"),
		memcmp(raw, "RAW", 3) == 0);
#undef TAKE
	return n;
}

static void test_reader(void)
{
	static const char *const names[] = { "a u8", "a u16", "a u32",
		"a u64", "an i64", "a double", "a short varint",
		"a long varint", "a zigzag", "a string", "the raw part" };
	GByteArray *items = sample_items();
	struct tn_bytes_reader r;
	bool same, all_refused = true, all_named = true;
	int taken;

	tn_bytes_reader_init(&r, items->data, items->len);
	taken = check_items(&r, &same);
	tap_ok(taken == 11 && same && !r.failed && r.left == 0 &&
		r.why[0] == '\0', "every kind of item reads back as written");

	/* Every cut: a copy of exactly that many bytes (a read past it is
	 * a heap overflow that the sanitizer reports). */
	for (guint cut = 0; cut < items->len; cut++) {
		uint8_t *copy = g_memdup2(items->data, cut);
		char want[64];

		tn_bytes_reader_init(&r, copy, cut);
		taken = check_items(&r, &same);
		all_refused &= taken < 11 && r.failed && r.left == 0;
		snprintf(want, sizeof(want), "%s is cut short",
			names[taken < 11 ? taken : 0]);
		if (strcmp(r.why, want) != 0) {
			printf("# cut at %u: \"%s\", not \"%s\"\n", cut, r.why,
				want);
			all_named = false;
		}
		g_free(copy);
	}
	tap_ok(all_refused, "each of the %u cuts fails", items->len);
	tap_ok(all_named, "naming the item it cut");
	g_byte_array_free(items, TRUE);
}

static void test_failures(void)
{
	struct tn_bytes_reader r;
	uint64_t v = 1;
	uint32_t u32 = 1;
	const char *s;
	size_t len;

	tn_bytes_reader_init(&r, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
		10);
	tap_ok(tn_bytes_take_varint(&r, &v, "v") == 0 && v == UINT64_MAX,
		"a tenth byte of 1: 2^64 - 1");
	tn_bytes_reader_init(&r, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02",
		10);
	tap_ok(tn_bytes_take_varint(&r, &v, "a count") == -1 && v == 0,
		"a varint of 65 bits fails");
	tap_str_eq(r.why, "a count is too large", "its message");
	tn_bytes_reader_init(&r, "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80"
		"\x00", 11);
	tap_ok(tn_bytes_take_varint(&r, &v, "a count") == -1 &&
		strcmp(r.why, "a count is too large") == 0,
		"an eleven-byte varint fails: %s", r.why);

	tn_bytes_reader_init(&r, "\x03" "a\0b", 4);
	tap_ok(tn_bytes_take_string(&r, &s, &len, "a name") == -1 &&
		s == NULL && len == 0, "a string that holds a NUL fails");
	tap_str_eq(r.why, "a name holds a NUL", "its message");
	tn_bytes_reader_init(&r, "\x05" "abc", 4);
	tn_bytes_take_string(&r, &s, &len, "a name");
	tap_str_eq(r.why, "a name is cut short",
		"a string longer than what is left");

	/* The first failure stays; what follows fails and gives 0. */
	tn_bytes_reader_init(&r, "\x01\x02\x03\x04\x05\x06", 6);
	tap_ok(tn_bytes_fail(&r, "count %d beyond the end", 9) == -1,
		"a failure of the caller's own checks");
	tap_ok(tn_bytes_take_u32(&r, &u32, "a u32") == -1 && u32 == 0,
		"then a take that would fit fails, and gives 0");
	tap_ok(tn_bytes_take_raw(&r, 0, &(const uint8_t *) { NULL }, "none")
		== -1, "even of nothing");
	tn_bytes_fail(&r, "another");
	tap_str_eq(r.why, "count 9 beyond the end", "the first message stays");
}

int main(void)
{
	test_writer();
	test_checksums();
	test_reader();
	test_failures();
	return tap_done();
}
