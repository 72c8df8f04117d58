/* dump.h - the --dump and --info front ends: a trace as text on stdout. */
#ifndef TRACENAV_DUMP_H
#define TRACENAV_DUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/trace.h"

struct dump_options {
	const char *begin;	/* as the user typed them, or NULL */
	const char *end;
	bool has_count;
	uint64_t count;		/* stop after this many events */
	bool gmt;
	bool live;		/* each event flushed as it comes */
	/* --sync: "" to compute the correction, else the file that holds
	 * it; NULL: the recorded times. */
	const char *sync;
};

/* Print the events of trace as babeltrace2 does.  Returns the process
 * exit status: 0, 1 (the trace could not be read) or 2 (bad usage). */
int dump_events(const struct tn_trace *trace, const struct dump_options *options);

/* --dump of a live URL (live.h): the sessions of a relay daemon as
 * babeltrace2 lists them, or the events of one of its sessions as they
 * come, until it ends.  Returns the exit status: 0, 1 (the relay daemon
 * or the session cannot be read: said why) or 2 (bad usage). */
int dump_live(const char *url, const struct dump_options *options);

/* --dump --component: the events of the libbabeltrace2 source
 * component class spec (src.PLUGIN.CLASS) made with params (its --params
 * text, or NULL) and path (its "path" parameter, or NULL), as
 * babeltrace2 --component prints them.  Returns the exit status. */
int dump_component(const char *spec, const char *params, const char *path,
		const struct dump_options *options);

/* One line on stderr for each trace of the collection left out
 * ("tracenav: DIR: left out: REASON") and for each damaged file read in
 * part or not at all ("tracenav: FILE: read up to byte ..."), before
 * anything else is printed.  Returns 1 if there are any (the exit
 * status, once the rest is done: scripts notice), else 0. */
int dump_report_problems(const struct tn_trace *trace);

/* Print what the trace's metadata says.  Returns the exit status. */
int dump_info(const struct tn_trace *trace, bool gmt);

#endif
