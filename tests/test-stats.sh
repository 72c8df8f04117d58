#!/bin/sh
# range, stats and histogram in --batch against babeltrace2's text
# counted by awk: the events per name (sorted by count, then name), per
# bin, per CPU and per trace, and the lost events, for the whole trace and
# ranges of several kinds (the whole trace given as a range, inside one
# checkpoint interval, across many, touching either end, one timestamp
# shared by several events, edges between events), on generated kernel,
# userspace, several-host and lossy traces, and on the shared corpus;
# then the errors of range and histogram.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC LC_ALL=C

if ! have_babeltrace2; then
	skip "babeltrace2 CLI not installed"
	tap_done
	exit 0
fi

BINS=7
T="$TMPDIR_TEST"
TAB=$(printf '\t')

# prepare DIR: $T/ev gets one line per event, "NS NAME CPU HOST" (NS
# the 19-digit time, CPU and HOST "-" when the line has none; NAME may
# have blanks, so the columns are separated by tabs), and
# $T/lost the events discarded just before each event (from --dump's
# notices, in order), one line per event.
prepare() {
	# Lines show a host name when the trace's environment has one (a
	# directory of traces: look at each).
	has_host=0
	for m in $(find "$1" -name metadata); do
		babeltrace2 -o ctf-metadata "${m%/metadata}" 2>/dev/null |
			grep -q 'hostname = ' && has_host=1
	done
	babeltrace2 --clock-seconds "$1" 2>/dev/null | awk -v has_host=$has_host '
	BEGIN { OFS = "\t" }
	{
		t = $1; gsub(/[][]/, "", t); split(t, p, ".")
		# The name ends at the first word ending in ":" (it may
		# have blanks: "sequence event").
		# "HOST:PROCNAME:(VPID)" for a userspace event.
		host = has_host ? $3 : "-"
		sub(/:.*/, "", host)
		name = ""
		for (i = 3 + has_host; i <= NF; i++) {
			# A userspace event: "PROCNAME:(VPID)" before it.
			if (name == "" && $i ~ /:\([0-9]+\)$/)
				continue
			name = name (name == "" ? "" : " ") $i
			if ($i ~ /:$/)
				break
		}
		sub(/:$/, "", name)
		cpu = "-"
		if (match($0, /\{ cpu_id = [0-9]+ \}/))
			cpu = substr($0, RSTART + 11, RLENGTH - 13)
		print p[1] p[2], name, cpu, host
	}' > "$T/ev"
	"$TRACENAV" --dump "$1" 2>&1 | awk '
	/^WARNING: Tracer discarded [0-9]+ events/ { pending += $4; next }
	/^\[/ { print pending + 0; pending = 0 }' > "$T/lost"
}

# The events of [A, B] (NS strings of one length, or any) by awk: $T/in
# gets their lines of $T/ev with their number.
select_range() {
	awk -F'\t' -v OFS='\t' -v a="$1" -v b="$2" '
	function le(x, y) {
		return length(x) < length(y) ||
			(length(x) == length(y) && x "" <= y "")
	}
	le(a, $1) && le($1, b) { print NR, $0 }' "$T/ev" > "$T/in"
}

# want_names: "NAME COUNT" of $T/in, by count descending, then name.
want_names() {
	awk -F'\t' '{ n[$3]++ } END { for (k in n) print k "\t" n[k] }' \
		"$T/in" | sort -t "$TAB" -k2,2nr -k1,1 | tr '\t' ' '
}

# want_histogram A B: "[HH:MM:SS.NNNNNNNNN] COUNT" per bin of [A, B].
# Bin i ideally starts at A + i * width; where a bin is 16 or more of the
# index's time bins wide its inner edges move back to one of their
# boundaries, by at most width / 16, so the edges are those that
# $T/got-bins prints, each checked to lie in [ideal - width / 16,
# ideal] (the first at A): a wrong edge prints "bad edge", and the
# counts are then the events between the printed edges.
want_histogram() {
	span=$(($2 - $1))
	width=$((span / BINS + 1))
	edges= i=0
	while [ $i -lt $BINS ] && [ $((i * width)) -le "$span" ]; do
		edges="$edges $(($1 + i * width))"
		i=$((i + 1))
	done
	# The printed edges as ns (of A's day; shell arithmetic: 64 bits,
	# where awk's doubles would round them).
	a=$1 day=$(($1 - $1 % 86400000000000))
	got_edges= bad=
	# shellcheck disable=SC2086
	set -- $edges
	while read -r start _; do
		hms=${start#[}
		hms=${hms%]}
		h=${hms%%:*} rest=${hms#*:}
		m=${rest%%:*} rest=${rest#*:}
		sec=${rest%%.*} frac=${rest#*.}
		e=$((day + ((1${h} - 100) * 3600 + (1${m} - 100) * 60 + \
			(1${sec} - 100)) * 1000000000 + (1${frac} - 1000000000)))
		[ "$e" -ge "$a" ] || e=$((e + 86400000000000))	# midnight
		ideal=${1:-none}
		[ $# -gt 0 ] && shift
		if [ "$ideal" = none ] || [ "$e" -gt "$ideal" ] ||
		   [ "$e" -lt $((ideal - width / 16)) ] ||
		   { [ -z "$got_edges" ] && [ "$e" != "$ideal" ]; }; then
			bad="$bad $e/$ideal"
		fi
		got_edges="$got_edges $e"
	done < "$T/got-bins"
	[ $# -eq 0 ] || bad="$bad missing:$#"
	[ -z "$bad" ] || echo "bad edges:$bad"
	awk -F'\t' -v edges="$got_edges" '
	function le(x, y) {
		return length(x) < length(y) ||
			(length(x) == length(y) && x "" <= y "")
	}
	BEGIN { n = split(edges, e, " ") }
	{
		for (i = n; i >= 1; i--)
			if (le(e[i], $2)) { c[i]++; break }
	}
	END { for (i = 1; i <= n; i++) print e[i], c[i] + 0 }' "$T/in" |
	while read -r e c; do
		printf '[%s.%09d] %s\n' \
			"$(date -u -d "@$((e / 1000000000))" +%H:%M:%S)" \
			$((e % 1000000000)) "$c"
	done
}

# want_detail: the sections of stats all (cpu, trace, lost) of $T/in.
# FROM_START: the range begins at the trace's first event.
want_detail() {
	awk -F'\t' '{ n[$4]++ } END { for (k in n) print k, n[k] }' \
		"$T/in" | sort -n > "$T/want-cpu"
	awk -F'\t' '{ n[$5]++ } END { for (k in n) print k, n[k] }' \
		"$T/in" | sort > "$T/want-trace"
	awk -F'\t' -v from_start="$1" 'NR == FNR { lost[FNR] = $1; next }
	{ if (FNR > 1 || from_start) total += lost[$1] }
	END { print "lost", total + 0 }' "$T/lost" "$T/in" > "$T/want-lost"
}

# section NAME FILE: the lines of section "# NAME" of stats all.
section() {
	awk -v s="# $1" '/^# / { on = ($0 == s); next } on' "$2"
}

# compare DESC WANT GOT
compare() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		diff "$2" "$3" | head -6 | cut -c1-120 | sed 's/^/# /'
		head -3 "$T/err" | sed 's/^/# /'
	fi
}

# check_range DESC DIR A B [DETAIL]: range @A @B, stats, histogram
# (and stats all with DETAIL: "detail", or "no-streams" without the
# streams' check) against the text; A empty: no range (the whole
# trace).
check_range() {
	desc=$1 dir=$2 a=$3 b=$4
	if [ -z "$a" ]; then
		a=$(head -1 "$T/ev" | cut -f1)
		b=$(tail -1 "$T/ev" | cut -f1)
		script="range"
	else
		script="range @$a @$b"
	fi
	script="$script; stats; histogram $BINS"
	[ -n "$5" ] && script="$script; stats all"
	"$TRACENAV" --batch "$script" "$dir" > "$T/got" 2>"$T/err"
	st=$?
	select_range "$a" "$b"
	awk '/^events: / { print $2 }' "$T/got" > "$T/got-count"
	wc -l < "$T/in" | tr -d ' ' > "$T/want-count"
	# Up to "# cpu": names, then bins; range's lines apart.
	awk '/^# / { exit } /^(no range|begin|end|duration|events):? / { next }
	!/^\[/' "$T/got" | awk '!seen[$0]++' > "$T/got-names"
	grep '^\[' "$T/got" > "$T/got-bins"
	want_names > "$T/want-names"
	want_histogram "$a" "$b" > "$T/want-bins"
	if [ "$st" != 0 ]; then
		not_ok "$desc: exit $st"
		head -3 "$T/err" | sed 's/^/# /'
		return
	fi
	compare "$desc: events in the range" "$T/want-count" "$T/got-count"
	compare "$desc: stats" "$T/want-names" "$T/got-names"
	compare "$desc: histogram $BINS" "$T/want-bins" "$T/got-bins"
	[ -n "$5" ] || return
	first=$(head -1 "$T/ev" | cut -f1)
	want_detail "$([ "$a" = "$first" ] && echo 1 || echo 0)"
	section cpu "$T/got" > "$T/got-cpu"
	section trace "$T/got" > "$T/got-trace"
	section lost "$T/got" > "$T/got-lost"
	compare "$desc: stats all, per cpu" "$T/want-cpu" "$T/got-cpu"
	if [ "$(cut -f4 "$T/ev" | sort -u)" != "-" ]; then
		compare "$desc: stats all, per trace" "$T/want-trace" \
			"$T/got-trace"
	fi
	compare "$desc: stats all, lost" "$T/want-lost" "$T/got-lost"
	# gen-trace writes one stream per CPU of each host: the streams'
	# counts are those of the (host, CPU) pairs (DETAIL "detail"; real
	# traces may have several streams of a CPU).
	[ "$5" = detail ] || return 0
	awk -F'\t' '{ n[$5 " " $4]++ } END { for (k in n) print n[k] }' \
		"$T/in" | sort -n > "$T/want-streams"
	section stream "$T/got" | awk '{ print $2 }' | sort -n \
		> "$T/got-streams"
	compare "$desc: stats all, per stream" "$T/want-streams" \
		"$T/got-streams"
}

# ns_of K: the time of event K (1-based).
ns_of() {
	sed -n "$1p" "$T/ev" | cut -f1
}

# check_trace NAME DIR SEED [DETAIL]: the whole trace, then ranges of
# every kind, at events picked with seed SEED.
check_trace() {
	name=$1 dir=$2
	prepare "$dir"
	n=$(wc -l < "$T/ev")
	check_range "$name, whole trace" "$dir" "" "" "$4"
	check_range "$name, first to last event" "$dir" "$(ns_of 1)" \
		"$(ns_of "$n")" "$4"
	awk -v n="$n" -v seed="$3" 'BEGIN {
		srand(seed)
		i = int(rand() * (n - 60)) + 1
		print i, i + 50, "inside an interval"
		i = int(rand() * n / 2) + 1; j = i + int(rand() * n / 2)
		print i, j, "across intervals"
		print 1, int(rand() * n) + 1, "from the first event"
		print int(rand() * n) + 1, n, "to the last event"
		i = int(rand() * n) + 1; print i, i, "one timestamp"
		i = int(rand() * (n - 9000)) + 1
		print i, i + 4500, "across one checkpoint"
	}' > "$T/ranges"
	while read -r i j what; do
		check_range "$name, $what (events $i..$j)" "$dir" \
			"$(ns_of "$i")" "$(ns_of "$j")" "$4"
	done < "$T/ranges"
	# From an event that the tracer lost events just before (not the
	# first event): those were lost before the range, not in it.
	i=$(awk 'NR > 1 && $1 > 0 { print NR; exit }' "$T/lost")
	if [ -n "$4" ] && [ -n "$i" ]; then
		check_range "$name, from an event after lost ones ($i..$n)" \
			"$dir" "$(ns_of "$i")" "$(ns_of "$n")" "$4"
	fi
	# Edges between events: 1 ns after an event, 1 ns before one.
	i=$((n / 3)) j=$((2 * n / 3))
	check_range "$name, edges between events" "$dir" \
		"$(( $(ns_of "$i") + 1 ))" "$(( $(ns_of "$j") - 1 ))" "$4"
}

"$GEN_TRACE" --events 30000 --cpus 4 --packet-size 4096 --ties 2 \
	--lost-every 5 --seed 7 "$T/kernel" >/dev/null
check_trace "kernel, ties, lost" "$T/kernel" 1 detail

"$GEN_TRACE" --events 20000 --domain ust --cpus 3 --packet-size 8192 \
	--seed 8 "$T/ust" >/dev/null
check_trace "ust" "$T/ust" 2 detail

"$GEN_TRACE" --events 24000 --traces 3 --cpus 2 --packet-size 4096 \
	--ties 2 --lost-every 9 --seed 9 "$T/hosts" >/dev/null
check_trace "3 hosts, ties, lost" "$T/hosts" 3 detail

# Long enough that ranges hold intervals that a scan seeks over rather
# than read (more than 16 of 4096 events): stats sums the index's
# counts of whole intervals (names, sources, lost events), histogram's
# edges seek.
"$GEN_TRACE" --events 200000 --cpus 4 --packet-size 16384 --ties 2 \
	--lost-every 7 --seed 11 "$T/long" >/dev/null
prepare "$T/long"
check_range "long, whole trace" "$T/long" "" "" detail
for r in "1 200000" "3 150001" "70001 199999" "4097 8192" "12345 123456"; do
	set -- $r
	check_range "long, events $1..$2" "$T/long" "$(ns_of "$1")" \
		"$(ns_of "$2")" detail
done

# A range given in seconds, and as event numbers.
prepare "$T/kernel"
a=$(ns_of 100) b=$(ns_of 20000)
sec() {
	printf '%d.%09d' $(($1 / 1000000000)) $(($1 % 1000000000))
}
"$TRACENAV" --batch "range $(sec "$a") $(sec "$b"); stats" "$T/kernel" \
	> "$T/got" 2>"$T/err"
select_range "$a" "$b"
want_names > "$T/want-names"
grep -v ':' "$T/got" > "$T/got-names"
compare "range SEC.NS SEC.NS: stats" "$T/want-names" "$T/got-names"
# histogram whole: the whole trace's bins, a range set or not.
"$TRACENAV" --batch "histogram $BINS" "$T/kernel" > "$T/want-whole" 2>"$T/err"
"$TRACENAV" --batch "range $(sec "$a") $(sec "$b"); histogram whole $BINS" \
	"$T/kernel" 2>"$T/err" | grep '^\[' > "$T/got-whole"
compare "range T1 T2; histogram whole $BINS: the whole trace's bins" \
	"$T/want-whole" "$T/got-whole"
"$TRACENAV" --batch "range $(sec "$a") $(sec "$b"); histogram $BINS" \
	"$T/kernel" 2>"$T/err" | grep '^\[' > "$T/got-range"
check "... not the range's" eval '! cmp -s "$T/want-whole" "$T/got-range"'
"$TRACENAV" --batch "range #100 #20000; stats percent" "$T/kernel" \
	> "$T/got" 2>"$T/err"
awk -v total="$(wc -l < "$T/in")" '{ c = $NF; sub(/ [0-9]+$/, "")
	printf "%s %s %.2f\n", $0, c, 100 * c / total }' "$T/want-names" \
	> "$T/want-percent"
grep -v ':' "$T/got" > "$T/got-percent"
compare "range #K #K: stats percent" "$T/want-percent" "$T/got-percent"

# The range stays until cleared.
"$TRACENAV" --batch "range #100 #20000; range; range clear; range" \
	"$T/kernel" > "$T/got" 2>"$T/err"
awk '/^events:/ { print $2 }' "$T/got" | tr '\n' ' ' > "$T/got-count"
in_range=$(wc -l < "$T/in")
printf '%s %s %s ' "$in_range" "$in_range" "$(wc -l < "$T/ev")" \
	> "$T/want-count"
compare "range, range, range clear, range: the events" "$T/want-count" \
	"$T/got-count"

# Errors: exit 1, a message that says what is wrong.
fails() {
	"$TRACENAV" --batch "$2" "$T/kernel" > "$T/got" 2>"$T/err"
	st=$?
	if [ "$st" = 1 ] && grep -q -- "$3" "$T/err"; then
		ok "$1"
	else
		not_ok "$1: exit $st"
		head -3 "$T/err" | sed 's/^/# /'
	fi
}
fails "range T2 before T1" "range #200 #100" "T2 (.*) is before T1"
fails "range outside the trace" "range 1 2" "outside the trace"
last=$(tail -1 "$T/ev" | cut -f1)
fails "range after the trace" "range @$((last + 1)) @$((last + 1000))" \
	"outside the trace"
fails "range with one time" "range #100" "give two times"
fails "range with a bad time" "range #100 22:99" "range: "
fails "range with a bad first time" "range bogus #100" "range: "
fails "range past the last event" "range #1 #30001" "no event number"
fails "histogram 0" "histogram 0" "not a number of bins"
fails "histogram x" "histogram x" "not a number of bins"
fails "stats with a bad word" "stats bogus" "is not one of"

# select: the range from the event of the first select to that of the
# second, in either order; select cancel forgets the first.
prepare "$T/kernel"
# in_times A B: the events whose time (ns, all of one width: compared
# as strings, exactly) is in [A, B].
in_times() {
	awk -F'\t' -v a="$1" -v b="$2" \
		'($1 "") >= (a "") && ($1 "") <= (b "")' "$T/ev" |
		wc -l | tr -d ' '
}
want=$(in_times "$(ns_of 100)" "$(ns_of 2100)")
for script in "down 99; select; down 2000; select" \
	      "down 2099; select; up 2000; select" \
	      "select; select cancel; down 99; select; down 2000; select"; do
	"$TRACENAV" --batch "$script; range" "$T/kernel" > "$T/got" 2>/dev/null
	got=$(sed -n 's/^events: *//p' "$T/got" | tail -1)
	if [ "$got" = "$want" ]; then
		ok "select: $script: $want events, as awk counts events 100..2100's times"
	else
		not_ok "select: $script: got '$got', want $want"
	fi
done
"$TRACENAV" --batch "down 99; select; down 2000; select; stats" "$T/kernel" \
	2>/dev/null | grep -v '^[a-z]*: ' |
	awk '{ n += $2 } END { print n }' > "$T/got"
check "select, then stats: the counts add up to the selection's" \
	[ "$(cat "$T/got")" = "$want" ]

if [ -d "$SHARED_TRACES" ]; then
	find "$SHARED_TRACES" -name metadata | sed 's|/metadata$||' |
		LC_ALL=C sort | corpus_share > "$T/dirs"
	seed=10
	while read -r d; do
		"$TRACENAV" --dump "$d" > /dev/null 2>&1 || continue
		# babeltrace2's text is the reference: not of a trace it
		# stops in (a time that goes back: test-step-back.sh).
		babeltrace2 "$d" > /dev/null 2>&1 || continue
		prepare "$d"
		[ -s "$T/ev" ] || continue
		# Times on every event, of one width: the string
		# comparisons hold.
		awk '$1 !~ /^[0-9]+$/ { bad = 1 } END { exit bad }' "$T/ev" ||
			continue
		[ "$(cut -f1 "$T/ev" | awk '{ print length($1) }' | sort -u |
			wc -l)" = 1 ] ||
			continue
		n=$(wc -l < "$T/ev")
		name="corpus ${d#"$SHARED_TRACES"/}"
		check_range "$name, whole trace" "$d" "" "" no-streams
		i=$((n / 4 + 1)) j=$((3 * n / 4 + 1))
		check_range "$name, events $i..$j" "$d" "$(ns_of $i)" \
			"$(ns_of $j)" no-streams
		seed=$((seed + 1))
	done < "$T/dirs"
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

tap_done
