#!/bin/sh
# test-tui-hostile.sh - no byte of trace content drives the terminal.
# A trace of gen-trace --hostile (OSC, DCS and CSI sequences, BEL, C0
# and C1 controls as UTF-8 and as raw bytes, invalid UTF-8, bidi and
# invisible characters: in an event name, the hostname, thread and
# process names, lifelines, signals, irq names, an enum label and
# strings), in a directory whose own name holds some, is opened in
# every view (list, detail, state tree, sequence diagram, histogram,
# statistics, analysis, prompt and its completion, message line,
# :traces, status bar) under script(1), which keeps every byte tracenav
# writes to the terminal: tests/term-scan finds nothing in them but
# ncurses' own drawing, and the screen shows the escaped forms.  In the
# C locale, every byte written is ASCII.  --dump, --info and --batch on
# a terminal escape the same way, and piped keep the bytes (--dump:
# babeltrace2's).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC
TERM_SCAN="$top_builddir/tests/term-scan"

if ! command -v script >/dev/null 2>&1; then
	skip "script(1) (util-linux) is not installed"
	tap_done
	exit 0
fi

# The trace's directory name itself sets the window title if printed raw.
dir="$TMPDIR_TEST/tr$(printf '\033]0;TNX-dir\007')x"
"$GEN_TRACE" --hostile --domain both --events 6000 --cpus 2 "$dir" >/dev/null

# start_raw NAME WIDTH HEIGHT LOCALE [OPTIONS]: tracenav on $dir in a
# new tmux session, under script(1), which keeps all it writes to the
# terminal in $TMPDIR_TEST/NAME.raw; the pane says EXIT=STATUS after.
start_raw() {
	{
		echo "export TERM=xterm-256color LANG=$4 LC_ALL=$4 TZ=UTC"
		printf "exec '%s' %s '%s'\n" "$TRACENAV" "${5:-}" "$dir"
	} > "$TMPDIR_TEST/$1.sh"
	tm new-session -d -s "$1" -x "$2" -y "$3" \
		"script -q -f -e -c 'sh $TMPDIR_TEST/$1.sh' $TMPDIR_TEST/$1.raw;
		 echo EXIT=\$?; exec sleep 600"
}

# has NAME TEXT: the screen holds TEXT (no regex); wait_has polls (5 s).
has() {
	screen "$1" | grep -q -F -- "$2"
}
wait_has() {
	wait_until "${3:-50}" has "$1" "$2" && return 0
	printf '# not on the screen: %s; the screen:\n' "$2"
	screen "$1" | cut -c1-100 | sed 's/^/#  /'
	return 1
}

# clean NAME [--ascii]: term-scan finds nothing in what tracenav wrote
# (the typescript without script's first line, which names the command).
clean() {
	sed 1d "$TMPDIR_TEST/$1.raw" > "$TMPDIR_TEST/$1.scan"
	"$TERM_SCAN" ${2:-} "$TMPDIR_TEST/$1.scan" > "$TMPDIR_TEST/$1.problems"
	status=$?
	[ "$status" = 0 ] && return 0
	sed 's/^/# /' "$TMPDIR_TEST/$1.problems"
	return 1
}

## The scanner itself catches what it is for.
printf 'ok\033[1;1H\033[31mx\033[m\n' > "$TMPDIR_TEST/good.scan"
check "term-scan: ncurses' drawing passes" "$TERM_SCAN" "$TMPDIR_TEST/good.scan"
# catches WHAT BYTES: term-scan fails on BYTES (printf's escapes).
catches() {
	printf "a${2}b" > "$TMPDIR_TEST/bad.scan"
	check "term-scan: catches $1" \
		eval "! '$TERM_SCAN' '$TMPDIR_TEST/bad.scan' >/dev/null"
}
catches "an OSC" '\033]0;x\007'
catches "a BEL" '\007'
catches "a report request (CSI 6n)" '\033[6n'
catches "a DCS" '\033P+q544e\033\\'
catches "a C1 CSI in UTF-8" '\302\233'
catches "a C1 CSI byte" '\233'
catches "a bidirectional override" '\342\200\256'
catches "invalid UTF-8" '\377'
catches "a shift out" '\016'


## Every view, in a UTF-8 terminal.
start_raw ut 160 45 C.UTF-8
check "the list opens" wait_for ut "$HEADER"
check "the status bar: the directory's name escaped" \
	wait_has ut 'tr\x1b]0;TNX-dir\x07x'
check "the list: an event name escaped" wait_has ut 'tnx:evil\x1b]0;TNX-name'
check "the list: a raw C1 byte and invalid UTF-8 escaped" \
	wait_has ut 'gw\xff\xfe'

# detail_of NAME PATTERN TEXT [TEXT2]: /PATTERN (the search's job runs
# the keys typed meanwhile after it), Enter: the detail shows TEXT (and
# TEXT2); q closes it (only once it is open: q would quit the list).
detail_of() {
	tm send-keys -t "$1" / "$2" Enter Enter
	wait_for "$1" '^ detail  lines ' || return 1
	wait_has "$1" "$3" && { [ -z "${4:-}" ] || wait_has "$1" "$4"; }
	status=$?
	tm send-keys -t "$1" q
	wait_for "$1" "$HEADER" >/dev/null
	return $status
}
check "detail: the event name and the hostname" detail_of ut 'tnx:evil' \
	'name: tnx:evil\x1b]0;TNX-name\x07\x9b6n\u202Eeman' \
	'host: host\x1b]0;TNX-host\x07\x9b6n\u202Ex'
check "detail: C1 controls in UTF-8" detail_of ut 'c1utf8' \
	'c1utf8\u009B6n\u009D0;TNX\u009C\u0085'
check "detail: C1 controls as raw bytes" detail_of ut 'c1raw' \
	'c1raw\x9b6n\x9d0;TNX\x9c\x90'
check "detail: invalid UTF-8 (bad, overlong, surrogate, too big, cut)" \
	detail_of ut 'bad' 'bad\xff\xfe\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82'
check "detail: bidirectional controls" detail_of ut 'bidi' \
	'bidi\u202Eexe.txt\u2066x\u2069'
check "detail: invisible format characters" detail_of ut 'inv\x{200b}' \
	'inv\u200B\uFEFF\u2028\u00AD\u061C'
check "detail: an enum label" detail_of ut 'lab' \
	'"lab\e[6n\a\u009Bc\u2067el"'

tm send-keys -t ut 5 0 % s
check "state tree: a thread's name" wait_has ut 'x\x1b]0;TNX\x07' 100
check "state tree: a process's name (UST)" \
	wait_has ut 'cap\x1b]0;TNX\x07'
check "state tree: raw C1 byte and C1 in UTF-8" wait_has ut 'py\x9b6n\u009Bc'
tm send-keys -t ut s d
lifeline_shows() {
	screen "$1" | grep -q -F -e 'cap\x1b]0;TNX\x07' -e 'node\u009B6n' \
		-e '\u202Erevres' -e 'gw\xff\xfe' -e 'bel\x07\x1b[2J' \
		-e 'x\x1b]0;TNX\x07-1777' -e '\u202Enur\x07' -e 'e\x1b]0;TNX\x07'
}
check "sequence diagram: lifelines escaped" wait_until 100 lifeline_shows ut
tm send-keys -t ut d i S
# A row of the statistics pane: its count, share and name (cut to the
# pane's width).
STATS_ROW='[0-9]+\.[0-9]{2}% tnx:evil\\x1b\]0;TNX-nam'
check "statistics: the event name escaped" wait_until 150 shows ut "$STATS_ROW"
tm send-keys -t ut S i A
check "analysis: a thread's name escaped" wait_has ut 'x\x1b]0;TNX\x07' 150
# cputop's rows: the percentage column ends at one place whatever the
# names hold (escaped: measured by their raw bytes, they were not).
# Rows of ASCII only, whose length in bytes is their width.
aligned() {
	screen "$1" | grep -E ' [0-9]+\.[0-9]{2}%$' | LC_ALL=C grep -v '[^ -~]' |
		awk '{ print length($0) }' | sort -u | wc -l | grep -qx 1
}
check "analysis: the columns stay aligned" wait_until 50 aligned ut
tm send-keys -t ut Tab ] ]
check "analysis: irqstats, an irq's name escaped" \
	wait_has ut 'nvme\x1b]0;TNX\x07' 100
tm send-keys -t ut A

tm send-keys -t ut / t n x Tab
check "prompt: a completed event name escaped" \
	wait_has ut '/tnx:evil\x1b]0;TNX-name\x07\x9b6n\u202Eeman'
tm send-keys -t ut Enter
check "message line: the regex's error (its raw byte is not UTF-8)" \
	wait_has ut 'bad regex: column'
tm send-keys -t ut /
tm send-keys -t ut -l "$(printf 'zz\302\233q\342\200\256')"
tm send-keys -t ut Enter
check "message line: not found, with the pattern escaped" \
	wait_has ut 'Pattern not found: zz\u009Bq\u202E' 100
tm send-keys -t ut : traces Enter
check ":traces: the hostname escaped" \
	wait_has ut 'host\x1b]0;TNX-host\x07\x9b6n\u202Ex'
tm send-keys -t ut q q
check "q: exits 0" wait_exit ut 0
check "nothing but ncurses' drawing reached the terminal" clean ut

## The C locale: ASCII drawing, every non-ASCII character escaped.
start_raw asc 120 40 C
check "C locale: the list opens" wait_for asc "$HEADER"
tm send-keys -t asc 5 0 % s
check "C locale: a CJK thread name escaped" wait_has asc '2301 \u6D4B' 100
tm send-keys -t asc s d
check "C locale: the sequence diagram in ASCII" \
	wait_until 100 shows asc '^ .*\+-{5,}\+ \+-{5,}\+'
tm send-keys -t asc d i
check "C locale: the histogram in ASCII" wait_for asc '^ *[.:=#]+'
tm send-keys -t asc i S
check "C locale: statistics" wait_until 150 shows asc "$STATS_ROW"
tm send-keys -t asc S A
check "C locale: analysis" wait_has asc 'x\x1b]0;TNX\x07' 150
tm send-keys -t asc A Enter
check "C locale: detail" wait_has asc 'host: host\x1b]0;TNX-host'
tm send-keys -t asc q q
check "C locale: q: exits 0" wait_exit asc 0
check "C locale: every byte written is ASCII, nothing raw" clean asc --ascii

## --dump, --info and --batch: the bytes when piped, escaped on a
## terminal.
if have_babeltrace2; then
	same_output "--dump piped: babeltrace2's bytes" "$dir"
else
	skip "--dump piped: babeltrace2 is not installed"
fi
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/piped" 2>/dev/null
# on_tty NAME COMMAND...: COMMAND's output on a terminal (script's pty),
# its carriage returns dropped, in $TMPDIR_TEST/NAME.out; the locale is
# $tty_locale.
tty_locale=C.UTF-8
on_tty() {
	name=$1
	shift
	{
		echo "export LANG=$tty_locale LC_ALL=$tty_locale TZ=UTC"
		for arg in "$@"; do printf "'%s' " "$arg"; done
		echo
	} > "$TMPDIR_TEST/$name.sh"
	script -q -e -c "sh $TMPDIR_TEST/$name.sh" "$TMPDIR_TEST/$name.raw" \
		</dev/null >/dev/null 2>&1
	# Without script's first and last lines, and the empty line it
	# puts before the last.
	sed '1d;/^Script done on /d' "$TMPDIR_TEST/$name.raw" | tr -d '\r' |
		awk 'NR > 1 { print last } { last = $0 }
			END { if (NR && last != "") print last }' \
		> "$TMPDIR_TEST/$name.out"
}
on_tty dump "$TRACENAV" --dump "$dir"
check "--dump on a terminal: nothing raw" clean dump
check "--dump on a terminal: as many lines" \
	test "$(wc -l < "$TMPDIR_TEST/dump.out")" = "$(wc -l < "$TMPDIR_TEST/piped")"
check "--dump on a terminal: the event name and hostname escaped" \
	grep -q -F 'host\x1b]0;TNX-host\x07\x9b6n\u202Ex tnx:evil\x1b]0;TNX-name\x07\x9b6n\u202Eeman: ' \
	"$TMPDIR_TEST/dump.out"
check "--dump on a terminal: printable UTF-8 kept (CJK)" \
	grep -q -F "$(printf 'comm = "\346\265\213\350\257\225\350\277\233\347\250\213"')" \
		"$TMPDIR_TEST/dump.out"
check "--dump on a terminal: strings escaped as in the list" \
	grep -q -F 'c1raw\x9b6n\x9d0;TNX\x9c\x90' "$TMPDIR_TEST/dump.out"
# Lines of plain ASCII are the same either way.
plain_lines_same() {
	LC_ALL=C awk 'NR == FNR { want[FNR] = $0; next }
		want[FNR] !~ /[^ -~]/ && want[FNR] != $0 { bad++ }
		END { exit bad > 0 }' "$TMPDIR_TEST/piped" "$TMPDIR_TEST/dump.out"
}
check "--dump on a terminal: plain lines unchanged" plain_lines_same
tty_locale=C
on_tty dumpc "$TRACENAV" --dump "$dir"
tty_locale=C.UTF-8
check "--dump on a terminal, C locale: every byte ASCII, nothing raw" \
	clean dumpc --ascii
check "--dump on a terminal, C locale: non-ASCII escaped" \
	grep -q -F 'comm = "\u6D4B\u8BD5\u8FDB\u7A0B"' "$TMPDIR_TEST/dumpc.out"
on_tty info "$TRACENAV" --info "$dir"
check "--info on a terminal: the env's hostname escaped" \
	grep -q -F 'hostname = host\x1b]0;TNX-host\x07\x9b6n\u202Ex' \
	"$TMPDIR_TEST/info.out"
check "--info on a terminal: nothing raw" clean info
on_tty batch "$TRACENAV" --batch 'search tnx:evil; print 2' "$dir"
check "--batch on a terminal: print escaped" \
	grep -q -F 'tnx:evil\x1b]0;TNX-name\x07\x9b6n\u202Eeman: ' \
	"$TMPDIR_TEST/batch.out"
check "--batch on a terminal: nothing raw" clean batch
"$TRACENAV" --batch 'search tnx:evil; print 2' "$dir" \
	> "$TMPDIR_TEST/batch.piped" 2>/dev/null
check "--batch piped: print keeps the bytes (--dump's lines)" \
	eval "LC_ALL=C grep -a -x -F -f '$TMPDIR_TEST/batch.piped' '$TMPDIR_TEST/piped' | wc -l | grep -qx 2"

tap_done
