#!/bin/sh
# test-faults.sh - --dump and --batch when things go wrong: SIGTERM,
# SIGINT and SIGHUP during a long --dump, during an export (the
# temporary file goes with the process) and at random moments of
# --batch's index, state pass and cache save; SIGPIPE (| head); two
# processes indexing one trace into one cache at once; a full disk, a
# file size limit and a read-only cache directory, where they work and
# say so once.  After each: the conventional exit status, no private
# directory left, the cache and the marks complete or absent, no
# temporary file.  The sanitizer builds read a smaller trace, in fewer
# rounds.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
make_tmpdir
export TZ=UTC
. "$top_srcdir/tests/faults.sh"

if sanitized; then
	events=150000 rounds=2
else
	events=1000000 rounds=4
fi
# Shared with test-tui-faults.sh (read only).
dir=$(shared_trace big --events "$events" --cpus 4) || exit 1
cache="$TMPDIR_TEST/cache"

# number SIG: the signal's number.
number() {
	case $1 in INT) echo 2 ;; TERM) echo 15 ;; HUP) echo 1 ;; PIPE) echo 13 ;; esac
}

# killed WHAT SIG STATUS: the checks after a process that SIG ended.
killed() {
	want=$((128 + $(number "$2")))
	check "$1: SIG$2: exit status $want" test "$3" = "$want"
	check "$1: SIG$2: private directories removed" private_gone
}

## A long --dump (from a time: read through a slice), three signals.
for sig in TERM INT HUP; do
	# Once it printed (and so set its handlers up: a background job
	# starts with SIGINT ignored).
	rm -f "$TMPDIR_TEST/out"
	"$TRACENAV" --dump --begin 22:13:20.1 "$dir" > "$TMPDIR_TEST/out" 2>/dev/null &
	pid=$!
	wait_until 50 test -s "$TMPDIR_TEST/out"
	kill -"$sig" "$pid"
	wait "$pid"
	killed "--dump" "$sig" $?
done

## SIGPIPE: | head stops --dump at once, and --batch after a jump (whose
## slice of the trace is a private directory) as well.
started=$(date +%s)
{ "$TRACENAV" --dump "$dir" 2>/dev/null; echo $? > "$TMPDIR_TEST/status"; } |
	head -1 > /dev/null
killed "--dump | head -1" PIPE "$(cat "$TMPDIR_TEST/status")"
check "--dump | head -1: stops at once (not after the whole trace)" \
	test $(($(date +%s) - started)) -le 5
{ "$TRACENAV" --no-cache --batch "goto 50%; print $events" "$dir" 2>/dev/null
  echo $? > "$TMPDIR_TEST/status"; } | { sleep 0.5; head -1 > /dev/null; }
killed "--batch 'goto 50%; print' | head -1" PIPE "$(cat "$TMPDIR_TEST/status")"

## An export: its temporary file goes with the process.
mkdir "$TMPDIR_TEST/export"
"$TRACENAV" --batch "filter-in sched_switch; write $TMPDIR_TEST/export/out.txt" \
	--no-cache "$dir" >/dev/null 2>&1 &
pid=$!
temp_there() {
	ls -A "$TMPDIR_TEST/export" | grep -q '^\.out\.txt\.tracenav-'
}
check "export: writing (its temporary file)" wait_until 100 temp_there
kill -TERM "$pid"
wait "$pid"
killed "export" TERM $?
check "export: no temporary file, no partial file left" \
	test -z "$(ls -A "$TMPDIR_TEST/export")"

## --batch index (index, state pass, cache saves) and marks, at random
## moments (each round's seed said, to replay it).
started=$(date +%s%N)
"$TRACENAV" --batch index --cache-dir "$TMPDIR_TEST/timing" "$dir" >/dev/null 2>&1
duration=$(awk -v a="$started" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
round=1
while [ "$round" -le "$rounds" ]; do
	set -- $(awk -v seed="$$$round" -v d="$duration" 'BEGIN { srand(seed)
		split("INT TERM HUP", s)
		printf "%s %.2f\n", s[1 + int(rand() * 3)], rand() * d }')
	diag "round $round: SIG$1 after $2 s (of $duration)"
	[ $((round % 2)) = 1 ] && rm -rf "$cache"
	"$TRACENAV" --batch 'goto 50%; mark; index; down 7; mark' \
		--cache-dir "$cache" "$dir" >/dev/null 2>&1 &
	pid=$!
	sleep "$2"
	kill -"$1" "$pid" 2>/dev/null
	wait "$pid"
	status=$?
	# It may have ended first.
	[ "$status" = 0 ] || killed "round $round" "$1" "$status"
	check "round $round: cache and marks complete or absent" cache_sound
	round=$((round + 1))
done

## Two processes index one trace into one cache at once.
rm -rf "$cache"
k=$((events / 3))
"$TRACENAV" --dump "$dir" 2>/dev/null | sed -n "${k}p;$((k + 1))p" > "$TMPDIR_TEST/want"
for n in 1 2; do
	"$TRACENAV" --batch "index; goto #$k; mark; print 2" --cache-dir "$cache" \
		"$dir" > "$TMPDIR_TEST/two$n" 2>"$TMPDIR_TEST/two$n.err" &
	eval "pid$n=\$!"
done
wait "$pid1"
status1=$?
wait "$pid2"
status2=$?
check "two at once: both exit 0" test "$status1$status2" = 00
check "two at once: both print events $k and $((k + 1)) as --dump does" \
	eval "cmp -s '$TMPDIR_TEST/two1' '$TMPDIR_TEST/want' &&
		cmp -s '$TMPDIR_TEST/two2' '$TMPDIR_TEST/want'"
check "two at once: the cache and the marks are sound" cache_sound
check "two at once: the index with its state, one mark" eval \
	"grep -qx 'index hit $events state' '$TMPDIR_TEST/check' &&
	 grep -qx 'marks 1' '$TMPDIR_TEST/check'"
file=$(ls "$cache"/*.index)
before=$(ls -i "$file")
"$TRACENAV" --batch "index; goto #$((k + 1)); print 1" --cache-dir "$cache" \
	"$dir" > "$TMPDIR_TEST/third" 2>"$TMPDIR_TEST/third.err"
check "then a third uses the cache (not rewritten, nothing said)" \
	eval "[ \"\$(ls -i '$file')\" = '$before' ] &&
		! grep -q -i -e cache -e again '$TMPDIR_TEST/third.err'"
check "and answers as --dump" \
	eval "sed -n 2p '$TMPDIR_TEST/want' | cmp -s - '$TMPDIR_TEST/third'"

## Where the cache cannot be written: tracenav works and says so once
## (a smaller trace: the index is still larger than the marks).
dir="$TMPDIR_TEST/small"
events=50000
"$GEN_TRACE" --events "$events" --cpus 2 "$dir" >/dev/null
script='index; mark; down 3; mark; down 3; mark; count'
# says_once FILE WHAT WHO: FILE (stderr) has exactly one line saying,
# because of WHAT, that WHO ("index stays", "marks stay") in memory.
says_once() {
	n=$(grep -c "$2.*; the $3 in memory" "$1")
	[ "$n" = 1 ] && return 0
	diag "$n lines about the $3 ($2) in:"
	sed 's/^/# /' "$1"
	return 1
}
# works_and_says WHAT LABEL DESCRIPTION: the run whose output is in
# $TMPDIR_TEST/LABEL.out and .err exited 0, counted the events, said
# once that the index and the marks stay in memory.
works_and_says() {
	check "$3: works (exit 0, the count)" eval \
		"[ \"\$(cat '$TMPDIR_TEST/$2.status')\" = 0 ] &&
		 grep -qx '$events events' '$TMPDIR_TEST/$2.out'"
	check "$3: says once that the index stays in memory" \
		says_once "$TMPDIR_TEST/$2.err" "$1" 'index stays'
	check "$3: says once that the marks stay in memory" \
		says_once "$TMPDIR_TEST/$2.err" "$1" 'marks stay'
}
# in_cache LABEL DIR: the script run with DIR as cache directory.
in_cache() {
	"$TRACENAV" --batch "$script" --cache-dir "$2" "$dir" \
		> "$TMPDIR_TEST/$1.out" 2> "$TMPDIR_TEST/$1.err"
	echo $? > "$TMPDIR_TEST/$1.status"
}

# A file size limit (ulimit -f, in 512-byte blocks): the index file is
# larger, the marks file is not.
(ulimit -f 4 && in_cache fsize "$TMPDIR_TEST/fsize")
check "file size limit: works (exit 0, the count)" eval \
	"[ \"\$(cat '$TMPDIR_TEST/fsize.status')\" = 0 ] &&
	 grep -qx '$events events' '$TMPDIR_TEST/fsize.out'"
check "file size limit: says once that the index stays in memory" \
	says_once "$TMPDIR_TEST/fsize.err" 'File too large' 'index stays'

# A full disk and a read-only directory need a file system of our own:
# a tmpfs in a private mount namespace (unshare -r -m, user namespaces).
mnt="$TMPDIR_TEST/mnt"
mkdir "$mnt"
if unshare -r -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$1"' sh "$mnt" \
		2>/dev/null; then
	export TRACENAV script dir mnt TMPDIR_TEST
	# in_ns LABEL SETUP: in_cache LABEL $mnt/cache in a new namespace
	# where SETUP ran first (with $mnt a fresh tmpfs).
	in_ns() {
		unshare -r -m sh -c "mount -t tmpfs -o size=64k tmpfs \"\$mnt\" &&
			$2 &&
			\"\$TRACENAV\" --batch \"\$script\" --cache-dir \"\$mnt/cache\" \
				\"\$dir\" > \"\$TMPDIR_TEST/$1.out\" 2> \"\$TMPDIR_TEST/$1.err\"
			echo \$? > \"\$TMPDIR_TEST/$1.status\""
	}
	in_ns full 'head -c 1M /dev/zero > "$mnt/fill" 2>/dev/null; true'
	works_and_says 'No space left on device' full "full disk"
	in_ns readonly 'mkdir "$mnt/cache" && mount -o remount,ro "$mnt"'
	works_and_says 'Read-only file system' readonly "read-only cache directory"
elif [ "$(id -u)" != 0 ]; then
	skip "full disk: cannot mount a small file system here (needs user namespaces: unshare -r -m)"
	mkdir -m 555 "$TMPDIR_TEST/ro"
	in_cache readonly "$TMPDIR_TEST/ro/cache"
	works_and_says 'Permission denied' readonly "read-only cache directory"
else
	skip "full disk and read-only cache directory: cannot mount a small file system here (needs user namespaces: unshare -r -m), and chmod does not stop root"
fi

## A batch that ends as it should, after a jump (a slice) while its
## preparse still runs: the process stops its jobs and exits without
## freeing what it holds (or frees it all, TRACENAV_FREE_AT_EXIT=1):
## the output whole, status 0, no private directory left.
for free in 0 1; do
	TRACENAV_FREE_AT_EXIT=$free "$TRACENAV" --no-cache --batch \
		"goto 22:13:20.1; print 3; index" "$dir" \
		> "$TMPDIR_TEST/quick.out" 2>"$TMPDIR_TEST/quick.err"
	status=$?
	check "batch, free at exit $free: exit status 0, its output whole" \
		test "$status" = 0 -a "$(grep -c . "$TMPDIR_TEST/quick.out")" = 3 \
		-a "$(cat "$TMPDIR_TEST/quick.err")" = "$events events indexed"
	check "batch, free at exit $free: private directories removed" \
		private_gone
done

tap_done
