/* test-huge-pages.c - large arrays on huge pages (src/core/huge-pages.c):
 * growing and shrinking keep the bytes, copies equal their source, and
 * a large block carries the advice (the "hg" flag of its mapping in
 * /proc/self/smaps) where the kernel has transparent huge pages, while
 * a small one is left to the allocator. */
#include <glib.h>
#include <stdint.h>
#include <stdlib.h>

#include "tap.h"
#include "src/core/huge-pages.h"

#define BIG (TN_HUGE_PAGES_MIN * 4)

static void fill(uint8_t *p, size_t size, unsigned seed)
{
	for (size_t i = 0; i < size; i++)
		p[i] = (uint8_t) (i * 31 + seed);
}

static bool same(const uint8_t *p, size_t size, unsigned seed)
{
	for (size_t i = 0; i < size; i++)
		if (p[i] != (uint8_t) (i * 31 + seed))
			return false;
	return true;
}

/* Whether the mapping holding p is advised for huge pages ("hg" among
 * its VmFlags); -1 when smaps cannot tell. */
static int advised(const void *p)
{
	gchar *text = NULL;
	gchar **lines;
	uintptr_t at = (uintptr_t) p;
	bool inside = false;
	int found = -1;

	if (!g_file_get_contents("/proc/self/smaps", &text, NULL, NULL))
		return -1;
	lines = g_strsplit(text, "\n", -1);
	for (size_t i = 0; lines[i] && found < 0; i++) {
		unsigned long begin, end;

		/* A mapping's first line: "begin-end perms ..." (no
		 * field's name parses so). */
		if (sscanf(lines[i], "%lx-%lx ", &begin, &end) == 2) {
			inside = at >= begin && at < end;
			continue;
		}
		if (inside && g_str_has_prefix(lines[i], "VmFlags:"))
			found = strstr(lines[i], " hg") != NULL;
	}
	g_strfreev(lines);
	g_free(text);
	return found;
}

/* Whether the kernel gives huge pages to advised memory. */
static bool kernel_has_them(void)
{
	gchar *mode = NULL;
	bool has;

	if (!g_file_get_contents("/sys/kernel/mm/transparent_hugepage/enabled",
			&mode, NULL, NULL))
		return false;
	has = strstr(mode, "[never]") == NULL;
	g_free(mode);
	return has;
}

int main(void)
{
	uint8_t *p = tn_huge_pages_realloc(NULL, 0, 1000);
	GBytes *copy;

	fill(p, 1000, 1);
	p = tn_huge_pages_realloc(p, 1000, BIG);
	tap_ok(same(p, 1000, 1), "growing past the threshold keeps the "
		"bytes");
	fill(p, BIG, 2);
	p = tn_huge_pages_realloc(p, BIG, BIG * 2);
	tap_ok(same(p, BIG, 2), "growing a large block keeps the bytes");
	if (kernel_has_them())
		tap_ok(advised(p + BIG) == 1, "a large block is advised for "
			"huge pages");
	else
		tap_ok(true, "# SKIP the kernel has no transparent huge "
			"pages");
	p = tn_huge_pages_realloc(p, BIG * 2, 100);
	tap_ok(same(p, 100, 2), "shrinking keeps the first bytes");
	g_free(p);

	p = tn_huge_pages_alloc(BIG);
	fill(p, BIG, 3);
	copy = tn_huge_pages_copy(p, BIG);
	tap_ok(g_bytes_get_size(copy) == BIG &&
		same(g_bytes_get_data(copy, NULL), BIG, 3),
		"a large copy equals its source");
	g_bytes_unref(copy);
	copy = tn_huge_pages_copy(p, 10);
	tap_ok(g_bytes_get_size(copy) == 10 &&
		same(g_bytes_get_data(copy, NULL), 10, 3),
		"a small copy equals its source");
	g_bytes_unref(copy);
	copy = tn_huge_pages_copy(NULL, 0);
	tap_ok(g_bytes_get_size(copy) == 0, "an empty copy is empty");
	g_bytes_unref(copy);
	g_free(p);
	return tap_done();
}
