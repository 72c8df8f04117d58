#!/bin/sh
# tracenav --dump against the babeltrace2 CLI on every directory of the
# shared trace corpus (real LTTng kernel and UST traces, CTF edge cases,
# corrupt traces): same stdout, same exit status; where tracenav leaves
# unreadable traces of a collection out, or reads damaged stream files
# in part, the same stdout as babeltrace2 on a copy without what it left
# out.  Skipped when the corpus is not beside the repository.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

if [ ! -d "$SHARED_TRACES" ]; then
	skip "no shared trace corpus at $SHARED_TRACES"
	tap_done
	exit
fi
if ! have_babeltrace2; then
	skip "babeltrace2 CLI not installed (apt-get install babeltrace2)"
	tap_done
	exit
fi
make_tmpdir

# dump_like_babeltrace2 DESC DIR: as same_output, except where tracenav
# reads less of DIR than it holds, or more than babeltrace2 does (which
# refuses a whole trace or collection for one damaged file): when it
# leaves traces of the collection out ("left out" lines on stderr), or
# reads damaged stream files in part or skips them ("read up to byte",
# "skipped" lines), its stdout must be what babeltrace2 prints of a copy
# of DIR without what it left out (repaired_copy, lib.sh), and its
# status 1; the test's name says so.
dump_like_babeltrace2() {
	desc=$1
	dir=$2
	"$TRACENAV" --dump "$dir" >"$TMPDIR_TEST/tn.out" 2>"$TMPDIR_TEST/tn.err"
	tn_status=$?
	repaired_copy "$dir" "$TMPDIR_TEST/tn.err" "$TMPDIR_TEST/copy/c"
	bt_dir=$dir
	if [ -n "$repaired_changes" ]; then
		bt_dir="$TMPDIR_TEST/copy/c"
		desc="$desc (without what tracenav left out: $repaired_changes)"
	fi
	babeltrace2 "$bt_dir" >"$TMPDIR_TEST/bt.out" 2>"$TMPDIR_TEST/bt.err"
	bt_status=$?
	[ -n "$repaired_changes" ] && bt_status=1
	if [ "$bt_status" = 1 ] && [ "$tn_status" = 0 ] &&
	   grep -q "timestamp is less than muxer's message iterator's last returned timestamp" \
		"$TMPDIR_TEST/bt.err" &&
	   bt_lines=$(wc -l < "$TMPDIR_TEST/bt.out") &&
	   head -n "$bt_lines" "$TMPDIR_TEST/tn.out" | cmp -s - "$TMPDIR_TEST/bt.out" &&
	   [ "$(wc -l < "$TMPDIR_TEST/tn.out")" -gt "$bt_lines" ]; then
		# babeltrace2's muxer stops where a stream's time goes back;
		# tracenav reads on (the same events up to there).
		ok "$desc: babeltrace2's $bt_lines events up to where a time goes back and it stops, then $(($(wc -l < "$TMPDIR_TEST/tn.out") - bt_lines)) more"
	elif [ "$bt_status" = "$tn_status" ] &&
	   cmp -s "$TMPDIR_TEST/bt.out" "$TMPDIR_TEST/tn.out"; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "babeltrace2 exit $bt_status (wanted), tracenav exit $tn_status"
		diff "$TMPDIR_TEST/bt.out" "$TMPDIR_TEST/tn.out" | head -5 |
			cut -c1-200 | sed 's/^/# /'
		head -3 "$TMPDIR_TEST/tn.err" | cut -c1-200 | sed 's/^/# /'
	fi
}

# Every directory: single traces, their parents holding several traces,
# and directories that hold none (both tools must fail alike).
find "$SHARED_TRACES" -type d | LC_ALL=C sort > "$TMPDIR_TEST/dirs"
while read -r dir; do
	dump_like_babeltrace2 "dump ${dir#"$SHARED_TRACES"/}" "$dir"
done < "$TMPDIR_TEST/dirs"

# --begin/--end in each time form babeltrace2 accepts, on traces that
# babeltrace2 reads: bounds taken at one and two thirds of the events.
for rel in babeltrace2/succeed/multi-domains \
	   babeltrace2/succeed/lttng-tracefile-rotation \
	   babeltrace2/packet_seq_num tracecompass/bug446190 \
	   tracecompass/cyg-profile; do
	dir="$SHARED_TRACES/$rel"
	[ -d "$dir" ] || { skip "$rel not in the corpus"; continue; }
	babeltrace2 --clock-seconds "$dir" 2>/dev/null > "$TMPDIR_TEST/secs"
	babeltrace2 --clock-date "$dir" 2>/dev/null > "$TMPDIR_TEST/dates"
	n=$(wc -l < "$TMPDIR_TEST/secs")
	if ! head -1 "$TMPDIR_TEST/secs" | grep -q '^\['; then
		not_ok "$rel: babeltrace2 printed no timestamps"
		continue
	fi
	a=$((n / 3 + 1))
	b=$((2 * n / 3 + 1))
	sec_a=$(sed -n "${a}s/^\[\([^]]*\)\].*/\1/p" "$TMPDIR_TEST/secs")
	sec_b=$(sed -n "${b}s/^\[\([^]]*\)\].*/\1/p" "$TMPDIR_TEST/secs")
	date_a=$(sed -n "${a}s/^\[\([^]]*\)\].*/\1/p" "$TMPDIR_TEST/dates")
	date_b=$(sed -n "${b}s/^\[\([^]]*\)\].*/\1/p" "$TMPDIR_TEST/dates")
	tod_a=${date_a#* }
	tod_b=${date_b#* }
	same_output "$rel --begin SEC.NS" "$dir" --begin "$sec_a"
	same_output "$rel --end SEC.NS" "$dir" --end "$sec_b"
	same_output "$rel --begin/--end date and time" "$dir" \
		--begin "$date_a" --end "$date_b"
	# Several traces on different days put both times of day on the
	# first day; babeltrace2 then fails at run time, tracenav as bad
	# usage, so compare only ordered pairs.
	if [ "$(printf '%s\n%s\n' "$tod_a" "$tod_b" | sort | head -1)" = "$tod_a" ]; then
		same_output "$rel --begin/--end time of day" "$dir" \
			--begin "$tod_a" --end "$tod_b"
	fi
	same_output "$rel --begin HH:MM" "$dir" --begin "$(echo "$tod_a" | cut -c1-5)"
done

tap_done
