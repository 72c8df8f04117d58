#!/bin/sh
# tracenav's merge of streams and libbabeltrace2's muxer (--bt-muxer)
# print the same thing: `tracenav --dump` with each, and `babeltrace2`,
# on generated traces of many streams and many ties (hosts sharing a
# clock, runs of equal timestamps, lost events) byte for byte, stdout,
# lost-event warnings and exit status; and both merges on every
# directory of the shared corpus (tests/test-dump-shared.sh holds the
# default merge to babeltrace2 there).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir

# same_dump DESC PATH [OPTIONS...]: both merges, same stdout, lost-event
# warnings and exit status (a failure is explained in other words).
same_dump() {
	desc=$1
	path=$2
	shift 2
	"$TRACENAV" --dump "$@" "$path" >"$TMPDIR_TEST/heap.out" \
		2>"$TMPDIR_TEST/heap.err"
	heap_status=$?
	"$TRACENAV" --bt-muxer --dump "$@" "$path" >"$TMPDIR_TEST/muxer.out" \
		2>"$TMPDIR_TEST/muxer.err"
	muxer_status=$?
	muxer_lines=$(wc -l < "$TMPDIR_TEST/muxer.out")
	if [ "$muxer_status" = 1 ] && [ "$heap_status" = 0 ] &&
	   grep -q "timestamp is less than muxer's message iterator's last returned timestamp" \
		"$TMPDIR_TEST/muxer.err" &&
	   head -n "$muxer_lines" "$TMPDIR_TEST/heap.out" |
		cmp -s - "$TMPDIR_TEST/muxer.out"; then
		# The muxer stops where a stream's time goes back, the
		# merge reads on: the same up to there.
		ok "$desc up to where a time goes back and the muxer stops ($muxer_lines events), then $(($(wc -l < "$TMPDIR_TEST/heap.out") - muxer_lines)) more"
	elif [ "$heap_status" = "$muxer_status" ] &&
	   cmp -s "$TMPDIR_TEST/heap.out" "$TMPDIR_TEST/muxer.out" &&
	   [ "$(grep WARNING "$TMPDIR_TEST/heap.err")" = \
	     "$(grep WARNING "$TMPDIR_TEST/muxer.err")" ]; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "exit: merge $heap_status, --bt-muxer $muxer_status"
		diff "$TMPDIR_TEST/heap.out" "$TMPDIR_TEST/muxer.out" |
			head -5 | cut -c1-200 | sed 's/^/# /'
	fi
}

# check_generated NAME GEN-OPTIONS...: both merges and babeltrace2.
check_generated() {
	name=$1
	shift
	dir="$TMPDIR_TEST/$name"
	if ! "$GEN_TRACE" "$@" "$dir" >/dev/null 2>&1; then
		not_ok "$name: gen-trace $*"
		return
	fi
	same_dump "$name: --bt-muxer prints the same" "$dir"
	if have_babeltrace2; then
		same_output "$name: same as babeltrace2" "$dir"
		babeltrace2 "$dir" 2>&1 >/dev/null | grep WARNING \
			> "$TMPDIR_TEST/bt.warn"
		grep WARNING "$TMPDIR_TEST/tn.err" > "$TMPDIR_TEST/tn.warn"
		check "$name: same lost-event warnings as babeltrace2" \
			cmp -s "$TMPDIR_TEST/bt.warn" "$TMPDIR_TEST/tn.warn"
	else
		skip "babeltrace2 CLI not installed"
	fi
}

check_generated hosts-ties --events 30000 --cpus 16 --traces 8 --ties 2 \
	--packet-size 4096 --seed 21
check_generated many-streams --events 40000 --cpus 64 --traces 5 --ties 3 \
	--seed 22
check_generated lost-ties --events 30000 --cpus 8 --traces 3 --ties 2 \
	--packet-size 4096 --lost-every 2 --lost-packets-every 3 --seed 23
check_generated all-tied --events 3000 --cpus 6 --traces 2 --ties 1 --seed 24

# Bounds go through libbabeltrace2's trimmer, which seeks the merge to
# its beginning.
dir="$TMPDIR_TEST/hosts-ties"
if have_babeltrace2 && [ -d "$dir" ]; then
	export TZ=UTC
	"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/all" 2>/dev/null
	mid=$(sed -n '10000p' "$TMPDIR_TEST/all" | cut -c2-19)
	late=$(sed -n '20000p' "$TMPDIR_TEST/all" | cut -c2-19)
	same_output "hosts-ties: --begin/--end as babeltrace2" "$dir" \
		--begin "$mid" --end "$late"
	same_dump "hosts-ties: --begin/--end, --bt-muxer the same" \
		"$dir" --begin "$mid" --end "$late"
	unset TZ
fi

if [ -d "$SHARED_TRACES" ]; then
	find "$SHARED_TRACES" -type d | LC_ALL=C sort | corpus_share \
		> "$TMPDIR_TEST/dirs"
	while read -r dir; do
		same_dump "shared ${dir#"$SHARED_TRACES"/}: --bt-muxer prints the same" \
			"$dir"
	done < "$TMPDIR_TEST/dirs"
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

tap_done
