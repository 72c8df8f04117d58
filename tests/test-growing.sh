#!/bin/sh
# A trace that grows while tracenav reads it, made deterministic: a
# generated kernel trace (4 streams, packets of 4096 bytes) copied in
# three steps, each stream file cut inside a packet and its index one
# packet behind, as a trace being written is; then whole.  At each step
# --batch (its commands fed through a pipe, `--batch-file -`) reloads and
# reads what babeltrace2 reads of a copy without the incomplete packets
# (repaired_copy, lib.sh); the current event, the filter and the mark
# stay; once whole, everything is read.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
trap '' PIPE

if ! have_babeltrace2; then
	skip "babeltrace2 CLI not installed: nothing to compare with"
	tap_done
	exit
fi

whole=$TMPDIR_TEST/whole
grow=$TMPDIR_TEST/growing
"$GEN_TRACE" --events 6000 --cpus 4 --packet-size 4096 "$whole" >/dev/null
cp -R "$whole" "$grow"

# write_part PERCENT: $grow as a trace being written (lib.sh).
write_part() {
	write_growing "$whole" "$grow" "$1"
}

# expected: what babeltrace2 prints of $grow as tracenav reads it now.
expected() {
	"$TRACENAV" --dump "$grow" >/dev/null 2>"$TMPDIR_TEST/notes"
	repaired_copy "$grow" "$TMPDIR_TEST/notes" "$TMPDIR_TEST/copy/c"
	babeltrace2 "$TMPDIR_TEST/copy/c" > "$TMPDIR_TEST/bt" 2>/dev/null
}

mkfifo "$TMPDIR_TEST/in"
# send COMMANDS LINES: run COMMANDS, wait for LINES lines of output in
# all (60 s at most: a loaded machine).
send() {
	echo "$1" >&3
	i=0
	while [ "$(wc -l < "$TMPDIR_TEST/out")" -lt "$2" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
line() {
	sed -n "$1p" "$TMPDIR_TEST/out" | awk '{ print $1 }'
}

write_part 30
expected
check "a third written: every stream file read up to its last whole packet" \
	test "$(grep -c ': read up to byte ' "$TMPDIR_TEST/notes")" = 4
# Its output files made before it waits for the pipe's writer.
"$TRACENAV" --no-cache --batch-file - "$grow" >"$TMPDIR_TEST/out" \
	2>"$TMPDIR_TEST/err" <"$TMPDIR_TEST/in" &
pid=$!
exec 3>"$TMPDIR_TEST/in"
send 'count' 1
check "a third written: $(line 1) events, as babeltrace2 reads them" \
	test "$(line 1)" = "$(wc -l < "$TMPDIR_TEST/bt")"
[ -n "$(line 1)" ] || { diag "stderr:"; head -5 "$TMPDIR_TEST/err" | sed 's/^/# /'; }
send 'goto 60%; mark; where; filter-in sched_switch; count' 3
where=$(sed -n 2p "$TMPDIR_TEST/out")
check "a third written: the filter, $(line 3) events" \
	test "$(line 3)" = "$(grep -c ' sched_switch: ' "$TMPDIR_TEST/bt")"

write_part 70
expected
send 'reload; where; count' 5
check "reload, two thirds written: the current event stays" \
	test "$(sed -n 4p "$TMPDIR_TEST/out")" = "$where"
check "reload, two thirds written: the filter stays, $(line 5) events" \
	test "$(line 5)" = "$(grep -c ' sched_switch: ' "$TMPDIR_TEST/bt")"

cp "$whole"/channel0_* "$grow/"
cp "$whole"/index/* "$grow/index/"
send 'reload; where; count; clear-filters; count; marks' 9
check "reload, whole: the current event stays" \
	test "$(sed -n 6p "$TMPDIR_TEST/out")" = "$where"
check "reload, whole: the filter stays, $(line 7) events" \
	test "$(line 7)" = "$(babeltrace2 "$whole" | grep -c ' sched_switch: ')"
check "reload, whole: all 6000 events" test "$(line 8)" = 6000
check "reload, whole: the mark stays" \
	test "$(sed -n 9p "$TMPDIR_TEST/out" | cut -c2-19)" = "$(echo "$where" | cut -c15-32)"
exec 3>&-
wait "$pid"
check "--batch-file - ends with its input, exit 1 (it read a damaged trace)" \
	test $? = 1
check "each reload said what grew" \
	test "$(grep -c '^reloaded .*: [0-9]* bytes more' "$TMPDIR_TEST/err")" = 2

tap_done
