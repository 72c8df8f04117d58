#!/bin/sh
# The timelines in --batch (timeline threads|cpus [BUCKETS] [ns]): a
# thread's time on a CPU per bucket equals the same computed by awk from
# babeltrace2's text (tests/analyses.awk, mode oncpu), and summed over
# the buckets cputop's figure; a CPU's four times fill each bucket once
# its first event is seen; the letters are the states with most time;
# slices at the state snapshots give what one replay gives; on
# generated traces, ranges and the shared corpus's kernel traces.  Then
# the errors.
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

# diff_head WANT GOT: the same lines (sorted files); the first
# differences as diagnostics.
diff_head() {
	diff "$1" "$2" > "$T/diff" && return 0
	head -6 "$T/diff" | while IFS= read -r line; do diag "$line"; done
	return 1
}

# letters_of NS_FILE N: "TID LETTERS" of the threads' ns form in N
# buckets: each the state with most time in it, "." without any.
letters_of() {
	awk -F'\t' -v n="$2" '
	function letter(   best, most, i) {
		most = 0; best = "."
		for (i = 3; i <= 7; i++)
			if ($i > most) { most = $i; best = substr("USIWB", i - 2, 1) }
		return best
	}
	$1 != tid { if (tid != "") print tid, row; tid = $1; row = ""
		for (i = 0; i < n; i++) row = row "." }
	{ row = substr(row, 1, $2) letter() substr(row, $2 + 2) }
	END { print tid, row }' "$1"
}

# oncpu_ours NS_FILE: "TID BUCKET NS" of the on-CPU states, sorted.
oncpu_ours() {
	awk -F'\t' '$3 + $4 + $5 > 0 { printf "%s %s %.0f\n", $1, $2,
		$3 + $4 + $5 }' "$1" | sort
}

# sums_ours NS_FILE: "TID NS" on CPUs over the buckets, sorted.
sums_ours() {
	awk -F'\t' '{ s[$1] += $3 + $4 + $5 }
		END { for (t in s) if (s[t] > 0) printf "%s %.0f\n", t, s[t] }' \
		"$1" | sort
}

# cputop_ours FILE: "TID NS" of cputop's first table, sorted.
cputop_ours() {
	awk '/^(begin|end|duration|events): / { next } /^#/ { exit }
		{ print $1, $(NF - 1) }' "$1" | sort
}

# check_trace DESC TRACE BUCKETS [BEGIN END]: the threads' on-CPU time
# per bucket against awk, and their sums against cputop, over the whole
# trace or the range (BEGIN and END as babeltrace2's [SEC.FRAC]).
check_trace() {
	desc=$1 trace=$2 n=$3 begin=$4 end=$5 script=
	if [ -n "$begin" ]; then
		script="range @$(echo "$begin" | tr -d '[].') @$(echo "$end" |
			tr -d '[].'); "
	fi
	"$TRACENAV" --batch "${script}timeline threads $n ns" "$trace" \
		> "$T/ns" 2>"$T/err"
	check "$desc: timeline threads $n ns exits 0" test $? = 0
	oncpu_ours "$T/ns" > "$T/ours"
	awk -v mode=oncpu -v buckets="$n" -v begin="$begin" -v end="$end" \
		-f "$ORACLE" "$T/text" | sort > "$T/want"
	check "$desc: time on a CPU per thread and bucket equals awk's ($(wc \
-l < "$T/want") rows)" diff_head "$T/want" "$T/ours"
	"$TRACENAV" --batch "${script}cputop" "$trace" > "$T/cputop" 2>&1
	cputop_ours "$T/cputop" > "$T/want"
	sums_ours "$T/ns" > "$T/ours"
	check "$desc: summed over the buckets, cputop's NS ($(wc -l < \
"$T/want") threads)" diff_head "$T/want" "$T/ours"
	# The interrupt lines: each irq's and softirq vector's time
	# running (over the CPUs) per bucket, entry to exit.
	"$TRACENAV" --batch "${script}timeline cpus $n ns" "$trace" \
		> "$T/cns" 2>"$T/err"
	for line in irq softirq; do
		awk -F'\t' -v line=$line '$1 == line && $4 > 0 {
			print $2, $3, $4 }' "$T/cns" | sort > "$T/ours"
		awk -v mode=${line}line -v buckets="$n" -v begin="$begin" \
			-v end="$end" -f "$ORACLE" "$T/text" | sort > "$T/want"
		check "$desc: each ${line}'s time running per bucket equals \
awk's ($(wc -l < "$T/want") rows)" diff_head "$T/want" "$T/ours"
	done
}

# tree_parents GRID: "TID PARENT" of each line of the tree form (the
# line above it one level less indented; 0: a root), sorted; not those
# shown at the deepest indentation (8), which may be deeper.  A name
# follows its depth's spaces and a mark (+, - or a space).
tree_parents() {
	awk '{
		tid = $1; rest = substr($0, length(tid) + 1)
		pad = (length(tid) < 7 ? 7 - length(tid) : 0) + 1
		rest = substr(rest, pad + 1)
		match(rest, /^ */)
		depth = RLENGTH - (substr(rest, RLENGTH + 1, 1) ~ /[-+]/ ? 0 : 1)
		above[depth] = tid
		if (depth < 8)
			print tid, (depth > 0 ? above[depth - 1] : 0)
	}' "$1" | sort
}

# fork_parents TEXT GRID: "TID PARENT" as babeltrace2's text says, for
# the threads of GRID that tree_parents gives: the parent_tid of the
# thread's last sched_process_fork when that parent has a line too, else
# 0; sorted.
fork_parents() {
	awk 'FNR == NR {
		if ($0 ~ /sched_process_fork: /) {
			match($0, /parent_tid = [0-9]+/)
			p = substr($0, RSTART + 13, RLENGTH - 13)
			match($0, /child_tid = [0-9]+/)
			parent[substr($0, RSTART + 12, RLENGTH - 12)] = p
		}
		next
	}
	{ row[$1] = 1; order[++n] = $1 }
	END {
		for (i = 1; i <= n; i++) {
			t = order[i]; p = parent[t]
			print t, (p != "" && p != t && (p in row)) ? p : 0
		}
	}' "$1" "$2" | sort > "$T/forks"
	tree_parents "$2" | cut -d' ' -f1 | join - "$T/forks"
}

# ---- a generated kernel trace ----

"$GEN_TRACE" --events 100000 --cpus 4 "$T/gen" > /dev/null
babeltrace2 --clock-seconds "$T/gen" > "$T/text"
check_trace "generated" "$T/gen" 37
a=$(sed -n 20000p "$T/text" | cut -d' ' -f1)
b=$(sed -n 71000p "$T/text" | cut -d' ' -f1)
check_trace "generated, a range" "$T/gen" 11 "$a" "$b"
check_trace "generated, one bucket" "$T/gen" 1

# The CPUs: busy + irq + softirq + idle is the bucket's length once the
# CPU's first event is seen (every bucket but the first here: the
# generator's CPUs all have events in it).
n=23
"$TRACENAV" --batch "timeline cpus $n ns" "$T/gen" | grep '^[0-9]' \
	> "$T/cpus"
first=$(sed -n 1p "$T/text" | cut -d' ' -f1 | tr -d '[].')
last=$(sed -n '$p' "$T/text" | cut -d' ' -f1 | tr -d '[].')
check "cpus: 4 CPUs, each in every bucket" \
	test "$(wc -l < "$T/cpus")" = $((4 * n))
check "cpus: the states fill each bucket after the first" awk -F'\t' \
	-v d=$((last - first)) -v n=$n '
	$2 > 0 { len = int(($2 + 1) * d / n) - int($2 * d / n)
		if ($3 + $4 + $5 + $6 != len) { print; bad++ } }
	END { exit bad > 0 }' "$T/cpus"
check "cpus: busy, irq and idle times are seen (the generator makes no \
softirq)" awk -F'\t' '{ busy += $3; irq += $4; idle += $6 }
	END { exit !(busy > 0 && irq > 0 && idle > 0) }' "$T/cpus"

# The grid: a line per thread (per CPU), a letter per bucket: the state
# with most time in it, "." without any.
"$TRACENAV" --batch "timeline threads $n" "$T/gen" > "$T/grid"
"$TRACENAV" --batch "timeline threads $n ns" "$T/gen" > "$T/ns"
check "threads grid: a line per thread of the ns form" test \
	"$(wc -l < "$T/grid")" = "$(cut -f1 "$T/ns" | sort -u | wc -l)"
letters_of "$T/ns" $n > "$T/want"
awk '{ print $1, $NF }' "$T/grid" > "$T/ours"
check "threads grid: each letter is its bucket's longest state" \
	diff_head "$T/want" "$T/ours"
check "threads grid: running, waiting and blocked threads" sh -c \
	"grep -q '[US]' '$T/grid' && grep -q W '$T/grid' && grep -q B '$T/grid'"
check "threads grid: names of the generator's threads" \
	grep -q '^1203 *bash  *[USIWB.]*$' "$T/grid"
"$TRACENAV" --batch "timeline cpus 5" "$T/gen" > "$T/grid"
check "cpus grid: CPU and 5 letters" sh -c "test \"\$(grep -c -E \
'^CPU [0-3] +[RIS.-]{5}\$' '$T/grid')\" = 4"

# names: over a CPU's columns, the name of the thread that ran longest
# there between two switches (awk, mode topthread), where one held 4
# columns or more; letters elsewhere.
n2=300
"$TRACENAV" --batch "range 40% 42%; timeline cpus $n2 names" "$T/gen" \
	> "$T/named"
"$TRACENAV" --batch "range 40% 42%; timeline cpus $n2" "$T/gen" > "$T/plain"
"$TRACENAV" --batch "range 40% 42%; timeline threads $n2" "$T/gen" |
	awk '{ print $1, $2 }' > "$T/names"
# The range's ends as babeltrace2's --clock-seconds has them.
range_text() { awk -v f="$1" '$1 == f ":" { print $4 }' "$T/plain" |
	tr -d '('; }
awk -v mode=topthread -v buckets=$n2 -v begin="$(range_text begin)" \
	-v end="$(range_text end)" -f "$ORACLE" "$T/text" > "$T/top"
# For each run of columns whose character is not the plain letter: the
# CPU, the run's first column and its text.
paste -d'|' "$T/plain" "$T/named" | awk -F'|' '$1 ~ /^CPU / {
	split($1, p, " +"); cpu = p[2]
	a = substr($1, 16); b = substr($2, 16); text = ""
	for (i = 1; i <= length(b) + 1; i++) {
		x = substr(a, i, 1); y = substr(b, i, 1)
		if (i <= length(b) && x != y) {
			if (text == "") first = i - 1
			text = text y
		} else if (text != "") {
			print cpu, first, text; text = ""
		}
	}
}' > "$T/runs"
agree=$(awk 'FILENAME == ARGV[1] { name[$1] = $2; next }
	FILENAME == ARGV[2] { top[$1 " " $2] = $3; next }
	{ all++; want = name[top[$1 " " $2]]
	  if (index(want, $3) == 1 || $3 ~ /\?/) same++ }
	END { printf "%d %d", all, all ? 100 * same / all : 0 }' \
	"$T/names" "$T/top" "$T/runs")
check "names: over a CPU's columns, the thread that ran longest there \
(${agree#* }% of ${agree% *} names, >= 90%)" \
	test "${agree% *}" -gt 5 -a "${agree#* }" -ge 90
check "names: letters where no thread held 4 columns" awk '
	/^CPU / { split(substr($0, 16), c, "")
		for (i in c) if (c[i] !~ /[RIS.-]/) exit 1 }' "$T/plain"

# The tree form: the threads under their parents (sched_process_fork's
# parent_tid), each line's letters those of the flat form.
"$TRACENAV" --batch "timeline threads $n" "$T/gen" > "$T/flat"
"$TRACENAV" --batch "timeline threads $n tree" "$T/gen" > "$T/tree"
tree_parents "$T/tree" > "$T/ours"
fork_parents "$T/text" "$T/tree" > "$T/want"
check "tree: each thread under the parent that forked it ($(awk \
'$2 != 0' "$T/want" | wc -l) of $(wc -l < "$T/want") have one)" \
	diff_head "$T/want" "$T/ours"
check "tree: some threads three levels down" \
	awk '$0 ~ /^[0-9]+ +   [-+ ][^ ]/ { found = 1 } END { exit !found }' \
	"$T/tree"
awk '{ print $1, $NF }' "$T/flat" | sort > "$T/want"
awk '{ print $1, $NF }' "$T/tree" | sort > "$T/ours"
check "tree: the flat form's threads and letters" \
	diff_head "$T/want" "$T/ours"
"$TRACENAV" --batch "timeline cpus $n tree" "$T/gen" > /dev/null \
	2>"$T/err"
status=$?
check "tree: not for CPUs (fails, says a CPU has no parent)" sh -c \
	"test $status != 0 && grep -q 'no parent' '$T/err'"

# A longer trace with its state snapshots (the cache): a range is read
# in slices, one per core; it gives what one replay gives.
long=400000
sanitized && long=150000
"$GEN_TRACE" --events "$long" --cpus 4 --packet-size 65536 "$T/long" \
	> /dev/null
"$TRACENAV" --batch index "$T/long" > /dev/null 2>&1
for kind in threads cpus; do
	"$TRACENAV" --batch "range 3% 97%; timeline $kind 50 ns" "$T/long" \
		> "$T/sliced" 2>&1
	"$TRACENAV" --no-cache --batch "range 3% 97%; timeline $kind 50 ns" \
		"$T/long" > "$T/one" 2>&1
	check "$((long / 1000)) k events, 3%-97%: timeline $kind in slices \
equals one replay ($(wc -l < "$T/one") lines)" cmp -s "$T/one" "$T/sliced"
done

# The grid of a wide span comes from the summary the index keeps: the
# same rows as the exact replay, nearly all the letters (its buckets'
# edges are not the columns' own), said on stderr; --no-cache replays.
"$TRACENAV" --batch "timeline threads 20 ns" "$T/long" > "$T/ns" 2>/dev/null
letters_of "$T/ns" 20 > "$T/want"
"$TRACENAV" --batch "timeline threads 20" "$T/long" > "$T/grid" 2>"$T/err"
awk '{ print $1, $NF }' "$T/grid" > "$T/ours"
check "$((long / 1000)) k events: the grid is made from the summary" \
	grep -q 'from the summary the index keeps' "$T/err"
check "the summary's grid: the replay's threads" test \
	"$(cut -d' ' -f1 "$T/want")" = "$(cut -d' ' -f1 "$T/ours")"
same=$(paste -d' ' "$T/want" "$T/ours" | awk '{
	for (i = 1; i <= length($2); i++) {
		all++; same += substr($2, i, 1) == substr($4, i, 1) }
	} END { printf "%d", all ? 100 * same / all : 0 }')
check "the summary's grid: $same% of its letters are the replay's \
(>= 95%)" test "$same" -ge 95
"$TRACENAV" --no-cache --batch "timeline threads 20" "$T/long" \
	> "$T/grid" 2>"$T/err"
awk '{ print $1, $NF }' "$T/grid" > "$T/ours"
check "without the cache: replayed, every letter the exact one" sh -c \
	"! grep -q summary '$T/err' && cmp -s '$T/want' '$T/ours'"
"$TRACENAV" --batch "timeline cpus 20" "$T/long" > "$T/grid" 2>"$T/err"
"$TRACENAV" --no-cache --batch "timeline cpus 20" "$T/long" > "$T/want" \
	2>/dev/null
check "the summary's CPUs grid: the replay's CPUs and irqs ($(wc -l < \
"$T/want") rows)" sh -c "grep -q 'from the summary' '$T/err' &&
	test \"\$(cut -c1-15 '$T/grid')\" = \"\$(cut -c1-15 '$T/want')\""
same=$(paste -d' ' "$T/want" "$T/grid" | awk '{
	n = NF / 2; a = $n; b = $NF
	for (i = 1; i <= length(a); i++) {
		all++; same += substr(a, i, 1) == substr(b, i, 1) }
	} END { printf "%d", all ? 100 * same / all : 0 }')
check "the summary's CPUs grid: $same% of its letters are the replay's \
(>= 95%)" test "$same" -ge 95
babeltrace2 "$T/long" > "$T/longtext"
# An irq's row is named by its handler: the first irq_handler_entry's
# name in babeltrace2's text (the ASCII ones: a label is cut by
# columns, and in this C locale other characters are escaped).
sed -n 's/.* irq_handler_entry: .*{ irq = \([0-9]*\), name = "\(.*\)" }$/\1 \2/p' \
	"$T/longtext" | awk '!seen[$1]++ { print substr("IRQ " $0, 1, 14) }' |
	grep -v '[^ -~]' | sed 's/ *$//' | sort > "$T/want"
grep '^IRQ ' "$T/grid" | cut -c1-14 | grep -v '[^ -~]\|\\' | sed 's/ *$//' |
	sort > "$T/ours"
check "the summary's irq rows: named by their first handler in \
babeltrace2's text ($(wc -l < "$T/want") irqs)" eval \
	'test -s "$T/want" && diff_head "$T/want" "$T/ours"'
"$TRACENAV" --batch "timeline threads 20 tree" "$T/long" > "$T/tree" \
	2>"$T/err"
tree_parents "$T/tree" > "$T/ours"
fork_parents "$T/longtext" "$T/tree" > "$T/want"
check "the summary's tree: each thread under the parent that forked it \
($(awk '$2 != 0' "$T/want" | wc -l) of $(wc -l < "$T/want"))" sh -c \
	"grep -q 'from the summary' '$T/err' && diff -q '$T/want' '$T/ours'"
rm -f "$T/longtext"
"$TRACENAV" --batch "range 50% 50.5%; timeline threads 20" "$T/long" \
	> /dev/null 2>"$T/err"
check "a narrow span (0.5%): replayed, not from the summary" \
	test ! -s "$T/err"

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
		check_trace "$name" "$trace" 40
	done
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

# ---- errors and other traces ----

"$TRACENAV" --batch 'timeline threads 0' "$T/gen" > "$T/out" 2>&1
check "timeline threads 0: exit 1, says the bounds" sh -c "test $? = 1 &&
	grep -q 'number of buckets (1 to 4096)' '$T/out'"
"$TRACENAV" --batch 'timeline threads 9x' "$T/gen" > "$T/out" 2>&1
check "timeline threads 9x: refused" grep -q '"9x" is neither' "$T/out"
"$TRACENAV" --batch 'timeline processes' "$T/gen" > "$T/out" 2>&1
check "timeline processes: says what it takes" \
	grep -q 'threads' "$T/out"
"$GEN_TRACE" --events 2000 --domain ust "$T/ust" > /dev/null
"$TRACENAV" --batch 'timeline threads; timeline cpus 4 ns' "$T/ust" \
	> "$T/out" 2>&1
check "a userspace trace: exit 0, says why there is no timeline" sh -c \
	"test $? = 0 && grep -q 'scheduling events are needed' '$T/out' &&
	 ! grep -q '^[0-9]' '$T/out'"

tap_done
