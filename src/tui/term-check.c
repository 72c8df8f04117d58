/* term-check.c - whether the terminal can show the full-screen view
 * (see term-check.h). */
#include <curses.h>
#include <stdlib.h>
#include <term.h>
#include <unistd.h>

#include "term-check.h"

int tn_tui_term_check(struct tn_error *err)
{
	const char *term = getenv("TERM");
	const char *cup;
	bool generic, hardcopy;
	int code = 0;

	/* setupterm() writes nothing on the terminal (newterm() would
	 * begin to set it up); with &code it prints no error either. */
	if (!term || !*term || setupterm(NULL, STDOUT_FILENO, &code) != OK) {
		tn_error_set(err, "cannot use the terminal type '%s' (TERM): "
			"set TERM to one that terminfo knows, e.g. "
			"xterm-256color or vt100", term ? term : "");
		return -1;
	}
	cup = tigetstr("cup");
	generic = tigetflag("gn") > 0;
	hardcopy = tigetflag("hc") > 0;
	del_curterm(cur_term);
	/* "dumb", "unknown" (generic), a printing terminal, or any
	 * terminal that cannot put the cursor where it wants: a screen of
	 * panes would come out as a garbled stream of lines. */
	if (!cup || cup == (const char *) -1 || generic || hardcopy) {
		tn_error_set(err, "the terminal type '%s' (TERM) cannot move "
			"the cursor, which the event list needs: set TERM to "
			"the terminal's own type (e.g. xterm-256color, screen, "
			"vt100), or use --dump or --batch to print events",
			term);
		return -1;
	}
	return 0;
}
