#!/bin/sh
# test-tui-histogram.sh - the histogram strip, through tmux, on a
# collection of three generated traces one second apart (6000, 2000 and
# 6000 events): i opens it; without the index it says how to get one;
# with it, the bars of each column are the events whose time falls in
# that column of the axis's range, counted by awk over --dump (block
# characters, or ASCII under --ascii); ^ marks the cursor's column; h
# and l (focused) go to the first event of the previous or next column
# with events, as awk finds it; i closes it.  A filter's matches are
# drawn in the match style in the columns where awk finds them; lost
# events put a ! over the columns their notices begin in.  z zooms the
# strip on the screen's events, the range or the selection: a bin per
# column, each the events awk counts in it, with ticks at round times;
# Z goes back to the whole trace.  While a big trace is indexed, the
# bars fill in for what was read.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC

dir="$TMPDIR_TEST/three"
"$GEN_TRACE" --events 6000 --cpus 2 --hostname alpha --seed 1 \
	"$dir/a" >/dev/null
"$GEN_TRACE" --events 2000 --cpus 2 --hostname beta --seed 2 \
	--start 1700000001 "$dir/b" >/dev/null
"$GEN_TRACE" --events 6000 --cpus 2 --hostname gamma --seed 3 \
	--start 1700000002 "$dir/c" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"
# The events' times, ns since midnight, in order.
sed 's/^\[\([^]]*\)\].*/\1/' "$TMPDIR_TEST/dump" |
	awk -F'[:.]' '{ printf "%.0f\n", (($1 * 60 + $2) * 60 + $3) * 1e9 + $4 }' \
	> "$TMPDIR_TEST/ns"

# strip NAME: the strip's lines, from under its title to the status bar
# (which starts with the trace's directory name).
strip() {
	screen "$1" | awk -v bar=" ${dir##*/}  " '
		/^ Histogram \(i hides\)/ { on = 1; next }
		on && index($0, bar) == 1 { exit } on'
}

# axis NAME: "BEGIN END" of the strip's time axis (ns since midnight),
# once the index is built (fails before).
axis() {
	set -- $(strip "$1" | tail -1)
	# Both times: not "indexing NN%" while the index is built.
	[ $# -eq 2 ] || return 1
	case "$1$2" in
	*[!0-9:.]*) return 1 ;;
	esac
	echo "$(ns_of_day "$1") $(ns_of_day "$2")"
}

# heights NAME COLS: each column's bar height in eighths, from the
# glyphs of the rows above the axis (column 1 of the screen on).
heights() {
	strip "$1" | sed '$d' |
		sed 's/▁/1/g; s/▂/2/g; s/▃/3/g; s/▄/4/g; s/▅/5/g; s/▆/6/g;
			s/▇/7/g; s/█/8/g; s/\./2/g; s/:/4/g; s/=/6/g; s/#/8/g;
			s/ /0/g' |
		awk -v cols="$2" '{ for (c = 1; c <= cols; c++)
				h[c] += substr($0, c + 1, 1) }
			END { for (c = 1; c <= cols; c++) print h[c] + 0 }'
}

# want_heights BEGIN END COLS ROWS: the same from the dump's times, as
# the strip scales them (the highest column is ROWS * 8 eighths, any
# column with events at least 1).
want_heights() {
	awk -v b="$1" -v e="$2" -v cols="$3" -v rows="$4" '
	{ c = int(($1 - b) / (e - b + 1) * cols); n[c]++ }
	END { for (c = 0; c < cols; c++) if (n[c] > max) max = n[c]
	      for (c = 0; c < cols; c++) {
		h = int(n[c] / max * rows * 8 + 0.5)
		if (h == 0 && n[c] > 0) h = 1
		print h } }' "$TMPDIR_TEST/ns"
}

# same_heights NAME COLS ROWS: the bars are the dump's counts (within an
# eighth: the strip resamples the index's bins).
same_heights() {
	range=$(axis "$1") || return 1
	heights "$1" "$2" > "$TMPDIR_TEST/got"
	want_heights $range "$2" "$3" > "$TMPDIR_TEST/want"
	paste "$TMPDIR_TEST/got" "$TMPDIR_TEST/want" |
		awk '{ d = $1 - $2; if (d < -1 || d > 1) bad = 1; n++ }
			END { exit bad || n == 0 }'
}

# col_time BEGIN END COLS COL: the first ns of column COL.
col_time() {
	awk -v b="$1" -v e="$2" -v cols="$3" -v c="$4" \
		'BEGIN { printf "%.0f\n", b + int((e - b + 1) * c / cols) }'
}

# first_at NS: "TIME NAME" of the first event at or after NS.
first_at() {
	k=$(awk -v t="$1" '$1 >= t { print NR; exit }' "$TMPDIR_TEST/ns")
	event "$k"
}

# ---- without the index ----

start st 80 24
wait_for st "$HEADER" >/dev/null
tm send-keys -t st i
check "i without the index: the strip says how to get it" \
	wait_for st "The histogram needs the index: type :index"
tm send-keys -t st : i n d e x Enter
check ":index: the strip shows the time axis" \
	wait_until 150 axis st
cols=79		# 80 columns, the first one a margin
rows=$(($(strip st | wc -l) - 1))
check "80x24: the strip has two rows of bars ($rows)" [ "$rows" = 2 ]
if same_heights st $cols $rows; then
	ok "the bars are the events per column, as awk counts the dump"
else
	not_ok "the bars are the events per column, as awk counts the dump"
	paste "$TMPDIR_TEST/got" "$TMPDIR_TEST/want" | awk '$1 != $2' |
		head -5 | sed 's/^/# got, want: /'
fi
range=$(axis st)
begin=${range% *}
first=$(head -1 "$TMPDIR_TEST/ns")
check "the axis starts at or before the first event" [ "$begin" -le "$first" ]
check "the list keeps its rows" wait_until 50 same_rows st 1 10

# The cursor's column: ^ under it, where no time is written.
tm send-keys -t st 7 0 0 0 j
check "7000j: event 7001" wait_status st "$(event 7001 | cut -d' ' -f1)"
col=$(awk -v t="$(sed -n 7001p "$TMPDIR_TEST/ns")" -v r="$range" \
	-v cols=$cols 'BEGIN { split(r, x, " ")
		print int((t - x[1]) / (x[2] - x[1] + 1) * cols) }')
marked() {
	strip st | tail -1 | cut -c $((col + 2)) | grep -q '\^'
}
check "^ marks the cursor's column ($col)" wait_until 50 marked

# h and l, the strip focused: the next columns with events.
tm send-keys -t st Tab l
next_busy=$(want_heights $range $cols $rows |
	awk -v c="$col" 'NR - 1 > c && $1 > 0 { print NR - 1; exit }')
want=$(first_at "$(col_time $range $cols "$next_busy")")
check "l: the first event of the next column with events ($next_busy)" \
	wait_status st "${want%% *}"
tm send-keys -t st h
prev_busy=$(want_heights $range $cols $rows |
	awk -v c="$next_busy" 'NR - 1 < c && $1 > 0 { p = NR - 1 } END { print p }')
want=$(first_at "$(col_time $range $cols "$prev_busy")")
check "h: the first event of the previous one ($prev_busy)" \
	wait_status st "${want%% *}"
tm send-keys -t st 9 h
check "9h: as far as there are columns with events: the first event" \
	wait_status st "$(event 1 | cut -d' ' -f1)"
# Keys typed before the first move is shown step on from where it goes.
col=$(awk -v t="$first" -v r="$range" -v cols=$cols 'BEGIN { split(r, x, " ")
		print int((t - x[1]) / (x[2] - x[1] + 1) * cols) }')
second_busy=$(want_heights $range $cols $rows |
	awk -v c="$col" 'NR - 1 > c && $1 > 0 && ++n == 2 { print NR - 1; exit }')
want=$(first_at "$(col_time $range $cols "$second_busy")")
tm send-keys -t st l l
check "l l at once: the second column with events on ($second_busy)" \
	wait_status st "${want%% *}"
tm send-keys -t st i
check "i: the strip closes" wait_until 50 eval '! shows st "Histogram \(i hides\)"'
check "the list is there" shows st "$HEADER"
tm send-keys -t st q
check "q: exits 0" wait_exit st 0

# ---- --ascii, the index from the cache ----

start as 80 24 "--ascii"
wait_for as "$HEADER" >/dev/null
tm send-keys -t as i
check "--ascii: the strip shows the axis" wait_until 150 axis as
check "--ascii: full columns are #" eval 'strip as | grep -q "#"'
check "--ascii: no block characters" eval '! strip as | grep -q "█"'
if same_heights as $cols $rows; then
	ok "--ascii: the bars are the events per column (in quarters)"
else
	not_ok "--ascii: the bars are the events per column (in quarters)"
fi
tm send-keys -t as q
check "--ascii: q exits 0" wait_exit as 0

# ---- a filter's matches over the bars ----

# 10 sched_process_hang among 200000 events; NO_COLOR: the matches'
# cells are bold and underlined.
dir="$TMPDIR_TEST/hang"
"$GEN_TRACE" --events 200000 --cpus 4 --hang-every 20000 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" 2>/dev/null | grep ' sched_process_hang: ' |
	sed 's/^\[\([^]]*\)\].*/\1/' |
	awk -F'[:.]' '{ printf "%.0f\n", (($1 * 60 + $2) * 60 + $3) * 1e9 + $4 }' \
	> "$TMPDIR_TEST/hang-ns"
TEST_ENV="NO_COLOR=1" start hang 80 24 "--cache-dir '$TMPDIR_TEST/hangcache'"
unset TEST_ENV
tm send-keys -t hang i
wait_until 150 axis hang >/dev/null
tm send-keys -t hang : 'filter name == "sched_process_hang"' Enter
# underlined: the columns (0-based, in the strip) of the bottom row of
# bars drawn underlined.
underlined() {
	tm capture-pane -e -p -t hang | awk -v bar=" hang  " '
		{ plain = $0; gsub(/\033\[[0-9;]*m/, "", plain) }
		index(plain, bar) == 1 { print prev; exit }
		{ prev = last; last = $0 }' |
	LC_ALL=C.UTF-8 sed 's/[▁▂▃▄▅▆▇█]/g/g' | underlined_columns |
		awk '$1 > 0 { print $1 - 1 }'
}
has_underlined() {
	[ -n "$(underlined)" ]
}
check "filter: some cells of the bars show matches" \
	wait_until 100 has_underlined
underlined > "$TMPDIR_TEST/marked"
range=$(axis hang)
awk -v r="$range" -v cols=$cols 'BEGIN { split(r, x, " ") }
	{ print int(($1 - x[1]) / (x[2] - x[1] + 1) * cols) }' \
	"$TMPDIR_TEST/hang-ns" | sort -un > "$TMPDIR_TEST/hang-cols"
check "filter: each column with a match is marked" \
	eval '[ -z "$(comm -23 "$TMPDIR_TEST/hang-cols" "$TMPDIR_TEST/marked")" ]'
# A match is known to its checkpoint interval (4096 events, about 1.6
# columns here), not to its time: marks are near matches.
near_matches() {
	awk 'NR == FNR { m[$1] = 1; next }
		{ ok = 0; for (d = -2; d <= 2; d++) if (($1 + d) in m) ok = 1
		  if (!ok) bad = 1 }
		END { exit bad }' "$TMPDIR_TEST/hang-cols" "$TMPDIR_TEST/marked"
}
check "filter: marks only within two columns of a match" near_matches
tm send-keys -t hang q
check "q exits 0" wait_exit hang 0

# ---- lost events: a ! on top of their columns ----

dir="$TMPDIR_TEST/lost"
"$GEN_TRACE" --events 100000 --cpus 2 --lost-every 7 "$dir" >/dev/null
# The columns of the times the notices begin at (the first time of
# babeltrace2's "discarded N events between [T1] and [T2]").
"$TRACENAV" --dump "$dir" 2>&1 >/dev/null |
	sed -n 's/.*discarded [0-9]* events between \[\([^]]*\)\].*/\1/p' |
	awk -F'[:.]' '{ printf "%.0f\n", (($1 * 60 + $2) * 60 + $3) * 1e9 + $4 }' \
	> "$TMPDIR_TEST/lost-ns"
start lost 80 24 "--cache-dir '$TMPDIR_TEST/lostcache'"
tm send-keys -t lost i
wait_until 150 axis lost >/dev/null
range=$(axis lost)
awk -v r="$range" -v cols=$cols 'BEGIN { split(r, x, " ") }
	{ print int(($1 - x[1]) / (x[2] - x[1] + 1) * cols) }' \
	"$TMPDIR_TEST/lost-ns" | sort -un > "$TMPDIR_TEST/lost-cols"
strip lost | head -1 | LC_ALL=C.UTF-8 sed 's/[▁▂▃▄▅▆▇█]/g/g' |
	awk '{ n = split($0, ch, "")
	for (i = 2; i <= n; i++) if (ch[i] == "!") print i - 2 }' \
	> "$TMPDIR_TEST/bangs"
# The index keeps the lost events per 1/65536 of the time span: a bin
# that straddles two columns marks both, so a ! may stand one column
# before or after the one a notice begins in.
near_lost() {
	awk 'FILENAME == ARGV[1] { want[$1] = 1; next }
	{ got[$1] = 1; if (!(($1 in want) || ($1 - 1 in want) ||
	  ($1 + 1 in want))) exit 1 }
	END { for (c in want) if (!(c in got)) exit 1 }' "$1" "$2"
}
check "lost events: ! over each column where a notice begins ($(wc -l < "$TMPDIR_TEST/lost-cols") columns), and only next to them" \
	eval '[ -s "$TMPDIR_TEST/lost-cols" ] &&
	      near_lost "$TMPDIR_TEST/lost-cols" "$TMPDIR_TEST/bangs"'
tm send-keys -t lost q
check "q exits 0" wait_exit lost 0

# ---- zoomed: z and Z ----

dir="$TMPDIR_TEST/three"
start zoom 100 30 "--cache-dir '$TMPDIR_TEST/cache'"
wait_for zoom "$HEADER" >/dev/null
check "z waits for the index: event 1 of 14000" \
	wait_for zoom "event 1 of 14000"
tm send-keys -t zoom 3 0 0 0 j
wait_status zoom "$(event 3001 | cut -d' ' -f1)" >/dev/null
# The times of the screen's first and last events, before the strip
# opens (the list is shorter after).
screen zoom | grep -E '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9} ' |
	cut -d' ' -f1 > "$TMPDIR_TEST/shown"
zb=$(ns_of_day "$(head -1 "$TMPDIR_TEST/shown")")
ze=$(ns_of_day "$(tail -1 "$TMPDIR_TEST/shown")")
tm send-keys -t zoom z
check "z: the strip opens, zoomed on the screen's events" \
	wait_for zoom "^ Histogram \(i hides\) .* zoom: "
check "... and says so" \
	wait_for zoom "histogram of the screen's events"
cols=99		# 100 columns, the first one a margin
rows=$(($(strip zoom | wc -l) - 1))
# want_zoom BEGIN END COLS ROWS: the heights of the exact bins, width
# ceil((END - BEGIN + 1) / COLS), as tn_stats_histogram counts them.
want_zoom() {
	awk -v b="$1" -v e="$2" -v cols="$3" -v rows="$4" '
	BEGIN { w = int((e - b) / cols) + 1 }
	$1 >= b && $1 <= e { n[int(($1 - b) / w)]++ }
	END { for (c = 0; c < cols; c++) if (n[c] > max) max = n[c]
	      for (c = 0; c < cols; c++) {
		h = int(n[c] / max * rows * 8 + 0.5)
		if (h == 0 && n[c] > 0) h = 1
		print h } }' "$TMPDIR_TEST/ns"
}
same_zoom() {
	heights zoom $cols > "$TMPDIR_TEST/got"
	want_zoom "$zb" "$ze" $cols $rows > "$TMPDIR_TEST/want"
	cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
}
if wait_until 50 same_zoom; then
	ok "zoomed: a bin a column, each the events awk counts in it"
else
	not_ok "zoomed: a bin a column, each the events awk counts in it"
	paste "$TMPDIR_TEST/got" "$TMPDIR_TEST/want" | awk '$1 != $2' |
		head -5 | sed 's/^/# got, want: /'
fi
# ticks: "COL TIME" of each | of the axis with a time after it (the
# last one may have no room for its time).
ticks() {
	strip zoom | tail -1 | awk '{ s = $0
		for (c = 1; c <= length(s); c++)
			if (substr(s, c, 1) == "|") {
				t = substr(s, c + 1); sub(/ .*/, "", t)
				if (t ~ /^[0-9]/) print c - 2, t } }'
}
ticks > "$TMPDIR_TEST/ticks"
# Each tick at its time's column, times going up by one round step.
ok_ticks() {
	while read -r col time; do
		# The label's decimals, to 9 digits: ns.
		case $time in
		*.*) frac=${time#*.}000000000 time=${time%%.*} ;;
		*) frac=000000000 ;;
		esac
		t=$(ns_of_day "$time.$(echo "$frac" | cut -c1-9)")
		awk -v b="$zb" -v e="$ze" -v cols=$cols -v t="$t" -v c="$col" \
			'BEGIN { exit !(t >= b && t <= e &&
				int((t - b) / (e - b + 1) * cols) == c) }' ||
			return 1
		echo "$t"
	done < "$TMPDIR_TEST/ticks" > "$TMPDIR_TEST/tick-ns"
	[ "$(wc -l < "$TMPDIR_TEST/tick-ns")" -ge 1 ] &&
	awk 'NR == 2 { step = $1 - prev }
		NR > 2 && $1 - prev != step { exit 1 }
		{ prev = $1 }
		END { s = step ? step : 1
			while (s % 10 == 0) s /= 10
			exit !(s == 1 || s == 2 || s == 5) }' \
		"$TMPDIR_TEST/tick-ns"
}
check "the axis: $(wc -l < "$TMPDIR_TEST/ticks") ticks, each under its time, a round step apart" \
	ok_ticks
tm send-keys -t zoom Z
check "Z: the whole trace again (the axis's ends)" wait_until 50 axis zoom
check "... the title says no zoom" eval '! shows zoom " zoom: "'
# The range, then the selection.
t1=$(event 100 | cut -d' ' -f1) t2=$(event 9000 | cut -d' ' -f1)
tm send-keys -t zoom : "range $t1 $t2" Enter
wait_for zoom "events: " >/dev/null
tm send-keys -t zoom q z
check "z with a range: zoomed on it" \
	wait_for zoom "histogram of the range, $t1 to $t2"
tm send-keys -t zoom v 2 0 0 j z
check "v, 200j, z: zoomed on the selection" \
	wait_for zoom "histogram of the selection"
tm send-keys -t zoom Escape q
check "q exits 0" wait_exit zoom 0

# ---- while indexing: the bars fill in ----

# A trace big enough that indexing it takes a few seconds.
dir="$TMPDIR_TEST/big"
"$GEN_TRACE" --events 3000000 --cpus 4 --packet-size 1048576 "$dir" >/dev/null
# partly_filled NAME: the axis says "indexing N%", and the bars have
# some columns with events and some without yet.
partly_filled() {
	strip "$1" > "$TMPDIR_TEST/strip"
	tail -1 "$TMPDIR_TEST/strip" | grep -q 'indexing [0-9]*%$' &&
		sed '$d' "$TMPDIR_TEST/strip" | cut -c2- | grep -q '[▁▂▃▄▅▆▇█]' &&
		sed '$d' "$TMPDIR_TEST/strip" | cut -c2- | tail -1 | grep -q ' '
}
start big 80 24 "--cache-dir '$TMPDIR_TEST/bigcache'"
tm send-keys -t big i
if wait_until 100 partly_filled big; then
	ok "while indexing: bars for what was read, the axis says indexing N%"
elif ! shows big "indexing"; then
	skip "the index was built before the strip could be seen filling"
else
	not_ok "while indexing: bars for what was read, the axis says indexing N%"
	strip big | sed 's/^/# /'
fi
done_indexing() {
	strip big | tail -1 | grep -q '[0-9]:[0-9][0-9]\.[0-9]*$'
}
check "once indexed: the axis ends with the last time" \
	wait_until 300 done_indexing
tm send-keys -t big q
check "q exits 0" wait_exit big 0

tap_done
