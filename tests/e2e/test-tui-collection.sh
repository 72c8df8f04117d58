#!/bin/sh
# test-tui-collection.sh - the event list on a collection in which a
# trace cannot be read (the shared case of a process that exited before
# its metadata declared its stream class, or else garbage metadata): it
# opens on the others' events, the message line says which trace was
# left out and why, the status bar shows it as long as the list runs,
# and :traces lists every trace.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC
: "${TRACENAV_SHARED_CASES:=$SHARED_TRACES/../cases}"
case_dir="$TRACENAV_SHARED_CASES/ust-missing-stream-class"

dir="$TMPDIR_TEST/coll"
"$GEN_TRACE" --events 3000 --domain ust --traces 3 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"
if [ -d "$case_dir" ]; then
	cp -R "$case_dir" "$dir/"
	chmod -R u+w "$dir"
	left="$dir/ust-missing-stream-class"
	reason="cannot read trace: No stream class with ID"
else
	diag "no shared case at $case_dir: garbage metadata instead"
	mkdir "$dir/ust-missing-stream-class"
	printf 'this is not TSDL {{{\n' > "$dir/ust-missing-stream-class/metadata"
	left="$dir/ust-missing-stream-class"
	reason="cannot read the trace metadata"
fi

start coll 250 24
check "opens on the others' events" wait_for coll "$HEADER"
check "the first row is the others' first event" wait_row coll 1 "$(event 1)"
check "the message line says it was left out, and why" \
	wait_for coll "^1 trace left out \(:traces lists it\): $left: $reason"
check "the status bar shows it" line_is_like coll 23 " 1 left out"

tm send-keys -t coll : traces Enter
check ":traces: a text view" wait_for coll '^ traces'
check ":traces: the trace left out, with the reason" \
	shows coll "^ust-missing-stream-class +left out: $reason"
check ":traces: the others" shows coll "^host2 +host2 +ust +4"
tm send-keys -t coll q
check "q: the list again" wait_for coll "$HEADER"
check "the status bar still shows it" line_is_like coll 23 " 1 left out"
tm send-keys -t coll q
check "q quits, exit status 0" wait_exit coll 0

# --- A trace without packet indexes: its time range comes from a query
# that reads every packet header (a child process).  The first screen
# does not wait for it; the status bar shows the range once found.
dir="$TMPDIR_TEST/noidx"
"$GEN_TRACE" --events 200000 --cpus 4 --packet-size 4096 --no-index \
	"$dir" >/dev/null
"$TRACENAV" --dump "$dir" 2>/dev/null | head -1 > "$TMPDIR_TEST/dump"
events_of_dump "$TMPDIR_TEST/dump"
first_time=$(event 1 | cut -d' ' -f1)
start noidx 200 24
check "no packet index: the first screen" wait_row noidx 1 "$(event 1)"
check "no packet index: the status bar shows the packets' range once found" \
	line_matches noidx 23 "  $first_time - [0-9:.]+  "
tm send-keys -t noidx q
check "no packet index: q quits, exit status 0" wait_exit noidx 0

tap_done
