#!/bin/sh
# test-sync-list.sh - the list on corrected clocks (--sync, sync on) in
# --batch, against --dump --sync: every event in its order and at its
# time, jumps by time and by event number (sliced seeks whose targets
# are converted per host), the histogram's bins; sync off back to the
# recorded clocks; the correction and both indexes kept in the cache.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC

gen=$TMPDIR_TEST/hosts
# Small packets: a jump decodes a few of the hundreds per stream.
"$GEN_TRACE" --traces 3 --net 3 --events 60000 --cpus 2 --seed 11 \
	--packet-size 4096 --plan "$TMPDIR_TEST/plan" "$gen" >/dev/null
"$TRACENAV" --dump --sync "$gen" > "$TMPDIR_TEST/synced" 2>/dev/null
"$TRACENAV" --dump "$gen" > "$TMPDIR_TEST/recorded"
n=$(wc -l < "$TMPDIR_TEST/synced")

# --- The whole list. --------------------------------------------------
"$TRACENAV" --sync --batch "print $n" "$gen" > "$TMPDIR_TEST/list" \
	2> "$TMPDIR_TEST/list.err"
check "--sync --batch: all $n events in --dump --sync's order, at its times" \
	cmp -s "$TMPDIR_TEST/list" "$TMPDIR_TEST/synced"
check "... and the times differ from the recorded ones" \
	eval "! cmp -s '$TMPDIR_TEST/list' '$TMPDIR_TEST/recorded'"
check "... says the times are corrected" \
	grep -q '^sync on: times corrected to the clock of host0 (2 of 3 hosts corrected)$' \
	"$TMPDIR_TEST/list.err"

# --- Jumps: to corrected times, to event numbers (the index). --------
python3 - "$TMPDIR_TEST" <<'EOF'
import random, re, sys
d = sys.argv[1]
lines = open(d + "/synced").read().splitlines()
time = lambda l: re.match(r"\[([^\]]*)\]", l).group(1)
first = {}
for i, l in enumerate(lines):
    first.setdefault(time(l), i)
random.seed(7)
script, want = ["index"], []
for _ in range(40):
    k = random.randrange(len(lines))
    script += ["goto " + time(lines[k]), "print 1", "goto #%d" % (k + 1),
               "print 1"]
    want += [lines[first[time(lines[k])]], lines[k]]
open(d + "/jumps", "w").write("\n".join(script) + "\n")
# The delta depends on the event before: left out.
strip = lambda l: re.sub(r" \([^)]*\)", "", l, count=1)
open(d + "/jumps.want", "w").write("\n".join(map(strip, want)) + "\n")
EOF
"$TRACENAV" --sync --batch-file "$TMPDIR_TEST/jumps" "$gen" 2>/dev/null |
	sed 's/ ([^)]*)//' > "$TMPDIR_TEST/jumps.got"
check "goto a corrected time, goto #K: 80 jumps land as --dump --sync says" \
	cmp -s "$TMPDIR_TEST/jumps.got" "$TMPDIR_TEST/jumps.want"

# --- The histogram: bins of corrected times. -------------------------
"$TRACENAV" --sync --batch 'histogram 7' "$gen" 2>/dev/null \
	> "$TMPDIR_TEST/histogram"
check "the histogram's bins count the corrected times of --dump --sync" \
	python3 - "$TMPDIR_TEST" <<'EOF'
import re, sys
d = sys.argv[1]
ns = lambda t: (lambda h, m, s: (int(h) * 3600 + int(m) * 60) * 10**9 +
                int(s.replace(".", "")))(*t.split(":"))
bins = [re.match(r"\[([^\]]*)\] (\d+)", l).groups()
        for l in open(d + "/histogram")]
starts = [ns(b[0]) for b in bins]
counts = [0] * len(bins)
for l in open(d + "/synced"):
    t = ns(re.match(r"\[([^\]]*)\]", l).group(1))
    i = max(i for i in range(len(starts)) if starts[i] <= t)
    counts[i] += 1
got = [int(b[1]) for b in bins]
sys.exit(0 if got == counts and len(bins) == 7 else 1)
EOF

# --- The diagram's network loader: packets between hosts' threads. ---
# Every packet of the plan matched is one message with both ends, its
# latency its receipt's time minus its send's: on the recorded clocks
# some below zero, none on the corrected ones.
matched=$(sed -n 's/^net_matched //p' "$TMPDIR_TEST/plan")
for clocks in recorded corrected; do
	opt=
	[ $clocks = corrected ] && opt=--sync
	"$TRACENAV" $opt --batch 'seqdiag-list 1000000' "$gen" 2>/dev/null \
		> "$TMPDIR_TEST/messages.$clocks"
	python3 - "$TMPDIR_TEST/messages.$clocks" $matched $clocks \
		> "$TMPDIR_TEST/loader.$clocks" <<'EOF2'
import re, sys
ns = lambda t: (lambda h, m, s: (int(h) * 3600 + int(m) * 60) * 10**9 +
                int(s.replace(".", "")))(*t.strip("[]").split(":"))
paired = below = wrong = 0
for line in open(sys.argv[1]):
    send, receive, kind, sender, receiver, signal = \
        line.rstrip("\n").split("\t")[:6]
    if not signal.startswith("TCP seq=") or "-" in (send, receive):
        continue
    paired += 1
    m = re.search(r"\(([+-])(\d+)\.(\d{3}) us\)$", signal)
    latency = (int(m.group(2)) * 1000 + int(m.group(3))) * \
        (-1 if m.group(1) == "-" else 1) if m else None
    if latency != ns(receive) - ns(send) or "/" not in sender + receiver:
        wrong += 1
    below += latency is not None and latency < 0
ok = paired == int(sys.argv[2]) and wrong == 0 and \
    ((below > 0) if sys.argv[3] == "recorded" else (below == 0))
print("%s paired %d below %d wrong %d" % ("ok" if ok else "bad", paired,
      below, wrong))
EOF2
	check "seqdiag-list, $clocks clocks: the $matched packets matched, each with its latency ($(cat "$TMPDIR_TEST/loader.$clocks"))" \
		grep -q '^ok ' "$TMPDIR_TEST/loader.$clocks"
done

# --- sync off: the recorded clocks. -----------------------------------
"$TRACENAV" --sync --batch "sync off
goto begin
print $n" "$gen" > "$TMPDIR_TEST/off" 2> "$TMPDIR_TEST/off.err"
check "sync off: the list as --dump prints it" \
	cmp -s "$TMPDIR_TEST/off" "$TMPDIR_TEST/recorded"
check "... and says so" \
	grep -q '^sync off: the times are those each host recorded$' \
	"$TMPDIR_TEST/off.err"
"$TRACENAV" --batch "sync off
sync on
sync on
sync on $TMPDIR_TEST/x" "$gen" > /dev/null 2> "$TMPDIR_TEST/again.err"
check "sync off when off, sync on when on: said; sync on FILE: an error" \
	sh -c "grep -q '^sync is off already$' '$TMPDIR_TEST/again.err' &&
		grep -q '^sync is on already$' '$TMPDIR_TEST/again.err' &&
		grep -q 'sync on takes no FILE' '$TMPDIR_TEST/again.err'"

# --- The cache: the correction, and both indexes side by side. -------
cache=$XDG_CACHE_HOME/tracenav
"$TRACENAV" --batch "index
goto #30000
print 1" "$gen" 2>/dev/null | sed 's/ ([^)]*)//' > "$TMPDIR_TEST/raw30000"
check "the recorded index beside the corrected one: #30000 is --dump's" \
	sh -c "sed -n '30000{s/ ([^)]*)//;p}' '$TMPDIR_TEST/recorded' |
		cmp -s - '$TMPDIR_TEST/raw30000'"
check "the cache holds two indexes and one correction" \
	sh -c "test \$(ls '$cache' | grep -c '\\.index\$') = 2 &&
		test \$(ls '$cache' | grep -c '\\.sync\$') = 1"
kept=$(ls "$cache"/*.sync)
"$TRACENAV" --batch sync "$gen" > "$TMPDIR_TEST/sync" 2>/dev/null
# The correction is read from the cache: one changed there is printed.
sed 's/^\(host1	[^	]*	\)[0-9-]*/\11/' "$kept" > "$TMPDIR_TEST/changed"
cp "$TMPDIR_TEST/changed" "$kept"
check "sync: the correction the cache holds (not matched again)" \
	sh -c "'$TRACENAV' --batch sync '$gen' 2>/dev/null | grep -q '^host1	[^	]*	1\\.'"
echo garbage > "$kept"
"$TRACENAV" --batch sync "$gen" > "$TMPDIR_TEST/sync.again" \
	2> "$TMPDIR_TEST/sync.err"
check "a damaged correction in the cache: removed, matched again, said" \
	sh -c "cmp -s '$TMPDIR_TEST/sync' '$TMPDIR_TEST/sync.again' &&
		grep -q 'not a clock correction; removed' '$TMPDIR_TEST/sync.err' &&
		grep -q '^# matched' '$kept'"

tap_done
