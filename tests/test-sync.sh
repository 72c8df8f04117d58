#!/bin/sh
# test-sync.sh - several hosts on one time line: the clock correction
# that `sync` computes from the TCP packets the hosts exchanged, checked
# against the generator's plan (the true clocks, the packets matched per
# pair of hosts) and against Trace Compass's figures on its own test
# traces; --dump --sync's order and times; sync save and load; the
# errors.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC

plan_value() {
	sed -n "s/^$1 //p" "$TMPDIR_TEST/plan"
}

# --- Four hosts on their own clocks, three exchanging packets. -------
gen=$TMPDIR_TEST/hosts
"$GEN_TRACE" --traces 4 --net 3 --events 200000 --cpus 2 --seed 5 \
	--plan "$TMPDIR_TEST/plan" "$gen" >/dev/null
"$TRACENAV" --no-cache --batch sync "$gen" >"$TMPDIR_TEST/sync" \
	2>"$TMPDIR_TEST/sync.err"
check "sync: exit 0, one line per host" \
	test "$?" = 0 -a "$(wc -l < "$TMPDIR_TEST/sync")" = 4
line() { sed -n "/^$1	/p" "$TMPDIR_TEST/sync"; }
col() { line "$1" | cut -f"$2"; }
check "the reference host: slope 1, offset 0, all its packets" \
	test "$(line host0)" = "host0	1.00000000000000000000	0.000	reference	0.000	$(($(sed -n 's/^net_pair host0 host[12] //p' "$TMPDIR_TEST/plan" | paste -sd+)))"
check "the host that exchanged nothing keeps its clock" \
	test "$(line host3)" = "host3	1.00000000000000000000	0.000	absent	-	0"
said="sync: $(plan_value net_matched) packets matched, $(plan_value net_unmatched) unmatched, $(plan_value net_duplicates) duplicate keys; these hosts keep their clocks: host3 (absent)"
if [ "$(cat "$TMPDIR_TEST/sync.err")" = "$said" ]; then
	ok "the plan's matched, unmatched and duplicate packets said"
else
	not_ok "the plan's matched, unmatched and duplicate packets said"
	diag "got:  $(cat "$TMPDIR_TEST/sync.err")"
	diag "want: $said"
fi
# Each corrected host: accurate; its matches those of one of its pairs
# (with its parent in the tree); the true correction (the plan's) and
# the computed one within the bounds' spread over the trace.
first=$(plan_value first_ns)
last=$(plan_value last_ns)
spread=$(awk -F'\t' '$5 != "-" { s += $5 } END { print s }' "$TMPDIR_TEST/sync")
for h in host1 host2; do
	matches=$(col "$h" 6)
	pairs=$(sed -n "s/^net_pair \(.* $h\|$h .*\) \([0-9]*\)$/\2/p" \
		"$TMPDIR_TEST/plan")
	check "$h: accurate, its $matches matches those of one of its pairs" \
		sh -c "test '$(col "$h" 4)' = accurate && echo '$pairs' | grep -qx '$matches'"
	truth=$(sed -n "s/^net_clock $h //p" "$TMPDIR_TEST/plan")
	worst=$(echo "$truth $(col "$h" 2) $(col "$h" 3) $first $last" | awk '{
		for (i = 5; i <= 6; i++) {
			d = ($3 - $1) * $i + ($4 - $2)
			if (d < 0) d = -d
			if (d > w) w = d
		}
		printf "%.0f", w }')
	if [ "$worst" -le "${spread%.*}" ]; then
		ok "$h: within ${worst} ns of its true clock over the trace (the bounds' spread: ${spread%.*} ns)"
	else
		not_ok "$h: within the bounds' spread of its true clock"
		diag "true $truth, computed $(col "$h" 2) $(col "$h" 3): $worst ns off, spread $spread"
	fi
done

# --dump --sync: every event, no receipt before its send, times in
# order; the raw clocks put receipts before sends.
"$TRACENAV" --dump "$gen" 2>/dev/null | python3 "$top_srcdir/tests/sync-check.py" \
	> "$TMPDIR_TEST/raw"
"$TRACENAV" --dump --sync "$gen" 2>"$TMPDIR_TEST/dump.err" |
	tee "$TMPDIR_TEST/synced.txt" | python3 "$top_srcdir/tests/sync-check.py" \
	> "$TMPDIR_TEST/synced"
want="events $(plan_value events) matched $(plan_value net_matched) before 0 back 0"
check "--dump --sync: $want" test "$(cat "$TMPDIR_TEST/synced")" = "$want"
check "--dump: the raw clocks put receipts before their sends ($(cat "$TMPDIR_TEST/raw"))" \
	sh -c "grep -q ' before [1-9]' '$TMPDIR_TEST/raw'"
# The reference host's events keep their times.
check "--dump --sync: host0's events as --dump prints them" \
	sh -c "'$TRACENAV' --dump '$gen' 2>/dev/null | grep ' host0 ' | sed 's/ ([^)]*)//' > '$TMPDIR_TEST/h0.raw' &&
		grep ' host0 ' '$TMPDIR_TEST/synced.txt' | sed 's/ ([^)]*)//' | cmp -s - '$TMPDIR_TEST/h0.raw'"

# sync save, then --dump --sync=FILE: the same correction, the same
# output.
"$TRACENAV" --no-cache --batch "sync save $TMPDIR_TEST/saved" "$gen" \
	>/dev/null 2>&1
check "sync save: the lines sync prints, after a comment" \
	sh -c "grep -v '^#' '$TMPDIR_TEST/saved' | cmp -s - '$TMPDIR_TEST/sync'"
"$TRACENAV" --dump --sync="$TMPDIR_TEST/saved" "$gen" 2>/dev/null \
	> "$TMPDIR_TEST/from-file.txt"
check "--dump --sync=FILE: what --dump --sync prints" \
	cmp -s "$TMPDIR_TEST/from-file.txt" "$TMPDIR_TEST/synced.txt"
"$TRACENAV" --no-cache --batch "sync load $TMPDIR_TEST/saved" "$gen" \
	> "$TMPDIR_TEST/loaded" 2>/dev/null
check "sync load: prints what it loaded" \
	cmp -s "$TMPDIR_TEST/loaded" "$TMPDIR_TEST/sync"
# --dump --sync --begin: corrected times.
from=$(sed -n '100000s/^\[\([^]]*\)\].*/\1/p' "$TMPDIR_TEST/synced.txt")
"$TRACENAV" --dump --sync --begin "$from" "$gen" 2>/dev/null | head -3 \
	> "$TMPDIR_TEST/begin"
grep -m1 -A2 "^\[$from\]" "$TMPDIR_TEST/synced.txt" > "$TMPDIR_TEST/begin.want"
check "--dump --sync --begin $from: from the first event at that corrected time on" \
	sh -c "sed 1d '$TMPDIR_TEST/begin' | cmp -s - '$TMPDIR_TEST/begin.want.rest' ||
		{ sed 1d '$TMPDIR_TEST/begin.want' > '$TMPDIR_TEST/begin.want.rest';
		  sed 1d '$TMPDIR_TEST/begin' | cmp -s - '$TMPDIR_TEST/begin.want.rest' &&
		  head -1 '$TMPDIR_TEST/begin' | grep -q '^\[$from\]'; }"

# --- Errors. ---------------------------------------------------------
printf 'host0\t1\t0\treference\t0\n' > "$TMPDIR_TEST/bad"
"$TRACENAV" --dump --sync="$TMPDIR_TEST/bad" "$gen" >"$TMPDIR_TEST/out" \
	2>"$TMPDIR_TEST/err"
check "--sync=FILE with 5 columns: exit 1, the line and what it wants, nothing printed" \
	sh -c "test $? = 1 && grep -q 'is not a correction as .sync save. writes it: line 1: expected 6 columns' '$TMPDIR_TEST/err' && test ! -s '$TMPDIR_TEST/out'"
"$TRACENAV" --dump --sync="$TMPDIR_TEST/none" "$gen" >/dev/null \
	2>"$TMPDIR_TEST/err"
check "--sync=FILE missing: exit 1, said" \
	sh -c "test $? = 1 && grep -q 'cannot read the correction .*none' '$TMPDIR_TEST/err'"
"$TRACENAV" --sync --info "$gen" >/dev/null 2>"$TMPDIR_TEST/err"
check "--sync --info: exit 2, says where --sync applies" \
	sh -c "test $? = 2 && grep -q 'in the event list, --batch and --dump' '$TMPDIR_TEST/err'"
"$TRACENAV" --sync="$TMPDIR_TEST/none" --batch 'print 1' "$gen" \
	>"$TMPDIR_TEST/out" 2>"$TMPDIR_TEST/err"
check "--batch --sync=FILE missing: exit 1, said, nothing printed" \
	sh -c "test $? = 1 && grep -q 'cannot read the correction .*none' '$TMPDIR_TEST/err' && test ! -s '$TMPDIR_TEST/out'"

# --- One host: nothing to match. -------------------------------------
"$GEN_TRACE" --events 2000 "$TMPDIR_TEST/one" >/dev/null
check "one host: its own reference, no packet" test \
	"$("$TRACENAV" --no-cache --batch sync "$TMPDIR_TEST/one" 2>/dev/null)" = \
	"host	1.00000000000000000000	0.000	reference	0.000	0"

# --- Trace Compass's synchronisation traces (two VMs, scp). ----------
sync_traces=$SHARED_TRACES/tracecompass/synctraces
if [ ! -d "$sync_traces" ]; then
	skip "no shared trace corpus at $SHARED_TRACES"
	tap_done
	exit
fi
"$TRACENAV" --no-cache --batch sync "$sync_traces" > "$TMPDIR_TEST/tc" \
	2>"$TMPDIR_TEST/tc.err"
# Trace Compass (its ExperimentSyncTest and MatchAndSyncTest): 46
# packets matched, 8 left (3 + 2 + 2 + 1), scp_dest (VM3) the reference,
# VM1: slope 0.9999413783703139011056845831168394, offset
# 79796507913179.33347660124688298171.
check "synctraces: VM3 the reference, 46 packets matched" \
	test "$(sed -n 1p "$TMPDIR_TEST/tc")" = "VM3	1.00000000000000000000	0.000	reference	0.000	46"
check "synctraces: 46 matched, 8 unmatched (Trace Compass's counts)" \
	grep -q '^sync: 46 packets matched, 8 unmatched, 0 duplicate keys$' "$TMPDIR_TEST/tc.err"
vm1=$(sed -n 2p "$TMPDIR_TEST/tc")
# Exact decimals: the difference at the trace's times, in ns.
off=$(echo "$vm1" | python3 -c '
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 60
host, slope, offset, quality, accuracy, matches = sys.stdin.read().split("\t")
diff = max(abs((D(slope) - D("0.9999413783703139011056845831168394")) * t +
	       D(offset) - D("79796507913179.33347660124688298171"))
	   for t in (D(1361214046441895637), D(1361214099530082855)))
print("yes" if diff < 1 and quality == "accurate" and int(matches) == 46 else "no %s" % diff)')
check "synctraces: VM1's correction Trace Compass's, within 1 ns over the trace's times ($vm1)" \
	test "$off" = yes
"$TRACENAV" --dump --sync "$sync_traces" 2>/dev/null |
	python3 "$top_srcdir/tests/sync-check.py" > "$TMPDIR_TEST/tc.synced"
"$TRACENAV" --dump "$sync_traces" 2>/dev/null |
	python3 "$top_srcdir/tests/sync-check.py" > "$TMPDIR_TEST/tc.raw"
check "synctraces --dump --sync: all 196500 events, no receipt before its send ($(cat "$TMPDIR_TEST/tc.synced"))" \
	test "$(cat "$TMPDIR_TEST/tc.synced")" = "events 196500 matched 46 before 0 back 0"
check "synctraces --dump: 24 of the 46 receipts before their sends on the raw clocks" \
	grep -q 'matched 46 before 24 ' "$TMPDIR_TEST/tc.raw"

tap_done
