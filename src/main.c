/* main.c - tracenav's command line. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "dump.h"
#include "tracenav/core.h"
#include "tracenav/trace.h"

static void print_usage(FILE *out)
{
	fprintf(out,
"Usage: tracenav --dump [OPTION...] PATH\n"
"       tracenav --info PATH\n"
"Explore a CTF trace (LTTng kernel or userspace, or any CTF trace that\n"
"libbabeltrace2 reads).  PATH is a trace directory or a directory of traces.\n"
"\n"
"Modes:\n"
"  -d, --dump          print the events as `babeltrace2 PATH` does\n"
"  -i, --info          print what the trace's metadata says\n"
"\n"
"Options of --dump:\n"
"  -b, --begin=TIME    start at TIME\n"
"  -e, --end=TIME      stop after TIME\n"
"  -n, --count=N       print at most N events\n"
"      --gmt           print and read times in UTC, not local time\n"
"TIME is HH:MM[:SS[.NS]] (on the trace's first day), YYYY-MM-DD [HH:MM[:SS[.NS]]]\n"
"or [-]SEC[.NS] (seconds from the clock origin, the Unix epoch for LTTng).\n"
"\n"
"Other options:\n"
"  -v, --verbose       let libbabeltrace2 log its warnings on stderr\n"
"  -h, --help          show this help\n"
"  -V, --version       show the version\n"
"\n"
"Exit status: 0 success, 1 the trace could not be read, 2 bad usage.\n");
}

enum mode { MODE_NONE, MODE_DUMP, MODE_INFO };

struct command_line {
	enum mode mode;
	struct dump_options dump;
	bool verbose;
	const char *path;
};

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "tracenav: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'tracenav --help' for more information.\n");
	return 2;
}

static int parse_count(const char *text, uint64_t *count)
{
	char *end;

	errno = 0;
	if (!*text || *text == '-')
		return -1;
	*count = strtoull(text, &end, 10);
	return errno || *end ? -1 : 0;
}

/* Returns -1 when the command line is fine, else the exit status. */
static int parse_command_line(int argc, char **argv, struct command_line *cl)
{
	enum { OPT_GMT = 256 };
	static const struct option options[] = {
		{ "dump", no_argument, NULL, 'd' },
		{ "info", no_argument, NULL, 'i' },
		{ "begin", required_argument, NULL, 'b' },
		{ "end", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'n' },
		{ "gmt", no_argument, NULL, OPT_GMT },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(cl, 0, sizeof(*cl));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":dib:e:n:vhV", options,
			NULL)) != -1) {
		switch (opt) {
		case 'd': cl->mode = MODE_DUMP; break;
		case 'i': cl->mode = MODE_INFO; break;
		case 'b': cl->dump.begin = optarg; break;
		case 'e': cl->dump.end = optarg; break;
		case 'n':
			if (parse_count(optarg, &cl->dump.count))
				return usage_error("--count wants a number of "
					"events, not '%s'", optarg);
			cl->dump.has_count = true;
			break;
		case OPT_GMT: cl->dump.gmt = true; break;
		case 'v': cl->verbose = true; break;
		case 'h': print_usage(stdout); return 0;
		case 'V': printf("tracenav %s\n", PACKAGE_VERSION); return 0;
		case ':':
			return usage_error("option '%s' needs an argument",
				argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'",
				argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("%s", "no trace given: tracenav --dump PATH");
	if (optind + 1 < argc)
		return usage_error("one trace path only (give a directory of "
			"traces to read several), not also '%s'",
			argv[optind + 1]);
	cl->path = argv[optind];
	if (cl->mode == MODE_NONE)
		return usage_error("%s", "the interactive view is not built "
			"yet: use --dump or --info");
	return -1;
}

int main(int argc, char **argv)
{
	struct command_line cl;
	struct tn_trace *trace;
	struct tn_error err;
	int status = parse_command_line(argc, argv, &cl);

	if (status >= 0)
		return status;
	tn_core_set_verbose(cl.verbose);
	if (tn_trace_open(cl.path, &trace, &err)) {
		fprintf(stderr, "tracenav: %s\n", err.message);
		return 1;
	}
	static char out_buffer[1 << 20];
	setvbuf(stdout, out_buffer, _IOFBF, sizeof(out_buffer));
	if (cl.mode == MODE_INFO)
		status = dump_info(trace, cl.dump.gmt);
	else
		status = dump_events(trace, &cl.dump);
	tn_trace_destroy(trace);
	tn_core_thread_cleanup();
	return status;
}
