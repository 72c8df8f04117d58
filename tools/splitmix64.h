/* splitmix64.h - the tools' deterministic pseudo-random numbers: the
 * same seed gives the same traces and scripts on every machine. */
#ifndef TOOLS_SPLITMIX64_H
#define TOOLS_SPLITMIX64_H

#include <stdint.h>

/* The next number of the sequence whose state is *state (splitmix64). */
static inline uint64_t splitmix64_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif
