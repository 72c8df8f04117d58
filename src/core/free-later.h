/* free-later.h - freeing large structures off the thread that is done
 * with them (internal: not part of the public API).
 *
 * The preparse ends with a few hundred MB of private structures to
 * free (the state, its providers, the analyses' accumulators, the
 * diagram's model): about 0.2 s of frees on the thread whose end the
 * user, or --batch, waits for.  Handed to one helper thread, they are
 * freed beside what comes next, or not at all when the process exits
 * first (its memory goes back anyway).
 */
#ifndef TRACENAV_CORE_FREE_LATER_H
#define TRACENAV_CORE_FREE_LATER_H

#include <glib.h>

/* Call free_fn(data) on the helper thread, soon; at once on this one
 * when tn_runtime_frees_at_exit() (a leak check must see it freed) or
 * when the helper thread cannot be started.
 * Pre: nothing else uses data any more. */
void tn_free_later(GDestroyNotify free_fn, void *data);

#endif
