#!/bin/sh
# The kernel analyses in --batch (cputop, syscallstats, irqstats,
# schedtop, analysis NAME): their figures equal the same ones computed
# by awk from babeltrace2's text (tests/analyses.awk), for the whole
# trace and for ranges, on generated kernel traces and on the shared
# corpus's kernel traces; a long trace read in slices at the state
# snapshots gives what one replay gives (--no-cache: no snapshots); and
# where lttng-analyses is installed and runs on a trace, its figures
# equal ours (tests/lttng-compare.py); the whole trace's, kept by the
# state pass in the cache, equal them too.  Then the errors.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC LC_ALL=C

if ! have_babeltrace2; then
	skip "babeltrace2 CLI not installed"
	tap_done
	exit 0
fi

T="$TMPDIR_TEST"
ORACLE="$top_srcdir/tests/analyses.awk"
COMPARE="$top_srcdir/tests/lttng-compare.py"

# ours ANALYSIS FILE: tracenav's first table as "KEY COUNT MIN MAX MEAN"
# (cputop: "TID NS"), sorted; the thread and irq names (which may have
# blanks) left out.  ANALYSIS softirqs and raises: irqstats' # softirqs
# table, its runs or its raise latencies (the vectors that have some).
ours() {
	awk -v a="$1" '
	/^(begin|end|duration|events): / { next }	# what range prints
	/^# softirqs / && (a == "softirqs" || a == "raises") { soft = 1; next }
	a == "softirqs" || a == "raises" {
		if (!soft) next
		if (a == "softirqs" && $3 > 0) print $1, $3, $4, $6, $5
		if (a == "raises" && $8 > 0) print $1, $8, $9, $11, $10
		next
	}
	/^#/ { exit }
	a == "cputop" { print $1, $(NF - 1); next }
	{ print $1, $(NF - 4), $(NF - 3), $(NF - 1), $(NF - 2) }
	' "$2" | sort
}

# oracle MODE TEXT [BEGIN END]: the same from babeltrace2's text.
oracle() {
	awk -v mode="$1" -v begin="$3" -v end="$4" -f "$ORACLE" "$2" |
	awk -v mode="$1" '
	mode == "cputop" { print; next }
	{ printf "%s %.0f %.0f %.0f %.6f\n", $1, $2, $3, $4, $5 / $2 }
	' | sort
}

# same_figures WANT GOT: the same keys, counts, minimums and maximums
# (or ns), and means within 1 ns (ours are rounded).
same_figures() {
	awk '
	FILENAME == ARGV[1] { want[$1] = $0; next }
	{
		if (!($1 in want)) { print "only in tracenav: " $0; bad++; next }
		split(want[$1], w, " ")
		for (i = 2; i <= 4 && i <= NF; i++)
			if (w[i] != $i) { print "want " want[$1] ", got " $0; bad++; break }
		if (NF >= 5 && (w[5] - $5 > 1 || $5 - w[5] > 1)) {
			print "mean: want " want[$1] ", got " $0; bad++
		}
		delete want[$1]
	}
	END {
		for (k in want) { print "missing in tracenav: " want[k]; bad++ }
		exit bad > 0
	}' "$1" "$2" > "$T/diff"
	status=$?
	head -5 "$T/diff" | while IFS= read -r line; do diag "$line"; done
	return $status
}

# close_outputs A B: the same lines, but for numbers 1 apart (the means
# and deviations of slices merged may round the other way).
close_outputs() {
	awk '
	FILENAME == ARGV[1] { want[FNR] = $0; n = FNR; next }
	{
		if (!(FNR in want)) { bad++; next }
		split(want[FNR], w, " ")
		if (split($0, g, " ") != length(w)) { bad++; next }
		for (i in w)
			if (w[i] != g[i] && !(w[i] ~ /^[0-9.]+$/ &&
			    g[i] ~ /^[0-9.]+$/ && (w[i] - g[i])^2 <= 1)) {
				print "want " want[FNR]; print "got  " $0
				bad++
				break
			}
	}
	END { if (FNR != n) bad++; exit bad > 0 }' "$1" "$2" > "$T/diff"
	status=$?
	head -4 "$T/diff" | while IFS= read -r line; do diag "$line"; done
	return $status
}

# check_all DESC TRACE [BEGIN END]: the four analyses of the trace (or
# of the range, BEGIN and END as babeltrace2's [SEC.FRAC]) against awk.
check_all() {
	desc=$1 trace=$2 begin=$3 end=$4
	script=
	if [ -n "$begin" ]; then
		a=$(echo "$begin" | tr -d '[].') b=$(echo "$end" | tr -d '[].')
		script="range @$a @$b; "
	fi
	for a in cputop syscallstats irqstats schedtop; do
		case $a in
		cputop) mode=cputop ;; syscallstats) mode=syscalls ;;
		irqstats) mode=irqs ;; schedtop) mode=sched ;;
		esac
		"$TRACENAV" --batch "$script$a" "$trace" > "$T/got.$a" 2>&1
		ours $a "$T/got.$a" > "$T/ours"
		oracle $mode "$T/text" "$begin" "$end" > "$T/want"
		check "$desc: $a equals awk over babeltrace2's text ($(wc -l < \
"$T/want") rows)" same_figures "$T/want" "$T/ours"
	done
	for part in softirqs raises; do
		ours $part "$T/got.irqstats" > "$T/ours"
		oracle $part "$T/text" "$begin" "$end" > "$T/want"
		check "$desc: irqstats' $part equal awk's ($(wc -l < \
"$T/want") vectors)" same_figures "$T/want" "$T/ours"
	done
}

# line_time K: the [SEC.FRAC] of line K of $T/text.
line_time() {
	sed -n "${1}p" "$T/text" | cut -d' ' -f1
}

# ---- generated kernel traces ----

"$GEN_TRACE" --events 200000 --cpus 4 "$T/gen" > /dev/null
babeltrace2 --clock-seconds "$T/gen" > "$T/text"
lines=$(wc -l < "$T/text")
check "the generated trace has system calls, irqs and wake-ups" \
	test "$(grep -c -E 'syscall_exit_|irq_handler_exit|sched_wakeup' \
		"$T/text")" -gt 1000
check_all "generated, whole trace" "$T/gen"
check_all "generated, 30%-70%" "$T/gen" "$(line_time $((lines * 3 / 10)))" \
	"$(line_time $((lines * 7 / 10)))"
check_all "generated, first event to 10%" "$T/gen" "$(line_time 1)" \
	"$(line_time $((lines / 10)))"
check_all "generated, 95% to the last event" "$T/gen" \
	"$(line_time $((lines * 95 / 100)))" "$(line_time "$lines")"

# The columns of each table, and percent = ns over the range's duration.
"$TRACENAV" --batch cputop "$T/gen" > "$T/cputop"
first=$(line_time 1 | tr -d '[].') last=$(line_time "$lines" | tr -d '[].')
check "cputop: PERCENT is NS over the range's duration" awk -v d=$((last - first)) '
	/^#/ { exit }
	{ p = 100 * $(NF - 1) / d; if (p - $NF > 0.006 || $NF - p > 0.006) exit 1 }
	' "$T/cputop"
check "cputop: sorted by NS, most first" sh -c "awk '/^#/ { exit } { print \$(NF - 1) }' \
	'$T/cputop' | sort -c -n -r"
check "cputop: a # cpus table, CPU NS PERCENT, one row per CPU" \
	test "$(sed -n '/^# cpus CPU NS PERCENT$/,$p' "$T/cputop" | wc -l)" -eq 5
"$TRACENAV" --batch syscallstats "$T/gen" > "$T/sys"
check "syscallstats: a # threads table TID NAME SYSCALL COUNT MIN MEAN MAX STDDEV" \
	grep -q '^# threads TID NAME SYSCALL COUNT MIN MEAN MAX STDDEV$' "$T/sys"
check "syscallstats: the calls per thread add up to the calls per name" awk '
	/^# threads/ { t = 1; next }
	!t { want[$1] = $2; next }
	{ got[$(NF - 5)] += $(NF - 4) }
	END { for (k in want) if (want[k] != got[k]) exit 1 }' "$T/sys"
"$TRACENAV" --batch 'analysis irqstats' "$T/gen" > "$T/analysis"
check "analysis irqstats prints nothing (it chooses the pane's)" \
	test ! -s "$T/analysis"
"$TRACENAV" --batch 'analysis; analysis next; analysis; analysis next;
	analysis next; analysis; analysis next; analysis; analysis prev;
	analysis prev; analysis; analysis irqstats; analysis next; analysis' \
	"$T/gen" > "$T/steps"
check "analysis next and prev step from the one chosen, round" \
	test "$(tr '\n' ' ' < "$T/steps")" = \
	"cputop syscallstats schedtop cputop irqstats schedtop "
"$TRACENAV" --batch irqstats "$T/gen" > "$T/irq"
check "irqstats: irq names from irq_handler_entry" grep -q '^0 timer ' "$T/irq"

# A longer trace, indexed with its state snapshots (the cache): the
# state pass computed the whole trace's analyses, kept in the cache, and
# a range is read in slices, one per core; both give what one replay
# from the start gives (--no-cache: no snapshots, nothing kept).
# (A sanitizer's build, 10 times slower, reads 200 k events: still many
# slices and snapshots.)
long=600000
sanitized && long=200000
"$GEN_TRACE" --events "$long" --cpus 4 --packet-size 65536 \
	"$T/long" > /dev/null
"$TRACENAV" --batch index "$T/long" > /dev/null 2>&1
# A cache with the index alone (goto builds it; no state pass): no
# snapshots, nothing kept, one replay from the start.
alone="--cache-dir $T/index-alone"
"$TRACENAV" $alone --batch 'goto #1' "$T/long" > /dev/null 2>&1
diag "slices on this machine: up to $(nproc 2>/dev/null || echo 1) threads"
for a in cputop syscallstats irqstats schedtop; do
	"$TRACENAV" --batch "$a" "$T/long" > "$T/kept.$a" 2>&1
	"$TRACENAV" $alone --batch "$a" "$T/long" > "$T/whole.$a" 2>&1
	check "$((long / 1000)) k events: $a kept by the state pass equals one replay" \
		cmp -s "$T/whole.$a" "$T/kept.$a"
	check "$((long / 1000)) k events: $a has rows" test -s "$T/whole.$a"
	"$TRACENAV" --batch "range 3% 97%; $a" "$T/long" > "$T/sliced.$a" 2>&1
	"$TRACENAV" $alone --batch "range 3% 97%; $a" "$T/long" \
		> "$T/one.$a" 2>&1
	check "$((long / 1000)) k events, 3%-97%: $a in slices equals one replay" \
		close_outputs "$T/one.$a" "$T/sliced.$a"
done

# ---- the shared corpus's kernel traces ----

if [ -d "$SHARED_TRACES" ]; then
	for metadata in $(find "$SHARED_TRACES" -name metadata |
			grep -v '/fail/' | sort); do
		grep -q sched_switch "$metadata" || continue
		trace=$(dirname "$metadata")
		name=${trace#"$SHARED_TRACES"/}
		if ! babeltrace2 --clock-seconds "$trace" > "$T/text" \
				2>/dev/null ||
		   ! "$TRACENAV" --dump "$trace" > /dev/null 2>&1; then
			skip "$name: not readable (babeltrace2 or tracenav)"
			continue
		fi
		check_all "$name" "$trace"
	done
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

# ---- lttng-analyses ----

# la ANALYSIS TRACE DESC: our figures equal lttng-analyses' (a trace it
# does not read is skipped).
la() {
	case $1 in
	cputop) cmd="lttng-cputop-mi --limit 1000000" ;;
	schedtop) cmd="lttng-schedstats-mi --limit 1000000" ;;
	*) cmd="lttng-$1-mi" ;;
	esac
	if ! timeout 300 $cmd --no-intersection "$2" \
			> "$T/la.json" 2>/dev/null; then
		skip "$3: lttng-analyses does not read it"
		return
	fi
	"$TRACENAV" --batch "$1" "$2" > "$T/la.ours" 2>&1
	python3 "$COMPARE" "$1" "$T/la.json" "$T/la.ours" > "$T/la.diff"
	case $? in
	0) ok "$3: $1 equals lttng-analyses ($(tail -1 "$T/la.diff"))" ;;
	2) check "$3: $1: neither has a row" \
		sh -c "! grep -q '^[0-9a-z]' '$T/la.ours'" ;;
	*) not_ok "$3: $1 equals lttng-analyses"
	   head -5 "$T/la.diff" | while IFS= read -r line; do diag "$line"; done ;;
	esac
}

# They check the figures, which are the same in every build: the
# sanitizer builds (minutes of python each) leave them to the default one.
if sanitized; then
	skip "lttng-analyses: compared in the build without sanitizers"
elif command -v lttng-cputop-mi > /dev/null 2>&1 &&
   command -v python3 > /dev/null 2>&1; then
	# Without ties: lttng-cputop keeps one start per thread, so a
	# thread switched in on a CPU at the ns it leaves another may lose
	# that run there (see the man page).  lttng-analyses reads the
	# tracer's version from a directory called kernel.
	"$GEN_TRACE" --events 100000 --cpus 4 --ties 0 "$T/la/kernel" \
		> /dev/null
	for a in cputop syscallstats irqstats schedtop; do
		la $a "$T/la" "generated"
	done
	if [ -d "$SHARED_TRACES" ]; then
		for trace in babeltrace2/succeed/lttng-tracefile-rotation/kernel \
				tracecompass/flipping-endianness; do
			[ -d "$SHARED_TRACES/$trace" ] || continue
			for a in cputop syscallstats irqstats schedtop; do
				la $a "$SHARED_TRACES/$trace" "$trace"
			done
		done
	fi
else
	skip "lttng-analyses (python3-lttnganalyses) not installed"
fi

# ---- errors and other traces ----

"$TRACENAV" --batch 'analysis bogus' "$T/gen" > "$T/out" 2>&1
status=$?
check "analysis bogus: exit 1" test $status -eq 1
check "analysis bogus: says which analyses there are" \
	grep -q '"bogus" is not one of cputop, syscallstats, irqstats, schedtop' "$T/out"
"$GEN_TRACE" --events 2000 --domain ust "$T/ust" > /dev/null
"$TRACENAV" --batch 'cputop; syscallstats' "$T/ust" > "$T/out" 2>&1
status=$?
check "a userspace trace: cputop and syscallstats exit 0" test $status -eq 0
check "a userspace trace: no thread, no system call" \
	sh -c "! grep -v '^cputop: \\|^syscallstats: ' '$T/out' | grep -q '^[0-9a-z]'"
check "a userspace trace: each says it needs a kernel trace" \
	eval 'grep -q "^cputop: the analyses read the events of an LTTng kernel trace, which this one is not" "$T/out" &&
	      grep -q "^syscallstats: the analyses read" "$T/out"'

tap_done
