/* messages-tp.c - the probes of the msgdemo tracepoint provider. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "messages-tp.h"
