/* ticker-tp.c - the probes of the tnticker tracepoint provider. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "ticker-tp.h"
