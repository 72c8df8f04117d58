/* calls-tp.c - the probes of the calldemo tracepoint provider (built
 * without -finstrument-functions). */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "calls-tp.h"
