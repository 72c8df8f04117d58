/* main.c - tracenav's command line. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "batch.h"
#include "commands.h"
#include "dump.h"
#include "finish.h"
#include "isolate.h"
#include "live-open.h"
#include "tty-text.h"
#include "tui/tui.h"
#include "tracenav/cache.h"
#include "tracenav/component.h"
#include "tracenav/core.h"
#include "tracenav/live.h"
#include "tracenav/merge.h"
#include "tracenav/runtime.h"
#include "tracenav/seq-rules.h"
#include "tracenav/symbols.h"
#include "tracenav/sync.h"
#include "tracenav/trace.h"

static void print_usage(FILE *out)
{
	fprintf(out,
"Usage: tracenav [--gmt] [--no-index] [--no-cache|--cache-dir=DIR] [--no-mouse]\n"
"                [--ascii] [--sync[=FILE]] [-F] [-v] PATH\n"
"       tracenav --batch=SCRIPT [--gmt] [--no-cache|--cache-dir=DIR]\n"
"                [--sync[=FILE]] [-v] PATH\n"
"       tracenav --batch-file=FILE [--keep-going] [--gmt] [-v] PATH\n"
"       tracenav --dump [--begin=TIME] [--end=TIME] [--count=N] [--sync[=FILE]]\n"
"                [--gmt] [-v] PATH\n"
"       tracenav --info [--gmt] [-v] PATH\n"
"       tracenav --dump [--count=N] [--gmt] net://HOST[:PORT][/host/TARGET/SESSION]\n"
"       tracenav [--batch=SCRIPT] [--live-dir=DIR] [OPTIONS] net://HOST[:PORT][/...]\n"
"       tracenav [MODE] --component=src.PLUGIN.CLASS [--params=PARAMS]\n"
"                [--plugin-path=DIR] [OPTIONS] [PATH]\n"
"       tracenav --help | --version\n"
"Explore a CTF trace (LTTng kernel or userspace, or any CTF trace that\n"
"libbabeltrace2 reads).  PATH is a trace directory or a directory of traces.\n"
"With a live URL, --dump lists the LTTng live sessions that the lttng-relayd\n"
"at HOST offers (its live port, 5344 by default), or prints one's events as\n"
"they arrive, until it is destroyed.  The event list opens a live session in\n"
"follow mode (a relay daemon's only session, or one picked from its list),\n"
"copying it as it records; --batch runs its script once the session ended.\n"
"\n"
"Modes (without one, a full-screen event list; press ? in it for help):\n"
"  -d, --dump          print the events as `babeltrace2 PATH` does\n"
"  -c, --batch=SCRIPT  run commands (as typed after ':' in the event list)\n"
"                      separated by ';', e.g. 'goto 50%%; print 10'\n"
"      --batch-file=FILE  the same with the commands of FILE, one a line (or\n"
"                      separated by ';'), run as they are read ('-': standard\n"
"                      input)\n"
"  -i, --info          print what the trace's metadata says\n"
"\n"
"Options of --dump:\n"
"  -b, --begin=TIME    start at TIME\n"
"  -e, --end=TIME      stop after TIME\n"
"  -n, --count=N       print at most N events\n"
"      --sync[=FILE]   several hosts on one time line: correct each host's\n"
"                      clock (computed from the TCP packets the hosts\n"
"                      exchanged, or read from FILE as the command\n"
"                      `sync save FILE` writes it) and print the events in\n"
"                      the order of the corrected times; in the event list\n"
"                      and --batch, start on the corrected clocks (sync on)\n"
"TIME is HH:MM[:SS[.NS]] (on the trace's first day), YYYY-MM-DD [HH:MM[:SS[.NS]]]\n"
"or [-]SEC[.NS] (seconds from the clock origin, the Unix epoch for LTTng).\n"
"\n"
"Options of every mode for other sources than CTF traces:\n"
"      --component=src.PLUGIN.CLASS  read with this libbabeltrace2 source\n"
"                      component class (src.text.dmesg: a dmesg log), PATH\n"
"                      given as its path parameter\n"
"      --params=PARAMS the component's parameters, as babeltrace2 takes them\n"
"                      (NAME=VALUE, ...)\n"
"      --plugin-path=DIR  look for libbabeltrace2 plugins in DIR too (shared\n"
"                      objects, Python bt_plugin_*.py files)\n"
"\n"
"Options of --batch and --batch-file:\n"
"      --keep-going    a command that fails does not stop the script: its\n"
"                      message goes to stderr, the next command runs, and the\n"
"                      exit status is 1 at the end\n"
"\n"
"Options of the event list:\n"
"  -F, --follow        start in follow mode (as less +F): the newest event of\n"
"                      a trace still being written stays in view, the list\n"
"                      reloads the trace when its files grow (F in the list;\n"
"                      on for a live session)\n"
"\n"
"Options of the event list and --batch:\n"
"      --live-dir=DIR  keep the copy of a live session in DIR (a new\n"
"                      directory; a trace any CTF reader reads) instead of a\n"
"                      private one removed at the end\n"
"      --no-index      do not build the checkpoint index in the background\n"
"                      (the event list only: --batch builds it when asked)\n"
"      --no-cache      neither read nor save the index in the cache\n"
"      --cache-dir=DIR keep the index in DIR (default: $XDG_CACHE_HOME/tracenav\n"
"                      or ~/.cache/tracenav)\n"
"      --no-mouse      leave the mouse to the terminal (its own selection and\n"
"                      copy work; M in the event list switches)\n"
"      --ascii         draw the sequence diagram pane in plain ASCII, without\n"
"                      line-drawing characters (the default outside a UTF-8\n"
"                      locale)\n"
"      --seq-rules=FILE  draw the sequence diagram with the rules of FILE too\n"
"                      (default: $XDG_CONFIG_HOME/tracenav/seq-rules or\n"
"                      ~/.config/tracenav/seq-rules when present; see the man\n"
"                      page, SEQUENCE DIAGRAM RULES)\n"
"      --no-seq-index  page the sequence diagram without the index of its\n"
"                      pages (no page pass: windows that grow before the\n"
"                      event; the same pages, slower where messages are\n"
"                      rare; to compare)\n"
"      --symbols=FILE  show the functions of call stacks by name, from FILE in\n"
"                      the output format of nm (nm PROGRAM > FILE)\n"
"\n"
"Options of every mode:\n"
"      --gmt           print and read times in UTC, not local time\n"
"      --bt-muxer      merge the streams with libbabeltrace2's muxer instead\n"
"                      of tracenav's own merge (same order, slower with many\n"
"                      streams; to compare)\n"
"  -v, --verbose       let libbabeltrace2 log its warnings on stderr\n"
"  -h, --help          show this help\n"
"  -V, --version       show the version\n"
"\n"
"Exit status: 0 success, 1 the trace could not be read, 2 bad usage (or no\n"
"terminal for the event list).\n");
}

enum mode { MODE_TUI, MODE_DUMP, MODE_INFO, MODE_BATCH };

struct command_line {
	enum mode mode;
	struct dump_options dump;
	struct batch_script script;
	bool no_index;
	bool no_cache;
	bool no_mouse;
	bool ascii;
	bool follow;		/* -F: start in follow mode */
	bool bt_muxer;
	const char *cache_dir;
	const char *seq_rules;
	bool no_seq_index;
	const char *symbols;
	const char *component;	/* --component: src.PLUGIN.CLASS */
	const char *params;
	bool verbose;
	const char *path;	/* NULL: a --component without one */
	const char *live_dir;	/* --live-dir */
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
	enum { OPT_GMT = 256, OPT_NO_INDEX, OPT_NO_CACHE, OPT_CACHE_DIR,
		OPT_NO_MOUSE, OPT_ASCII, OPT_BT_MUXER, OPT_SEQ_RULES,
		OPT_NO_SEQ_INDEX, OPT_SYMBOLS, OPT_BATCH_FILE, OPT_KEEP_GOING,
		OPT_COMPONENT, OPT_PARAMS, OPT_PLUGIN_PATH, OPT_SYNC,
		OPT_LIVE_DIR };
	static const struct option options[] = {
		{ "dump", no_argument, NULL, 'd' },
		{ "info", no_argument, NULL, 'i' },
		{ "batch", required_argument, NULL, 'c' },
		{ "batch-file", required_argument, NULL, OPT_BATCH_FILE },
		{ "keep-going", no_argument, NULL, OPT_KEEP_GOING },
		{ "begin", required_argument, NULL, 'b' },
		{ "end", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'n' },
		{ "gmt", no_argument, NULL, OPT_GMT },
		{ "no-index", no_argument, NULL, OPT_NO_INDEX },
		{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
		{ "cache-dir", required_argument, NULL, OPT_CACHE_DIR },
		{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
		{ "ascii", no_argument, NULL, OPT_ASCII },
		{ "follow", no_argument, NULL, 'F' },
		{ "bt-muxer", no_argument, NULL, OPT_BT_MUXER },
		{ "seq-rules", required_argument, NULL, OPT_SEQ_RULES },
		{ "no-seq-index", no_argument, NULL, OPT_NO_SEQ_INDEX },
		{ "symbols", required_argument, NULL, OPT_SYMBOLS },
		{ "component", required_argument, NULL, OPT_COMPONENT },
		{ "params", required_argument, NULL, OPT_PARAMS },
		{ "plugin-path", required_argument, NULL, OPT_PLUGIN_PATH },
		{ "sync", optional_argument, NULL, OPT_SYNC },
		{ "live-dir", required_argument, NULL, OPT_LIVE_DIR },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(cl, 0, sizeof(*cl));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":dic:b:e:n:FvhV", options,
			NULL)) != -1) {
		switch (opt) {
		case 'd': cl->mode = MODE_DUMP; break;
		case 'i': cl->mode = MODE_INFO; break;
		case 'c':
			cl->mode = MODE_BATCH;
			cl->script.text = optarg;
			break;
		case OPT_BATCH_FILE:
			cl->mode = MODE_BATCH;
			cl->script.file = optarg;
			break;
		case OPT_KEEP_GOING: cl->script.keep_going = true; break;
		case 'b': cl->dump.begin = optarg; break;
		case 'e': cl->dump.end = optarg; break;
		case 'n':
			if (parse_count(optarg, &cl->dump.count))
				return usage_error("--count wants a number of "
					"events, not '%s'", optarg);
			cl->dump.has_count = true;
			break;
		case OPT_GMT: cl->dump.gmt = true; break;
		case OPT_NO_INDEX: cl->no_index = true; break;
		case OPT_NO_CACHE: cl->no_cache = true; break;
		case OPT_CACHE_DIR: cl->cache_dir = optarg; break;
		case OPT_NO_MOUSE: cl->no_mouse = true; break;
		case OPT_ASCII: cl->ascii = true; break;
		case OPT_BT_MUXER: cl->bt_muxer = true; break;
		case OPT_SEQ_RULES: cl->seq_rules = optarg; break;
		case OPT_NO_SEQ_INDEX: cl->no_seq_index = true; break;
		case OPT_SYMBOLS: cl->symbols = optarg; break;
		case OPT_COMPONENT: cl->component = optarg; break;
		case OPT_SYNC: cl->dump.sync = optarg ? optarg : ""; break;
		case OPT_PARAMS: cl->params = optarg; break;
		case OPT_LIVE_DIR: cl->live_dir = optarg; break;
		case OPT_PLUGIN_PATH:
			tn_component_add_plugin_path(optarg);
			break;
		case 'F': cl->follow = true; break;
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
	if (cl->script.text && cl->script.file)
		return usage_error("%s", "--batch and --batch-file: one script "
			"only");
	if (cl->follow && cl->mode != MODE_TUI)
		return usage_error("%s", "--follow is for the event list (a "
			"live URL's --dump follows its session)");
	if (cl->params && !cl->component)
		return usage_error("%s", "--params are the parameters of "
			"--component=src.PLUGIN.CLASS: give it too");
	if (cl->component && optind >= argc)
		return -1;	/* the component's own parameters say what */
	if (optind >= argc)
		return usage_error("%s", "no trace given: tracenav PATH");
	if (optind + 1 < argc)
		return usage_error("one trace path only (give a directory of "
			"traces to read several), not also '%s'",
			argv[optind + 1]);
	cl->path = argv[optind];
	if (cl->live_dir && (!tn_live_is_url(cl->path) ||
			(cl->mode != MODE_TUI && cl->mode != MODE_BATCH)))
		return usage_error("%s", "--live-dir keeps the copy of a live "
			"session that the event list or --batch opens "
			"(tracenav --live-dir=DIR net://...)");
	return -1;
}

/* Interrupted outside the full-screen view (or its output pipe closed,
 * as `| head` does): remove the private files and the temporary files
 * of a write under way, then die of the signal as usual. */
static void on_fatal_signal(int signum)
{
	tn_runtime_cleanup();
	signal(signum, SIG_DFL);
	raise(signum);
}

static void clean_up_on_exit(void)
{
	struct sigaction action = { .sa_handler = on_fatal_signal };

	atexit(tn_runtime_cleanup);
	sigemptyset(&action.sa_mask);
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGHUP, &action, NULL);
	sigaction(SIGPIPE, &action, NULL);
	/* A file size limit (ulimit -f) then fails a write with EFBIG,
	 * said once as a full disk is, instead of killing the process
	 * (with the terminal left raw). */
	signal(SIGXFSZ, SIG_IGN);
}

/* The cache directory the command line asks for, or NULL for none. */
static char *cache_dir(const struct command_line *cl)
{
	if (cl->no_cache)
		return NULL;
	return cl->cache_dir ? g_strdup(cl->cache_dir) : tn_cache_default_dir();
}

/* The sequence diagram rules: those of --seq-rules, else the default
 * file when there is one.  Returns 0 with *out (NULL: none), or -1 with
 * err. */
static int load_seq_rules(const struct command_line *cl,
		struct tn_seq_rules **out, struct tn_error *err)
{
	char *path;
	int status = 0;

	*out = NULL;
	if (cl->seq_rules)
		return tn_seq_rules_load(cl->seq_rules, out, err);
	path = tn_seq_rules_default_path();
	if (g_file_test(path, G_FILE_TEST_EXISTS))
		status = tn_seq_rules_load(path, out, err);
	g_free(path);
	return status;
}

/* --sync=FILE outside --dump: the correction of FILE, applied to
 * trace before anything reads it.  Returns 0, or 1 with a message. */
static int apply_sync_file(const struct command_line *cl,
		struct tn_trace *trace)
{
	struct tn_sync *sync;
	struct tn_error err;

	if (!cl->dump.sync || !*cl->dump.sync)
		return 0;
	if (tn_sync_load_file(cl->dump.sync, &sync, &err)) {
		tn_tty_text_error("--sync: %s", err.message);
		return 1;
	}
	tn_trace_set_sync(trace, sync);
	tn_sync_destroy(sync);
	return 0;
}

/* --sync without FILE: the correction is computed by a first command
 * (in the event list, a job with progress and cancel). */
static const char *sync_first_command(const struct command_line *cl,
		const struct tn_trace *trace)
{
	return cl->dump.sync && !tn_trace_get_sync(trace) ? "sync on" : NULL;
}

/* The event list on trace, which it takes over (reload replaces it). */
static int run_tui(struct tn_trace *trace, const struct command_line *cl,
		struct tn_seq_rules *rules, const struct tn_symbols *symbols,
		struct tn_live_mirror *live, const char *live_name)
{
	struct tn_session session;
	struct tn_error err;
	int status;

	if (tn_session_init(&session, trace, cl->dump.gmt, &err)) {
		tn_tty_text_error("%s: %s", tn_trace_get_path(trace),
			err.message);
		tn_seq_rules_destroy(rules);
		tn_trace_destroy(trace);
		return 1;
	}
	session.owns_trace = true;
	session.indexing.cache_dir = cache_dir(cl);
	session.seq.rules = rules;
	session.seq.no_index = cl->no_seq_index;
	session.state.symbols = symbols;
	session.follow = cl->follow ? TN_FOLLOW_END : TN_FOLLOW_OFF;
	session.live = live;
	session.live_name = live_name;
	status = tn_tui_run(&session, !cl->no_index, !cl->no_mouse, cl->ascii,
		sync_first_command(cl, trace), &err);
	if (status < 0) {
		/* No terminal, or a TERM that terminfo does not know: usage
		 * errors (exit status 2); 1 is for traces that cannot be
		 * read. */
		tn_tty_text_error("%s", err.message);
		status = 2;
	}
	if (!tn_runtime_frees_at_exit()) {
		/* The cache on disk, then nothing more to do. */
		tn_index_service_wait_save(&session.indexing, NULL);
		finish_process(status);
	}
	tn_session_fini(&session);
	return status;
}

/* --follow: a trace whose session has just started may not read yet
 * (its metadata still empty, no whole packet): wait for it, saying why
 * once per cause, until it opens.  A path that is no directory fails
 * at once.  Returns 0 with *trace, or -1 with err. */
static int open_when_written(const char *path, struct tn_trace **trace,
		struct tn_error *err)
{
	char said[TN_ERROR_MAX] = "";

	while (tn_trace_open(path, trace, err)) {
		if (!g_file_test(path, G_FILE_TEST_IS_DIR))
			return -1;
		if (strcmp(said, err->message)) {
			tn_tty_text_error("waiting for %s to be written "
				"(Ctrl-C stops): %s", path, err->message);
			snprintf(said, sizeof(said), "%s", err->message);
		}
		g_usleep(G_USEC_PER_SEC);
	}
	return 0;
}

/* What the events are read from could not be opened: say why, free
 * what main() holds and end (the child exits, status 1). */
static int open_failed(const struct tn_error *err, struct tn_seq_rules *rules,
		struct tn_symbols *symbols, pid_t child)
{
	tn_tty_text_error("%s", err->message);
	tn_seq_rules_destroy(rules);
	tn_symbols_destroy(symbols);
	if (child == 0)
		exit(1);
	return 1;
}

int main(int argc, char **argv)
{
	struct command_line cl;
	struct tn_seq_rules *rules = NULL;
	struct tn_symbols *symbols = NULL;
	struct tn_trace *trace;
	struct tn_error err;
	char *converted = NULL;	/* --component's events as a CTF trace */
	struct tn_live_mirror *live = NULL;	/* a live session's copy */
	char *live_name = NULL;
	pid_t child;
	int status = parse_command_line(argc, argv, &cl);

	if (status >= 0)
		return status;
	if (cl.path && tn_live_is_url(cl.path) && cl.mode == MODE_INFO) {
		tn_tty_text_error("%s: --info reads trace directories; a live "
			"session opens in the event list (tracenav %s) or "
			"prints with --dump", cl.path, cl.path);
		return 2;
	}
	if (cl.dump.sync && (cl.mode == MODE_INFO || tn_live_is_url(cl.path) ||
			cl.component)) {
		tn_tty_text_error("--sync corrects the times of trace "
			"directories in the event list, --batch and --dump "
			"(not --info, live sessions or --component)");
		return 2;
	}
	/* Whether output goes to a terminal, before any thread starts. */
	tn_tty_text_setup();
	if ((cl.mode == MODE_TUI || cl.mode == MODE_BATCH) &&
	    load_seq_rules(&cl, &rules, &err)) {
		tn_tty_text_error("%s", err.message);
		return 2;
	}
	if ((cl.mode == MODE_TUI || cl.mode == MODE_BATCH) && cl.symbols &&
	    tn_symbols_load(cl.symbols, &symbols, &err)) {
		tn_tty_text_error("%s", err.message);
		tn_seq_rules_destroy(rules);
		return 2;
	}
	tn_core_set_verbose(cl.verbose);
	if (cl.bt_muxer)
		tn_merge_set_method(TN_MERGE_BT_MUXER);
	clean_up_on_exit();
	static char out_buffer[1 << 20];
	setvbuf(stdout, out_buffer, _IOFBF, sizeof(out_buffer));
	/* --dump and --batch open and read the trace in a child, which may
	 * die of libbabeltrace2's crash (isolate.h); the parent only waits
	 * (forked before the open, the child copies no parsed metadata as
	 * it writes its heap). */
	child = cl.mode == MODE_DUMP || cl.mode == MODE_BATCH ?
		isolate_fork() : -1;
	if (child > 0) {
		status = isolate_wait(child, cl.path ? cl.path : cl.component);
		if (!tn_runtime_frees_at_exit())
			finish_process(status);
		tn_seq_rules_destroy(rules);
		tn_symbols_destroy(symbols);
		tn_core_thread_cleanup();
		return status;
	}
	if (cl.component && cl.mode == MODE_DUMP) {
		status = dump_component(cl.component, cl.params, cl.path,
			&cl.dump);
		trace = NULL;
		goto end;
	}
	/* The rest reads CTF traces: the component's events written as
	 * one, privately (nothing of it to cache). */
	if (cl.component) {
		if (tn_component_convert(cl.component, cl.params, cl.path,
				&converted, &err))
			return open_failed(&err, rules, symbols, child);
		cl.path = converted;
		cl.no_cache = true;
	}
	if (tn_live_is_url(cl.path) && cl.mode == MODE_DUMP) {
		status = dump_live(cl.path, &cl.dump);
		trace = NULL;
		goto end;
	}
	if (tn_live_is_url(cl.path)) {
		/* Copied as it records, into a directory read as any. */
		switch (live_open(cl.path, cl.live_dir, cl.mode == MODE_TUI &&
				isatty(STDIN_FILENO), cl.mode == MODE_BATCH,
				&live, &live_name)) {
		case LIVE_OPEN_OK:
			break;
		case LIVE_OPEN_QUIT:
			status = 0;
			trace = NULL;
			goto end;
		case LIVE_OPEN_FAILED:
			status = 1;
			trace = NULL;
			goto end;
		}
		cl.path = tn_live_mirror_get_dir(live);
		cl.no_cache = true;
		cl.follow = cl.mode == MODE_TUI;
	}
	tn_trace_hold_range_queries(cl.mode == MODE_TUI);
	/* --info -v: through a reader, for libbabeltrace2's warnings. */
	if ((cl.follow ? open_when_written(cl.path, &trace, &err) :
	     cl.mode == MODE_INFO && !cl.verbose ?
			tn_trace_open_info(cl.path, &trace, &err) :
			tn_trace_open(cl.path, &trace, &err)))
		return open_failed(&err, rules, symbols, child);
	if (cl.mode != MODE_DUMP && apply_sync_file(&cl, trace)) {
		tn_seq_rules_destroy(rules);
		status = 1;
		goto end;
	}
	switch (cl.mode) {
	case MODE_INFO:
		status = dump_info(trace, cl.dump.gmt);
		break;
	case MODE_DUMP:
		status = dump_events(trace, &cl.dump);
		break;
	case MODE_BATCH:
		cl.script.first = sync_first_command(&cl, trace);
		status = batch_run(trace, &cl.script, cl.dump.gmt,
			cache_dir(&cl), rules, cl.no_seq_index, symbols);
		trace = NULL;	/* taken over */
		break;
	case MODE_TUI:
		status = run_tui(trace, &cl, rules, symbols, live, live_name);
		trace = NULL;
		break;
	}
end:
	if (!tn_runtime_frees_at_exit())
		finish_process(status);
	tn_live_mirror_destroy(live);
	g_free(live_name);
	tn_trace_destroy(trace);
	tn_symbols_destroy(symbols);
	tn_core_thread_cleanup();
	g_free(converted);
	if (child == 0)
		exit(status);
	return status;
}
