/* ticker.c - a program that traces for a while: COUNT tnticker:tick
 * events (ticker-tp.h), one every INTERVAL microseconds, their seq
 * field numbering them from 0, so that a trace read while it is being
 * written (tests/test-ust-live.sh) can be checked: its events are seq
 * 0, 1, 2... with none missing, whatever part of it was written.
 *
 * Usage: ticker COUNT INTERVAL_US */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ticker-tp.h"

int main(int argc, char **argv)
{
	long count, interval;

	if (argc != 3 || (count = atol(argv[1])) <= 0 ||
	    (interval = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: ticker COUNT INTERVAL_US\n");
		return 2;
	}
	for (long i = 0; i < count; i++) {
		tracepoint(tnticker, tick, (int) i);
		if (interval)
			usleep((useconds_t) interval);
	}
	return 0;
}
