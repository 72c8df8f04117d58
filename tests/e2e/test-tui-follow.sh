#!/bin/sh
# test-tui-follow.sh - follow mode (F, --follow) on a trace being
# written, made deterministic as in test-growing.sh: a generated kernel
# trace (4 streams, packets of 4096 bytes) copied in steps, each stream
# file cut inside a packet and its index one packet behind.  The list
# stays on the newest event as the files grow (what babeltrace2 reads of
# a copy of the whole packets), the packets being written are not called
# damaged; a move up holds the position and the status bar counts the
# new events; F follows again; follow off stops watching.  --follow on
# a session that has just started (its metadata empty) waits for it.  A
# collection in follow mode reads a trace directory that appears under
# its path.
# q quits with the terminal restored.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

if ! have_babeltrace2; then
	skip "babeltrace2 CLI not installed: nothing to compare with"
	tap_done
	exit
fi

whole=$TMPDIR_TEST/whole
dir=$TMPDIR_TEST/growing
"$GEN_TRACE" --events 6000 --cpus 4 --packet-size 4096 "$whole" >/dev/null
cp -R "$whole" "$dir"

# write_part PERCENT: $dir as a trace being written (lib.sh); the copy
# $TMPDIR_TEST/part-PERCENT/c holds its whole packets alone (what
# babeltrace2 reads of it).
write_part() {
	write_growing "$whole" "$dir" "$1"
	"$TRACENAV" --dump "$dir" >/dev/null 2>"$TMPDIR_TEST/notes"
	repaired_copy "$dir" "$TMPDIR_TEST/notes" "$TMPDIR_TEST/part-$1/c"
}

# last_time TRACE: the time of babeltrace2's last event of TRACE.
last_time() {
	babeltrace2 "$1" | tail -1 | sed 's/^\[\([^]]*\)\].*/\1/'
}

# count TRACE: its events, as babeltrace2 reads them.
count() {
	babeltrace2 "$1" | wc -l
}

write_part 30
want30=$(last_time "$TMPDIR_TEST/part-30/c")
start follow 120 24 "-F --no-cache --no-mouse"
check "--follow: the last event of the whole packets ($want30)" \
	wait_status follow "$want30" 100
check "--follow: the status bar says following" \
	line_matches follow 23 " following "
check "--follow: packets being written are not called damaged" \
	eval '! line_is_like follow 23 "damaged"'
check "--follow: the index counts what babeltrace2 reads" \
	line_matches follow 23 "event $(count "$TMPDIR_TEST/part-30/c") of $(count "$TMPDIR_TEST/part-30/c")"

write_part 60
want60=$(last_time "$TMPDIR_TEST/part-60/c")
count60=$(count "$TMPDIR_TEST/part-60/c")
check "the files grow: the newest event ($want60)" \
	wait_status follow "$want60" 150
check "the files grow: the index counts them ($count60)" \
	wait_until 150 line_is_like follow 23 "event $count60 of $count60"
check "the files grow: no message" eval '[ -z "$(screen follow | tail -1 | grep -v "? help")" ]'

# A move up holds the position while the trace grows.
tm send-keys -t follow k
check "a move up: held" line_matches follow 23 " held \(F follows\)"
at=$(settled_time follow)
write_part 100
check "the trace grows: the status bar counts the new events ($((6000 - count60)))" \
	wait_until 150 line_is_like follow 23 " $((6000 - count60)) new \(F\)"
check "the trace grows: the position holds ($at)" status_is follow "$at"
# Its number: the events up to it in the whole trace (packets of the
# other streams came with events before it).
rank=$(babeltrace2 "$whole" | grep -n -m1 "^\[$at\]" | cut -d: -f1)
check "the trace grows: the index has every event (the held one is $rank)" \
	line_matches follow 23 "event $rank of 6000"
tm send-keys -t follow F
check "F: the newest event again" wait_status follow "$(last_time "$whole")"
check "F: following" line_matches follow 23 " following .*event 6000 of 6000"

# G follows again too.
tm send-keys -t follow g
check "g: held" line_matches follow 23 " held \(F follows\)"
tm send-keys -t follow G
check "G: following again" line_matches follow 23 " following "

# follow off: the trace is not watched any more.
tm send-keys -t follow : "follow off" Enter
check "follow off: said" wait_for follow "^follow off: "
check "follow off: the status bar no longer says following" \
	eval '! line_is_like follow 23 "following"'
write_part 30
sleep 2.5
check "follow off: a change of the files is not read" \
	line_is_like follow 23 "event 6000 of 6000"
tm send-keys -t follow F
check "F again: what changed meanwhile is read at once ($want30)" \
	wait_status follow "$want30" 100
check "F again: following, on the files as they are now" \
	line_matches follow 23 " following .*event $(count "$TMPDIR_TEST/part-30/c") of $(count "$TMPDIR_TEST/part-30/c")"
tm send-keys -t follow q
check "q quits, exit status 0" wait_exit follow 0
check "the terminal is canonical again" wait_for follow '^STTY=icanon$'

# A session that has just started: its metadata still empty.
dir=$TMPDIR_TEST/starting
mkdir -p "$dir"
: > "$dir/metadata"
start wait 200 24 "-F --no-cache --no-mouse"
check "--follow on a trace not written yet: waits, saying why" \
	wait_for wait "^tracenav: waiting for $dir to be written \(Ctrl-C stops\): .*metadata. file is empty"
cp -R "$whole"/index "$whole"/channel0_* "$dir"
cp "$whole/metadata" "$dir"
check "once written: the list opens, following every event" \
	wait_until 150 line_is_like wait 23 " following .*event 6000 of 6000"
tm send-keys -t wait q
check "q quits, exit status 0" wait_exit wait 0

# A collection: a trace directory that appears under its path is read.
dir=$TMPDIR_TEST/collection
mkdir -p "$dir"
cp -R "$whole" "$dir/a"
# Its events come an hour after those of a.
"$GEN_TRACE" --events 3000 --cpus 2 --seed 7 --hostname other \
	--start 1700003600 "$TMPDIR_TEST/b" >/dev/null
start coll 120 24 "-F --no-cache --no-mouse"
check "a collection: following" line_matches coll 23 " following .*event 6000 of 6000"
cp -R "$TMPDIR_TEST/b" "$dir/b.tmp"
mv "$dir/b.tmp" "$dir/b"
check "a new trace directory is read: the newest event of both" \
	wait_status coll "$(last_time "$dir")" 150
check "a new trace directory is read: every event" \
	wait_until 150 line_is_like coll 23 "event 9000 of 9000"
tm send-keys -t coll q
check "q quits, exit status 0" wait_exit coll 0

# --follow is the event list's.
"$TRACENAV" --dump --follow "$whole" > /dev/null 2> "$TMPDIR_TEST/err"
status=$?
check "--dump --follow: a usage error, exit 2 ($status)" [ "$status" = 2 ]
check "--dump --follow: says why" \
	grep -q "follow is for the event list" "$TMPDIR_TEST/err"
tap_done
