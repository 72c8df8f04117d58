#!/bin/sh
# write in --batch: the file holds exactly what --dump prints (byte for
# byte, on generated traces and every readable trace of the shared
# corpus, against babeltrace2 too), with filters what grep or awk keeps
# of it, or the marked events' lines with --marked; an existing file is refused unless write!, errors name the
# file, and no partial or temporary file is ever left.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC

dir="$TMPDIR_TEST/trace"
# Lost events, two traces (two hosts) and ties.
"$GEN_TRACE" --events 20000 --cpus 4 --packet-size 4096 --lost-every 7 \
	--traces 2 --ties 5 --seed 47 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
out="$TMPDIR_TEST/out"
mkdir "$out"

# no_temp: no temporary file of write is left in the output directory.
no_temp() {
	[ -z "$(ls -A "$out" | grep tracenav-)" ]
}

"$TRACENAV" --batch "write $out/all.txt" "$dir" > "$TMPDIR_TEST/stdout" 2>"$TMPDIR_TEST/err"
st=$?
check "write FILE: exit 0" test "$st" = 0
check "write FILE: the file is --dump's output, byte for byte" \
	cmp -s "$out/all.txt" "$TMPDIR_TEST/dump"
check "write FILE: says how many events" \
	grep -q "^wrote $(wc -l < "$TMPDIR_TEST/dump") events to $out/all.txt\$" \
	"$TMPDIR_TEST/err"
check "write FILE: nothing on standard output" test ! -s "$TMPDIR_TEST/stdout"
check "write FILE: a file of the usual mode (0666 less the umask)" \
	test "$(stat -c %a "$out/all.txt")" = "$(printf '%o' $((0666 & ~$(umask))))"
check "write FILE: no temporary file left" no_temp
if have_babeltrace2; then
	babeltrace2 "$dir" > "$TMPDIR_TEST/bt" 2>/dev/null
	check "write FILE: babeltrace2's output too" \
		cmp -s "$out/all.txt" "$TMPDIR_TEST/bt"
else
	skip "babeltrace2 CLI not installed"
fi

# The cursor stays: write from the middle, then print.
"$TRACENAV" --batch "goto #777; write $out/mid.txt; print 1" "$dir" \
	> "$TMPDIR_TEST/got" 2>/dev/null
sed -n 777p "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
check "write from event 777: the whole trace, and the cursor stays" \
	sh -c "cmp -s '$out/mid.txt' '$TMPDIR_TEST/dump' &&
		cmp -s '$TMPDIR_TEST/got' '$TMPDIR_TEST/want'"

# An existing file: refused without !, replaced with !.
echo precious > "$out/keep.txt"
"$TRACENAV" --batch "write $out/keep.txt; print 1" "$dir" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
st=$?
check "write to an existing file: exit 1" test "$st" = 1
check "write to an existing file: says to use write!" \
	grep -q "write: $out/keep.txt exists: write! $out/keep.txt replaces it" \
	"$TMPDIR_TEST/err"
check "write to an existing file: the file is untouched" \
	test "$(cat "$out/keep.txt")" = precious
check "write to an existing file: the script stops there" test ! -s "$TMPDIR_TEST/got"
"$TRACENAV" --batch "write! $out/keep.txt" "$dir" > /dev/null 2>&1
check "write! replaces it" cmp -s "$out/keep.txt" "$TMPDIR_TEST/dump"
check "no temporary file left" no_temp
"$TRACENAV" --batch "goto! 5" "$dir" > /dev/null 2>"$TMPDIR_TEST/err"
check "a ! on a command that takes none: an error" \
	grep -q "goto takes no '!'" "$TMPDIR_TEST/err"

# Errors name the file; nothing is left behind.
"$TRACENAV" --batch "write $out/no/such/dir/x.txt" "$dir" > /dev/null 2>"$TMPDIR_TEST/err"
st=$?
check "write into a missing directory: exit 1, the file and the cause" \
	test "$st" = 1 -a -n "$(grep "write: cannot write $out/no/such/dir/x.txt: No such file or directory" "$TMPDIR_TEST/err")"
"$TRACENAV" --batch "write! $out" "$dir" > /dev/null 2>"$TMPDIR_TEST/err"
check "write! onto a directory: refused" grep -q "write: $out is a directory" \
	"$TMPDIR_TEST/err"
# A write that fails midway (a file size limit: as a full disk, the
# write fails): the error names the file, no partial file is left.
(trap '' XFSZ; ulimit -f 64; "$TRACENAV" --batch "write $out/limited.txt" "$dir") \
	> /dev/null 2>"$TMPDIR_TEST/err"
st=$?
check "a failing write: exit 1, the file and the cause" \
	test "$st" = 1 -a -n "$(grep "write: cannot write $out/limited.txt: File too large" "$TMPDIR_TEST/err")"
check "a failing write: no file, no temporary file" \
	sh -c "test ! -e '$out/limited.txt' && test -z \"\$(ls -A '$out' | grep tracenav-)\""
usage_err() {
	"$TRACENAV" --batch "$1" "$dir" > /dev/null 2>"$TMPDIR_TEST/err"
	grep -q 'usage: write\[!\] \[--marked\] FILE' "$TMPDIR_TEST/err"
}
check "write without a file: usage" usage_err "write"
check "write --marked without a file: usage" usage_err "write --marked"

# With filters: the events that pass them, as grep (or awk) keeps them
# of --dump's output, deltas from the events before them in the trace;
# as many as count says.
# filtered DESC SCRIPT: the file written after SCRIPT is want's.
filtered() {
	rm -f "$out/f.txt"
	"$TRACENAV" --batch "$2; write $out/f.txt; count" "$dir" \
		> "$TMPDIR_TEST/count" 2>"$TMPDIR_TEST/err"
	if [ -s "$TMPDIR_TEST/want" ] && cmp -s "$out/f.txt" "$TMPDIR_TEST/want" &&
	   grep -q "^$(wc -l < "$TMPDIR_TEST/want") events pass the filters" \
		"$TMPDIR_TEST/count" &&
	   grep -q "those that pass the filters" "$TMPDIR_TEST/err"; then
		ok "$1"
	else
		not_ok "$1"
		diff "$TMPDIR_TEST/want" "$out/f.txt" | head -4 | cut -c1-120 | sed 's/^/# /'
		head -3 "$TMPDIR_TEST/err" "$TMPDIR_TEST/count" | sed 's/^/# /'
	fi
}
grep -P 'sched_switch' "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
filtered "filter-in sched_switch; write: grep -P's lines, count's number" \
	"filter-in sched_switch"
grep -P -v 'syscall_(entry|exit)_read' "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
filtered "filter-out syscall_(entry|exit)_read; write: grep -v's lines" \
	"filter-out syscall_(entry|exit)_read"
awk '$4 == "syscall_entry_read:"' "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
filtered "filter name == \"syscall_entry_read\"; write: awk's lines" \
	'filter name == "syscall_entry_read"'
grep -P 'sched_switch' "$TMPDIR_TEST/dump" | grep -P 'prev_tid = 0,' > "$TMPDIR_TEST/want"
filtered "two filters stacked; write: both greps' lines" \
	"filter-in sched_switch; filter-in prev_tid = 0,"
"$TRACENAV" --batch "filter-in sched_switch; mark; write --marked $out/fm.txt" \
	"$dir" > /dev/null 2>&1
grep -m1 -P 'sched_switch' "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
check "with filters, --marked: the marked events still" \
	cmp -s "$out/fm.txt" "$TMPDIR_TEST/want"
"$TRACENAV" --batch "unmark all" "$dir" > /dev/null 2>&1

# --marked: the marked events' lines, in trace order, deltas included.
"$TRACENAV" --batch "goto #15000; mark; goto #3; mark; goto #9999; mark; write --marked $out/marked.txt" \
	"$dir" > /dev/null 2>"$TMPDIR_TEST/err"
sed -n '3p;9999p;15000p' "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
check "write --marked: the three marked events' --dump lines, in order" \
	cmp -s "$out/marked.txt" "$TMPDIR_TEST/want"
check "write --marked: says how many" grep -q "^wrote 3 events to $out/marked.txt" \
	"$TMPDIR_TEST/err"
"$TRACENAV" --batch "unmark all; write --marked $out/none.txt" "$dir" > /dev/null 2>"$TMPDIR_TEST/err"
st=$?
check "write --marked without marks: exit 1, says so, no file" \
	test "$st" = 1 -a ! -e "$out/none.txt" -a -n "$(grep 'write --marked: no marks' "$TMPDIR_TEST/err")"

# The shared corpus: every trace that --dump reads.
if [ -d "$SHARED_TRACES" ]; then
	find "$SHARED_TRACES" -name metadata | sed 's|/metadata$||' |
		LC_ALL=C sort | corpus_share > "$TMPDIR_TEST/dirs"
	while read -r d; do
		"$TRACENAV" --dump "$d" > "$TMPDIR_TEST/d" 2>/dev/null || continue
		rm -f "$out/c.txt"
		"$TRACENAV" --no-cache --batch "write $out/c.txt" "$d" > /dev/null 2>&1
		if cmp -s "$out/c.txt" "$TMPDIR_TEST/d"; then
			ok "corpus ${d#"$SHARED_TRACES"/}: write = --dump"
		else
			not_ok "corpus ${d#"$SHARED_TRACES"/}: write = --dump"
			diff "$TMPDIR_TEST/d" "$out/c.txt" | head -4 | cut -c1-120 | sed 's/^/# /'
		fi
	done < "$TMPDIR_TEST/dirs"
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

tap_done
