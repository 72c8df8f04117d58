/* test-metadata-check.c - the metadata checks made before libbabeltrace2
 * reads a trace (metadata-check.h): whole text and packets pass, text or
 * packets cut short or damaged are refused with a message that says
 * where. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "src/core/metadata-check.h"
#include "tap.h"
#include "gen.h"

/* Scan text whole; 0 or -1 with err. */
static int scan(const char *text, struct tn_error *err)
{
	struct tn_metadata_text t;

	tn_metadata_text_init(&t);
	tn_metadata_text_feed(&t, text, strlen(text));
	return tn_metadata_text_finish(&t, err);
}

static void expect_text(const char *text, const char *want, const char *what)
{
	struct tn_error err;
	int status = scan(text, &err);

	if (!want) {
		tap_ok(status == 0, "%s: whole", what);
		return;
	}
	tap_ok(status == -1 && strstr(err.message, want), "%s: %s", what,
		status ? err.message : "passed");
}

static void test_text(void)
{
	expect_text("/* CTF 1.8 */\ntrace { major = 1; };\n", NULL,
		"a declaration");
	expect_text("/* CTF 1.8 */\n", NULL, "the signature alone");
	expect_text("trace { a = \"}}\"; b = '{'; /* } */ c = 1; // }\n};",
		NULL, "braces in strings and comments");
	expect_text("env { x = \"a \\\" }\"; };", NULL, "an escaped quote");
	expect_text("trace {\n\tmajor = 1;\n", "the one opened on line 1",
		"an open block");
	expect_text("a;\nb {\n c { d; };\n", "the one opened on line 2",
		"nested blocks: the outermost one");
	expect_text("trace { major = 1; };\n/* the end", "comment of line 2",
		"an open comment");
	expect_text("env {\n x = \"abc", "string of line 2", "an open string");
	expect_text("a;\nb := c", "line 2) has no closing `;`",
		"a declaration without its ;");
	expect_text("a; /", "has no closing `;`", "a lone slash");
	expect_text("a; }}};", NULL,
		"closing too many: the parser's to report");
}

/* Write size bytes of data to dir/metadata. */
static char *write_metadata(const char *dir, const void *data, size_t size)
{
	char *path = g_build_filename(dir, "metadata", NULL);

	g_mkdir_with_parents(dir, 0700);
	if (!g_file_set_contents(path, data, (gssize) size, NULL))
		exit(99);
	return path;
}

static int check_bytes(const char *dir, const void *data, size_t size,
		struct tn_error *err)
{
	char *path = write_metadata(dir, data, size);
	int status = tn_metadata_check_file(path, NULL, err);

	g_free(path);
	return status;
}

static void put32(uint8_t *p, uint32_t v, bool big)
{
	for (int i = 0; i < 4; i++)
		p[big ? 3 - i : i] = (uint8_t) (v >> (8 * i));
}

/* text as packets of packet_size bytes (byte order big), as LTTng
 * writes them; *size gets the length. */
static uint8_t *packetize(const char *text, size_t packet_size, bool big,
		size_t *size)
{
	size_t len = strlen(text), room = packet_size - 37;
	size_t count = (len + room - 1) / room;
	uint8_t *out = g_malloc0(count * packet_size);

	for (size_t k = 0; k < count; k++) {
		uint8_t *p = out + k * packet_size;
		size_t part = MIN(room, len - k * room);

		put32(p, 0x75D11D57, big);
		put32(p + 24, (uint32_t) ((37 + part) * 8), big);
		put32(p + 28, (uint32_t) (packet_size * 8), big);
		p[35] = 1;
		p[36] = 8;
		memcpy(p + 37, text + k * room, part);
	}
	*size = count * packet_size;
	return out;
}

static void expect_file(const char *dir, const void *data, size_t size,
		const char *want, const char *what)
{
	struct tn_error err;
	int status = check_bytes(dir, data, size, &err);

	if (!want)
		tap_ok(status == 0, "%s: passes%s%s", what,
			status ? ": " : "", status ? err.message : "");
	else
		tap_ok(status == -1 && strstr(err.message, want), "%s: %s",
			what, status ? err.message : "passed");
}

static void test_files(void)
{
	char *traced = gen_trace("text", "--events 100 --cpus 1");
	char *packed = gen_trace("packets",
		"--events 100 --cpus 1 --packetized-metadata");
	char *dir = g_build_filename(gen_tmpdir(), "m", NULL);
	char *path = g_build_filename(traced, "metadata", NULL);
	char *text, *packets_path = g_build_filename(packed, "metadata", NULL);
	gsize len, packed_len;
	uint8_t *data, *gen_packets;
	size_t size;
	struct tn_metadata_text scan;
	struct tn_error err;
	int failures = 0, cut_short = 0;

	if (!g_file_get_contents(path, &text, &len, NULL) ||
	    !g_file_get_contents(packets_path, (char **) &gen_packets,
			&packed_len, NULL))
		exit(99);
	tap_ok(tn_metadata_check_file(path, NULL, &err) == 0,
		"gen-trace's text metadata passes");
	tap_ok(tn_metadata_check_file(packets_path, NULL, &err) == 0 &&
		packed_len % 4096 == 0 && packed_len > 4096,
		"gen-trace's packetized metadata (%zu packets) passes",
		(size_t) packed_len / 4096);

	/* Every cut of the text: refused as cut short, unless it falls
	 * where a declaration ends (then the text is whole as far as it
	 * goes, and libbabeltrace2 says what is missing): few of them. */
	/* One scan, finished after each byte (finishing changes nothing). */
	tn_metadata_text_init(&scan);
	for (size_t cut = 1; cut < len; cut++) {
		size_t end = cut;
		bool after_declaration;

		while (end > 0 && g_ascii_isspace(text[end - 1]))
			end--;
		after_declaration = (end > 0 && text[end - 1] == ';') ||
			(end == 13 && strncmp(text, "/* CTF 1.8 */", 13) == 0);
		tn_metadata_text_feed(&scan, text + cut - 1, 1);
		if (tn_metadata_text_finish(&scan, &err) == 0) {
			if (!after_declaration)
				failures++;
		} else if (strstr(err.message, "the metadata is cut short")) {
			cut_short++;
		} else {
			failures++;
		}
	}
	tap_ok(failures == 0 && cut_short > (int) len * 19 / 20,
		"every cut of %zu bytes of text: %d refused as cut short, the "
		"others after a declaration", (size_t) len, cut_short);

	expect_file(dir, "", 0, "is empty", "an empty file");
	expect_file(dir, "trace { };", 10, "signature `/* CTF 1.8`, which is "
		"missing", "text without the signature");
	expect_file(dir, "/* CTF 1.9 */ a;", 16, "says CTF 1.9",
		"text of another version");
	expect_file(dir, text, len / 2, "cut short", "half the text");

	/* Packets, both byte orders. */
	for (int big = 0; big <= 1; big++) {
		const char *order = big ? "big-endian" : "little-endian";
		char what[128];

		data = packetize(text, 4096, big, &size);
		snprintf(what, sizeof(what), "%s packets", order);
		expect_file(dir, data, size, NULL, what);
		snprintf(what, sizeof(what), "%s packets, the last one "
			"without its padding", order);
		expect_file(dir, data, size - 100, NULL, what);
		snprintf(what, sizeof(what), "%s packets cut inside the "
			"second one's text", order);
		expect_file(dir, data, 4096 + 500, "packet 1 (byte 4096) "
			"holds", what);
		snprintf(what, sizeof(what), "%s packets cut inside a header",
			order);
		expect_file(dir, data, 4096 + 20, "header of its packet 1",
			what);
		g_free(data);
	}
	data = packetize(text, 4096, false, &size);
	data[4096] ^= 0xff;
	expect_file(dir, data, size, "does not start with the metadata "
		"packet magic", "a packet without its magic");
	data[4096] ^= 0xff;
	put32(data + 4096 + 24, 4097 * 8, false);
	expect_file(dir, data, size, "impossible sizes",
		"content larger than the packet");
	put32(data + 4096 + 24, 20 * 8, false);
	expect_file(dir, data, size, "impossible sizes",
		"content smaller than the header");
	put32(data + 4096 + 24, 4000 * 8 + 3, false);
	expect_file(dir, data, size, "impossible sizes",
		"sizes that are not whole bytes");
	g_free(data);
	data = packetize(text, 4096, false, &size);
	data[35] = 't';
	data[36] = 'y';
	expect_file(dir, data, size, "says version 116.121",
		"a packet of another version");
	g_free(data);
	/* Whole packets whose text stops inside a block. */
	data = packetize("/* CTF 1.8 */\ntrace {\n major = 1;\n", 4096, false,
		&size);
	expect_file(dir, data, size, "the one opened on line 2",
		"whole packets whose text is cut short");
	g_free(data);

	g_free(text);
	g_free(gen_packets);
	g_free(path);
	g_free(packets_path);
	g_free(dir);
	g_free(traced);
	g_free(packed);
}

/* The trace's UUID and tracer, read before libbabeltrace2 parses the
 * metadata. */
static void test_facts(void)
{
	static const char lttng[] =
		"/* CTF 1.8 */\n"
		"typealias integer { size = 8; } := uint8_t;\n"
		"trace {\n"
		"\tmajor = 1; minor = 8;\n"
		"\tuuid = \"852CEA65-881b-41e7-ad7e-c9bcf96cb62e\";\n"
		"\tpacket.header := struct { uint8_t uuid[16]; } align(8);\n"
		"};\n"
		"env {\n"
		"\thostname = \"box {\";\n"
		"\t/* tracer_name = \"fake\"; */\n"
		"\ttracer_name = \"lttng-modules\";\n"
		"\ttracer_major = 2;\n"
		"\ttracer_minor = 8;\n"
		"\ttracer_patchlevel = 12;\n"
		"};\n"
		"clock { uuid = \"00000000-0000-0000-0000-000000000000\"; };\n";
	static const char without[] =
		"/* CTF 1.8 */\ntrace { major = 1; minor = 8; };\n"
		"clock { name = \"env\"; uuid = "
		"\"00000000-0000-0000-0000-000000000000\"; };\n";
	static const char partial[] =
		"/* CTF 1.8 */\nenv { tracer_name = \"barectf\"; };\n";
	struct tn_metadata_facts facts;

	tn_metadata_read_facts(lttng, strlen(lttng), &facts);
	tap_ok(facts.has_tracer && !strcmp(facts.tracer_name,
			"lttng-modules") && facts.tracer_major == 2 &&
		facts.tracer_minor == 8 && facts.tracer_patchlevel == 12,
		"facts: the tracer from the env block, not its comment");
	tap_ok(facts.has_uuid && !strcmp(facts.uuid,
			"852cea65-881b-41e7-ad7e-c9bcf96cb62e"),
		"facts: the trace block's uuid (lowercase), not the clock's");
	tn_metadata_facts_fini(&facts);
	tn_metadata_read_facts(without, strlen(without), &facts);
	tap_ok(!facts.has_tracer && facts.tracer_major == -1 &&
		!facts.has_uuid,
		"facts: no tracer without an env block, no uuid without one in "
		"the trace block");
	tn_metadata_facts_fini(&facts);
	tn_metadata_read_facts(partial, strlen(partial), &facts);
	tap_ok(facts.has_tracer && !strcmp(facts.tracer_name, "barectf") &&
		facts.tracer_major == -1 && facts.tracer_minor == -1,
		"facts: a version not given is -1");
	/* Cut anywhere: never read past the end (the sanitizer builds
	 * check), and no uuid from a cut one. */
	tn_metadata_facts_fini(&facts);
	for (size_t len = 0; len < strlen(lttng); len++) {
		tn_metadata_read_facts(lttng, len, &facts);
		tn_metadata_facts_fini(&facts);
		if (facts.has_uuid && strlen(facts.uuid) != 36)
			break;
	}
	tap_ok(!facts.has_uuid || strlen(facts.uuid) == 36,
		"facts: the text cut at every byte gives no partial uuid");
}

/* read_facts on text: whether the facts are plain. */
static bool plain_facts(const char *text, struct tn_metadata_facts *facts)
{
	tn_metadata_read_facts(text, strlen(text), facts);
	return tn_metadata_facts_plain(facts);
}

/* The env and the clock as libbabeltrace2 2.0 makes them, and what is
 * not read as plain (then libbabeltrace2 reads the trace for --info). */
static void test_plain_facts(void)
{
	static const char lttng[] =
		"env { hostname = \"box\"; domain = kernel; tracer_name = "
		"\"lttng-modules\"; tracer_major = 2; big = "
		"9223372036854775807; };\n"
		"clock { name = \"monotonic\"; freq = 1000; offset_s = 10; "
		"offset = 2500; absolute = FALSE; };\n"
		"typealias integer { size = 64; map = clock.monotonic.value; } "
		":= uint64_clock_monotonic_t;\n"
		"clock { name = other; };\n";
#define MAPPED "clock { name = c; };\nx = clock.c.value;\n"
	static const struct {
		const char *text, *why;
	} not_plain[] = {
		{ "env { a = \"x\\ty\"; };\n" MAPPED, "an escape" },
		{ "env { a = 010; };\n" MAPPED, "octal" },
		{ "env { a = 0x10; };\n" MAPPED, "hexadecimal" },
		{ "env { a = 1U; };\n" MAPPED, "a suffix" },
		{ "env { a = 1; a = 2; };\n" MAPPED, "an entry twice" },
		{ "env { a = \"x\" \"y\"; };\n" MAPPED, "two strings" },
		{ "env { a = 18446744073709551615; };\n" MAPPED,
		  "an integer above INT64_MAX" },
		{ "env { a = 1; };\nclock { name = c; colour = 1; };\n"
		  "x = clock.c.value;\n", "an unknown clock attribute" },
		{ "env { a = 1; };\nclock { name = c; freq = 0; };\n"
		  "x = clock.c.value;\n", "a clock of frequency 0" },
		{ "env { a = 1; };\nclock { freq = 1000; };\n"
		  "x = clock..value;\n", "a clock without name" },
		{ "env { a = 1; };\nclock { name = c; };\n",
		  "a clock no field maps" },
		{ MAPPED, "no env block" },
	};
#undef MAPPED
	struct tn_metadata_facts facts;
	char mapped[512];
	bool ok;

	/* A second clock block: libbabeltrace2 reads both, tracenav does
	 * not say which one the streams use. */
	ok = plain_facts(lttng, &facts);
	tap_ok(!ok && facts.clock_count == 2,
		"plain facts: two clock blocks are not plain");
	tn_metadata_facts_fini(&facts);
	snprintf(mapped, sizeof(mapped), "%.*s", (int) (strstr(lttng,
		"clock { name = other") - lttng), lttng);
	ok = plain_facts(mapped, &facts);
	tap_ok(ok && facts.env && facts.env->len == 10 &&
		!strcmp(facts.env->pdata[0], "hostname") &&
		!strcmp(facts.env->pdata[1], "box") &&
		!strcmp(facts.env->pdata[3], "kernel") &&
		!strcmp(facts.env->pdata[9], "9223372036854775807"),
		"plain facts: the env in its order, an identifier as a string, "
		"integers in decimal");
	tap_ok(ok && !strcmp(facts.clock.name, "monotonic") &&
		facts.clock.frequency == 1000 &&
		facts.clock.offset_seconds == 12 &&
		facts.clock.offset_cycles == 500 && facts.clock.absolute,
		"plain facts: the clock's whole seconds of cycles moved to its "
		"seconds, LTTng's monotonic clock absolute");
	tn_metadata_facts_fini(&facts);
	for (size_t i = 0; i < G_N_ELEMENTS(not_plain); i++) {
		tap_ok(!plain_facts(not_plain[i].text, &facts),
			"plain facts: not plain: %s", not_plain[i].why);
		tn_metadata_facts_fini(&facts);
	}
}

int main(void)
{
	test_text();
	test_files();
	test_facts();
	test_plain_facts();
	gen_cleanup();
	return tap_done();
}
