#!/bin/sh
# Marks in --batch: mark, unmark, marks, next-mark and prev-mark land on
# the marked events (their --dump lines, ties included), wrap around at
# either end, and the marks come back in the next run (a file next to
# the cache); a damaged marks file is reported and kept aside.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC

dir="$TMPDIR_TEST/trace"
# Ties: events sharing a timestamp on other streams.
"$GEN_TRACE" --events 20000 --cpus 4 --packet-size 4096 --ties 5 \
	--seed 43 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
total=$(wc -l < "$TMPDIR_TEST/dump")
marks_dir="$XDG_CACHE_HOME/tracenav"

# numbered K...: those lines of the dump, "#K " before each (marks
# once the index is built); plain K...: without.
numbered() {
	for k in "$@"; do
		printf '#%s ' "$k"
		sed -n "${k}p" "$TMPDIR_TEST/dump"
	done
}
plain() {
	for k in "$@"; do sed -n "${k}p" "$TMPDIR_TEST/dump"; done
}

# batch_out DESC SCRIPT WANT_FILE: stdout of the script is the file's.
batch_out() {
	"$TRACENAV" --batch "$2" "$dir" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
	st=$?
	if [ "$st" = 0 ] && cmp -s "$TMPDIR_TEST/got" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		diag "exit $st"
		diff "$3" "$TMPDIR_TEST/got" | head -4 | cut -c1-120 | sed 's/^/# /'
		head -2 "$TMPDIR_TEST/err" | sed 's/^/# /'
	fi
}

# A tie: the second of two events sharing a time, where one exists.
# The second event of the first time shared by two, after event 12000.
tie_k=$(sed 's/^\(\[[^]]*\]\).*/\1/' "$TMPDIR_TEST/dump" |
	awk 'NR > 12000 && $0 == last { print NR; exit } { last = $0 }')
check "the trace has ties (event $tie_k is the second of its time)" \
	test -n "$tie_k"

numbered 1 9000 "$tie_k" 19999 > "$TMPDIR_TEST/want"
batch_out "mark four events (one a tie), marks: their lines and numbers" \
	"index; mark; goto #9000; mark; goto #$tie_k; mark; bottom; up; mark; marks" \
	"$TMPDIR_TEST/want"
check "mark: says how many" grep -q '^marked (4 marks' "$TMPDIR_TEST/err"
mfile=$(ls "$marks_dir"/*.marks 2>/dev/null | head -1)
check "the marks file is next to the cache" test -n "$mfile"
check "the marks file is private (0600)" \
	test "$(stat -c %a "$mfile" 2>/dev/null)" = 600
check "the marks file: a version line and four marks" \
	test "$(head -1 "$mfile")" = "tracenav-marks 1" -a \
	"$(grep -c '^[0-9-]* [0-9]*$' "$mfile")" = 4

# The next run has them: without the index, the lines alone.
plain 1 9000 "$tie_k" 19999 > "$TMPDIR_TEST/want"
batch_out "marks in a new run, without the index: the lines" "marks" \
	"$TMPDIR_TEST/want"

# next-mark and prev-mark, counts, wrap-around.
plain 9000 "$tie_k" 19999 1 19999 "$tie_k" > "$TMPDIR_TEST/want"
batch_out "next-mark three times (wraps to the first), prev-mark, prev-mark" \
	"next-mark; print 1; next-mark; print 1; next-mark; print 1; next-mark; print 1; prev-mark; print 1; prev-mark; print 1" \
	"$TMPDIR_TEST/want"
plain "$tie_k" 1 > "$TMPDIR_TEST/want"
batch_out "next-mark 2 from the first event; prev-mark 2" \
	"next-mark 2; print 1; prev-mark 2; print 1" "$TMPDIR_TEST/want"
"$TRACENAV" --batch "bottom; next-mark; print 1" "$dir" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
plain 1 > "$TMPDIR_TEST/want"
check "next-mark after the last mark: the first" cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
check "next-mark after the last mark: says it wrapped" \
	grep -q 'next-mark: wrapped around to the first mark' "$TMPDIR_TEST/err"
plain 9000 1 > "$TMPDIR_TEST/want"
batch_out "from event 4000: next-mark is 9000, prev-mark is 1" \
	"goto #4000; next-mark; print 1; goto #4000; prev-mark; print 1" \
	"$TMPDIR_TEST/want"

# Toggling and unmarking.
numbered 1 "$tie_k" 19999 > "$TMPDIR_TEST/want"
batch_out "mark on a marked event unmarks it" "goto #9000; mark; marks" \
	"$TMPDIR_TEST/want"
check "mark on a marked event: says so" grep -q '^mark removed (3 marks left)' \
	"$TMPDIR_TEST/err"
"$TRACENAV" --batch "goto #9000; unmark" "$dir" > /dev/null 2>"$TMPDIR_TEST/err"
st=$?
check "unmark an event that is not marked: exit 1" test "$st" = 1
check "unmark an event that is not marked: says so" \
	grep -q 'unmark: the current event is not marked' "$TMPDIR_TEST/err"
numbered 1 19999 > "$TMPDIR_TEST/want"
batch_out "unmark the tie" "goto #$tie_k; unmark; marks" "$TMPDIR_TEST/want"
: > "$TMPDIR_TEST/want"
batch_out "unmark all: no marks" "unmark all; marks" "$TMPDIR_TEST/want"
check "unmark all: says how many" grep -q '^2 marks removed' "$TMPDIR_TEST/err"
check "marks with no mark: says so" grep -q '^no marks' "$TMPDIR_TEST/err"
check "no mark: no marks file" test ! -e "$mfile"
"$TRACENAV" --batch "next-mark" "$dir" > /dev/null 2>"$TMPDIR_TEST/err"
st=$?
check "next-mark with no mark: exit 1, says so" \
	test "$st" = 1 -a -n "$(grep 'next-mark: no marks' "$TMPDIR_TEST/err")"

# A damaged file: reported, moved aside, the run goes on without marks.
"$TRACENAV" --batch "goto #10; mark" "$dir" > /dev/null 2>&1
printf 'tracenav-marks 1\n12 zz\n' > "$mfile"
numbered 10 > "$TMPDIR_TEST/want"
"$TRACENAV" --batch "marks; goto #10; mark; marks" "$dir" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
st=$?
check "a damaged marks file: exit 0" test "$st" = 0
check "a damaged marks file: reported with the line" \
	grep -q "is damaged (line 2: .12 zz. is not .NS TIE.): kept as $mfile.bad" \
	"$TMPDIR_TEST/err"
check "a damaged marks file: kept aside" grep -q '12 zz' "$mfile.bad"
check "a damaged marks file: new marks saved anew" \
	cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"

# --no-cache: marks in memory only.
rm -f "$mfile"
"$TRACENAV" --no-cache --batch "goto #10; mark" "$dir" > /dev/null 2>&1
check "--no-cache: no marks file" test -z "$(ls "$marks_dir"/*.marks 2>/dev/null)"

# The shared corpus: mark an event in the middle, go back to the first
# event, next-mark lands on it (its --dump line).
if [ -d "$SHARED_TRACES" ]; then
	find "$SHARED_TRACES" -name metadata | sed 's|/metadata$||' |
		LC_ALL=C sort | corpus_share > "$TMPDIR_TEST/dirs"
	while read -r d; do
		"$TRACENAV" --dump "$d" > "$TMPDIR_TEST/d" 2>/dev/null || continue
		n=$(wc -l < "$TMPDIR_TEST/d")
		[ "$n" -gt 1 ] || continue
		k=$(( (n + 1) / 2 ))
		"$TRACENAV" --batch "goto #$k; mark; top; next-mark; print 1; marks; unmark all" \
			"$d" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
		{ sed -n "${k}p" "$TMPDIR_TEST/d"; printf '#%s ' "$k"
		  sed -n "${k}p" "$TMPDIR_TEST/d"; } > "$TMPDIR_TEST/want"
		if cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"; then
			ok "corpus ${d#"$SHARED_TRACES"/}: mark #$k, next-mark, marks"
		else
			not_ok "corpus ${d#"$SHARED_TRACES"/}: mark #$k, next-mark, marks"
			diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -4 | cut -c1-120 | sed 's/^/# /'
			head -2 "$TMPDIR_TEST/err" | sed 's/^/# /'
		fi
	done < "$TMPDIR_TEST/dirs"
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

tap_done
