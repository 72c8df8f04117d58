/* term-scan - check the raw bytes a program wrote to a terminal (a
 * typescript of script(1), a tmux pipe-pane log) for anything a trace
 * could have smuggled through: escape sequences other than those
 * ncurses draws with, BEL and other C0 controls, C1 controls (as UTF-8
 * or raw), invalid UTF-8, bidirectional and invisible format
 * characters.
 *
 *   term-scan [--ascii] [--allow-osc52] FILE
 *
 * --ascii: every byte must be ASCII (a non-UTF-8 locale's output).
 * --allow-osc52: an OSC 52 (the clipboard, y) is allowed.
 * Exit status 0 when clean, 1 with one line per problem (10 at most)
 * on stdout, each with its offset and the bytes around it, 2 on bad
 * usage or an unreadable file.
 */
#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define MAX_PROBLEMS 10

struct scan {
	const char *path;
	const unsigned char *data;
	size_t size;
	bool ascii;
	bool allow_osc52;
	unsigned problems;
	unsigned sequences;
};

/* Report a problem at offset at, with up to 12 bytes of context either
 * side, printed in C escapes. */
static void problem(struct scan *scan, size_t at, const char *what)
{
	size_t from = at > 12 ? at - 12 : 0;
	size_t to = MIN(scan->size, at + 12);

	scan->problems++;
	if (scan->problems > MAX_PROBLEMS)
		return;
	printf("%s: offset %zu: %s: \"", scan->path, at, what);
	for (size_t i = from; i < to; i++) {
		unsigned c = scan->data[i];

		if (i == at)
			printf("<HERE>");
		if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"')
			putchar((int) c);
		else
			printf("\\x%02x", c);
	}
	printf("\"\n");
}

/* The CSI sequences ncurses draws with (terminfo's xterm, screen,
 * tmux and vt100 entries): cursor moves and addressing, erasing,
 * inserting and deleting, scrolling, attributes and colours, modes
 * (the alternate screen, the cursor's visibility, the keypad, the
 * mouse), the scrolling region, repeat, and xterm's title stack
 * (22t, 23t).  Not the ones a terminal answers as typed input (reports:
 * n, c, other t, q, x, $p) nor anything else. */
static bool csi_allowed(const unsigned char *params, size_t n,
		unsigned char final)
{
	const char *finals = "@ABCDEFGHJKLMPSTXZ`bdfghlmr";

	for (size_t i = 0; i < n; i++) {
		unsigned c = params[i];

		/* Digits, ';', ':' and the private marker '?' only: no '>'
		 * ('=', '<'), no intermediate ('$', '!', ' ', '"'). */
		if (!((c >= '0' && c <= '9') || c == ';' || c == ':' ||
				(c == '?' && i == 0)))
			return false;
	}
	/* xterm's smcup and rmcup push and pop the window title. */
	if (final == 't')
		return (n >= 3 && !memcmp(params, "22;", 3)) ||
			(n >= 3 && !memcmp(params, "23;", 3));
	return final && strchr(finals, final) != NULL;
}

/* An escape sequence at data[at] (ESC); returns its length. */
static size_t scan_escape(struct scan *scan, size_t at)
{
	const unsigned char *p = scan->data + at;
	size_t left = scan->size - at;

	scan->sequences++;
	if (left < 2) {
		problem(scan, at, "ESC at the end");
		return 1;
	}
	switch (p[1]) {
	case '[': {
		size_t i = 2;

		while (i < left && p[i] >= 0x20 && p[i] <= 0x3f)
			i++;
		if (i >= left || p[i] < 0x40 || p[i] > 0x7e) {
			problem(scan, at, "a CSI sequence that does not end");
			return i;
		}
		if (!csi_allowed(p + 2, i - 2, p[i]))
			problem(scan, at, "a CSI sequence ncurses does not draw "
				"with");
		return i + 1;
	}
	case ']':
		if (scan->allow_osc52 && left > 5 && !memcmp(p + 2, "52;", 3)) {
			size_t i = 5;

			while (i < left && p[i] != 0x07 && p[i] != 0x1b)
				i++;
			return i < left && p[i] == 0x07 ? i + 1 :
				MIN(left, i + 2);
		}
		problem(scan, at, "an OSC sequence (ESC ])");
		return 2;
	case 'P': problem(scan, at, "a DCS sequence (ESC P)"); return 2;
	case '_': problem(scan, at, "an APC sequence (ESC _)"); return 2;
	case '^': problem(scan, at, "a PM sequence (ESC ^)"); return 2;
	case 'X': problem(scan, at, "a SOS sequence (ESC X)"); return 2;
	case 'c': problem(scan, at, "a terminal reset (ESC c)"); return 2;
	case '(': case ')':
		/* Character sets: ASCII, line drawing (vt100's acsc). */
		if (left >= 3 && (p[2] == 'B' || p[2] == '0'))
			return 3;
		problem(scan, at, "an unknown character set designation");
		return 2;
	case '7': case '8': case '=': case '>': case 'M': case 'D': case 'E':
		return 2;	/* save, restore, keypad modes, index moves */
	default:
		problem(scan, at, "an unknown escape sequence");
		return 2;
	}
}

/* A multi-byte character (or a bad byte) at data[at]; returns its
 * length. */
static size_t scan_utf8(struct scan *scan, size_t at)
{
	const char *p = (const char *) scan->data + at;
	gssize left = (gssize) (scan->size - at);
	gunichar c;

	if (scan->ascii) {
		problem(scan, at, "a byte that is not ASCII");
		return 1;
	}
	c = g_utf8_get_char_validated(p, MIN(left, 6));
	if (c == (gunichar) -1 || c == (gunichar) -2) {
		problem(scan, at, "invalid UTF-8");
		return 1;
	}
	if (c >= 0x80 && c <= 0x9f)
		problem(scan, at, "a C1 control in UTF-8");
	switch (g_unichar_type(c)) {
	case G_UNICODE_FORMAT:
	case G_UNICODE_LINE_SEPARATOR:
	case G_UNICODE_PARAGRAPH_SEPARATOR:
		problem(scan, at, "an invisible format character");
		break;
	default:
		break;
	}
	return (size_t) g_utf8_skip[*(const guchar *) p];
}

static void scan_all(struct scan *scan)
{
	size_t at = 0;

	while (at < scan->size) {
		unsigned c = scan->data[at];

		if (c == 0x1b) {
			at += scan_escape(scan, at);
		} else if (c >= 0x80) {
			at += scan_utf8(scan, at);
		} else if (c < 0x20 && c != '\n' && c != '\r' && c != '\b' &&
				c != '\t') {
			problem(scan, at, c == 0x07 ? "BEL" : "a C0 control");
			at++;
		} else if (c == 0x7f) {
			problem(scan, at, "DEL");
			at++;
		} else {
			at++;
		}
	}
}

int main(int argc, char **argv)
{
	struct scan scan = { 0 };
	gchar *contents;
	gsize size;
	GError *error = NULL;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--ascii")) {
			scan.ascii = true;
		} else if (!strcmp(argv[i], "--allow-osc52")) {
			scan.allow_osc52 = true;
		} else {
			fprintf(stderr, "term-scan: unknown option %s\n",
				argv[i]);
			return 2;
		}
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: term-scan [--ascii] [--allow-osc52] "
			"FILE\n");
		return 2;
	}
	if (!g_file_get_contents(argv[i], &contents, &size, &error)) {
		fprintf(stderr, "term-scan: %s\n", error->message);
		g_error_free(error);
		return 2;
	}
	scan.path = argv[i];
	scan.data = (const unsigned char *) contents;
	scan.size = size;
	scan_all(&scan);
	if (scan.problems > MAX_PROBLEMS)
		printf("%s: %u more problems\n", scan.path,
			scan.problems - MAX_PROBLEMS);
	g_free(contents);
	return scan.problems ? 1 : 0;
}
