#!/bin/sh
# goto's time forms in --batch, against babeltrace2: times relative to
# the current event (+10ms, -2.5s, +300us, +1500ns), begin and end, ISO
# 8601 date-times with and without a zone, and times pasted from
# babeltrace2's lines (default, --clock-date, --clock-seconds, a whole
# line): each lands on the first event at or after the time, as
# babeltrace2 --begin finds it; bad times fail with a message naming
# the problem, exit 1.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC

if ! have_babeltrace2; then
	skip "babeltrace2 CLI not installed"
	tap_done
	exit 0
fi

dir="$TMPDIR_TEST/trace"
"$GEN_TRACE" --events 20000 --cpus 4 --packet-size 4096 --lost-every 7 \
	--seed 41 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
babeltrace2 --clock-seconds "$dir" 2>/dev/null |
	sed 's/^\[\([^]]*\)\].*/\1/' > "$TMPDIR_TEST/secs"
babeltrace2 --clock-date "$dir" 2>/dev/null > "$TMPDIR_TEST/dated"
total=$(wc -l < "$TMPDIR_TEST/dump")

# first_at SECS SEC.NS: the line of the first event at or after it (the
# times have one width here: they compare as strings); empty if none.
first_at() {
	awk -v t="$2" '$1 "" >= t "" { print NR; exit }' "$1"
}

# ns SEC.NS -> ns; sec NS -> SEC.NNNNNNNNN (shell arithmetic, 64 bits).
ns() {
	echo "$(( ${1%.*} * 1000000000 + $(echo "${1#*.}" | sed 's/^0*//;s/^$/0/') ))"
}
sec() {
	printf '%d.%09d' $(($1 / 1000000000)) $(($1 % 1000000000))
}

# batch_lines DESC TRACE DUMP SCRIPT LINE...: the script, run on TRACE,
# prints these lines of DUMP (TRACE's --dump) in this order, exit 0.
batch_lines() {
	desc=$1 trace=$2 dump=$3 script=$4
	shift 4
	"$TRACENAV" --no-cache --batch "$script" "$trace" > "$TMPDIR_TEST/got" \
		2>"$TMPDIR_TEST/err"
	st=$?
	for n in "$@"; do
		[ "$n" -gt 0 ] && sed -n "${n}p" "$dump"
	done > "$TMPDIR_TEST/want"
	if [ "$st" = 0 ] && [ "$(wc -l < "$TMPDIR_TEST/want")" = $# ] &&
	   cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "exit $st; want lines $*"
		diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -6 | cut -c1-120 | sed 's/^/# /'
		head -2 "$TMPDIR_TEST/err" | sed 's/^/# /'
	fi
}

# batch_is DESC SCRIPT LINE: the script prints dump line LINE, exit 0.
batch_is() {
	batch_lines "$1" "$dir" "$TMPDIR_TEST/dump" "$2" "$3"
}

# Relative times from events spread over the trace.
for k in 1 777 5000 12345 19000; do
	t=$(sed -n "${k}p" "$TMPDIR_TEST/secs")
	for rel in +10ms +300us +1500ns +1ns +0.25ms -2.5ms -300us -1ns +0s; do
		sign=${rel%%[0-9.]*}
		num=${rel#?}
		case $num in
		*ms) mult=1000000 num=${num%ms} ;;
		*us) mult=1000 num=${num%us} ;;
		*ns) mult=1 num=${num%ns} ;;
		*s) mult=1000000000 num=${num%s} ;;
		esac
		case $num in
		*.*) int=${num%.*} frac=${num#*.} ;;
		*) int=$num frac= ;;
		esac
		# The fraction in units of mult / 10^len(frac).
		off=$((int * mult))
		if [ -n "$frac" ]; then
			d=1; i=0
			while [ $i -lt ${#frac} ]; do d=$((d * 10)); i=$((i + 1)); done
			off=$((off + $(echo "$frac" | sed 's/^0*//;s/^$/0/') * mult / d))
		fi
		[ "$sign" = - ] && off=$((-off))
		target=$(sec $(( $(ns "$t") + off )))
		want=$(first_at "$TMPDIR_TEST/secs" "$target")
		[ -n "$want" ] || want=$total
		# goto #K first: the current event is event K.
		batch_is "goto #$k; goto $rel: the first event at or after" \
			"goto #$k; goto $rel; print 1" "$want"
	done
done

# A relative move from where a time jump landed, twice.
t=$(sed -n 3000p "$TMPDIR_TEST/secs")
first=$(first_at "$TMPDIR_TEST/secs" "$t")
t2=$(sed -n "${first}p" "$TMPDIR_TEST/secs")
target=$(sec $(( $(ns "$t2") + 2000000 )))
t3=$(sed -n "$(first_at "$TMPDIR_TEST/secs" "$target")p" "$TMPDIR_TEST/secs")
target=$(sec $(( $(ns "$t3") - 500000 )))
batch_is "goto SEC; goto +2ms; goto -0.5ms" "goto $t; goto +2ms; goto -0.5ms; print 1" \
	"$(first_at "$TMPDIR_TEST/secs" "$target")"

# begin and end; before the first and after the last event.
batch_is "goto begin" "down 50; goto begin; print 1" 1
batch_is "goto end" "goto end; print 1" "$total"
"$TRACENAV" --batch "goto #10; goto -1s; print 1" "$dir" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
sed -n 1p "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
check "goto -1s from event 10: the first event" cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
check "goto -1s: says it was before the first event" \
	grep -q 'goto -1s: before the first event: at the first event' "$TMPDIR_TEST/err"
"$TRACENAV" --batch "goto +1s; print 1" "$dir" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
st=$?
sed -n "${total}p" "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
check "goto +1s past the end: exit 0, the last event" \
	test "$st" = 0 -a -s "$TMPDIR_TEST/want" && cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
check "goto +1s past the end: says so" \
	grep -q 'goto +1s: after the last event: at the last event' "$TMPDIR_TEST/err"

# Times pasted from babeltrace2's lines: --clock-date, --clock-seconds,
# the default (a time of day), and a whole line with its delta.
for k in 2 4444 9999 15000 "$total"; do
	t=$(sed -n "${k}p" "$TMPDIR_TEST/secs")
	want=$(first_at "$TMPDIR_TEST/secs" "$t")
	dated=$(sed -n "${k}p" "$TMPDIR_TEST/dated" | sed 's/^\(\[[^]]*\]\).*/\1/')
	batch_is "goto $dated (--clock-date)" "goto $dated; print 1" "$want"
	batch_is "goto [$t] (--clock-seconds)" "goto [$t]; print 1" "$want"
	tod=$(sed -n "${k}p" "$TMPDIR_TEST/dump" | sed 's/^\(\[[^]]*\]\).*/\1/')
	batch_is "goto $tod (default)" "goto $tod; print 1" "$want"
	line=$(sed -n "${k}p" "$TMPDIR_TEST/dated")
	case $line in
	*\;*) ;;	# a ';' would end the command: not this line
	*) batch_is "goto <the whole --clock-date line of event $k>" \
		"goto $line
print 1" "$want" ;;
	esac
	# ISO 8601: Z, an offset, and local time in another zone.
	date_part=$(echo "$dated" | sed 's/^\[\([^ ]*\) \([^]]*\)\]$/\1T\2/')
	batch_is "goto ${date_part}Z" "goto ${date_part}Z; print 1" "$want"
	# The same instant in a zone two hours east of UTC.
	east=$(TZ=Etc/GMT-2 date -d "@${t%.*}" +%Y-%m-%dT%H:%M:%S).${t#*.}
	batch_is "goto ${east}+02:00" "goto ${east}+02:00; print 1" "$want"
	# Without a zone: local time (TZ), or UTC with --gmt.
	TZ=Etc/GMT-2 "$TRACENAV" --batch "goto ${east}; print 1" "$dir" \
		> "$TMPDIR_TEST/got" 2>/dev/null
	TZ=Etc/GMT-2 "$TRACENAV" --dump "$dir" 2>/dev/null |
		sed -n "${want}p" > "$TMPDIR_TEST/want"
	check "goto ${east} (no zone) in TZ=Etc/GMT-2: local time" \
		cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
	TZ=Etc/GMT-2 "$TRACENAV" --gmt --batch "goto ${date_part}; print 1" \
		"$dir" > "$TMPDIR_TEST/got" 2>/dev/null
	sed -n "${want}p" "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
	check "goto ${date_part} (no zone) with --gmt in TZ=Etc/GMT-2: UTC" \
		cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want"
done

# Errors: a message naming the problem, exit 1, nothing after it runs.
# bad_time TIME EGREP
bad_time() {
	"$TRACENAV" --batch "print 1; goto $1; print 1" "$dir" > "$TMPDIR_TEST/got" 2>"$TMPDIR_TEST/err"
	st=$?
	if [ "$st" = 1 ] && [ "$(wc -l < "$TMPDIR_TEST/got")" = 1 ] &&
	   grep -q -E -- "$2" "$TMPDIR_TEST/err"; then
		ok "goto $1: exit 1, $2"
	else
		not_ok "goto $1: exit 1, $2"
		diag "exit $st"
		head -2 "$TMPDIR_TEST/err" | sed 's/^/# /'
	fi
}
bad_time +10qs 'goto: invalid time "\+10qs": unknown unit "qs": use s, ms, us or ns$'
bad_time +10 'a time from the current event needs a unit'
bad_time +0.5ns 'finer than a nanosecond'
bad_time 2023-11-14T25:00Z 'hour 25 is out of range'
bad_time 2023-11-14T10:00+24:00 'the zone offset 24:00 is out of range'
bad_time '[22:13:20' 'the bracket \[ is not closed'
bad_time tomorrow 'invalid time "tomorrow": use .*begin or end, NN% of the time range or #K'
bad_time +99999999999s 'too large'

# Positions, @NS:TIE (NS from the clock's origin, TIE the events of that
# time before it), as the state pane's jumps give them: both events of a
# tie, tie 0 when left out, and a tie past the run goes to the next event.
k=$(awk 'NR > 1 && $1 == last { print NR; exit } { last = $1 }' "$TMPDIR_TEST/secs")
if [ -n "$k" ]; then
	t=$(sed -n "${k}p" "$TMPDIR_TEST/secs")
	after=$(awk -v t="$t" '$1 "" > t "" { print NR; exit }' "$TMPDIR_TEST/secs")
	batch_is "goto @NS:1: the second event of a tie (line $k)" \
		"goto @$(ns "$t"):1; print 1" "$k"
	batch_is "goto @NS: tie 0, the first of them" \
		"goto @$(ns "$t"); print 1" "$((k - 1))"
	batch_is "goto @NS:9, past the events of that time: the next event" \
		"goto @$(ns "$t"):9; print 1" "$after"
else
	not_ok "the generated trace has a tie"
fi
bad_time @12:x 'is not a position: use @NS or @NS:TIE'

# The shared corpus: on every trace that babeltrace2 reads with a clock,
# an event's --clock-date time (UTC, as ISO 8601 with Z, and pasted in
# brackets) and 1 us after it land where babeltrace2 --begin starts.
if [ -d "$SHARED_TRACES" ]; then
	find "$SHARED_TRACES" -name metadata | sed 's|/metadata$||' |
		LC_ALL=C sort | corpus_share > "$TMPDIR_TEST/dirs"
	while read -r d; do
		babeltrace2 --clock-gmt --clock-date "$d" > "$TMPDIR_TEST/bd" 2>/dev/null || continue
		"$TRACENAV" --dump "$d" > "$TMPDIR_TEST/d" 2>/dev/null || continue
		n=$(wc -l < "$TMPDIR_TEST/bd")
		[ "$n" -gt 0 ] && [ "$n" = "$(wc -l < "$TMPDIR_TEST/d")" ] || continue
		# Only dated times (a clock from the Unix epoch).
		grep -q '^\[[0-9]\{4\}-' "$TMPDIR_TEST/bd" || continue
		name=${d#"$SHARED_TRACES"/}
		k=$(( (n + 1) / 2 ))
		dated=$(sed -n "${k}p" "$TMPDIR_TEST/bd" | sed 's/^\[\([^]]*\)\].*/\1/')
		iso=$(echo "$dated" | sed 's/ /T/')Z
		# babeltrace2 --begin's first event, without its delta (unknown
		# there); where the trimmer refuses the trace, the first line
		# of the full output at or after the time.
		babeltrace2 --clock-gmt --clock-date --begin "$dated" "$d" 2>/dev/null |
			head -1 | sed 's/ (+[^)]*)//' > "$TMPDIR_TEST/want"
		[ -s "$TMPDIR_TEST/want" ] ||
			awk -v t="[$dated]" 'substr($0, 1, length(t)) "" >= t "" { print; exit }' \
				"$TMPDIR_TEST/bd" | sed 's/ (+[^)]*)//' > "$TMPDIR_TEST/want"
		"$TRACENAV" --gmt --no-cache --batch "goto $iso; print 1" "$d" 2>/dev/null |
			sed 's/ (+[^)]*)//' > "$TMPDIR_TEST/got"
		"$TRACENAV" --gmt --no-cache --batch "goto [$dated]; print 1" "$d" 2>/dev/null |
			sed 's/ (+[^)]*)//' > "$TMPDIR_TEST/got2"
		# Compare the time of day and the rest (the date is not printed).
		sed 's/^\[[^ ]* /[/' "$TMPDIR_TEST/want" > "$TMPDIR_TEST/want2"
		if [ -s "$TMPDIR_TEST/want2" ] && cmp -s "$TMPDIR_TEST/got" "$TMPDIR_TEST/want2" &&
		   cmp -s "$TMPDIR_TEST/got2" "$TMPDIR_TEST/want2"; then
			ok "corpus $name: goto ISO Z and [--clock-date] = babeltrace2 --begin"
		else
			not_ok "corpus $name: goto ISO Z and [--clock-date] = babeltrace2 --begin"
			diff "$TMPDIR_TEST/want2" "$TMPDIR_TEST/got" | head -4 | cut -c1-120 | sed 's/^/# /'
		fi
	done < "$TMPDIR_TEST/dirs"
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

# Jumps into long packets, which the list splits over the processors
# on a machine of two or more (each stream decoded up to the target on
# threads of their own; the first target, in the first packets, is read
# on to from the start): the same event as a full read, and the rows
# above it, kept from the parts, those of a full read.
big="$TMPDIR_TEST/big"
"$GEN_TRACE" --events 150000 --cpus 4 --packet-size 1048576 --seed 43 \
	"$big" >/dev/null
"$TRACENAV" --dump "$big" > "$TMPDIR_TEST/bigdump" 2>/dev/null
babeltrace2 --clock-seconds "$big" 2>/dev/null |
	sed 's/^\[\([^]]*\)\].*/\1/' > "$TMPDIR_TEST/bigsecs"
for k in 40000 130000 140000 149000; do
	t=$(sed -n "${k}p" "$TMPDIR_TEST/bigsecs")
	line=$(first_at "$TMPDIR_TEST/bigsecs" "$t")
	batch_lines "long packets: goto event $k's time, its next event, 250 and 1 above" \
		"$big" "$TMPDIR_TEST/bigdump" \
		"goto $t; print 2; up 250; print 1; down 249; print 1" \
		"$line" $((line + 1)) $((line - 250)) $((line - 1))
done

tap_done
