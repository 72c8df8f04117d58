/* pointer-hash.h - the slot of a pointer in a direct-mapped memo
 * (internal: not part of the public API).
 *
 * Every bit of the address counts: the event classes of two readers
 * built on two threads are made in the same order in two malloc arenas,
 * whose addresses differ by a multiple of 64 MiB, so a slot taken from
 * the low bits alone gives the same slot to both (and the two readers'
 * events, taken in turns, evict each other). */
#ifndef TRACENAV_CORE_POINTER_HASH_H
#define TRACENAV_CORE_POINTER_HASH_H

#include <stddef.h>
#include <stdint.h>

/* A slot in 0 .. slots - 1 for p (Fibonacci hashing). */
static inline size_t tn_pointer_slot(const void *p, size_t slots)
{
	uint64_t h = (uint64_t) (uintptr_t) p * UINT64_C(0x9e3779b97f4a7c15);

	return (size_t) ((h >> 32) % slots);
}

#endif
