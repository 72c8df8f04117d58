/* core.h - process-wide settings of the tracenav core. */
#ifndef TRACENAV_CORE_H
#define TRACENAV_CORE_H

#include <stdbool.h>

/* Let libbabeltrace2 write its own warnings and errors on stderr
 * (--verbose).  Off by default: its log would tear a full-screen
 * terminal.  Call before opening traces. */
void tn_core_set_verbose(bool verbose);

/* Drop what libbabeltrace2 still holds for the calling thread (an error
 * that components may add while their graph is torn down).  Call when a
 * thread that used the core is done. */
void tn_core_thread_cleanup(void);

#endif
