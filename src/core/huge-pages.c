/* huge-pages.c - large arrays backed by huge pages (huge-pages.h). */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "huge-pages.h"

#define HUGE_PAGE ((uintptr_t) 2 << 20)

void tn_huge_pages_advise(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
	uintptr_t begin = ((uintptr_t) p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t end = ((uintptr_t) p + size) & ~(HUGE_PAGE - 1);

	if (size < TN_HUGE_PAGES_MIN || end <= begin)
		return;
	/* A hint: a refusal (no such pages here) changes nothing. */
	(void) madvise((void *) begin, end - begin, MADV_HUGEPAGE);
#else
	(void) p;
	(void) size;
#endif
}

void *tn_huge_pages_realloc(void *p, size_t old_size, size_t size)
{
	void *block;

	if (size < TN_HUGE_PAGES_MIN)
		return g_realloc(p, size);
	block = g_malloc(size);
	tn_huge_pages_advise(block, size);
	if (p)
		memcpy(block, p, MIN(old_size, size));
	g_free(p);
	return block;
}

void *tn_huge_pages_alloc(size_t size)
{
	return tn_huge_pages_realloc(NULL, 0, size);
}

GBytes *tn_huge_pages_copy(const void *data, size_t size)
{
	void *copy = tn_huge_pages_alloc(size ? size : 1);

	if (size)
		memcpy(copy, data, size);
	return g_bytes_new_take(copy, size);
}
