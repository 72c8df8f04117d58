/* finish.c - the end of the process, without freeing (see finish.h). */
#include <stdio.h>
#include <unistd.h>

#include "finish.h"
#include "tracenav/job.h"
#include "tracenav/runtime.h"

/* How long a job may take to see its cancel before the process ends
 * all the same (its private directories may then stay behind). */
enum { JOB_STOP_TIMEOUT_MS = 2000 };

void finish_process(int status)
{
	tn_job_stop_all(JOB_STOP_TIMEOUT_MS);
	fflush(stdout);
	fflush(stderr);
	tn_runtime_cleanup();
	_exit(status);
}
