/* component.h - a reader of any source component class of
 * libbabeltrace2, named and given parameters as babeltrace2's
 * --component and --params take them: Linux ring-buffer logs
 * (src.text.dmesg), a Python source plugin, ...
 */
#ifndef TRACENAV_COMPONENT_H
#define TRACENAV_COMPONENT_H

#include "tracenav/error.h"
#include "tracenav/reader.h"

/* Add dir to the directories libbabeltrace2 looks for plugins in (as
 * BABELTRACE_PLUGIN_PATH does: shared objects, and the bt_plugin_*.py
 * files of Python plugins).  Before the first reader of the process. */
void tn_component_add_plugin_path(const char *dir);

/* A reader of the source component class `spec` ("src.PLUGIN.CLASS")
 * made with params (babeltrace2's --params text: NAME=VALUE, ...; a
 * VALUE is null, true, false, yes, no, an integer, a "string", a bare
 * word or an [array] of them; may be NULL) and path, when not NULL, as
 * its "path" parameter (what src.text.dmesg reads).  Its events are
 * read through libbabeltrace2's muxer, in babeltrace2's order.  Returns
 * 0 and *out, or -1 with err: a malformed spec or params (where, and
 * how it is written), a class that is not installed, or the component
 * refused its parameters (its words). */
int tn_component_reader_create(const char *spec, const char *params,
		const char *path, struct tn_reader **out, struct tn_error *err);

/* The same component's events written as a CTF trace (through
 * libbabeltrace2's sink.ctf.fs) into a private directory (runtime.h:
 * removed when tracenav ends), for what reads CTF traces (the event
 * list, --batch, --info): *trace_dir is its trace directory (g_free
 * it).  Reads the whole input first.  Returns 0, or -1 with err as
 * tn_component_reader_create() says it. */
int tn_component_convert(const char *spec, const char *params,
		const char *path, char **trace_dir, struct tn_error *err);

#endif
