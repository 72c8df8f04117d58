/* huge-pages.h - large arrays backed by huge pages where the kernel
 * gives them (internal: not part of the public API).
 *
 * A fresh page costs a fault when it is first touched: about a
 * microsecond on bare metal, ten or more on some virtual machines.  The
 * arrays that grow to tens of MB while a trace is read or a cache
 * loaded (the state's attributes and child index on a long kernel
 * trace, the cache file read whole, the timeline's summary) would take
 * thousands of faults; where the kernel has transparent huge pages (in
 * its "madvise" or "always" mode) a 2 MiB page is one fault.  Advising
 * is only a hint: a kernel without them, or one that refuses, changes
 * nothing but the speed.
 */
#ifndef TRACENAV_CORE_HUGE_PAGES_H
#define TRACENAV_CORE_HUGE_PAGES_H

#include <glib.h>
#include <stddef.h>

/* Below this, an array is left to the allocator's pages. */
#define TN_HUGE_PAGES_MIN ((size_t) 4 << 20)

/* Ask for huge pages under the whole 2 MiB pages inside the size bytes
 * at p (memory of the process's allocator, not touched yet for the
 * advice to count); nothing when size < TN_HUGE_PAGES_MIN. */
void tn_huge_pages_advise(void *p, size_t size);

/* g_realloc(p, size) of a block of old_size bytes (0 for p NULL): a
 * block of TN_HUGE_PAGES_MIN or more is a new one, advised before the
 * old bytes are copied into it (advice after the copy comes too late
 * for the pages the copy touched). */
void *tn_huge_pages_realloc(void *p, size_t old_size, size_t size);

/* tn_huge_pages_realloc(NULL, 0, size). */
void *tn_huge_pages_alloc(size_t size);

/* A copy of the size bytes at data, as GBytes, on advised memory. */
GBytes *tn_huge_pages_copy(const void *data, size_t size);

#endif
