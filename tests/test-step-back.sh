#!/bin/sh
# test-step-back.sh - a stream whose times go back (gen-trace
# --step-back: by 1 ns at a packet's first event, by 2 us in a packet's
# middle, twice in a row): read whole, each stream in its own order,
# with one warning; babeltrace2 stops at the first; jumps to times
# around each step land on the first event placed at or after them (an
# event is placed at the latest time its stream reached), with and
# without the index; goto #K lands on the K-th event.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC

dir=$TMPDIR_TEST/steps
"$GEN_TRACE" --step-back --events 20000 --cpus 2 --packet-size 4096 \
	--ties 0 --plan "$TMPDIR_TEST/plan" "$dir" >/dev/null
events=$(sed -n 's/^events //p' "$TMPDIR_TEST/plan")
"$TRACENAV" --dump "$dir" >"$TMPDIR_TEST/dump" 2>"$TMPDIR_TEST/dump.err"
status=$?
check "--dump: exit 0, all $events events" \
	test "$status" = 0 -a "$(wc -l < "$TMPDIR_TEST/dump")" = "$events"
warning="tracenav: warning: stream file \`$dir/channel0_0\`: 4 events went back in time, by at most 4000 ns; 1 packet bound or notice went back in time (a packet's end past the next one's start), by at most 1 ns; read on in the stream's own order (babeltrace2 stops at the first)"
if [ "$(cat "$TMPDIR_TEST/dump.err")" = "$warning" ]; then
	ok "one warning: the stream, its 4 events and its packet bound"
else
	not_ok "one warning: the stream, its 4 events and its packet bound"
	diag "got: $(cat "$TMPDIR_TEST/dump.err")"
fi
check "the plan's four steps printed with negative deltas" \
	test "$(grep -c '] (-0\.00000\(0001\|2000\|4000\))' "$TMPDIR_TEST/dump")" = 4

if have_babeltrace2; then
	babeltrace2 "$dir" >"$TMPDIR_TEST/bt" 2>/dev/null
	bt_status=$?
	n=$(wc -l < "$TMPDIR_TEST/bt")
	check "babeltrace2 stops at the first step (exit $bt_status, $n events): the same events up to there" \
		sh -c "test $bt_status = 1 && test $n -lt $events &&
			head -n $n '$TMPDIR_TEST/dump' | cmp -s - '$TMPDIR_TEST/bt'"
	# The stream alone, straight from the source (no muxer to stop
	# it): tracenav gives its events in that order.
	mkdir -p "$TMPDIR_TEST/one/index"
	cp "$dir/metadata" "$dir/channel0_0" "$TMPDIR_TEST/one/"
	cp "$dir/index/channel0_0.idx" "$TMPDIR_TEST/one/index/"
	babeltrace2 run --component=src:src.ctf.fs \
		--params="inputs=[\"$TMPDIR_TEST/one\"]" \
		--component=out:sink.text.pretty --connect=src:out 2>/dev/null |
		sed 's/ ([^)]*)//' > "$TMPDIR_TEST/stream0.bt"
	grep 'cpu_id = 0 }' "$TMPDIR_TEST/dump" | sed 's/ ([^)]*)//' \
		> "$TMPDIR_TEST/stream0.tn"
	check "the stream with steps: its $(wc -l < "$TMPDIR_TEST/stream0.bt") events in the order the source gives them" \
		sh -c "test -s '$TMPDIR_TEST/stream0.bt' &&
			cmp -s '$TMPDIR_TEST/stream0.bt' '$TMPDIR_TEST/stream0.tn'"
else
	skip "babeltrace2 CLI not installed"
	skip "babeltrace2 CLI not installed"
fi

# Each stepped event right after the one before it in its stream; the
# times to jump to around each step, and where each lands: the first
# event placed at or after it (the place: the latest time so far).
python3 - "$TMPDIR_TEST/dump" "$TMPDIR_TEST/plan" > "$TMPDIR_TEST/cases" <<'PY'
import re, sys, calendar, time
lines = open(sys.argv[1]).read().splitlines()
def ns_of(line):
    m = re.match(r"\[(\d+):(\d+):(\d+)\.(\d{9})\]", line)
    return (1699999200 + (int(m[1]) - 22) * 3600 + int(m[2]) * 60 + int(m[3])) * 10**9 + int(m[4])
recorded = [ns_of(l) for l in lines]
placed, top = [], None
for r in recorded:
    top = r if top is None or r > top else top
    placed.append(top)
steps = [l.split() for l in open(sys.argv[2]) if l.startswith("step_back ")]
adjacent = 0
for _, _, _, ns, by in steps:
    k = recorded.index(int(ns))
    # the line above: its stream's event before it (no ties: --ties 0)
    if "cpu_id = 0 }" in lines[k - 1] and "cpu_id = 0 }" in lines[k]:
        adjacent += 1
    print("rank", k + 1)
    r, p = int(ns), placed[k]
    for t in sorted({r - 1, r, r + 1, p - 1, p, p + 1}):
        land = next(i for i, q in enumerate(placed) if q >= t)
        print("goto %d.%09d %d" % (t // 10**9, t % 10**9, land + 1))
print("adjacent", adjacent)
PY
check "each stepped event comes right after the one before it in its stream" \
	grep -qx 'adjacent 4' "$TMPDIR_TEST/cases"

# --batch (and the event list's message line) says it once the index
# read it.
"$TRACENAV" --no-cache --batch index "$dir" >/dev/null 2>"$TMPDIR_TEST/batch.err"
check "--batch index: the stream named once, how far its times go back" \
	grep -qx "warning: stream file \`$dir/channel0_0\`: 4 events seen going back in time, by up to 4000 ns; its events are read in its own order" \
	"$TMPDIR_TEST/batch.err"

# goto TIME and goto #K, without the index and with it.
for with in "" "index; "; do
	bad=0
	tried=0
	while read -r what arg rank; do
		case $what in
		rank) rank=$arg; arg="#$arg" ;;
		goto) ;;
		*) continue ;;
		esac
		tried=$((tried + 1))
		got=$("$TRACENAV" --no-cache --batch "${with}goto $arg; print 1" \
			"$dir" 2>/dev/null)
		want=$(sed -n "${rank}p" "$TMPDIR_TEST/dump")
		if [ "$got" != "$want" ]; then
			bad=$((bad + 1))
			[ "$bad" -le 2 ] && diag "goto $arg: got '$got', want line $rank '$want'"
		fi
	done < "$TMPDIR_TEST/cases"
	check "${with:-without the index: }goto around each step and goto #K land on the first event placed at or after it ($tried jumps)" \
		test "$bad" = 0 -a "$tried" -ge 20
done

tap_done
