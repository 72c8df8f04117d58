/*
 * gen-trace: deterministic generator of LTTng-layout CTF 1.8 traces.
 *
 * Writes test traces for tracenav: a `metadata` file, one stream file
 * per CPU (`channel0_<cpu>`) made of fixed-size packets, and the LTTng
 * packet index (`index/channel0_<cpu>.idx`).  With --plan it also writes
 * the exact figures of what it generated, so that tests can check a
 * reader against known answers; with --state-plan, the state of its
 * simulated system (the thread on each CPU, what each thread does) at
 * a sample of events, for the state providers' tests.  With
 * --no-packet-times the packet context has no timestamp_begin/
 * timestamp_end (as DPDK traces have it) and no index is written; the
 * events keep their timestamps.
 *
 * How it works: one loop walks a single global time line.  Each step
 * picks a stream (a CPU of one trace) with a seeded PRNG, advances the
 * clock by a small gap (or not at all, to create equal timestamps on
 * different streams), and asks that stream's model for its next event:
 * a small simulated Linux kernel per trace (tasks, per-CPU state,
 * syscalls, interrupts) and/or a message exchange between lifelines.
 * Events are encoded little-endian straight into the stream's packet
 * buffer; a full packet gets its header and context filled in, is
 * padded with zeros and appended to the stream file.
 *
 * What the events hold is meant to be awkward for a reader now and then:
 * strings (file names, signals, task names, irq names) with UTF-8,
 * control characters, quotes, backslashes, and Unicode bidirectional
 * controls: an openat file name with U+202E RIGHT-TO-LEFT OVERRIDE, a
 * signal and an exec file with the isolates U+2066..U+2069: printed
 * raw, they make a terminal show the text around them reordered.  Among
 * the messages, about one event in 20 is an app:flush whose payload has
 * no field at all (an empty structure, as LTTng-UST's
 * lttng_ust_statedump:start has).
 *
 * Everything that must happen "later" (a syscall exit, an irq exit, the
 * receive of a sent message, the final switch of an exiting task and
 * then its sched_process_free, the next event of that CPU, when its
 * parent reaps it) is counted as "debt".  An event that opens a new
 * debt is only allowed when enough events remain to pay all debts, so
 * every opened thing is closed by the end of the trace.
 *
 * Only libc is used.  Output depends only on the options.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "splitmix64.h"

#define PROGRAM "gen-trace"

#define MAX_EVENTS 100000000ULL
#define STATE_SAMPLE_EVERY 997 /* --state-plan: every 997th event, and the last */
#define MAX_START 4000000000ULL
#define MAX_BUFFER_BYTES (1024ULL * 1024 * 1024) /* all packet buffers */

enum {
	MAX_CPUS = 64,
	MAX_HOSTS = 16,
	MAX_EXTRA_CLASSES = 100000,
	EXTRA_CLASS_FIRST_ID = 1000, /* past every recorded class's id */
	MAX_TRACES = 2 * MAX_HOSTS,
	MAX_HOSTNAME = 60,
	MIN_PACKET_SIZE = 4096,
	MAX_PACKET_SIZE = 16 * 1024 * 1024,
	COMM_LEN = 16,           /* Linux TASK_COMM_LEN, NUL included */
	MAX_EVENT_SIZE = 1024,   /* upper bound of one encoded event */
	PACKET_HEADER_SIZE = 32, /* magic, uuid, stream_id, stream_instance_id */
	PACKET_CONTEXT_SIZE = 52,
	PACKET_TIMES_SIZE = 16,  /* timestamp_begin, timestamp_end */
	INDEX_HEADER_SIZE = 16,
	INDEX_ENTRY_SIZE = 72,   /* 9 x uint64, CTF index 1.1 */
	INDEX_BATCH = 64,        /* index entries buffered per stream */
	MAX_TASKS = 24,
	MAX_PENDING = 16,        /* messages in flight per trace */
	MAX_NET_PENDING = 64,    /* --net: packets in flight */
	MAX_STEPS = 4,           /* --step-back */
	FIRST_EPHEMERAL_TID = 10000,
	PID_MAX = 4194304,
};

#define CTF_MAGIC 0xC1FC1FC1U
#define INDEX_MAGIC 0xC1F1DCC1U
#define AT_FDCWD_VALUE (-100)

/* Values of sched_switch.prev_state (see the enum in the metadata). */
#define TASK_RUNNING 0
#define TASK_INTERRUPTIBLE 1
#define TASK_UNINTERRUPTIBLE 2
#define TASK_DEAD 128
#define TASK_IDLE_UNLABELLED 1026 /* UNINTERRUPTIBLE | NOLOAD: no label */

/* ------------------------------------------------------------------ */
/* Options                                                            */

enum mix { MIX_KERNEL, MIX_MESSAGES, MIX_MIXED };
enum domain { DOMAIN_KERNEL, DOMAIN_UST, DOMAIN_BOTH };

struct options {
	uint64_t events;
	unsigned cpus;
	uint64_t packet_size;
	uint64_t seed;
	enum mix mix;
	bool mix_given;
	enum domain domain;
	uint64_t lost_every;
	uint64_t lost_packets_every;
	uint64_t ties; /* 1 event in ties shares the previous one's time */
	uint64_t hang_every; /* a sched_process_hang every N events (0: none) */
	bool hostile; /* strings made to drive a terminal (see --help) */
	unsigned hosts; /* --traces */
	unsigned net_hosts; /* --net: hosts that exchange packets (0: none) */
	bool step_back; /* --step-back: times that go back in the first stream */
	bool no_index;
	bool no_packet_times;
	bool packetized_metadata; /* LTTng's packets instead of plain text */
	unsigned extra_classes; /* declared event classes never recorded */
	unsigned tracer_version[3]; /* tracer_major, _minor, _patchlevel */
	const char *hostname;
	uint64_t start;
	const char *plan;
	const char *state_plan;
	bool force;
	const char *outdir;
};

/* ------------------------------------------------------------------ */
/* Event classes                                                      */

enum event_id {
	EV_SCHED_SWITCH,
	EV_SCHED_WAKEUP,
	EV_SCHED_PROCESS_FORK,
	EV_SCHED_PROCESS_EXEC,
	EV_SCHED_PROCESS_EXIT,
	EV_SYSCALL_ENTRY_OPENAT,
	EV_SYSCALL_EXIT_OPENAT,
	EV_SYSCALL_ENTRY_READ,
	EV_SYSCALL_EXIT_READ,
	EV_IRQ_HANDLER_ENTRY,
	EV_IRQ_HANDLER_EXIT,
	EV_APP_SEND,
	EV_APP_RECEIVE,
	EV_APP_FLUSH,
	/* Only with --hang-every: a rare kernel event, declared after the
	 * others so that the ids of the rest stay what they were. */
	EV_SCHED_PROCESS_HANG,
	/* A task reaped after its exit, as LTTng records it: declared
	 * after the one above for the same reason. */
	EV_SCHED_PROCESS_FREE,
	/* Only with --hostile: an event whose name, enum label and text
	 * carry terminal controls. */
	EV_HOSTILE,
	/* Only with --net: TCP packets sent and received, in the two
	 * flavours of LTTng kernel traces (lttng-modules' network header
	 * fields, the older addon module's payload). */
	EV_NET_DEV_QUEUE,
	EV_NETIF_RECEIVE_SKB,
	EV_INET_SOCK_LOCAL_OUT,
	EV_INET_SOCK_LOCAL_IN,
	EV_COUNT,
	FIRST_NET_EVENT = EV_NET_DEV_QUEUE,
	LAST_NET_EVENT = EV_INET_SOCK_LOCAL_IN,
	FIRST_MESSAGE_EVENT = EV_APP_SEND,
	LAST_MESSAGE_EVENT = EV_APP_FLUSH,
};

static const char *const event_names[EV_COUNT] = {
	[EV_SCHED_SWITCH] = "sched_switch",
	[EV_SCHED_WAKEUP] = "sched_wakeup",
	[EV_SCHED_PROCESS_FORK] = "sched_process_fork",
	[EV_SCHED_PROCESS_EXEC] = "sched_process_exec",
	[EV_SCHED_PROCESS_EXIT] = "sched_process_exit",
	[EV_SYSCALL_ENTRY_OPENAT] = "syscall_entry_openat",
	[EV_SYSCALL_EXIT_OPENAT] = "syscall_exit_openat",
	[EV_SYSCALL_ENTRY_READ] = "syscall_entry_read",
	[EV_SYSCALL_EXIT_READ] = "syscall_exit_read",
	[EV_IRQ_HANDLER_ENTRY] = "irq_handler_entry",
	[EV_IRQ_HANDLER_EXIT] = "irq_handler_exit",
	[EV_APP_SEND] = "app:send",
	[EV_APP_RECEIVE] = "app:receive",
	[EV_APP_FLUSH] = "app:flush",
	[EV_SCHED_PROCESS_HANG] = "sched_process_hang",
	[EV_SCHED_PROCESS_FREE] = "sched_process_free",
	/* Raw bytes in a TSDL string literal: an OSC that sets the window
	 * title, a C1 CSI (a device status report) as one raw byte, an
	 * override.  No quote, backslash or blank. */
	[EV_HOSTILE] = "tnx:evil\x1b]0;TNX-name\x07\x9b" "6n\xe2\x80\xae" "eman",
	[EV_NET_DEV_QUEUE] = "net_dev_queue",
	[EV_NETIF_RECEIVE_SKB] = "netif_receive_skb",
	[EV_INET_SOCK_LOCAL_OUT] = "inet_sock_local_out",
	[EV_INET_SOCK_LOCAL_IN] = "inet_sock_local_in",
};

/* A char[16] shown as a string, as LTTng declares comm fields. */
#define TSDL_COMM "integer { size = 8; align = 8; signed = 0; encoding = UTF8; base = 10; }"
#define TSDL_HEX64 "integer { size = 64; align = 8; signed = 0; base = 16; }"
#define TSDL_TASK_STATE                                                  \
	"enum : int64_t { \"TASK_RUNNING\" = 0, \"TASK_INTERRUPTIBLE\" = 1, " \
	"\"TASK_UNINTERRUPTIBLE\" = 2, \"__TASK_STOPPED\" = 4, "             \
	"\"__TASK_TRACED\" = 8, \"EXIT_DEAD\" = 16, \"EXIT_ZOMBIE\" = 32, "  \
	"\"TASK_PARKED\" = 64, \"TASK_DEAD\" = 128 }"
#define TSDL_MESSAGE \
	"\t\tstring sender;\n\t\tstring receiver;\n\t\tstring signal;\n\t\tuint64_t seq;\n"

/* A packet as lttng-modules (2.9 and later) records it: the IPv4 and
 * TCP headers under variants chosen by enums, in network byte order. */
#define TSDL_BE16 "integer { size = 16; align = 8; signed = 0; byte_order = be; base = 10; }"
#define TSDL_BE32 "integer { size = 32; align = 8; signed = 0; byte_order = be; base = 10; }"
#define TSDL_NET_DEV                                                           \
	"\t\t" TSDL_HEX64 " _skbaddr;\n"                                         \
	"\t\tuint32_t _len;\n"                                                   \
	"\t\tstring _name;\n"                                                    \
	"\t\tenum : uint8_t { \"_unknown\" = 0, \"_ipv4\" = 1, \"_ipv6\" = 2 } "    \
	"_network_header_type;\n"                                               \
	"\t\tvariant <_network_header_type> {\n"                                 \
	"\t\t\tstruct { } _unknown;\n"                                           \
	"\t\t\tstruct {\n"                                                       \
	"\t\t\t\tuint8_t _version;\n\t\t\t\tuint8_t _ihl;\n\t\t\t\tuint8_t _tos;\n"   \
	"\t\t\t\t" TSDL_BE16 " _tot_len;\n"                                      \
	"\t\t\t\t" TSDL_BE16 " _id;\n"                                           \
	"\t\t\t\t" TSDL_BE16 " _frag_off;\n"                                     \
	"\t\t\t\tuint8_t _ttl;\n\t\t\t\tuint8_t _protocol;\n"                     \
	"\t\t\t\t" TSDL_BE16 " _checksum;\n"                                     \
	"\t\t\t\tuint8_t _saddr[4];\n\t\t\t\tuint8_t _daddr[4];\n"                \
	"\t\t\t\tenum : uint8_t { \"_unknown\" = 0, \"_tcp\" = 1, \"_udp\" = 2, "  \
	"\"_icmp\" = 3 } _transport_header_type;\n"                              \
	"\t\t\t\tvariant <_transport_header_type> {\n"                           \
	"\t\t\t\t\tstruct { } _unknown;\n"                                       \
	"\t\t\t\t\tstruct {\n"                                                   \
	"\t\t\t\t\t\t" TSDL_BE16 " _source_port;\n"                               \
	"\t\t\t\t\t\t" TSDL_BE16 " _dest_port;\n"                                 \
	"\t\t\t\t\t\t" TSDL_BE32 " _seq;\n"                                       \
	"\t\t\t\t\t\t" TSDL_BE32 " _ack_seq;\n"                                   \
	"\t\t\t\t\t\tuint8_t _data_offset;\n"                                     \
	"\t\t\t\t\t\t" TSDL_BE16 " _flags;\n"                                     \
	"\t\t\t\t\t\t" TSDL_BE16 " _window_size;\n"                               \
	"\t\t\t\t\t\t" TSDL_BE16 " _checksum;\n"                                  \
	"\t\t\t\t\t\t" TSDL_BE16 " _urg_ptr;\n"                                   \
	"\t\t\t\t\t} _tcp;\n"                                                    \
	"\t\t\t\t\tstruct { } _udp;\n"                                           \
	"\t\t\t\t\tstruct { } _icmp;\n"                                          \
	"\t\t\t\t} _transport_header;\n"                                         \
	"\t\t\t} _ipv4;\n"                                                       \
	"\t\t\tstruct { } _ipv6;\n"                                              \
	"\t\t} _network_header;\n"
/* As the addon module's dynamic probes record it. */
#define TSDL_INET_SOCK                                                         \
	"\t\t" TSDL_HEX64 " sk;\n"                                               \
	"\t\tinteger { size = 32; align = 8; signed = 0; base = 16; } seq;\n"     \
	"\t\tinteger { size = 32; align = 8; signed = 0; base = 16; } ack_seq;\n" \
	"\t\tinteger { size = 16; align = 8; signed = 0; base = 16; } check;\n"   \
	"\t\tinteger { size = 16; align = 8; signed = 0; base = 16; } window;\n"  \
	"\t\tinteger { size = 16; align = 8; signed = 0; base = 16; } flags;\n"

/* The payload ("fields") of each event class, in TSDL. */
static const char *const event_fields_tsdl[EV_COUNT] = {
	[EV_SCHED_SWITCH] =
		"\t\t" TSDL_COMM " prev_comm[16];\n"
		"\t\tint32_t prev_tid;\n"
		"\t\tint32_t prev_prio;\n"
		"\t\t" TSDL_TASK_STATE " prev_state;\n"
		"\t\t" TSDL_COMM " next_comm[16];\n"
		"\t\tint32_t next_tid;\n"
		"\t\tint32_t next_prio;\n",
	[EV_SCHED_WAKEUP] =
		"\t\t" TSDL_COMM " comm[16];\n"
		"\t\tint32_t tid;\n"
		"\t\tint32_t prio;\n"
		"\t\tint32_t target_cpu;\n",
	[EV_SCHED_PROCESS_FORK] =
		"\t\t" TSDL_COMM " parent_comm[16];\n"
		"\t\tint32_t parent_tid;\n"
		"\t\tint32_t parent_pid;\n"
		"\t\t" TSDL_COMM " child_comm[16];\n"
		"\t\tint32_t child_tid;\n"
		"\t\tint32_t child_pid;\n",
	[EV_SCHED_PROCESS_EXEC] =
		"\t\tstring filename;\n"
		"\t\tint32_t tid;\n"
		"\t\tint32_t old_tid;\n",
	[EV_SCHED_PROCESS_EXIT] =
		"\t\t" TSDL_COMM " comm[16];\n"
		"\t\tint32_t tid;\n"
		"\t\tint32_t prio;\n",
	[EV_SYSCALL_ENTRY_OPENAT] =
		"\t\tint32_t dfd;\n"
		"\t\tstring filename;\n"
		"\t\tint32_t flags;\n"
		"\t\tuint16_t mode;\n",
	[EV_SYSCALL_EXIT_OPENAT] =
		"\t\tint64_t ret;\n",
	[EV_SYSCALL_ENTRY_READ] =
		"\t\tuint32_t fd;\n"
		"\t\t" TSDL_HEX64 " buf;\n"
		"\t\tuint64_t count;\n",
	[EV_SYSCALL_EXIT_READ] =
		"\t\tint64_t ret;\n"
		"\t\t" TSDL_HEX64 " buf;\n",
	[EV_IRQ_HANDLER_ENTRY] =
		"\t\tint32_t irq;\n"
		"\t\tstring name;\n",
	[EV_IRQ_HANDLER_EXIT] =
		"\t\tint32_t irq;\n"
		"\t\tint32_t ret;\n",
	[EV_APP_SEND] = TSDL_MESSAGE,
	[EV_APP_RECEIVE] = TSDL_MESSAGE,
	/* No field at all, as LTTng-UST's lttng_ust_statedump:start. */
	[EV_APP_FLUSH] = "",
	[EV_SCHED_PROCESS_HANG] =
		"\t\t" TSDL_COMM " comm[16];\n"
		"\t\tint32_t pid;\n",
	[EV_SCHED_PROCESS_FREE] =
		"\t\t" TSDL_COMM " comm[16];\n"
		"\t\tint32_t tid;\n"
		"\t\tint32_t prio;\n",
	[EV_HOSTILE] =
		"\t\tstring text;\n"
		"\t\tenum : uint8_t { \"plain\" = 0, "
		"\"lab\x1b[6n\x07\xc2\x9b" "c\xe2\x81\xa7" "el\" = 1 } kind;\n",
	[EV_NET_DEV_QUEUE] = TSDL_NET_DEV,
	[EV_NETIF_RECEIVE_SKB] = TSDL_NET_DEV,
	[EV_INET_SOCK_LOCAL_OUT] = TSDL_INET_SOCK,
	[EV_INET_SOCK_LOCAL_IN] = TSDL_INET_SOCK,
};

/* ------------------------------------------------------------------ */
/* Fixed data of the simulated systems                                */

struct task {
	int32_t tid;
	int32_t pid;
	int32_t prio; /* as LTTng shows it: kernel prio - 100 */
	char comm[COMM_LEN];
	int running_on; /* CPU, or -1 */
	bool alive;
	bool ephemeral; /* forked during the trace: may exec and exit */
	bool execed;
	/* For --state-plan: an event named the task already, and what it
	 * does while it runs nowhere ("wait_cpu" or "wait_blocked", as its
	 * last sched_switch or a wakeup left it). */
	bool seen;
	const char *waiting;
};

static const struct task stable_tasks[] = {
	{ .tid = 1, .pid = 1, .prio = 20, .comm = "systemd" },
	{ .tid = 2, .pid = 2, .prio = 20, .comm = "kthreadd" },
	{ .tid = 45, .pid = 45, .prio = 0, .comm = "kworker/0:1H" },
	{ .tid = 412, .pid = 412, .prio = 20, .comm = "sshd" },
	{ .tid = 1203, .pid = 1203, .prio = 20, .comm = "bash" },
	{ .tid = 1777, .pid = 1777, .prio = 20, .comm = "Xorg" },
	{ .tid = 2301, .pid = 2301, .prio = 20, .comm = "测试进程" },
	{ .tid = 2302, .pid = 2302, .prio = 39, .comm = "émacs" },
	{ .tid = 2400, .pid = 2400, .prio = 20, .comm = "python3" },
	{ .tid = 3000, .pid = 3000, .prio = 20, .comm = "chrome" },
	{ .tid = 3001, .pid = 3000, .prio = 20, .comm = "ThreadPoolForeg" },
	{ .tid = 3002, .pid = 3000, .prio = 20, .comm = "Chrome_IOThread" },
	{ .tid = 3500, .pid = 3500, .prio = -2, .comm = "rocket🚀" },
	{ .tid = 3600, .pid = 3600, .prio = 20, .comm = "back\\slash" },
};
#define N_STABLE_TASKS (sizeof(stable_tasks) / sizeof(stable_tasks[0]))

#define N_OF(array) (sizeof(array) / sizeof((array)[0]))

/* Bidirectional controls, in UTF-8 (escaped: invisible in the source).
 * An override reverses what follows it on a terminal; the isolates
 * (left-to-right, right-to-left, first strong, and their closing "pop")
 * reorder what they enclose. */
#define U_RLO "\xe2\x80\xae" /* U+202E RIGHT-TO-LEFT OVERRIDE */
#define U_LRI "\xe2\x81\xa6" /* U+2066 LEFT-TO-RIGHT ISOLATE */
#define U_RLI "\xe2\x81\xa7" /* U+2067 RIGHT-TO-LEFT ISOLATE */
#define U_FSI "\xe2\x81\xa8" /* U+2068 FIRST STRONG ISOLATE */
#define U_PDI "\xe2\x81\xa9" /* U+2069 POP DIRECTIONAL ISOLATE */

/*
 * String tables: the first `common` entries are used most of the time,
 * the rest (UTF-8, control characters, quotes, backslashes, Unicode
 * bidirectional controls) now and then.
 */
struct string_table {
	const char *const *strings;
	unsigned count;
	unsigned common;
};

static const char *const openat_files[] = {
	"/etc/ld.so.cache",
	"/usr/lib/x86_64-linux-gnu/libc.so.6",
	"/proc/self/status",
	"/dev/null",
	"/sys/fs/cgroup/cpu.max",
	"/home/用户/文档/报告.txt",
	"/srv/données/été.csv",
	"/tmp/😀emoji.log",
	"/tmp/line\nbreak",
	"/tmp/tab\there",
	"/tmp/quote\"name",
	"/tmp/back\\slash",
	"/tmp/esc\033[31mred",
	"/tmp/" U_RLO "exe.txt", /* a terminal shows "/tmp/txt.exe" */
};
static const struct string_table openat_table = { openat_files, N_OF(openat_files), 5 };

static const char *const exec_files[] = {
	"/usr/bin/ls",
	"/usr/bin/grep",
	"/usr/bin/make",
	"/opt/工具/转换器",
	"/usr/local/bin/räksmörgås",
	"/tmp/odd\tname",
	"/usr/bin/" U_RLI "run" U_PDI,
};
static const struct string_table exec_table = { exec_files, N_OF(exec_files), 3 };

struct irq_line {
	int32_t irq;
	const char *name;
};

static const struct irq_line irq_lines[] = {
	{ 0, "timer" },
	{ 25, "nvme0q1" },
	{ 30, "eth0-TxRx-0" },
	{ 1, "i8042" },
	{ 31, "i915" },
	{ 42, "snd_hda_intel:card0" },
	{ 51, "capteur-é" },
	{ 52, "传感器" },
};

struct lifeline {
	const char *name;
	int32_t pid;
};

static const struct lifeline lifelines[] = {
	{ "capteur-é", 4101 },
	{ "节点-2", 4102 },
	{ "node😀", 4103 },
	{ "gateway", 4104 },
	{ "ctl \"main\"", 4105 },
	{ "back\\end", 4106 },
};

static const char *const signals[] = {
	"ping", "pong", "data", "ack",
	"温度=21.5°C", "🚀 launch", "line\nbreak", "tab\there",
	"quote\"", "back\\slash", "esc\033[1mbold",
	U_LRI "ltr" U_PDI " " U_RLI "rtl" U_PDI " " U_FSI "auto" U_PDI,
};
static const struct string_table signal_table = { signals, N_OF(signals), 4 };

/*
 * --hostile: strings made to drive a terminal when printed raw, every
 * kind the tests look for: OSC (window title, hyperlink, clipboard),
 * DCS and CSI sequences whose answers come back as typed input, screen
 * clears and colours, BEL, C0 controls that move the cursor or switch
 * the character set, C1 controls both as UTF-8 (U+0080..U+009F) and as
 * raw bytes, invalid UTF-8 (bad bytes, overlong, surrogate, past
 * U+10FFFF, cut), bidirectional and invisible format characters.  Each
 * names what it is, so that a test finds it on the screen; "TNX" marks
 * the text inside the sequences.
 */
static const char *const hostile_strings[] = {
	"osc\x1b]0;TNX-title\x07",
	"osc8\x1b]8;;http://tnx.invalid/\x1b\\link\x1b]8;;\x1b\\",
	"osc52\x1b]52;c;VE5Y\x07",
	"dcs\x1bP+q544e\x1b\\",
	"csi\x1b[6n\x1b[21t\x1b[c",
	"clear\x1b[2J\x1b[H\x1b[31mred",
	"bel\x07\x07",
	"c0\b\r\v\f\x0e\x7f",
	"c1utf8\xc2\x9b" "6n\xc2\x9d" "0;TNX\xc2\x9c\xc2\x85",
	"c1raw\x9b" "6n\x9d" "0;TNX\x9c\x90",
	"bad\xff\xfe\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82",
	"bidi" U_RLO "exe.txt" U_LRI "x" U_PDI,
	"inv\xe2\x80\x8b\xef\xbb\xbf\xe2\x80\xa8\xc2\xad\xd8\x9c",
};
static const struct string_table hostile_table = {
	hostile_strings, N_OF(hostile_strings), N_OF(hostile_strings)
};

/* Programs whose names (15 bytes at most: a comm) are hostile. */
static const char *const hostile_exec_files[] = {
	"/usr/bin/e\x1b]0;TNX\x07",
	"/usr/bin/e\xc2\x9d" "1;TNX\xc2\x9c",
	"/usr/bin/" U_RLO "nur\x07",
	"/usr/bin/e\xfe\x1bP1$r",
	"/usr/bin/e\x9b" "6n\x1b[2J",
};
static const struct string_table hostile_exec_table = {
	hostile_exec_files, N_OF(hostile_exec_files), N_OF(hostile_exec_files)
};

/* The stable tasks whose comm --hostile replaces (by tid). */
static const struct {
	int32_t tid;
	const char *comm;
} hostile_comms[] = {
	{ 412, "s" U_RLO "dhs\x07" },
	{ 1777, "x\x1b]0;TNX\x07" },
	{ 2400, "py\x9b" "6n\xc2\x9b" "c" },
	{ 3000, "c\xff\x1b[6n" },
};

/* Lifelines (and UST procnames) of --hostile, as many as lifelines[]. */
static const char *const hostile_lifelines[] = {
	"cap\x1b]0;TNX\x07",
	"node\xc2\x9b" "6n",
	U_RLO "revres",
	"gw\xff\xfe",
	"bel\x07\x1b[2J",
	"plain",
};

/* Interrupt names of --hostile, as many as irq_lines[]. */
static const char *const hostile_irq_names[] = {
	"timer", "nvme\x1b]0;TNX\x07", "eth0\x9b" "6n", "i8042" U_RLO,
	"i915", "snd\x1bP1$r", "capteur-\xc2\x9d", "irq\xff",
};

/* The suffix --hostile puts after the hostname in the env block. */
#define HOSTILE_HOST_SUFFIX "\x1b]0;TNX-host\x07\x9b" "6n" U_RLO "x"

/* --hostile: one event in HOSTILE_EVERY (of kernel traces) is the
 * hostile event class, its text each hostile string in turn. */
#define HOSTILE_EVERY 23

/* ------------------------------------------------------------------ */
/* Deterministic PRNG (splitmix64)                                    */

struct rng {
	uint64_t state;
};

static uint64_t rng_next(struct rng *r)
{
	return splitmix64_next(&r->state);
}

/* Uniform in [0, n), n > 0. */
static uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * n) >> 32);
}

/* An independent generator for one purpose, so that e.g. lost-event
 * counts do not shift the event stream. */
static struct rng rng_derive(uint64_t seed, uint64_t purpose, uint64_t index)
{
	struct rng r = { seed };

	r.state = rng_next(&r) ^ (purpose << 40) ^ index;
	rng_next(&r);
	return r;
}

enum rng_purpose { RNG_EVENTS = 1, RNG_LOSSES, RNG_TRACE_UUID, RNG_CLOCK_UUID, RNG_NET_CLOCKS };

static const char *pick_string(struct rng *r, const struct string_table *t)
{
	if (rng_below(r, 8) != 0)
		return t->strings[rng_below(r, t->common)];
	return t->strings[rng_below(r, t->count)];
}

/* ------------------------------------------------------------------ */
/* Errors and small helpers                                           */

static void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROGRAM ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see --help)\n");
	exit(2);
}

static void die_io(const char *path) __attribute__((noreturn));
static void die_io(const char *path)
{
	fprintf(stderr, PROGRAM ": %s: %s\n", path, strerror(errno));
	exit(1);
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROGRAM ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count, size);

	if (!p)
		die("out of memory");
	return p;
}

/* Room for one more of *items (each size bytes), *count in use. */
static void grow(void *items, size_t *cap, size_t count, size_t size)
{
	void **p = items;

	if (count < *cap)
		return;
	*cap = *cap ? 2 * *cap : 64;
	*p = realloc(*p, *cap * size);
	if (!*p)
		die("out of memory");
}

static char *xsprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xsprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	return s;
}

/* Copies a string into a fixed buffer, cutting only at a UTF-8
 * character boundary so the result stays valid UTF-8. */
static void copy_utf8_truncated(char *dst, size_t dst_size, const char *src)
{
	size_t n = strlen(src);

	if (n >= dst_size) {
		n = dst_size - 1;
		while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
			n--;
	}
	memset(dst, 0, dst_size);
	memcpy(dst, src, n);
}

/* ------------------------------------------------------------------ */
/* Little-endian (trace) and big-endian (index) encoding               */

static inline uint8_t *put_u16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	return p + 2;
}

static inline uint8_t *put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
	return p + 4;
}

static inline uint8_t *put_u64(uint8_t *p, uint64_t v)
{
	put_u32(p, (uint32_t)v);
	put_u32(p + 4, (uint32_t)(v >> 32));
	return p + 8;
}

static inline uint8_t *put_i32(uint8_t *p, int32_t v)
{
	return put_u32(p, (uint32_t)v);
}

static inline uint8_t *put_i64(uint8_t *p, int64_t v)
{
	return put_u64(p, (uint64_t)v);
}

static inline uint8_t *put_string(uint8_t *p, const char *s)
{
	size_t n = strlen(s) + 1;

	memcpy(p, s, n);
	return p + n;
}

/* comm arrays are always COMM_LEN bytes, NUL-padded. */
static inline uint8_t *put_comm(uint8_t *p, const char comm[COMM_LEN])
{
	memcpy(p, comm, COMM_LEN);
	return p + COMM_LEN;
}

static uint8_t *put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
	return p + 4;
}

static uint8_t *put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	return put_be32(p + 4, (uint32_t)v);
}

/* ------------------------------------------------------------------ */
/* Files                                                              */

static void write_all(int fd, const char *path, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			die_io(path);
		}
		p += n;
		len -= (size_t)n;
	}
}

/*
 * Files are opened for each write rather than kept open, so that
 * thousands of streams never run into the open-file limit.  Writes are
 * whole packets, so the cost is small.
 */
static void write_file(const char *path, const void *data, size_t len, bool append)
{
	int flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC);
	int fd = open(path, flags, 0644);

	if (fd < 0)
		die_io(path);
	write_all(fd, path, data, len);
	if (close(fd) != 0)
		die_io(path);
}

static bool is_directory(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void make_directories(const char *path)
{
	char *copy = xsprintf("%s", path);

	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0755) != 0 && errno != EEXIST)
			die_io(copy);
		*p = '/';
	}
	if (mkdir(copy, 0755) != 0 && errno != EEXIST)
		die_io(copy);
	if (!is_directory(copy)) {
		errno = ENOTDIR;
		die_io(copy);
	}
	free(copy);
}

/* Directory entries except "." and "..", read before anything is
 * removed.  Returns the count; *names is a malloc'ed array. */
static size_t list_directory(const char *path, char ***names)
{
	DIR *dir = opendir(path);
	struct dirent *entry;
	size_t count = 0, capacity = 0;

	*names = NULL;
	if (!dir)
		die_io(path);
	while ((entry = readdir(dir))) {
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		if (count == capacity) {
			capacity = capacity ? 2 * capacity : 16;
			*names = realloc(*names, capacity * sizeof(**names));
			if (!*names)
				die("out of memory");
		}
		(*names)[count++] = xsprintf("%s", entry->d_name);
	}
	closedir(dir);
	return count;
}

static void free_names(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

/* "channel0_<digits>" followed by `suffix` (e.g. "" or ".idx"). */
static bool is_stream_file_name(const char *name, const char *suffix)
{
	const char *p = name + strlen("channel0_");

	if (strncmp(name, "channel0_", strlen("channel0_")) != 0 || !*p)
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return p != name + strlen("channel0_") && !strcmp(p, suffix);
}

static void remove_file(const char *dir, const char *name)
{
	char *path = xsprintf("%s/%s", dir, name);

	if (unlink(path) != 0)
		die_io(path);
	free(path);
}

/*
 * --force: delete what gen-trace writes (metadata, channel0_N,
 * index/channel0_N.idx) in `dir` and, down to `depth` levels, in its
 * subdirectories; remove directories that this leaves empty.  Other
 * files are kept.  Returns whether anything was removed.
 */
static bool remove_generated_files(const char *dir, int depth)
{
	char **names;
	size_t count = list_directory(dir, &names);
	bool removed = false;

	for (size_t i = 0; i < count; i++) {
		const char *name = names[i];
		char *path = xsprintf("%s/%s", dir, name);

		if (!is_directory(path)) {
			if (!strcmp(name, "metadata") || is_stream_file_name(name, "")) {
				remove_file(dir, name);
				removed = true;
			}
		} else if (!strcmp(name, "index") || depth > 0) {
			bool inner;

			if (!strcmp(name, "index")) {
				char **idx_names;
				size_t idx_count = list_directory(path, &idx_names);

				inner = false;
				for (size_t j = 0; j < idx_count; j++) {
					if (is_stream_file_name(idx_names[j], ".idx")) {
						remove_file(path, idx_names[j]);
						inner = true;
					}
				}
				free_names(idx_names, idx_count);
			} else {
				inner = remove_generated_files(path, depth - 1);
			}
			if (inner) {
				removed = true;
				rmdir(path); /* fails, harmlessly, if other files remain */
			}
		}
		free(path);
	}
	free_names(names, count);
	return removed;
}

/* ------------------------------------------------------------------ */
/* Traces, streams and the run                                        */

enum content { CONTENT_KERNEL = 1, CONTENT_MESSAGES = 2, CONTENT_BOTH = 3 };

enum cpu_mode { CPU_NORMAL, CPU_IN_OPENAT, CPU_IN_READ, CPU_EXITING };

/* What one simulated CPU is doing. */
struct cpu_state {
	int current; /* index in the trace's task table, -1 = idle */
	enum cpu_mode mode;
	bool in_irq;
	unsigned irq_line;
	uint64_t read_buf; /* arguments of the pending read */
	uint64_t read_count;
	char idle_comm[COMM_LEN]; /* "swapper/<cpu>" */
	bool switched; /* a sched_switch told who runs here */
	bool tied; /* its status is what the order of equal-time events makes it */
	/* A task that exited left this CPU for good: its parent reaps it,
	 * and the CPU's next event is the sched_process_free. */
	bool freeing;
	struct task freed;
};

struct trace;

struct stream {
	struct trace *trace;
	unsigned cpu;
	char *path;
	char *index_path; /* NULL with --no-index */
	char *file_name;

	uint8_t *packet; /* packet_size bytes */
	size_t used;     /* bytes of the current packet in use */
	bool packet_open;
	uint64_t ts_first, ts_last; /* of the current packet */
	uint64_t packet_events;     /* events in the current packet */
	uint64_t last_written;      /* the time of its last event */

	uint64_t packets_written;
	uint64_t next_seq_num;
	uint64_t discarded; /* LTTng's cumulative events_discarded */
	uint64_t file_offset;
	uint64_t events;
	struct rng loss_rng;

	uint8_t index_batch[INDEX_BATCH * INDEX_ENTRY_SIZE];
	unsigned index_batched;

	struct cpu_state cpu_state;
};

struct pending_message {
	uint64_t seq;
	uint64_t send_ts;
	unsigned sender, receiver;
	const char *signal;
};

struct trace {
	unsigned host;
	char clock_uuid_text[37]; /* --net: the host's own clock; else empty */
	/* --net: the host's own clock, reading now + offset + now x drift
	 * (drift in parts per 10^9) when the reference clock reads now;
	 * both 0 otherwise (one clock for all traces). */
	int64_t clock_offset;
	int64_t drift_ppb;
	char *dir;  /* relative to OUTDIR, "." for OUTDIR itself */
	char *path; /* OUTDIR/dir */
	char hostname[MAX_HOSTNAME + 8];
	bool ust;
	enum content content;
	uint8_t uuid[16];
	char uuid_text[37];
	struct stream *streams;

	/* kernel model */
	struct task tasks[MAX_TASKS];
	int32_t next_tid;

	/* message model */
	struct pending_message pending[MAX_PENDING]; /* oldest first */
	unsigned npending;
	uint64_t next_seq;
};

/* --net: a TCP packet in flight from one host to another. */
struct net_packet {
	uint32_t seq, ack_seq;
	uint16_t flags;
	unsigned from, to;
	uint64_t sent_at, deliver_at;	/* the reference clock's */
	uint64_t sent_stamp;		/* the sender's clock */
	bool retransmit;		/* sent again before it arrives */
	uint64_t retransmit_stamp;	/* the sender's clock, once sent again */
};

/* What the plan says of the packets (--net). */
struct net_counts {
	uint64_t sent, received, duplicates, unmatched;
	uint64_t pair[MAX_HOSTS][MAX_HOSTS]; /* received, by lower, higher host */
};

struct run {
	const struct options *opt;
	struct trace traces[MAX_TRACES];
	unsigned ntraces;
	struct stream **streams; /* all streams of all traces */
	unsigned nstreams;
	uint8_t clock_uuid[16]; /* one clock for all traces: one time line */
	char clock_uuid_text[37];

	struct rng rng;
	uint64_t now;  /* clock cycles (= ns) since the clock offset */
	uint64_t debt; /* events that must still happen (see top comment) */
	uint64_t remaining; /* events left to generate, this one included */

	/* what the plan reports */
	bool have_events;
	uint64_t first_ts, last_ts;
	const struct stream *last_stream;
	uint64_t event_counts[EV_COUNT];
	uint64_t ties;
	uint64_t orphan_receives;
	uint64_t discarded_events;
	uint64_t discarded_packets;
	uint64_t min_ts, max_ts; /* over the hosts' clocks (--net) */

	/* --step-back: the events of the first stream whose time went back */
	struct {
		uint64_t event; /* its number in its stream, from 0 */
		uint64_t ns, by;
	} steps[4];
	unsigned nsteps;

	/* --net */
	struct net_packet net_pending[MAX_NET_PENDING];
	unsigned net_npending;
	struct net_counts net;

	/* --state-plan */
	FILE *state_plan;
	struct trace *state_trace; /* the kernel trace it describes */
	bool sample_pending; /* a sample, once the time moves on */
	/* Readers deliver the events of equal time by CPU, not in the
	 * order they were generated: a thread that events on several CPUs
	 * at one time changed out of that order is "tied" (its status is
	 * what that order makes it) until its next sched_switch, and so
	 * is the status of a CPU it was switched in on, until the CPU's
	 * next switch, syscall or irq event. */
	struct touch *touches; /* of threads, since the time last moved */
	size_t ntouches, touches_cap;
	int32_t *tied;
	size_t ntied, tied_cap;
};

enum touch_kind { TOUCH_OTHER, TOUCH_SWITCH_OUT, TOUCH_SWITCH_IN };

struct touch {
	uint64_t ts;
	int32_t tid;
	unsigned cpu;
	enum touch_kind kind;
};

static void make_uuid(uint64_t seed, uint64_t purpose, uint64_t index,
		      uint8_t uuid[16], char text[37])
{
	struct rng r = rng_derive(seed, purpose, index);
	uint64_t hi = rng_next(&r), lo = rng_next(&r);

	for (int i = 0; i < 8; i++) {
		uuid[i] = (uint8_t)(hi >> (56 - 8 * i));
		uuid[8 + i] = (uint8_t)(lo >> (56 - 8 * i));
	}
	uuid[6] = (uint8_t)((uuid[6] & 0x0F) | 0x40); /* version 4 */
	uuid[8] = (uint8_t)((uuid[8] & 0x3F) | 0x80); /* RFC 4122 variant */
	sprintf(text, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7],
		uuid[8], uuid[9], uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);
}

static bool cpu_has_debt(const struct stream *s)
{
	return s->cpu_state.in_irq || s->cpu_state.mode != CPU_NORMAL || s->cpu_state.freeing;
}

static struct task *current_task(struct stream *s)
{
	int current = s->cpu_state.current;

	return current < 0 ? NULL : &s->trace->tasks[current];
}

/* ------------------------------------------------------------------ */
/* Packets and the index                                              */

static void flush_index_batch(struct stream *s)
{
	if (s->index_path && s->index_batched > 0)
		write_file(s->index_path, s->index_batch,
			   (size_t)s->index_batched * INDEX_ENTRY_SIZE, true);
	s->index_batched = 0;
}

static void add_index_entry(struct run *run, struct stream *s, uint64_t content_bits)
{
	uint8_t *p;

	if (!s->index_path)
		return;
	p = s->index_batch + (size_t)s->index_batched * INDEX_ENTRY_SIZE;
	p = put_be64(p, s->file_offset);
	p = put_be64(p, run->opt->packet_size * 8);
	p = put_be64(p, content_bits);
	p = put_be64(p, s->ts_first);
	p = put_be64(p, s->ts_last);
	p = put_be64(p, s->discarded);
	p = put_be64(p, 0); /* stream_id */
	p = put_be64(p, s->cpu); /* stream_instance_id */
	put_be64(p, s->next_seq_num);
	if (++s->index_batched == INDEX_BATCH)
		flush_index_batch(s);
}

/* Starts a packet; this is where lost events and packets are faked. */
static void start_packet(struct run *run, struct stream *s, uint64_t ts)
{
	uint64_t number = s->packets_written;
	const struct options *opt = run->opt;

	if (number > 0 && opt->lost_every && number % opt->lost_every == 0) {
		uint64_t lost = 1 + rng_below(&s->loss_rng, 1000);

		s->discarded += lost;
		run->discarded_events += lost;
	}
	if (number > 0 && opt->lost_packets_every && number % opt->lost_packets_every == 0) {
		s->next_seq_num++;
		run->discarded_packets++;
	}
	s->used = PACKET_HEADER_SIZE + PACKET_CONTEXT_SIZE;
	if (opt->no_packet_times)
		s->used -= PACKET_TIMES_SIZE;
	s->ts_first = ts;
	s->ts_last = ts;
	s->packet_events = 0;
	s->packet_open = true;
}

/* Fills in header and context, pads, and appends the packet to the file. */
static void finish_packet(struct run *run, struct stream *s)
{
	const struct trace *t = s->trace;
	uint64_t content_bits = (uint64_t)s->used * 8;
	uint8_t *p = s->packet;

	p = put_u32(p, CTF_MAGIC);
	memcpy(p, t->uuid, 16);
	p += 16;
	p = put_u32(p, 0);      /* stream_id */
	p = put_u64(p, s->cpu); /* stream_instance_id */
	if (!run->opt->no_packet_times) {
		p = put_u64(p, s->ts_first);
		p = put_u64(p, s->ts_last);
	}
	p = put_u64(p, content_bits);
	p = put_u64(p, run->opt->packet_size * 8);
	p = put_u64(p, s->next_seq_num);
	p = put_u64(p, s->discarded);
	put_u32(p, s->cpu);
	memset(s->packet + s->used, 0, run->opt->packet_size - s->used);

	write_file(s->path, s->packet, run->opt->packet_size, true);
	add_index_entry(run, s, content_bits);

	s->file_offset += run->opt->packet_size;
	s->packets_written++;
	s->next_seq_num++;
	s->packet_open = false;
}

/* The time of trace t's clock when the reference clock reads now. */
static uint64_t host_stamp(const struct trace *t, uint64_t now)
{
	__int128 drift = (__int128)now * t->drift_ppb;

	/* rounded to the nearest ns, halves away from zero */
	drift = (drift + (drift < 0 ? -500000000 : 500000000)) / 1000000000;
	return (uint64_t)((__int128)now + t->clock_offset + drift);
}

/* --step-back: the time of the first stream's event that goes back
 * (before the one before it in its stream, as on some virtual machines'
 * clocks), else ts: by 1 ns at the first event of its third packet, by
 * 2 us at the 11th event of its fifth, and twice in a row, at the 11th
 * and 12th of its seventh (each 2 us before the one before it).  Never
 * before its packet's beginning. */
static uint64_t step_back(struct run *run, struct stream *s, uint64_t ts)
{
	uint64_t packet = s->packets_written, at = s->packet_events, by = 0;

	if (!run->opt->step_back || s != run->streams[0] || s->events == 0)
		return ts;
	if (packet == 2 && at == 0)
		by = 1;
	else if ((packet == 4 && at == 10) || (packet == 6 && (at == 10 || at == 11)))
		by = 2000;
	if (!by)
		return ts;
	ts = s->last_written - by;
	if (at == 0)
		s->ts_first = ts;
	else if (ts < s->ts_first)
		ts = s->ts_first;
	if (run->nsteps < MAX_STEPS) {
		run->steps[run->nsteps].event = s->events;
		run->steps[run->nsteps].ns = ts;
		run->steps[run->nsteps++].by = s->last_written - ts;
	}
	return ts;
}

/* Appends one encoded event (timestamp run->now) to a stream. */
static void append_event(struct run *run, struct stream *s, enum event_id id,
			 const uint8_t *event, size_t len)
{
	uint64_t ts = host_stamp(s->trace, run->now);

	if (s->packet_open && s->used + len > run->opt->packet_size)
		finish_packet(run, s);
	if (!s->packet_open)
		start_packet(run, s, ts);
	memcpy(s->packet + s->used, event, len);
	ts = step_back(run, s, ts);
	put_u64(s->packet + s->used + 4, ts); /* after the event id */
	s->used += len;
	if (ts > s->ts_last)
		s->ts_last = ts;
	s->last_written = ts;
	s->packet_events++;
	s->events++;

	run->event_counts[id]++;
	if (!run->have_events || ts < run->min_ts)
		run->min_ts = ts;
	if (!run->have_events || ts > run->max_ts)
		run->max_ts = ts;
	if (!run->have_events) {
		run->have_events = true;
		run->first_ts = ts;
	} else if (ts == run->last_ts && s != run->last_stream) {
		run->ties++;
	}
	run->last_ts = ts;
	run->last_stream = s;
}

/* Writes the last packet of every stream; a stream that got no event
 * gets one empty packet stamped with the first event's time. */
static void finish_streams(struct run *run)
{
	for (unsigned i = 0; i < run->nstreams; i++) {
		struct stream *s = run->streams[i];

		if (!s->packet_open && s->packets_written == 0)
			start_packet(run, s, run->first_ts);
		if (s->packet_open)
			finish_packet(run, s);
		flush_index_batch(s);
	}
}

/* ------------------------------------------------------------------ */
/* Event encoding                                                     */

/* The ust event context: who emitted the event. */
struct event_context {
	int32_t vpid;
	int32_t vtid;
	const char *procname;
};

static uint8_t *begin_event(const struct stream *s, uint8_t *buf, enum event_id id,
			    uint64_t ts, const struct event_context *ctx)
{
	uint8_t *p = put_u32(buf, (uint32_t)id);

	p = put_u64(p, host_stamp(s->trace, ts));
	if (s->trace->ust) {
		p = put_i32(p, ctx->vpid);
		p = put_i32(p, ctx->vtid);
		p = put_string(p, ctx->procname);
	}
	return p;
}

static struct event_context kernel_context(struct stream *s)
{
	const struct task *task = current_task(s);
	struct event_context ctx = { 0, 0, s->cpu_state.idle_comm };

	if (task) {
		ctx.vpid = task->pid;
		ctx.vtid = task->tid;
		ctx.procname = task->comm;
	}
	return ctx;
}

/* Starts a kernel event emitted by the current task of the CPU. */
static uint8_t *begin_kernel_event(struct run *run, struct stream *s, uint8_t *buf,
				   enum event_id id)
{
	struct event_context ctx = kernel_context(s);

	return begin_event(s, buf, id, run->now, &ctx);
}

static void end_event(struct run *run, struct stream *s, enum event_id id,
		      const uint8_t *buf, const uint8_t *end)
{
	append_event(run, s, id, buf, (size_t)(end - buf));
}

/* ------------------------------------------------------------------ */
/* Kernel model                                                       */

static const char *task_comm(struct stream *s, const struct task *task)
{
	return task ? task->comm : s->cpu_state.idle_comm;
}

static int64_t pick_prev_state(struct run *run)
{
	unsigned roll = rng_below(&run->rng, 100);

	if (roll < 40)
		return TASK_RUNNING;
	if (roll < 85)
		return TASK_INTERRUPTIBLE;
	if (roll < 98)
		return TASK_UNINTERRUPTIBLE;
	return TASK_IDLE_UNLABELLED;
}

/* A task that is alive and runs nowhere, -1 for the idle task
 * (only if `allow_idle`), or -2 if there is no candidate. */
static int pick_runnable_task(struct run *run, struct trace *t, bool allow_idle)
{
	int candidates[MAX_TASKS + 1];
	unsigned count = 0;

	for (int i = 0; i < MAX_TASKS; i++)
		if (t->tasks[i].alive && t->tasks[i].running_on < 0)
			candidates[count++] = i;
	if (allow_idle)
		candidates[count++] = -1;
	if (count == 0)
		return -2;
	return candidates[rng_below(&run->rng, count)];
}

/* --state-plan: an event on s changed what thread tid does. */
static void note_touch(struct run *run, const struct stream *s, int32_t tid, enum touch_kind kind)
{
	if (!run->state_plan)
		return;
	grow(&run->touches, &run->touches_cap, run->ntouches, sizeof(*run->touches));
	run->touches[run->ntouches++] = (struct touch){ run->now, tid, s->cpu, kind };
}

/* --state-plan: a switch, syscall or irq event on s sets what its CPU
 * does, and what its current task does. */
static void note_cpu_event(struct run *run, struct stream *s)
{
	const struct task *task;

	if (!run->state_plan)
		return;
	s->cpu_state.tied = false;
	task = current_task(s);
	if (task)
		note_touch(run, s, task->tid, TOUCH_OTHER);
}

static void emit_wakeup(struct run *run, struct stream *s)
{
	struct trace *t = s->trace;
	int index = pick_runnable_task(run, t, false);
	uint8_t buf[MAX_EVENT_SIZE], *p;
	struct task *target;

	if (index < 0) /* everyone is running: wake a running task (a no-op wakeup) */
		index = (int)rng_below(&run->rng, N_STABLE_TASKS);
	target = &t->tasks[index];

	p = begin_kernel_event(run, s, buf, EV_SCHED_WAKEUP);
	p = put_comm(p, target->comm);
	p = put_i32(p, target->tid);
	p = put_i32(p, target->prio);
	p = put_i32(p, (int32_t)rng_below(&run->rng, run->opt->cpus));
	end_event(run, s, EV_SCHED_WAKEUP, buf, p);

	target->seen = true;
	if (target->running_on < 0)
		target->waiting = "wait_cpu";
	note_touch(run, s, target->tid, TOUCH_OTHER);
}

/* prev = the task running on this CPU; an exiting task leaves for good. */
static void emit_switch(struct run *run, struct stream *s)
{
	struct cpu_state *c = &s->cpu_state;
	struct trace *t = s->trace;
	struct task *prev = current_task(s);
	int next_index = pick_runnable_task(run, t, prev != NULL);
	const struct task *next;
	uint8_t buf[MAX_EVENT_SIZE], *p;
	int64_t prev_state;

	if (next_index == -2) { /* idle CPU and nothing to run */
		emit_wakeup(run, s);
		return;
	}
	next = next_index < 0 ? NULL : &t->tasks[next_index];
	if (c->mode == CPU_EXITING)
		prev_state = TASK_DEAD;
	else
		prev_state = prev ? pick_prev_state(run) : TASK_RUNNING;

	p = begin_kernel_event(run, s, buf, EV_SCHED_SWITCH);
	p = put_comm(p, task_comm(s, prev));
	p = put_i32(p, prev ? prev->tid : 0);
	p = put_i32(p, prev ? prev->prio : 20);
	p = put_i64(p, prev_state);
	p = put_comm(p, task_comm(s, next));
	p = put_i32(p, next ? next->tid : 0);
	p = put_i32(p, next ? next->prio : 20);
	end_event(run, s, EV_SCHED_SWITCH, buf, p);

	c->switched = true;
	c->tied = false;
	if (prev) {
		prev->running_on = -1;
		prev->seen = true;
		prev->waiting = prev_state == TASK_RUNNING ? "wait_cpu" : "wait_blocked";
		note_touch(run, s, prev->tid, TOUCH_SWITCH_OUT);
	}
	if (c->mode == CPU_EXITING) {
		prev->alive = false;
		c->mode = CPU_NORMAL;
		c->freeing = true;
		c->freed = *prev;
		run->debt--;
	}
	if (next_index >= 0) {
		t->tasks[next_index].running_on = (int)s->cpu;
		t->tasks[next_index].seen = true;
		note_touch(run, s, t->tasks[next_index].tid, TOUCH_SWITCH_IN);
	}
	c->current = next_index;
}

static void emit_fork(struct run *run, struct stream *s, int free_slot)
{
	struct trace *t = s->trace;
	const struct task *parent = current_task(s);
	struct task *child = &t->tasks[free_slot];
	uint8_t buf[MAX_EVENT_SIZE], *p;

	*child = *parent;
	child->tid = child->pid = t->next_tid;
	child->running_on = -1;
	child->ephemeral = true;
	child->execed = false;
	child->seen = true;
	child->waiting = "wait_cpu";
	note_touch(run, s, child->tid, TOUCH_OTHER);
	t->next_tid = t->next_tid + 1 < PID_MAX ? t->next_tid + 1 : FIRST_EPHEMERAL_TID;

	p = begin_kernel_event(run, s, buf, EV_SCHED_PROCESS_FORK);
	p = put_comm(p, parent->comm);
	p = put_i32(p, parent->tid);
	p = put_i32(p, parent->pid);
	p = put_comm(p, child->comm);
	p = put_i32(p, child->tid);
	p = put_i32(p, child->pid);
	end_event(run, s, EV_SCHED_PROCESS_FORK, buf, p);
}

static void emit_exec(struct run *run, struct stream *s)
{
	struct task *task = current_task(s);
	const char *filename = pick_string(&run->rng, run->opt->hostile ?
					   &hostile_exec_table : &exec_table);
	const char *base = strrchr(filename, '/');
	uint8_t buf[MAX_EVENT_SIZE], *p;

	p = begin_kernel_event(run, s, buf, EV_SCHED_PROCESS_EXEC);
	p = put_string(p, filename);
	p = put_i32(p, task->tid);
	p = put_i32(p, task->tid);
	end_event(run, s, EV_SCHED_PROCESS_EXEC, buf, p);

	/* the new comm shows from the next event on */
	copy_utf8_truncated(task->comm, COMM_LEN, base ? base + 1 : filename);
	task->execed = true;
}

static void emit_process_exit(struct run *run, struct stream *s)
{
	const struct task *task = current_task(s);
	uint8_t buf[MAX_EVENT_SIZE], *p;

	p = begin_kernel_event(run, s, buf, EV_SCHED_PROCESS_EXIT);
	p = put_comm(p, task->comm);
	p = put_i32(p, task->tid);
	p = put_i32(p, task->prio);
	end_event(run, s, EV_SCHED_PROCESS_EXIT, buf, p);

	s->cpu_state.mode = CPU_EXITING; /* owes the final sched_switch, */
	run->debt += 2;			 /* then the sched_process_free */
}

/* The parent reaps the task that exited on this CPU (its slot may hold
 * a new task already): the thread is gone. */
static void emit_process_free(struct run *run, struct stream *s)
{
	struct cpu_state *c = &s->cpu_state;
	uint8_t buf[MAX_EVENT_SIZE], *p;

	p = begin_kernel_event(run, s, buf, EV_SCHED_PROCESS_FREE);
	p = put_comm(p, c->freed.comm);
	p = put_i32(p, c->freed.tid);
	p = put_i32(p, c->freed.prio);
	end_event(run, s, EV_SCHED_PROCESS_FREE, buf, p);

	c->freeing = false;
	note_touch(run, s, c->freed.tid, TOUCH_OTHER);
	run->debt--;
}

/* --hostile: the hostile event class, its text each hostile string in
 * turn, its enum the hostile label every other time; without effect on
 * the model. */
static void emit_hostile(struct run *run, struct stream *s)
{
	uint8_t buf[MAX_EVENT_SIZE], *p;
	uint64_t k = run->event_counts[EV_HOSTILE];

	p = begin_kernel_event(run, s, buf, EV_HOSTILE);
	p = put_string(p, hostile_strings[k % N_OF(hostile_strings)]);
	*p++ = (uint8_t)(k & 1);
	end_event(run, s, EV_HOSTILE, buf, p);
}

/* The hung task detector reports a task (--hang-every): rare, and
 * without effect on the model. */
static void emit_process_hang(struct run *run, struct stream *s)
{
	const struct task *task = &s->trace->tasks[rng_below(&run->rng, N_STABLE_TASKS)];
	uint8_t buf[MAX_EVENT_SIZE], *p;

	p = begin_kernel_event(run, s, buf, EV_SCHED_PROCESS_HANG);
	p = put_comm(p, task->comm);
	p = put_i32(p, task->pid);
	end_event(run, s, EV_SCHED_PROCESS_HANG, buf, p);
}

static void emit_openat_entry(struct run *run, struct stream *s)
{
	bool create = rng_below(&run->rng, 4) == 0;
	uint8_t buf[MAX_EVENT_SIZE], *p;

	p = begin_kernel_event(run, s, buf, EV_SYSCALL_ENTRY_OPENAT);
	p = put_i32(p, rng_below(&run->rng, 5) ? AT_FDCWD_VALUE : 3 + (int32_t)rng_below(&run->rng, 8));
	p = put_string(p, pick_string(&run->rng, run->opt->hostile ?
				      &hostile_table : &openat_table));
	p = put_i32(p, create ? 0x241 /* O_WRONLY|O_CREAT|O_TRUNC */ : 0x80000 /* O_CLOEXEC */);
	p = put_u16(p, create ? 0644 : 0);
	end_event(run, s, EV_SYSCALL_ENTRY_OPENAT, buf, p);
	note_cpu_event(run, s);

	s->cpu_state.mode = CPU_IN_OPENAT;
	run->debt++;
}

static void emit_openat_exit(struct run *run, struct stream *s)
{
	unsigned roll = rng_below(&run->rng, 100);
	int64_t ret = roll < 80 ? 3 + (int64_t)rng_below(&run->rng, 40) : roll < 95 ? -2 : -13;
	uint8_t buf[MAX_EVENT_SIZE], *p;

	p = begin_kernel_event(run, s, buf, EV_SYSCALL_EXIT_OPENAT);
	p = put_i64(p, ret);
	end_event(run, s, EV_SYSCALL_EXIT_OPENAT, buf, p);
	note_cpu_event(run, s);

	s->cpu_state.mode = CPU_NORMAL;
	run->debt--;
}

static void emit_read_entry(struct run *run, struct stream *s)
{
	static const uint64_t counts[] = { 1, 832, 4096, 8192, 65536 };
	struct cpu_state *c = &s->cpu_state;
	uint8_t buf[MAX_EVENT_SIZE], *p;

	c->read_buf = 0x7ffc00000000ULL + ((uint64_t)rng_below(&run->rng, 1U << 28) << 4);
	c->read_count = counts[rng_below(&run->rng, N_OF(counts))];

	p = begin_kernel_event(run, s, buf, EV_SYSCALL_ENTRY_READ);
	p = put_u32(p, rng_below(&run->rng, 64));
	p = put_u64(p, c->read_buf);
	p = put_u64(p, c->read_count);
	end_event(run, s, EV_SYSCALL_ENTRY_READ, buf, p);
	note_cpu_event(run, s);

	c->mode = CPU_IN_READ;
	run->debt++;
}

static void emit_read_exit(struct run *run, struct stream *s)
{
	struct cpu_state *c = &s->cpu_state;
	unsigned roll = rng_below(&run->rng, 100);
	int64_t ret;
	uint8_t buf[MAX_EVENT_SIZE], *p;

	if (roll < 70)
		ret = (int64_t)c->read_count;
	else if (roll < 90)
		ret = (int64_t)rng_below(&run->rng, (uint32_t)c->read_count);
	else
		ret = -11; /* EAGAIN */

	p = begin_kernel_event(run, s, buf, EV_SYSCALL_EXIT_READ);
	p = put_i64(p, ret);
	p = put_u64(p, c->read_buf);
	end_event(run, s, EV_SYSCALL_EXIT_READ, buf, p);
	note_cpu_event(run, s);

	c->mode = CPU_NORMAL;
	run->debt--;
}

static void emit_irq_entry(struct run *run, struct stream *s)
{
	struct cpu_state *c = &s->cpu_state;
	uint8_t buf[MAX_EVENT_SIZE], *p;

	/* the first lines (timer, disk, network) fire most */
	c->irq_line = rng_below(&run->rng, 4) ? rng_below(&run->rng, 3) : rng_below(&run->rng, N_OF(irq_lines));

	p = begin_kernel_event(run, s, buf, EV_IRQ_HANDLER_ENTRY);
	p = put_i32(p, irq_lines[c->irq_line].irq);
	p = put_string(p, run->opt->hostile ? hostile_irq_names[c->irq_line] :
			  irq_lines[c->irq_line].name);
	end_event(run, s, EV_IRQ_HANDLER_ENTRY, buf, p);
	note_cpu_event(run, s);

	c->in_irq = true;
	run->debt++;
}

static void emit_irq_exit(struct run *run, struct stream *s)
{
	struct cpu_state *c = &s->cpu_state;
	uint8_t buf[MAX_EVENT_SIZE], *p;

	p = begin_kernel_event(run, s, buf, EV_IRQ_HANDLER_EXIT);
	p = put_i32(p, irq_lines[c->irq_line].irq);
	p = put_i32(p, rng_below(&run->rng, 10) ? 1 /* IRQ_HANDLED */ : 0 /* IRQ_NONE */);
	end_event(run, s, EV_IRQ_HANDLER_EXIT, buf, p);
	note_cpu_event(run, s);

	c->in_irq = false;
	run->debt--;
}

static int free_task_slot(const struct trace *t)
{
	for (int i = (int)N_STABLE_TASKS; i < MAX_TASKS; i++)
		if (!t->tasks[i].alive)
			return i;
	return -1;
}

/* A task runs on the CPU and is not inside a syscall or an irq. */
static void emit_task_event(struct run *run, struct stream *s, bool can_open)
{
	struct task *task = current_task(s);
	unsigned roll = rng_below(&run->rng, 100);
	int slot;

	if (task->ephemeral && roll < 10) {
		/* forked tasks live short lives: exec, then exit */
		if (!task->execed) {
			emit_exec(run, s);
			return;
		}
		/* the exit opens two debts: the switch, then the free */
		if (can_open && run->remaining >= run->debt + 3) {
			emit_process_exit(run, s);
			return;
		}
	}
	if (roll < 20)
		emit_switch(run, s);
	else if (roll < 33)
		emit_wakeup(run, s);
	else if (roll < 60 && can_open)
		emit_read_entry(run, s);
	else if (roll < 72 && can_open)
		emit_openat_entry(run, s);
	else if (roll < 86 && can_open)
		emit_irq_entry(run, s);
	else if (roll < 89 && (slot = free_task_slot(s->trace)) >= 0)
		emit_fork(run, s, slot);
	else if (roll & 1)
		emit_switch(run, s);
	else
		emit_wakeup(run, s);
}

/* The next kernel event of a CPU; opens no new debt unless can_open. */
static void kernel_event(struct run *run, struct stream *s, bool can_open)
{
	struct cpu_state *c = &s->cpu_state;
	unsigned roll;

	if (c->freeing) {
		emit_process_free(run, s);
		return;
	}
	if (c->in_irq) {
		emit_irq_exit(run, s);
		return;
	}
	switch (c->mode) {
	case CPU_EXITING:
		emit_switch(run, s);
		return;
	case CPU_IN_OPENAT:
	case CPU_IN_READ:
		if (can_open && rng_below(&run->rng, 8) == 0)
			emit_irq_entry(run, s);
		else if (c->mode == CPU_IN_OPENAT)
			emit_openat_exit(run, s);
		else
			emit_read_exit(run, s);
		return;
	case CPU_NORMAL:
		break;
	}
	if (current_task(s)) {
		emit_task_event(run, s, can_open);
		return;
	}
	roll = rng_below(&run->rng, 100); /* idle CPU */
	if (roll < 55)
		emit_switch(run, s);
	else if (roll < 85 && can_open)
		emit_irq_entry(run, s);
	else
		emit_wakeup(run, s);
}

/* ------------------------------------------------------------------ */
/* Message model                                                      */

static const char *lifeline_name(const struct run *run, unsigned i)
{
	return run->opt->hostile ? hostile_lifelines[i] : lifelines[i].name;
}

static void emit_message(struct run *run, struct stream *s, enum event_id id, uint64_t seq,
			 unsigned sender, unsigned receiver, const char *signal)
{
	/* a send is emitted by the sender, a receive by the receiver */
	unsigned self = id == EV_APP_SEND ? sender : receiver;
	struct event_context ctx = { lifelines[self].pid, lifelines[self].pid,
				     lifeline_name(run, self) };
	uint8_t buf[MAX_EVENT_SIZE], *p;

	p = begin_event(s, buf, id, run->now, &ctx);
	p = put_string(p, lifeline_name(run, sender));
	p = put_string(p, lifeline_name(run, receiver));
	p = put_string(p, signal);
	p = put_u64(p, seq);
	end_event(run, s, id, buf, p);
}

static void emit_send(struct run *run, struct stream *s)
{
	struct trace *t = s->trace;
	struct pending_message *m = &t->pending[t->npending++];

	m->seq = t->next_seq++;
	m->send_ts = run->now;
	m->sender = rng_below(&run->rng, N_OF(lifelines));
	m->receiver = (m->sender + 1 + rng_below(&run->rng, N_OF(lifelines) - 1)) % N_OF(lifelines);
	m->signal = pick_string(&run->rng, run->opt->hostile ? &hostile_table : &signal_table);
	emit_message(run, s, EV_APP_SEND, m->seq, m->sender, m->receiver, m->signal);
	run->debt++;
}

/* Receives a pending message: usually the oldest, sometimes another one,
 * so that messages cross.  A receive is always strictly later in time
 * than its send. */
static void emit_receive(struct run *run, struct stream *s)
{
	struct trace *t = s->trace;
	unsigned i = rng_below(&run->rng, 4) ? 0 : rng_below(&run->rng, t->npending);
	struct pending_message m;

	if (t->pending[i].send_ts >= run->now)
		i = 0;
	if (t->pending[0].send_ts >= run->now)
		run->now = t->pending[0].send_ts + 1;
	m = t->pending[i];
	memmove(&t->pending[i], &t->pending[i + 1], (t->npending - i - 1) * sizeof(m));
	t->npending--;
	emit_message(run, s, EV_APP_RECEIVE, m.seq, m.sender, m.receiver, m.signal);
	run->debt--;
}

/* Only when the event budget forces it: a receive whose send was never
 * traced (seq 0).  Happens at most once, at the very end. */
static void emit_orphan_receive(struct run *run, struct stream *s)
{
	unsigned sender = rng_below(&run->rng, N_OF(lifelines));
	unsigned receiver = (sender + 1) % N_OF(lifelines);

	emit_message(run, s, EV_APP_RECEIVE, 0, sender, receiver, "ping");
	run->orphan_receives++;
}

/* A lifeline flushes its buffers: an event with an empty payload (no
 * field at all), as LTTng-UST's lttng_ust_statedump:start has. */
static void emit_flush(struct run *run, struct stream *s)
{
	unsigned self = rng_below(&run->rng, N_OF(lifelines));
	struct event_context ctx = { lifelines[self].pid, lifelines[self].pid,
				     lifeline_name(run, self) };
	uint8_t buf[MAX_EVENT_SIZE], *p;

	p = begin_event(s, buf, EV_APP_FLUSH, run->now, &ctx);
	end_event(run, s, EV_APP_FLUSH, buf, p);
}

static void message_event(struct run *run, struct stream *s, bool can_open)
{
	struct trace *t = s->trace;
	bool receive;

	/* About one message event in 20 is a flush instead; it pays no
	 * debt, so only when another event could open one. */
	if (can_open && rng_below(&run->rng, 20) == 0) {
		emit_flush(run, s);
		return;
	}
	if (t->npending == 0)
		receive = false;
	else if (t->npending == MAX_PENDING || !can_open)
		receive = true;
	else
		receive = rng_below(&run->rng, 2);

	if (receive)
		emit_receive(run, s);
	else if (can_open)
		emit_send(run, s);
	else
		emit_orphan_receive(run, s);
}

/* ------------------------------------------------------------------ */
/* Network model (--net)                                              */

/* Hosts 0, 2, ... record packets as lttng-modules does (net_dev_queue,
 * netif_receive_skb), hosts 1, 3, ... with the addon module's probes:
 * both flavours meet in every exchange. */
static bool addon_flavour(unsigned host)
{
	return host % 2 == 1;
}

static uint8_t *put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
	return p + 2;
}

static void emit_packet_event(struct run *run, struct stream *s, const struct net_packet *pkt,
			      bool send)
{
	unsigned self = send ? pkt->from : pkt->to;
	enum event_id id = addon_flavour(self)
		? (send ? EV_INET_SOCK_LOCAL_OUT : EV_INET_SOCK_LOCAL_IN)
		: (send ? EV_NET_DEV_QUEUE : EV_NETIF_RECEIVE_SKB);
	uint8_t buf[MAX_EVENT_SIZE], *p = begin_kernel_event(run, s, buf, id);
	uint64_t sk = 0xffff888000000000ULL + ((uint64_t)self << 20) + (pkt->seq & 0xfff) * 64;

	if (addon_flavour(self)) {
		p = put_u64(p, sk);
		p = put_u32(p, pkt->seq);
		p = put_u32(p, pkt->ack_seq);
		p = put_u16(p, (uint16_t)(pkt->seq ^ pkt->ack_seq)); /* check */
		p = put_u16(p, 0x1f5);                                /* window */
		p = put_u16(p, pkt->flags);
	} else {
		p = put_u64(p, sk + 0x100);
		p = put_u32(p, 1500);
		p = put_string(p, "eth0");
		*p++ = 1; /* ipv4 */
		*p++ = 4;
		*p++ = 5;
		*p++ = 0;
		p = put_be16(p, 1500);
		p = put_be16(p, (uint16_t)pkt->seq);
		p = put_be16(p, 0x4000);
		*p++ = 64;
		*p++ = 6; /* TCP */
		p = put_be16(p, 0);
		for (int i = 0; i < 2; i++) {
			*p++ = 10;
			*p++ = 0;
			*p++ = 0;
			*p++ = (uint8_t)((i == 0 ? pkt->from : pkt->to) + 1);
		}
		*p++ = 1; /* tcp */
		p = put_be16(p, (uint16_t)(40000 + pkt->from));
		p = put_be16(p, 22);
		p = put_be32(p, pkt->seq);
		p = put_be32(p, pkt->ack_seq);
		*p++ = 5;
		p = put_be16(p, pkt->flags);
		p = put_be16(p, 501);
		p = put_be16(p, 0);
		p = put_be16(p, 0);
	}
	end_event(run, s, id, buf, p);
}

static struct stream *random_stream_of(struct run *run, unsigned host)
{
	return &run->traces[host].streams[rng_below(&run->rng, run->opt->cpus)];
}

/* Send a new packet between two of the first --net hosts: it arrives
 * 20 to 500 us later; about one in 30 is sent again at once (a
 * retransmission, with the same TCP header). */
static void net_send(struct run *run)
{
	struct net_packet *pkt = &run->net_pending[run->net_npending++];
	unsigned hosts = run->opt->net_hosts;

	memset(pkt, 0, sizeof(*pkt));
	pkt->from = rng_below(&run->rng, hosts);
	pkt->to = (pkt->from + 1 + rng_below(&run->rng, hosts - 1)) % hosts;
	pkt->seq = (uint32_t)rng_next(&run->rng);
	pkt->ack_seq = (uint32_t)rng_next(&run->rng);
	pkt->flags = rng_below(&run->rng, 8) ? 0x18 : 0x10; /* PSH|ACK, ACK */
	pkt->sent_at = run->now;
	pkt->deliver_at = run->now + 20000 + rng_below(&run->rng, 480000);
	pkt->sent_stamp = host_stamp(&run->traces[pkt->from], run->now);
	pkt->retransmit = rng_below(&run->rng, 30) == 0;
	emit_packet_event(run, random_stream_of(run, pkt->from), pkt, true);
	run->net.sent++;
}

/* The packet's arrival.  It matches its first send; its second send
 * (if any) is a duplicate key when a reader meets it before the
 * arrival, in the order of the hosts' clocks, else a send left alone. */
static void net_receive(struct run *run, unsigned i)
{
	struct net_packet pkt = run->net_pending[i];
	uint64_t stamp = host_stamp(&run->traces[pkt.to], run->now);

	/* A receipt at the very time of the second send on the other clock
	 * would be ordered by the merge's tie rules: a nanosecond later,
	 * the plan knows which comes first. */
	while (pkt.retransmit_stamp && stamp == pkt.retransmit_stamp)
		stamp = host_stamp(&run->traces[pkt.to], ++run->now);
	unsigned lo = pkt.from < pkt.to ? pkt.from : pkt.to;
	unsigned hi = pkt.from < pkt.to ? pkt.to : pkt.from;

	memmove(&run->net_pending[i], &run->net_pending[i + 1],
		(run->net_npending - i - 1) * sizeof(pkt));
	run->net_npending--;
	emit_packet_event(run, random_stream_of(run, pkt.to), &pkt, false);
	run->net.received++;
	run->net.pair[lo][hi]++;
	if (pkt.retransmit_stamp && pkt.retransmit_stamp < stamp)
		run->net.duplicates++;
	else if (pkt.retransmit_stamp)
		run->net.unmatched++;
}

/* One network event if one is due or chosen: a retransmission, an
 * arrival, or a new packet (about one event in 8).  Returns whether it
 * made one. */
static bool net_event(struct run *run)
{
	for (unsigned i = 0; i < run->net_npending; i++) {
		struct net_packet *pkt = &run->net_pending[i];

		if (pkt->retransmit && !pkt->retransmit_stamp) {
			pkt->retransmit_stamp = host_stamp(&run->traces[pkt->from], run->now);
			emit_packet_event(run, random_stream_of(run, pkt->from), pkt, true);
			run->net.sent++;
			return true;
		}
	}
	for (unsigned i = 0; i < run->net_npending; i++)
		if (run->net_pending[i].deliver_at <= run->now) {
			net_receive(run, i);
			return true;
		}
	if (run->net_npending < MAX_NET_PENDING && rng_below(&run->rng, 8) == 0) {
		net_send(run);
		return true;
	}
	return false;
}

/* Packets still in flight at the end: a send without an arrival (its
 * second send, if any, a duplicate key of it). */
static void net_finish(struct run *run)
{
	for (unsigned i = 0; i < run->net_npending; i++) {
		run->net.unmatched++;
		if (run->net_pending[i].retransmit_stamp)
			run->net.duplicates++;
	}
	run->net_npending = 0;
}

/* ------------------------------------------------------------------ */
/* The main loop                                                      */

/* A stream that can take an event without opening a debt: any kernel
 * stream, or one of a trace with a message to receive. */
static struct stream *stream_without_orphan(struct run *run)
{
	for (unsigned i = 0; i < run->nstreams; i++) {
		struct stream *s = run->streams[i];

		if ((s->trace->content & CONTENT_KERNEL) || s->trace->npending > 0)
			return s;
	}
	return NULL;
}

static void generate_event(struct run *run, struct stream *s, uint64_t remaining, bool closing)
{
	/* opening one more debt must leave enough events to pay all debts */
	bool can_open = remaining >= run->debt + 2;
	struct trace *t = s->trace;

	switch (t->content) {
	case CONTENT_KERNEL:
		kernel_event(run, s, can_open);
		break;
	case CONTENT_MESSAGES:
		if (t->npending == 0 && !can_open) {
			/* only an orphan receive would fit here: prefer
			 * another stream if one can take the event */
			struct stream *other = stream_without_orphan(run);

			if (other) {
				if (run->have_events && run->now == run->last_ts)
					run->now++; /* keep ties on distinct streams */
				generate_event(run, other, remaining, closing);
				break;
			}
		}
		message_event(run, s, can_open);
		break;
	case CONTENT_BOTH:
		/* no application event while the CPU is in a syscall or irq */
		if (cpu_has_debt(s))
			kernel_event(run, s, can_open);
		else if (closing || ((t->npending > 0 || can_open) && rng_below(&run->rng, 10) < 3))
			message_event(run, s, can_open);
		else
			kernel_event(run, s, can_open);
		break;
	}
}

/* ------------------------------------------------------------------ */
/* The state plan (--state-plan)                                      */

static uint64_t ns_from_origin(const struct run *run, uint64_t cycles);

/* What a CPU does, in the words of tracenav's kernel state provider;
 * "?" before a sched_switch on it said who runs there. */
static const char *cpu_status(const struct stream *s)
{
	const struct cpu_state *c = &s->cpu_state;

	if (c->in_irq)
		return "irq";
	if (!c->switched)
		return "?";
	if (c->current < 0)
		return "idle";
	if (c->mode == CPU_IN_OPENAT || c->mode == CPU_IN_READ)
		return "syscall";
	return "usermode";
}

static const char *task_status(const struct trace *t, const struct task *task)
{
	const struct cpu_state *c;

	if (task->running_on < 0)
		return task->waiting;
	c = &t->streams[task->running_on].cpu_state;
	if (c->in_irq)
		return "interrupted";
	if (c->mode == CPU_IN_OPENAT || c->mode == CPU_IN_READ)
		return "syscall";
	return "usermode"; /* also between sched_process_exit and the last switch */
}

static bool is_tied(const struct run *run, int32_t tid)
{
	for (size_t i = 0; i < run->ntied; i++)
		if (run->tied[i] == tid)
			return true;
	return false;
}

static void set_tied(struct run *run, int32_t tid, bool tied)
{
	for (size_t i = 0; i < run->ntied; i++) {
		if (run->tied[i] != tid)
			continue;
		if (!tied)
			run->tied[i] = run->tied[--run->ntied];
		return;
	}
	if (tied) {
		grow(&run->tied, &run->tied_cap, run->ntied, sizeof(*run->tied));
		run->tied[run->ntied++] = tid;
	}
}

/* The time moved on: a thread that events of one time changed from a
 * CPU after they did from a higher one is tied; one that a switch
 * changed, all in order, no longer is. */
static void settle_ties(struct run *run)
{
	for (size_t i = 0; i < run->ntouches; i++) {
		const struct touch *first = &run->touches[i];
		unsigned highest = first->cpu;
		bool done = false, out_of_order = false, switched = first->kind != TOUCH_OTHER;

		for (size_t j = 0; j < i && !done; j++)
			done = run->touches[j].ts == first->ts && run->touches[j].tid == first->tid;
		if (done)
			continue;
		for (size_t j = i + 1; j < run->ntouches; j++) {
			const struct touch *t = &run->touches[j];

			if (t->ts != first->ts || t->tid != first->tid)
				continue;
			out_of_order |= t->cpu < highest;
			highest = t->cpu > highest ? t->cpu : highest;
			switched |= t->kind != TOUCH_OTHER;
		}
		if (out_of_order || switched)
			set_tied(run, first->tid, out_of_order);
		/* a CPU that took the thread then: its status too */
		for (size_t j = i; out_of_order && j < run->ntouches; j++) {
			const struct touch *t = &run->touches[j];

			if (t->ts == first->ts && t->tid == first->tid && t->kind == TOUCH_SWITCH_IN)
				run->state_trace->streams[t->cpu].cpu_state.tied = true;
		}
	}
	run->ntouches = 0;
}

/* The state after every event so far: one line per CPU of the kernel
 * trace, one per live task that an event named already. */
static void write_state_sample(struct run *run)
{
	const struct trace *t = run->state_trace;
	uint64_t ns = ns_from_origin(run, run->last_ts), events = 0;

	/* every event so far is at or before ns, every later one after */
	for (int id = 0; id < EV_COUNT; id++)
		events += run->event_counts[id];
	fprintf(run->state_plan, "at %" PRIu64 " events %" PRIu64 "\n", ns, events);
	for (unsigned cpu = 0; cpu < run->opt->cpus; cpu++) {
		const struct stream *s = &t->streams[cpu];
		const struct task *task = s->cpu_state.current < 0 ? NULL
			: &t->tasks[s->cpu_state.current];

		if (!s->cpu_state.switched)
			fprintf(run->state_plan, "at %" PRIu64 " CPU %u current ? status %s\n", ns,
				cpu, cpu_status(s));
		else
			fprintf(run->state_plan, "at %" PRIu64 " CPU %u current %d status %s\n", ns,
				cpu, task ? task->tid : 0,
				s->cpu_state.tied ? "tied" : cpu_status(s));
	}
	for (int i = 0; i < MAX_TASKS; i++) {
		const struct task *task = &t->tasks[i];

		if (task->alive && task->seen)
			fprintf(run->state_plan, "at %" PRIu64 " thread %d status %s\n", ns,
				task->tid, is_tied(run, task->tid) ? "tied" : task_status(t, task));
	}
	/* and the dead that a reader may see alive */
	for (size_t i = 0; i < run->ntied; i++) {
		bool alive = false;

		for (int j = 0; j < MAX_TASKS && !alive; j++)
			alive = t->tasks[j].alive && t->tasks[j].tid == run->tied[i];
		if (!alive)
			fprintf(run->state_plan, "at %" PRIu64 " thread %d status tied\n", ns,
				run->tied[i]);
	}
	run->sample_pending = false;
}

/* Closing time: a CPU with a pending exit, else a CPU of a trace with a
 * message in flight. */
static struct stream *pick_stream_with_debt(struct run *run)
{
	for (unsigned i = 0; i < run->nstreams; i++)
		if (cpu_has_debt(run->streams[i]))
			return run->streams[i];
	for (unsigned i = 0; i < run->ntraces; i++) {
		struct trace *t = &run->traces[i];

		if (t->npending > 0)
			return &t->streams[rng_below(&run->rng, run->opt->cpus)];
	}
	die("internal error: debt without a debtor");
}

/* A few hundred ns to a few us, sometimes a quieter stretch. */
static uint64_t next_gap(struct rng *r)
{
	if (rng_below(r, 16) == 0)
		return 5000 + rng_below(r, 45000);
	return 200 + rng_below(r, 2800);
}

static void generate(struct run *run)
{
	uint64_t total = run->opt->events;

	for (uint64_t i = 0; i < total; i++) {
		uint64_t remaining = total - i;
		bool closing = run->debt >= remaining;
		struct stream *s;

		if (closing) {
			s = pick_stream_with_debt(run);
			run->now += next_gap(&run->rng);
		} else {
			unsigned index = rng_below(&run->rng, run->nstreams);
			/* about 1 event in 50 (--ties) shares the previous
			 * event's timestamp, on another stream */
			bool tie = run->have_events && run->nstreams > 1 &&
				   run->opt->ties > 0 &&
				   rng_below(&run->rng, run->opt->ties) == 0;

			s = run->streams[index];
			if (tie && s == run->last_stream)
				s = run->streams[(index + 1 + rng_below(&run->rng, run->nstreams - 1)) %
						 run->nstreams];
			if (!tie)
				run->now += next_gap(&run->rng);
		}
		run->remaining = remaining;
		/* a sample describes the state after every event of its time */
		if (run->state_plan && run->now != run->last_ts) {
			settle_ties(run);
			if (run->sample_pending)
				write_state_sample(run);
		}
		if (run->opt->net_hosts && !closing && net_event(run))
			; /* a packet sent or received instead */
		else if (run->opt->hang_every && !closing && (i + 1) % run->opt->hang_every == 0 &&
		    (s->trace->content & CONTENT_KERNEL))
			emit_process_hang(run, s);
		else if (run->opt->hostile && !closing && (i + 1) % HOSTILE_EVERY == 0 &&
			 (s->trace->content & CONTENT_KERNEL))
			emit_hostile(run, s);
		else
			generate_event(run, s, remaining, closing);
		if (run->state_plan && (i + 1) % STATE_SAMPLE_EVERY == 0)
			run->sample_pending = true;
	}
	if (run->state_plan && run->have_events) {
		settle_ties(run);
		write_state_sample(run);
	}
	net_finish(run);
}

/* ------------------------------------------------------------------ */
/* Metadata                                                           */

static void write_event_classes(FILE *f, enum content content, bool hang, bool hostile,
				bool net)
{
	for (int id = 0; id < EV_COUNT; id++) {
		bool is_message = id >= FIRST_MESSAGE_EVENT && id <= LAST_MESSAGE_EVENT;
		bool is_net = id >= FIRST_NET_EVENT && id <= LAST_NET_EVENT;

		if ((is_message && !(content & CONTENT_MESSAGES)) ||
		    (!is_message && !(content & CONTENT_KERNEL)) ||
		    (id == EV_SCHED_PROCESS_HANG && !hang) ||
		    (id == EV_HOSTILE && !hostile) || (is_net && !net))
			continue;
		fprintf(f,
			"event {\n"
			"\tname = \"%s\";\n"
			"\tid = %d;\n"
			"\tstream_id = 0;\n"
			"\tfields := struct {\n"
			"%s"
			"\t} align(8);\n"
			"};\n\n",
			event_names[id], id, event_fields_tsdl[id]);
	}
}

/* --extra-event-classes: classes declared and never recorded, each with
 * fields like those of an LTTng kernel probe (about 300 bytes a class,
 * as lttng-modules' 1,000 and more make a metadata of 300 KB). */
static void write_extra_event_classes(FILE *f, unsigned count)
{
	for (unsigned i = 0; i < count; i++)
		fprintf(f,
			"event {\n"
			"\tname = \"extra_probe_%u\";\n"
			"\tid = %u;\n"
			"\tstream_id = 0;\n"
			"\tfields := struct {\n"
			"\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 16; } _addr;\n"
			"\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _fd;\n"
			"\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 10; } _count;\n"
			"\t\tstring _name;\n"
			"\t} align(8);\n"
			"};\n\n",
			i, EXTRA_CLASS_FIRST_ID + i);
}

/* Rewrite the plain text metadata at path as LTTng writes it:
 * METADATA_PACKET_SIZE-byte packets, each a little-endian header (magic
 * 0x75D11D57, the trace UUID, checksum 0, content and packet sizes in
 * bits, no compression, encryption nor checksum, CTF 1.8) and up to
 * the rest of the packet of text, the last one padded with zeros. */
enum { METADATA_PACKET_SIZE = 4096, METADATA_HEADER_SIZE = 37 };

static void put_le32(uint8_t *p, uint32_t value)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(value >> (8 * i));
}

static void packetize_metadata(const char *path, const uint8_t uuid[16])
{
	const size_t room = METADATA_PACKET_SIZE - METADATA_HEADER_SIZE;
	FILE *f = fopen(path, "rb");
	uint8_t packet[METADATA_PACKET_SIZE];
	char *text = NULL;
	size_t len = 0, cap = 0, got;
	char buf[65536];

	if (!f)
		die_io(path);
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (len + got > cap) {
			cap = 2 * (len + got);
			text = realloc(text, cap);
			if (!text) {
				fprintf(stderr, "gen-trace: out of memory\n");
				exit(1);
			}
		}
		memcpy(text + len, buf, got);
		len += got;
	}
	if (ferror(f) || fclose(f) != 0 || !(f = fopen(path, "wb")))
		die_io(path);
	for (size_t done = 0; done < len; done += room) {
		size_t part = len - done < room ? len - done : room;

		memset(packet, 0, sizeof(packet));
		put_le32(packet, 0x75D11D57u);
		memcpy(packet + 4, uuid, 16);
		put_le32(packet + 24, (uint32_t)((METADATA_HEADER_SIZE + part) * 8));
		put_le32(packet + 28, METADATA_PACKET_SIZE * 8);
		packet[35] = 1;
		packet[36] = 8;
		memcpy(packet + METADATA_HEADER_SIZE, text + done, part);
		if (fwrite(packet, 1, sizeof(packet), f) != sizeof(packet))
			die_io(path);
	}
	if (fclose(f) != 0)
		die_io(path);
	free(text);
}

static void write_metadata(const struct run *run, const struct trace *t)
{
	const struct options *opt = run->opt;
	char *path = xsprintf("%s/metadata", t->path);
	FILE *f = fopen(path, "w");
	char datetime[32];
	time_t start = (time_t)opt->start;
	struct tm tm;

	if (!f)
		die_io(path);
	gmtime_r(&start, &tm);
	strftime(datetime, sizeof(datetime), "%Y%m%dT%H%M%S+0000", &tm);

	fprintf(f,
		"/* CTF 1.8 */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
		"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
		"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n\n"
		"trace {\n"
		"\tmajor = 1;\n"
		"\tminor = 8;\n"
		"\tuuid = \"%s\";\n"
		"\tbyte_order = le;\n"
		"\tpacket.header := struct {\n"
		"\t\tuint32_t magic;\n"
		"\t\tuint8_t  uuid[16];\n"
		"\t\tuint32_t stream_id;\n"
		"\t\tuint64_t stream_instance_id;\n"
		"\t} align(8);\n"
		"};\n\n",
		t->uuid_text);

	fprintf(f,
		"env {\n"
		"\thostname = \"%s%s\";\n"
		"\tdomain = \"%s\";\n"
		"\tsysname = \"Linux\";\n"
		"\tkernel_release = \"6.1.0-13-amd64\";\n"
		"\tkernel_version = \"#1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1 (2023-09-29)\";\n"
		"\ttracer_name = \"%s\";\n"
		"\ttracer_major = %u;\n"
		"\ttracer_minor = %u;\n"
		"\ttracer_patchlevel = %u;\n"
		"\ttrace_buffering_scheme = \"%s\";\n"
		"\tarchitecture_bit_width = 64;\n"
		"\ttrace_name = \"tracenav-gen\";\n"
		"\ttrace_creation_datetime = \"%s\";\n"
		"\tproduct_uri = \"tracenav gen-trace (seed %" PRIu64 ")\";\n"
		"};\n\n",
		t->hostname, opt->hostile ? HOSTILE_HOST_SUFFIX : "",
		t->ust ? "ust" : "kernel", t->ust ? "lttng-ust" : "lttng-modules",
		opt->tracer_version[0], opt->tracer_version[1], opt->tracer_version[2],
		t->ust ? "uid" : "global", datetime, opt->seed);

	fprintf(f,
		"clock {\n"
		"\tname = \"monotonic\";\n"
		"\tuuid = \"%s\";\n"
		"\tdescription = \"Monotonic Clock\";\n"
		"\tfreq = 1000000000; /* Frequency, in Hz */\n"
		"\tprecision = 1;\n"
		"\t/* clock value offset from Epoch is: offset_s + offset * (1/freq) */\n"
		"\toffset_s = %" PRIu64 ";\n"
		"\toffset = 0;\n"
		"\tabsolute = FALSE;\n"
		"};\n\n"
		"typealias integer {\n"
		"\tsize = 64; align = 8; signed = false;\n"
		"\tmap = clock.monotonic.value;\n"
		"} := uint64_clock_monotonic_t;\n\n",
		t->clock_uuid_text[0] ? t->clock_uuid_text : run->clock_uuid_text, opt->start);

	fprintf(f,
		"stream {\n"
		"\tid = 0;\n"
		"\tevent.header := struct {\n"
		"\t\tuint32_t id;\n"
		"\t\tuint64_clock_monotonic_t timestamp;\n"
		"\t} align(8);\n"
		"\tpacket.context := struct {\n"
		"%s"
		"\t\tuint64_t content_size;\n"
		"\t\tuint64_t packet_size;\n"
		"\t\tuint64_t packet_seq_num;\n"
		"\t\tunsigned long events_discarded;\n"
		"\t\tuint32_t cpu_id;\n"
		"\t} align(8);\n",
		opt->no_packet_times ? "" :
		"\t\tuint64_clock_monotonic_t timestamp_begin;\n"
		"\t\tuint64_clock_monotonic_t timestamp_end;\n");
	if (t->ust)
		fprintf(f,
			"\tevent.context := struct {\n"
			"\t\tint32_t vpid;\n"
			"\t\tint32_t vtid;\n"
			"\t\tstring procname;\n"
			"\t} align(8);\n");
	fprintf(f, "};\n\n");

	write_event_classes(f, t->content, opt->hang_every > 0, opt->hostile,
			    opt->net_hosts > 0);
	write_extra_event_classes(f, opt->extra_classes);

	if (ferror(f) || fclose(f) != 0)
		die_io(path);
	if (opt->packetized_metadata)
		packetize_metadata(path, t->uuid);
	free(path);
}

/* ------------------------------------------------------------------ */
/* Setting up                                                         */

static void init_trace(struct run *run, struct trace *t, unsigned number, unsigned host,
		       bool ust, enum content content)
{
	const struct options *opt = run->opt;
	bool both = opt->domain == DOMAIN_BOTH;
	const char *domain_dir = ust ? "ust" : "kernel";

	if (opt->hosts > 1)
		snprintf(t->hostname, sizeof(t->hostname), "%s%u", opt->hostname, host);
	else
		snprintf(t->hostname, sizeof(t->hostname), "%s", opt->hostname);
	if (opt->hosts > 1)
		t->dir = both ? xsprintf("%s/%s", t->hostname, domain_dir) : xsprintf("%s", t->hostname);
	else
		t->dir = xsprintf("%s", both ? domain_dir : ".");
	t->path = strcmp(t->dir, ".") ? xsprintf("%s/%s", opt->outdir, t->dir) : xsprintf("%s", opt->outdir);
	t->ust = ust;
	t->content = content;
	t->host = host;
	make_uuid(opt->seed, RNG_TRACE_UUID, number, t->uuid, t->uuid_text);
	if (opt->net_hosts) {
		/* Each host its clock: up to 0.8 s ahead of the reference
		 * one, and +-50 ppm fast or slow. */
		struct rng r = rng_derive(opt->seed, RNG_NET_CLOCKS, host);
		uint8_t clock_uuid[16];

		t->clock_offset = rng_below(&r, 800000000);
		t->drift_ppb = (int64_t)rng_below(&r, 100001) - 50000;
		make_uuid(opt->seed, RNG_CLOCK_UUID, 1 + host, clock_uuid, t->clock_uuid_text);
	}

	memset(t->tasks, 0, sizeof(t->tasks));
	for (unsigned i = 0; i < N_STABLE_TASKS; i++) {
		t->tasks[i] = stable_tasks[i];
		t->tasks[i].running_on = -1;
		t->tasks[i].alive = true;
		for (unsigned h = 0; opt->hostile && h < N_OF(hostile_comms); h++)
			if (hostile_comms[h].tid == t->tasks[i].tid)
				copy_utf8_truncated(t->tasks[i].comm, COMM_LEN,
						    hostile_comms[h].comm);
	}
	t->next_tid = FIRST_EPHEMERAL_TID;
	t->next_seq = 1;
}

static void init_stream(struct run *run, struct trace *t, struct stream *s, unsigned cpu)
{
	uint8_t header[INDEX_HEADER_SIZE], *p = header;

	s->trace = t;
	s->cpu = cpu;
	s->file_name = xsprintf("channel0_%u", cpu);
	s->path = xsprintf("%s/%s", t->path, s->file_name);
	s->packet = malloc(run->opt->packet_size);
	if (!s->packet)
		die("out of memory");
	s->loss_rng = rng_derive(run->opt->seed, RNG_LOSSES, run->nstreams);
	s->cpu_state.current = -1;
	snprintf(s->cpu_state.idle_comm, COMM_LEN, "swapper/%u", cpu % MAX_CPUS);

	write_file(s->path, "", 0, false); /* create or truncate */
	if (!run->opt->no_index) {
		s->index_path = xsprintf("%s/index/%s.idx", t->path, s->file_name);
		p = put_be32(p, INDEX_MAGIC);
		p = put_be32(p, 1);                /* index_major */
		p = put_be32(p, 1);                /* index_minor */
		put_be32(p, INDEX_ENTRY_SIZE);     /* packet_index_len */
		write_file(s->index_path, header, sizeof(header), false);
	}
}

static enum content content_of_mix(enum mix mix)
{
	return mix == MIX_KERNEL ? CONTENT_KERNEL : mix == MIX_MESSAGES ? CONTENT_MESSAGES : CONTENT_BOTH;
}

static void setup_run(struct run *run, const struct options *opt)
{
	unsigned domains = opt->domain == DOMAIN_BOTH ? 2 : 1;

	memset(run, 0, sizeof(*run));
	run->opt = opt;
	run->rng = rng_derive(opt->seed, RNG_EVENTS, 0);
	make_uuid(opt->seed, RNG_CLOCK_UUID, 0, run->clock_uuid, run->clock_uuid_text);
	run->streams = xcalloc((size_t)opt->hosts * domains * opt->cpus, sizeof(*run->streams));

	for (unsigned host = 0; host < opt->hosts; host++) {
		for (unsigned d = 0; d < domains; d++) {
			struct trace *t = &run->traces[run->ntraces];
			bool ust = opt->domain == DOMAIN_UST || (opt->domain == DOMAIN_BOTH && d == 1);
			enum content content = opt->domain == DOMAIN_BOTH
				? (ust ? CONTENT_MESSAGES : CONTENT_KERNEL)
				: content_of_mix(opt->mix);

			init_trace(run, t, run->ntraces, host, ust, content);
			run->ntraces++;
			make_directories(t->path);
			if (!opt->no_index) {
				char *index_dir = xsprintf("%s/index", t->path);

				make_directories(index_dir);
				free(index_dir);
			}
			write_metadata(run, t);
			t->streams = xcalloc(opt->cpus, sizeof(*t->streams));
			for (unsigned cpu = 0; cpu < opt->cpus; cpu++) {
				init_stream(run, t, &t->streams[cpu], cpu);
				run->streams[run->nstreams++] = &t->streams[cpu];
			}
		}
	}
}

static void free_run(struct run *run)
{
	for (unsigned i = 0; i < run->ntraces; i++) {
		struct trace *t = &run->traces[i];

		for (unsigned cpu = 0; cpu < run->opt->cpus; cpu++) {
			struct stream *s = &t->streams[cpu];

			free(s->packet);
			free(s->path);
			free(s->index_path);
			free(s->file_name);
		}
		free(t->streams);
		free(t->dir);
		free(t->path);
	}
	free(run->streams);
	free(run->touches);
	free(run->tied);
}

/* ------------------------------------------------------------------ */
/* The plan                                                           */

static int compare_event_names(const void *a, const void *b)
{
	return strcmp(event_names[*(const int *)a], event_names[*(const int *)b]);
}

static uint64_t ns_from_origin(const struct run *run, uint64_t cycles)
{
	return run->opt->start * 1000000000ULL + cycles;
}

/* --net: the packets, and each host's true clock correction to host
 * 0's: T_0 = slope x T_host + offset, in ns from the epoch. */
static void write_net_plan(const struct run *run, FILE *f)
{
	const struct trace *ref = &run->traces[0];
	long double epoch = (long double)run->opt->start * 1e9L;

	fprintf(f, "net_sent %" PRIu64 "\n", run->net.sent);
	fprintf(f, "net_matched %" PRIu64 "\n", run->net.received);
	fprintf(f, "net_duplicates %" PRIu64 "\n", run->net.duplicates);
	fprintf(f, "net_unmatched %" PRIu64 "\n", run->net.unmatched);
	for (unsigned i = 0; i < run->opt->hosts; i++)
		for (unsigned j = i + 1; j < run->opt->hosts; j++)
			fprintf(f, "net_pair %s %s %" PRIu64 "\n", run->traces[i].hostname,
				run->traces[j].hostname, run->net.pair[i][j]);
	for (unsigned h = 0; h < run->ntraces; h++) {
		const struct trace *t = &run->traces[h];
		long double slope = (1.0L + (long double)ref->drift_ppb / 1e9L) /
				    (1.0L + (long double)t->drift_ppb / 1e9L);
		long double offset = (long double)(ref->clock_offset - t->clock_offset) +
				     (1.0L - slope) * (epoch + (long double)t->clock_offset);

		fprintf(f, "net_clock %s %.20Lf %.3Lf\n", t->hostname, slope, offset);
	}
}

static void write_plan(const struct run *run)
{
	const char *path = run->opt->plan;
	FILE *f = fopen(path, "w");
	int order[EV_COUNT];
	uint64_t total = 0;

	if (!f)
		die_io(path);
	for (int id = 0; id < EV_COUNT; id++) {
		order[id] = id;
		total += run->event_counts[id];
	}
	qsort(order, EV_COUNT, sizeof(order[0]), compare_event_names);

	fprintf(f, "events %" PRIu64 "\n", total);
	fprintf(f, "first_ns %" PRIu64 "\n", ns_from_origin(run, run->min_ts));
	fprintf(f, "last_ns %" PRIu64 "\n", ns_from_origin(run, run->max_ts));
	fprintf(f, "discarded_events %" PRIu64 "\n", run->discarded_events);
	fprintf(f, "discarded_packets %" PRIu64 "\n", run->discarded_packets);
	fprintf(f, "streams %u\n", run->nstreams);
	fprintf(f, "traces %u\n", run->ntraces);
	fprintf(f, "ties %" PRIu64 "\n", run->ties);
	fprintf(f, "orphan_receives %" PRIu64 "\n", run->orphan_receives);
	if (run->opt->net_hosts)
		write_net_plan(run, f);
	for (unsigned i = 0; i < run->nsteps; i++)
		fprintf(f, "step_back %s %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			run->streams[0]->file_name, run->steps[i].event,
			ns_from_origin(run, run->steps[i].ns), run->steps[i].by);
	for (int i = 0; i < EV_COUNT; i++)
		if (run->event_counts[order[i]] > 0)
			fprintf(f, "event_count %s %" PRIu64 "\n", event_names[order[i]],
				run->event_counts[order[i]]);
	for (unsigned i = 0; i < run->ntraces; i++)
		fprintf(f, "trace %s %s %s\n", run->traces[i].dir, run->traces[i].hostname,
			run->traces[i].uuid_text);
	for (unsigned i = 0; i < run->nstreams; i++) {
		const struct stream *s = run->streams[i];

		fprintf(f, "stream %s %s %" PRIu64 " %" PRIu64 "\n", s->trace->dir, s->file_name,
			s->packets_written, s->events);
	}
	if (ferror(f) || fclose(f) != 0)
		die_io(path);
}

static void open_state_plan(struct run *run)
{
	for (unsigned i = 0; i < run->ntraces && !run->state_trace; i++)
		if (run->traces[i].content & CONTENT_KERNEL)
			run->state_trace = &run->traces[i];
	run->state_plan = fopen(run->opt->state_plan, "w");
	if (!run->state_plan)
		die_io(run->opt->state_plan);
}

/* ------------------------------------------------------------------ */
/* Command line                                                       */

static void print_usage(FILE *out)
{
	fprintf(out,
"Usage: " PROGRAM " [OPTIONS] OUTDIR\n"
"\n"
"Write a deterministic CTF 1.8 trace laid out like LTTng writes it\n"
"(metadata, channel0_<cpu> stream files, index/channel0_<cpu>.idx) into\n"
"OUTDIR, created with its parents if needed.  The same options give\n"
"byte-identical output.\n"
"\n"
"Options:\n"
"  --events N             total events over all traces, 1..100000000\n"
"                         (default 1000)\n"
"  --cpus N               streams (CPUs) per trace, 1..64 (default 4)\n"
"  --packet-size BYTES    packet (sub-buffer) size: a multiple of 8 from\n"
"                         4096 to 16777216 (default 65536)\n"
"  --seed S               PRNG seed, 0..2^64-1 (default 1)\n"
"  --mix MIX              kernel: scheduler, syscall and irq events of a\n"
"                           small simulated Linux system;\n"
"                         messages: app:send/app:receive between lifelines,\n"
"                           and about 1 event in 20 an app:flush whose\n"
"                           payload has no field (an empty structure);\n"
"                         mixed: both.  Default: kernel for --domain kernel,\n"
"                         messages for ust, mixed for both\n"
"  --domain D             kernel (default), ust (adds the vpid, vtid,\n"
"                         procname event context; tracer lttng-ust) or\n"
"                         both: a kernel/ trace with the kernel events and\n"
"                         a ust/ trace with the messages (only --mix mixed)\n"
"  --lost-every N         fake lost events: before packets N, 2N, 3N...\n"
"                         of each stream (counted from 0), raise its\n"
"                         events_discarded counter by 1..1000 (0 = never,\n"
"                         the default)\n"
"  --lost-packets-every N fake lost packets: skip one packet_seq_num value\n"
"                         before packets N, 2N, 3N... (0 = never, default)\n"
"  --ties N               about 1 event in N has the timestamp of the event\n"
"                         before it, on another stream (default 50; 2 makes\n"
"                         runs of equal timestamps across streams and hosts;\n"
"                         0 = never)\n"
"  --hang-every N         every Nth event (of a kernel trace) is a\n"
"                         sched_process_hang, a rare event class declared\n"
"                         only with this option (default 0: none)\n"
"  --hostile              strings made to drive a terminal when printed\n"
"                         raw: OSC, DCS and CSI sequences, BEL, C0 and C1\n"
"                         controls (as UTF-8 and as raw bytes), invalid\n"
"                         UTF-8, bidirectional and invisible characters,\n"
"                         in the file names, signals, lifelines (and UST\n"
"                         procnames), irq names, some task names, after\n"
"                         the env block's hostname, and in one event in %d\n"
"                         of kernel traces: tnx:evil..., whose name, text\n"
"                         and enum label carry them too\n"
"  --traces K             hosts, 1..16 (default 1); K > 1 writes one trace\n"
"                         per host in OUTDIR/<hostname> (with --domain both:\n"
"                         OUTDIR/<hostname>/kernel and .../ust)\n"
"  --net N                several hosts on their own clocks: every host's\n"
"                         clock is up to 0.8 s ahead of a reference one and\n"
"                         drifts by up to +-50 ppm, and the first N hosts\n"
"                         (2..K) exchange TCP packets (about one event in 8\n"
"                         is a send or a receipt, 20 to 500 us apart; one\n"
"                         packet in 30 is sent twice), recorded as\n"
"                         net_dev_queue/netif_receive_skb on even hosts and\n"
"                         inet_sock_local_out/_in on odd ones.  The plan\n"
"                         gives the packets matched per pair of hosts and\n"
"                         each host's true correction to host 0's clock.\n"
"                         Kernel traces only; implies --ties 0\n"
"  --step-back            the first stream's times go back, as some virtual\n"
"                         machines' clocks make them: by 1 ns at the first\n"
"                         event of its third packet, by 2 us at the 11th\n"
"                         event of its fifth, twice in a row (2 us each) at\n"
"                         the 11th and 12th of its seventh; the plan lists\n"
"                         them (step_back FILE EVENT NS BY, EVENT counted\n"
"                         from 0 in its stream)\n"
"  --hostname NAME        hostname in the env block (default \"host\"); with\n"
"                         K > 1 hosts are NAME0..NAME<K-1>; letters, digits,\n"
"                         '.', '_', '-', at most 60 characters\n"
"  --start SEC            clock offset_s, seconds since the epoch,\n"
"                         0..4000000000 (default 1700000000)\n"
"  --no-index             do not write the index/ directories\n"
"  --no-packet-times      packet contexts without timestamp_begin and\n"
"                         timestamp_end (as DPDK writes them); events keep\n"
"                         their timestamps.  Implies --no-index (the LTTng\n"
"                         index holds packet times)\n"
"  --packetized-metadata  write the metadata in 4096-byte packets, as LTTng\n"
"                         does, instead of plain text\n"
"  --extra-event-classes N  declare N more event classes that no event\n"
"                         uses (extra_probe_<i>, ids from 1000), as LTTng's\n"
"                         kernel metadata declares a thousand probes\n"
"                         (about 300 bytes of metadata each; default 0)\n"
"  --tracer-version M.N.P the tracer version in the env block (default\n"
"                         2.13.0); an lttng-modules before 2.9.13 (say\n"
"                         2.8.0) makes libbabeltrace2 fix its packet\n"
"                         indexes up\n"
"  --plan FILE            write what was generated to FILE (not inside OUTDIR):\n"
"                         'key value' lines: events, first_ns, last_ns (ns\n"
"                         from the clock origin), discarded_events,\n"
"                         discarded_packets, streams, traces, ties (events\n"
"                         sharing the previous event's timestamp on another\n"
"                         stream), orphan_receives, then\n"
"                         'event_count NAME N' (sorted by name),\n"
"                         'trace DIR HOSTNAME UUID' (DIR relative to OUTDIR),\n"
"                         'stream DIR FILE PACKETS EVENTS'\n"
"  --state-plan FILE      write the simulated kernel's state to FILE (not\n"
"                         inside OUTDIR) after every 997th event and after\n"
"                         the last (once the events of that time are all\n"
"                         out): 'at NS events K' (K events are at or\n"
"                         before NS), 'at NS CPU C current TID status S'\n"
"                         for each CPU and 'at NS thread TID status S' for\n"
"                         each live thread that an event named already, NS\n"
"                         the time (ns from the clock origin), S in the\n"
"                         words of tracenav's kernel state: CPUs idle,\n"
"                         usermode, syscall, irq; threads usermode,\n"
"                         syscall, interrupted, wait_cpu, wait_blocked;\n"
"                         '?' for what no event told yet; 'tied' for a\n"
"                         thread that events of one time on several CPUs\n"
"                         changed in another order than readers deliver\n"
"                         them (by CPU), until its next sched_switch, and\n"
"                         for a CPU it was switched in on then, until the\n"
"                         CPU's next switch, syscall or irq.\n"
"                         One kernel trace only: not with --traces K > 1\n"
"                         or --mix messages\n"
"  --force                accept a non-empty OUTDIR: first delete what\n"
"                         gen-trace writes (metadata, channel0_N,\n"
"                         index/channel0_N.idx) there and up to two\n"
"                         directory levels below; other files are kept\n"
"  -h, --help             show this help and exit\n"
"\n"
"Strings in the events (file names, signals, task and irq names) are\n"
"sometimes awkward: UTF-8, control characters, quotes, backslashes, and\n"
"Unicode bidirectional controls: U+202E RIGHT-TO-LEFT OVERRIDE in an\n"
"openat file name, the isolates U+2066..U+2069 in a signal and in an\n"
"exec file name.\n"
"\n"
"Exit status: 0 on success, 1 on an I/O error, 2 on bad usage.\n", HOSTILE_EVERY);
}

static uint64_t parse_number(const char *option, const char *text, uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long value;

	errno = 0;
	value = strtoull(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || *end || errno || value < min || value > max)
		die_usage("--%s: expected an integer from %" PRIu64 " to %" PRIu64 ", got '%s'",
			  option, min, max, text);
	return value;
}

static int parse_choice(const char *option, const char *text, const char *const *choices)
{
	for (int i = 0; choices[i]; i++)
		if (!strcmp(text, choices[i]))
			return i;
	die_usage("--%s: expected one of %s|%s|%s, got '%s'", option, choices[0], choices[1],
		  choices[2], text);
}

static bool valid_hostname(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > MAX_HOSTNAME || name[0] == '.' || name[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return false;
	}
	return true;
}

enum option_id {
	OPT_EVENTS = 256, OPT_CPUS, OPT_PACKET_SIZE, OPT_SEED, OPT_MIX, OPT_DOMAIN,
	OPT_LOST_EVERY, OPT_LOST_PACKETS_EVERY, OPT_TRACES, OPT_NO_INDEX, OPT_HOSTNAME,
	OPT_START, OPT_PLAN, OPT_FORCE, OPT_NO_PACKET_TIMES, OPT_TIES, OPT_HANG_EVERY,
	OPT_STATE_PLAN, OPT_HOSTILE, OPT_PACKETIZED_METADATA, OPT_EXTRA_CLASSES, OPT_NET,
	OPT_STEP_BACK,
	OPT_TRACER_VERSION,
};

static const struct option long_options[] = {
	{ "events", required_argument, NULL, OPT_EVENTS },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "packet-size", required_argument, NULL, OPT_PACKET_SIZE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "mix", required_argument, NULL, OPT_MIX },
	{ "domain", required_argument, NULL, OPT_DOMAIN },
	{ "lost-every", required_argument, NULL, OPT_LOST_EVERY },
	{ "lost-packets-every", required_argument, NULL, OPT_LOST_PACKETS_EVERY },
	{ "ties", required_argument, NULL, OPT_TIES },
	{ "hang-every", required_argument, NULL, OPT_HANG_EVERY },
	{ "hostile", no_argument, NULL, OPT_HOSTILE },
	{ "traces", required_argument, NULL, OPT_TRACES },
	{ "no-index", no_argument, NULL, OPT_NO_INDEX },
	{ "no-packet-times", no_argument, NULL, OPT_NO_PACKET_TIMES },
	{ "packetized-metadata", no_argument, NULL, OPT_PACKETIZED_METADATA },
	{ "extra-event-classes", required_argument, NULL, OPT_EXTRA_CLASSES },
	{ "tracer-version", required_argument, NULL, OPT_TRACER_VERSION },
	{ "hostname", required_argument, NULL, OPT_HOSTNAME },
	{ "start", required_argument, NULL, OPT_START },
	{ "plan", required_argument, NULL, OPT_PLAN },
	{ "state-plan", required_argument, NULL, OPT_STATE_PLAN },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "net", required_argument, NULL, OPT_NET },
	{ "step-back", no_argument, NULL, OPT_STEP_BACK },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void check_options(struct options *opt)
{
	unsigned domains = opt->domain == DOMAIN_BOTH ? 2 : 1;
	uint64_t buffers = (uint64_t)opt->hosts * domains * opt->cpus * opt->packet_size;

	if (opt->packet_size % 8)
		die_usage("--packet-size: must be a multiple of 8, got %" PRIu64, opt->packet_size);
	if (!valid_hostname(opt->hostname))
		die_usage("--hostname: expected 1 to %d letters, digits, '.', '_' or '-' "
			  "(not first: '.', '-'), got '%s'", MAX_HOSTNAME, opt->hostname);
	if (opt->domain == DOMAIN_BOTH && opt->mix_given && opt->mix != MIX_MIXED)
		die_usage("--mix: with --domain both only 'mixed' is allowed "
			  "(kernel events go to kernel/, messages to ust/)");
	if (!opt->mix_given)
		opt->mix = opt->domain == DOMAIN_KERNEL ? MIX_KERNEL
			 : opt->domain == DOMAIN_UST ? MIX_MESSAGES : MIX_MIXED;
	if (opt->step_back && opt->state_plan)
		die_usage("--step-back: not with --state-plan (its times are the true ones)");
	if (opt->state_plan && (opt->hosts > 1 || opt->mix == MIX_MESSAGES))
		die_usage("--state-plan: describes one kernel trace: not with --traces K > 1 "
			  "or --mix messages");
	if (opt->net_hosts && (opt->net_hosts > opt->hosts || opt->domain != DOMAIN_KERNEL ||
			       opt->mix != MIX_KERNEL))
		die_usage("--net: the hosts that exchange packets are among --traces' (give "
			  "--traces %u or more), of kernel traces (--domain kernel, --mix kernel)",
			  opt->net_hosts);
	if (opt->net_hosts)
		opt->ties = 0; /* each host its clock: no two events share a time */
	if (buffers > MAX_BUFFER_BYTES)
		die_usage("--packet-size: one packet buffer per stream would take %" PRIu64
			  " MiB; keep --traces x --cpus x --packet-size (x2 for --domain both) "
			  "within 1024 MiB", buffers >> 20);
}

/* "MAJOR.MINOR.PATCH" into version[3]. */
static void parse_version(const char *text, unsigned version[3])
{
	char tail;

	if (sscanf(text, "%u.%u.%u%c", &version[0], &version[1], &version[2], &tail) != 3 ||
	    version[0] > 99 || version[1] > 99 || version[2] > 99)
		die_usage("--tracer-version: expected MAJOR.MINOR.PATCH (each 0..99), got '%s'",
			  text);
}

static void parse_options(int argc, char **argv, struct options *opt)
{
	static const char *const mixes[] = { "kernel", "messages", "mixed", NULL };
	static const char *const domains[] = { "kernel", "ust", "both", NULL };
	int c;

	*opt = (struct options){
		.events = 1000, .cpus = 4, .packet_size = 65536, .seed = 1, .hosts = 1,
		.hostname = "host", .start = 1700000000, .domain = DOMAIN_KERNEL,
		.ties = 50, .tracer_version = { 2, 13, 0 },
	};
	opterr = 0; /* our own messages */
	while ((c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_EVENTS: opt->events = parse_number("events", optarg, 1, MAX_EVENTS); break;
		case OPT_CPUS: opt->cpus = (unsigned)parse_number("cpus", optarg, 1, MAX_CPUS); break;
		case OPT_PACKET_SIZE:
			opt->packet_size = parse_number("packet-size", optarg, MIN_PACKET_SIZE, MAX_PACKET_SIZE);
			break;
		case OPT_SEED: opt->seed = parse_number("seed", optarg, 0, UINT64_MAX); break;
		case OPT_MIX:
			opt->mix = (enum mix)parse_choice("mix", optarg, mixes);
			opt->mix_given = true;
			break;
		case OPT_DOMAIN: opt->domain = (enum domain)parse_choice("domain", optarg, domains); break;
		case OPT_LOST_EVERY:
			opt->lost_every = parse_number("lost-every", optarg, 0, UINT32_MAX);
			break;
		case OPT_LOST_PACKETS_EVERY:
			opt->lost_packets_every = parse_number("lost-packets-every", optarg, 0, UINT32_MAX);
			break;
		case OPT_TIES: opt->ties = parse_number("ties", optarg, 0, UINT32_MAX); break;
		case OPT_HANG_EVERY:
			opt->hang_every = parse_number("hang-every", optarg, 0, UINT64_MAX);
			break;
		case OPT_HOSTILE: opt->hostile = true; break;
		case OPT_TRACES: opt->hosts = (unsigned)parse_number("traces", optarg, 1, MAX_HOSTS); break;
		case OPT_NO_INDEX: opt->no_index = true; break;
		case OPT_NO_PACKET_TIMES:
			/* The LTTng index holds packet times: none without them. */
			opt->no_packet_times = true;
			opt->no_index = true;
			break;
		case OPT_PACKETIZED_METADATA: opt->packetized_metadata = true; break;
		case OPT_EXTRA_CLASSES:
			opt->extra_classes = (unsigned)parse_number("extra-event-classes", optarg, 0,
								    MAX_EXTRA_CLASSES);
			break;
		case OPT_TRACER_VERSION: parse_version(optarg, opt->tracer_version); break;
		case OPT_HOSTNAME: opt->hostname = optarg; break;
		case OPT_START: opt->start = parse_number("start", optarg, 0, MAX_START); break;
		case OPT_PLAN: opt->plan = optarg; break;
		case OPT_STATE_PLAN: opt->state_plan = optarg; break;
		case OPT_FORCE: opt->force = true; break;
		case OPT_STEP_BACK: opt->step_back = true; break;
		case OPT_NET: opt->net_hosts = (unsigned)parse_number("net", optarg, 2, MAX_HOSTS); break;
		case 'h':
			print_usage(stdout);
			exit(0);
		case ':':
			die_usage("option '%s' needs a value", argv[optind - 1]);
		default:
			die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind == argc)
		die_usage("missing OUTDIR");
	if (optind + 1 != argc)
		die_usage("expected one OUTDIR, got also '%s'", argv[optind + 1]);
	opt->outdir = argv[optind];
	if (!opt->outdir[0])
		die_usage("OUTDIR is empty");
	check_options(opt);
}

/* A plan must not land inside OUTDIR, where babeltrace2 would try to
 * read it as part of a trace. */
static void check_plan_location(const struct options *opt, const char *option,
				const char *plan)
{
	char *copy, *slash, *plan_dir, *out_dir;
	size_t n;

	if (!plan)
		return;
	out_dir = realpath(opt->outdir, NULL);
	if (!out_dir)
		return; /* OUTDIR does not exist yet, the plan's directory does */
	copy = xsprintf("%s", plan);
	slash = strrchr(copy, '/');
	if (slash == copy)
		copy[1] = '\0';
	else if (slash)
		*slash = '\0';
	plan_dir = realpath(slash ? copy : ".", NULL);
	if (!plan_dir)
		die_io(copy);
	n = strlen(out_dir);
	if (!strncmp(plan_dir, out_dir, n) && (plan_dir[n] == '\0' || plan_dir[n] == '/' || n == 1))
		die_usage("--%s: '%s' is inside OUTDIR '%s'; write it elsewhere", option, plan,
			  opt->outdir);
	free(copy);
	free(plan_dir);
	free(out_dir);
}

static void prepare_outdir(const struct options *opt)
{
	struct stat st;
	char **names;
	size_t count;

	if (stat(opt->outdir, &st) != 0) {
		if (errno != ENOENT)
			die_io(opt->outdir);
		make_directories(opt->outdir);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		die_io(opt->outdir);
	}
	count = list_directory(opt->outdir, &names);
	free_names(names, count);
	if (count == 0)
		return;
	if (!opt->force)
		die("%s: directory is not empty (use --force to replace what gen-trace wrote there)",
		    opt->outdir);
	remove_generated_files(opt->outdir, 2);
}

int main(int argc, char **argv)
{
	struct options opt;
	static struct run run; /* large: keep it off the stack */

	parse_options(argc, argv, &opt);
	check_plan_location(&opt, "plan", opt.plan);
	check_plan_location(&opt, "state-plan", opt.state_plan);
	prepare_outdir(&opt);
	setup_run(&run, &opt);
	if (opt.state_plan)
		open_state_plan(&run);
	generate(&run);
	finish_streams(&run);
	if (opt.plan)
		write_plan(&run);
	if (run.state_plan && (ferror(run.state_plan) || fclose(run.state_plan) != 0))
		die_io(opt.state_plan);
	free_run(&run);
	return 0;
}
