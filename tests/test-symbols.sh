#!/bin/sh
# --symbols FILE: call stacks by function name.  On the cyg-profile
# traces of the shared corpus (when it is there) with their nm mapping
# file: at random events, every level of every thread's call stack that
# `state Processes/**/Call_stack/**` prints is the function that an awk
# lookup in the mapping file gives for the address that the --dump
# text's func_entry and func_exit lines leave there (hex when no
# function covers it).  A cache made without --symbols serves a run with
# it and the other way round (the names are made when shown).  A bad
# mapping file stops tracenav with its line.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC LC_ALL=C.UTF-8

# want_stacks MAP DUMP NUMBERS: at each event number K, every level of
# each thread's call stack as state prints it ("#K<tab>LINE"), the
# addresses named from MAP (nm output) when SYMBOLS is 1.
want_stacks() {
	names_from=
	[ "$SYMBOLS" = 1 ] && names_from=$1
	awk -v numbers="$3" -v map="$names_from" \
		-f "$top_srcdir/tests/stacks.awk" "$2"
}

# got_stacks OUTPUT: the levels of the call stacks in the output of
# "goto #K; where; state Processes/**/Call_stack/**" ("#K<tab>LINE").
got_stacks() {
	awk '
	/^event [0-9]+ of [0-9]+ at / { k = $2; next }
	/\/Call_stack\/[0-9]+ = / { print "#" k "\t" $0 }
	' "$1"
}

# ---- a bad mapping file ----
trace="$TMPDIR_TEST/trace"
"$GEN_TRACE" --events 1000 --cpus 2 "$trace" >/dev/null
printf '0000000000401000 T main\n                 U puts\nnot-nm output\n' \
	> "$TMPDIR_TEST/bad.txt"
"$TRACENAV" --symbols "$TMPDIR_TEST/bad.txt" --batch 'where' "$trace" \
	> "$TMPDIR_TEST/out" 2> "$TMPDIR_TEST/err"
status=$?
check "a bad mapping file: exit status 2 (got $status)" test "$status" = 2
check "a bad mapping file: its line" grep -q \
	"bad.txt:3: expected a hexadecimal address, got 'not-nm'" \
	"$TMPDIR_TEST/err"
"$TRACENAV" --symbols "$TMPDIR_TEST/none.txt" --batch 'where' "$trace" \
	> "$TMPDIR_TEST/out" 2> "$TMPDIR_TEST/err"
status=$?
check "a missing mapping file: exit status 2 (got $status)" \
	test "$status" = 2
check "a missing mapping file: says so" grep -q \
	"cannot read the symbols" "$TMPDIR_TEST/err"

# ---- the shared cyg-profile traces ----
dir=$SHARED_TRACES/tracecompass/cyg-profile
map=$dir/cyg-profile-mapping.txt
if [ -f "$map" ]; then
	seed=31
	for name in glxgears-cyg-profile glxgears-cyg-profile-fast; do
		trace=$dir/$name
		[ -d "$trace" ] || { skip "no $name in the corpus"; continue; }
		"$TRACENAV" --dump "$trace" > "$TMPDIR_TEST/dump" 2>/dev/null
		total=$(wc -l < "$TMPDIR_TEST/dump")
		numbers=$( (pick 25 1 "$total" "$seed"; echo "$total") |
			sort -n -u | tr '\n' ' ')
		seed=$((seed + 1))
		script=$(for k in $numbers; do
			printf 'goto #%s; where; ' "$k"
			printf 'state Processes/**/Call_stack/**; '; done)
		SYMBOLS=1 want_stacks "$map" "$TMPDIR_TEST/dump" "$numbers" \
			> "$TMPDIR_TEST/want-names"
		SYMBOLS=0 want_stacks "$map" "$TMPDIR_TEST/dump" "$numbers" \
			> "$TMPDIR_TEST/want-hex"
		check "$name: the expected stacks name functions" \
			grep -q '= "draw_gears"$' "$TMPDIR_TEST/want-names"
		cache="$TMPDIR_TEST/cache-$name"
		# Without symbols first, the cache made (index: with the
		# state's snapshots); then with symbols on that cache; then
		# without again.
		for run in hex:index names: hex:; do
			kind=${run%%:*}
			first=${run#*:}
			set --
			[ "$kind" = names ] && set -- --symbols "$map"
			"$TRACENAV" --cache-dir "$cache" "$@" --batch \
				"${first:+$first; }$script" "$trace" \
				> "$TMPDIR_TEST/out" 2> "$TMPDIR_TEST/err"
			status=$?
			got_stacks "$TMPDIR_TEST/out" > "$TMPDIR_TEST/got"
			same_lines "$name ${*:+--symbols }(${first:-cached}): stacks at $(echo "$numbers" | wc -w) events as $kind" \
				"$TMPDIR_TEST/want-$kind" "$TMPDIR_TEST/got" \
				"$status"
		done
	done
else
	skip "no cyg-profile traces in the shared corpus at $SHARED_TRACES"
fi

tap_done
