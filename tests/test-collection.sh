#!/bin/sh
# A collection of traces (per-process userspace traces, several hosts)
# in which some traces cannot be read: garbage metadata, or the trace of
# a process that exited before its metadata declared the stream class
# its stream file uses (../shared/cases/ust-missing-stream-class, which
# made libbabeltrace2 2.0.4 abort tracenav).  Those are left out with
# one stderr line each, naming them and the reason, before anything
# else; the others' events are those babeltrace2 prints of the
# collection without them (it refuses the whole); exit status 1; never a
# signal.  Alone, such a trace is an error (exit status 1, one line).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
: "${TRACENAV_SHARED_CASES:=$SHARED_TRACES/../cases}"
case_dir="$TRACENAV_SHARED_CASES/ust-missing-stream-class"

# run NAME ARGS...: tracenav ARGS; stdout and stderr in $TMPDIR_TEST/NAME.out
# and NAME.err, exit status in $status.
run() {
	name=$1
	shift
	"$TRACENAV" "$@" >"$TMPDIR_TEST/$name.out" 2>"$TMPDIR_TEST/$name.err"
	status=$?
}

# no_signal WHAT: the last run exited, not killed by a signal (SIGABRT
# is status 134).
no_signal() {
	check "$1: exits, no signal (status $status)" test "$status" -lt 128
}

# status_is WANT WHAT
status_is() {
	check "$2: exit status $1 (got $status)" test "$status" = "$1"
}

# err_lines NAME: the number of lines on stderr.
err_lines() {
	wc -l < "$TMPDIR_TEST/$1.err" | tr -d ' '
}

# left_out_first NAME DIR REASON: stderr begins with DIR's left-out line
# (REASON a grep -E pattern) and has no other left-out line but those
# of the other directories given in $others.
left_out_first() {
	head -1 "$TMPDIR_TEST/$1.err" |
		grep -Eq -- "^tracenav: $2: left out: $3" || return 1
	[ "$(grep -c ': left out: ' "$TMPDIR_TEST/$1.err")" = "${4:-1}" ]
}

show_err() {
	head -3 "$TMPDIR_TEST/$1.err" | cut -c1-200 | sed 's/^/# /'
}

# same_as_babeltrace2 NAME WHAT [LINES]: stdout of the last run is what
# babeltrace2 printed of the collection without the unreadable traces
# (its first LINES lines).
same_as_babeltrace2() {
	if [ -n "$3" ]; then
		head -n "$3" "$TMPDIR_TEST/bt.out" > "$TMPDIR_TEST/bt.head"
	else
		cp "$TMPDIR_TEST/bt.out" "$TMPDIR_TEST/bt.head"
	fi
	if cmp -s "$TMPDIR_TEST/bt.head" "$TMPDIR_TEST/$1.out"; then
		ok "$2: the others' events, as babeltrace2 prints them"
	else
		not_ok "$2: the others' events, as babeltrace2 prints them"
		diff "$TMPDIR_TEST/bt.head" "$TMPDIR_TEST/$1.out" | head -5 |
			cut -c1-200 | sed 's/^/# /'
	fi
}

# The collection without the unreadable traces (what babeltrace2 reads),
# and the collection with them.
without="$TMPDIR_TEST/without/gen"
"$GEN_TRACE" --events 3000 --domain ust --traces 3 "$TMPDIR_TEST/gen" \
	>/dev/null
mkdir -p "$TMPDIR_TEST/without"
cp -R "$TMPDIR_TEST/gen" "$without"
if have_babeltrace2; then
	babeltrace2 "$without" >"$TMPDIR_TEST/bt.out" 2>/dev/null
	check "babeltrace2 reads the collection without them" test $? = 0
else
	# What tracenav prints of it stands for babeltrace2's (which
	# test-dump-generated.sh holds it to).
	"$TRACENAV" --dump "$without" >"$TMPDIR_TEST/bt.out" 2>/dev/null
	skip "babeltrace2 CLI not installed: compared with tracenav --dump"
fi
check "the collection has events" test -s "$TMPDIR_TEST/bt.out"

# --- Garbage metadata in a collection. --------------------------------
coll="$TMPDIR_TEST/garbage"
cp -R "$TMPDIR_TEST/gen" "$coll"
mkdir "$coll/broken"
printf 'this is not TSDL {{{\n' > "$coll/broken/metadata"
run garbage --dump "$coll"
no_signal "garbage metadata in a collection, --dump"
status_is 1 "garbage metadata in a collection, --dump"
if left_out_first garbage "$coll/broken" "cannot read the trace metadata: "
then
	ok "garbage metadata in a collection: one line, first, naming it"
else
	not_ok "garbage metadata in a collection: one line, first, naming it"
	show_err garbage
fi
same_as_babeltrace2 garbage "garbage metadata in a collection, --dump"

# --- Every trace unreadable: an error, one line. ----------------------
mkdir -p "$TMPDIR_TEST/none/a" "$TMPDIR_TEST/none/b"
cp "$coll/broken/metadata" "$TMPDIR_TEST/none/a/metadata"
: > "$TMPDIR_TEST/none/b/metadata"
run none --dump "$TMPDIR_TEST/none"
status_is 1 "no readable trace"
check "no readable trace: one line saying so" eval \
	'[ "$(err_lines none)" = 1 ] && grep -q "none of the 2 traces under it can be read; $TMPDIR_TEST/none/a: cannot read the trace metadata" "$TMPDIR_TEST/none.err"'
check "no readable trace: nothing on stdout" test ! -s "$TMPDIR_TEST/none.out"

# --- The per-process trace without its stream class. ------------------
if [ ! -d "$case_dir" ]; then
	skip "no shared case at $case_dir"
	tap_done
	exit
fi
reason="cannot read trace: No stream class with ID"

# Alone: the error of any unreadable trace, in every mode.
for mode in --dump --info "--batch=print 1"; do
	run alone "$mode" "$case_dir"
	no_signal "the case alone, $mode"
	status_is 1 "the case alone, $mode"
	if [ "$(err_lines alone)" = 1 ] &&
	   grep -Eq "^tracenav: $case_dir: $reason" "$TMPDIR_TEST/alone.err"; then
		ok "the case alone, $mode: one line naming it and the reason"
	else
		not_ok "the case alone, $mode: one line naming it and the reason"
		show_err alone
	fi
	check "the case alone, $mode: nothing on stdout" \
		test ! -s "$TMPDIR_TEST/alone.out"
done

# Beside the generated traces.
coll="$TMPDIR_TEST/coll/gen"
mkdir -p "$TMPDIR_TEST/coll"
cp -R "$TMPDIR_TEST/gen" "$coll"
cp -R "$case_dir" "$coll/"
chmod -R u+w "$coll"
case_copy="$coll/ust-missing-stream-class"
if have_babeltrace2; then
	babeltrace2 "$coll" >"$TMPDIR_TEST/bt-coll.out" 2>/dev/null
	bt_status=$?
	check "babeltrace2 refuses the whole collection (status $bt_status)" \
		test "$bt_status" != 0 -a ! -s "$TMPDIR_TEST/bt-coll.out"
fi

run dump --dump "$coll"
no_signal "collection, --dump"
status_is 1 "collection, --dump"
if left_out_first dump "$case_copy" "$reason"; then
	ok "collection, --dump: one line, first, naming it and the reason"
else
	not_ok "collection, --dump: one line, first, naming it and the reason"
	show_err dump
fi
same_as_babeltrace2 dump "collection, --dump"

run count --dump --count 10 "$coll"
status_is 1 "collection, --dump --count 10"
same_as_babeltrace2 count "collection, --dump --count 10" 10

run batch --batch "print 5" "$coll"
no_signal "collection, --batch"
status_is 1 "collection, --batch 'print 5'"
check "collection, --batch: the left-out line first" \
	left_out_first batch "$case_copy" "$reason"
same_as_babeltrace2 batch "collection, --batch 'print 5'" 5

run traces --batch traces "$coll"
status_is 1 "collection, --batch traces"
check "traces: lists it, left out, with the reason" \
	grep -Eq "^ust-missing-stream-class +left out: $reason" \
	"$TMPDIR_TEST/traces.out"
check "traces: lists the three others (host, domain, streams)" eval \
	'[ "$(grep -Ec "^host[0-2] +host[0-2] +ust +4$" "$TMPDIR_TEST/traces.out")" = 3 ]'
check "traces: says how many were read and left out" \
	grep -q "^$coll: 3 traces read, 1 left out$" "$TMPDIR_TEST/traces.out"

run info --info "$coll"
status_is 1 "collection, --info"
check "collection, --info: the left-out line first" \
	left_out_first info "$case_copy" "$reason"
check "collection, --info: lists it after the directories" \
	grep -Eq "^left out: +$case_copy: $reason" "$TMPDIR_TEST/info.out"
check "collection, --info: the three others' directories" eval \
	'[ "$(grep -c "^directory:" "$TMPDIR_TEST/info.out")" = 3 ]'

# Deeper, with the garbage trace too: two lines, in the directories'
# order.
cp -R "$TMPDIR_TEST/garbage/broken" "$coll/broken"
run two --dump "$coll"
status_is 1 "two unreadable traces, --dump"
check "two unreadable traces: two lines, in order" eval \
	'[ "$(err_lines two)" = 2 ] &&
	 sed -n 1p "$TMPDIR_TEST/two.err" | grep -q "^tracenav: $coll/broken: left out: cannot read the trace metadata" &&
	 sed -n 2p "$TMPDIR_TEST/two.err" | grep -q "^tracenav: $case_copy: left out: $reason"'
same_as_babeltrace2 two "two unreadable traces, --dump"

tap_done
