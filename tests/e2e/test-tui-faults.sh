#!/bin/sh
# test-tui-faults.sh - the event list when things go wrong, through tmux:
# SIGTERM, SIGHUP and SIGINT while the index is built, during the state
# pass, a search, an export, and at random moments; the terminal hanging
# up (an ssh connection dropped) without a SIGHUP for tracenav.  Each
# time: the conventional exit status (128 + the signal), the terminal
# restored (no alternate screen, cursor shown, mouse and keypad modes
# off, canonical mode and echo), the private runtime directories gone,
# and the cache, the marks and the exported file complete or absent.
# Two instances on one trace at once.  Terminals from 20x5 to 500x200,
# too small ones, and a resize storm while keys are typed, after which
# the screen is what a new instance draws.  TERM=dumb or unknown: a
# clear error, nothing written on the terminal; NO_COLOR: no colour.
#
# In the sanitizer builds (several times slower) the trace is smaller
# and the random rounds and the resize storm are shorter.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC
. "$top_srcdir/tests/faults.sh"

if sanitized; then
	events=150000 rounds=2 storm=15
else
	events=1000000 rounds=5 storm=60
fi
# Shared with test-faults.sh (read only).
dir=$(shared_trace big --events "$events" --cpus 4) || exit 1
cache="$TMPDIR_TEST/cache/tracenav"
# Sessions come and go here: one that stays keeps the tmux server up (a
# server whose last session ended exits, and a new-session that meets it
# exiting fails: "server exited unexpectedly").
tm new-session -d -s keep 'exec sleep 3600'

# run NAME W H [OPTIONS]: tracenav on $dir in a new session; after it,
# the pane says EXIT=STATUS and the terminal's modes (stty).
run() {
	{
		echo "export TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8"
		printf "'%s' %s '%s'\n" "$TRACENAV" "${4:-}" "$dir"
		echo 'echo EXIT=$?'
		echo "stty -a | tr ' ;' '\\n\\n' | grep -x -e '-\\?icanon' -e '-\\?echo' |
			tr '\\n' ' '; echo"
		echo 'exec sleep 600'
	} > "$TMPDIR_TEST/$1.sh"
	tm new-session -d -s "$1" -x "$2" -y "$3" "sh '$TMPDIR_TEST/$1.sh'"
	wait_for "$1" "$HEADER" >/dev/null
}

# signal NAME SIG: send SIG to the session's tracenav.
signal() {
	pid=$(tracenav_pid "$1")
	[ -n "$pid" ] && kill -"$2" "$pid"
}

# ended NAME STATUS...: tracenav exited with one of the STATUSes, and the
# terminal is as it was: out of the alternate screen, cursor shown, mouse
# and keypad modes off, canonical mode and echo on.  It has 30 s to exit,
# as in wait_exit: a sanitizer build looks for leaks at exit.
ended() {
	name=$1
	shift
	wait_until 300 shows "$name" '^EXIT=' || { diag "$name: still running"; return 1; }
	got=$(screen "$name" | sed -n 's/^EXIT=//p')
	modes=$(tm display -p -t "$name" \
		'#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{keypad_flag}')
	wait_until 20 shows "$name" '^-?icanon -?echo'
	stty=$(screen "$name" | grep -E '^-?icanon ' | sed 's/ *$//')
	for want; do
		[ "$got" = "$want" ] && [ "$modes" = "0 1 0 0" ] &&
			[ "$stty" = "icanon echo" ] && return 0
	done
	diag "$name: exit $got (want $*), tmux modes '$modes' (want '0 1 0 0'), stty '$stty'"
	return 1
}

# left_screen NAME: tracenav has left the alternate screen (it is ending,
# even if a sanitizer build still looks for leaks).
left_screen() {
	[ "$(tm display -p -t "$1" '#{alternate_on}')" = 0 ]
}

# after NAME SIG: the checks after a run that SIG ended ("INT TERM": a
# SIGINT that may have ended it, then a SIGTERM).
after() {
	case $2 in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;;
	"INT TERM") want="130 143" ;; esac
	check "$1: SIG$2: exit status $want, terminal restored" \
		ended "$1" $want
	check "$1: private directories removed" private_gone
	check "$1: cache and marks complete or absent" cache_sound
	tm kill-session -t "$1"
}

cache_opt="--cache-dir '$TMPDIR_TEST/cache/tracenav'"

## While the index is built: on test-tui-write.sh's larger trace, whose
## index takes long enough to be seen being built in every build (a
## sanitizer build's 150 000 events are indexed in 0.1 s).
main_dir=$dir
dir=$(shared_trace big --events 1500000 --cpus 2) || exit 1
run preparse 100 30 "$cache_opt"
check "preparse: indexing" wait_until 100 shows preparse ' indexing [0-9]+%'
signal preparse TERM
after preparse TERM
dir=$main_dir

## During the state pass, the index from the cache (a --batch command
## that needs only the index built it alone; the cache emptied first,
## since the run above may have ended after its state was saved).
rm -rf "$TMPDIR_TEST/cache"
"$TRACENAV" --batch 'goto #1' --cache-dir "$TMPDIR_TEST/cache/tracenav" \
	"$dir" >/dev/null 2>&1
run state 100 30 "$cache_opt"
check "state pass: running" wait_until 300 shows state ' state [0-9]+%'
tm send-keys -t state m j j m
signal state HUP
after state HUP
check "state pass: the index was kept" \
	grep -q "^index hit $events " "$TMPDIR_TEST/check"

## During a search: Ctrl-C (SIGINT) cancels it, SIGTERM ends.  The
## pattern backtracks on every line (about 5 us an event), so that the
## search still runs when the signal comes: one that ended before it
## would leave SIGINT to end tracenav.  On the larger trace: on a loaded
## machine the sanitizer build's 150 000 events were searched between
## the screen saying so and the signal.
dir=$(shared_trace big --events 1500000 --cpus 2) || exit 1
run search 100 30 "$cache_opt"
tm send-keys -t search / '(.*.*.*)[0-9]zq' Enter
check "search: running" wait_until 100 shows search 'searching'
signal search INT
check "search: SIGINT cancels the search, tracenav goes on" \
	wait_until 100 eval "! shows search 'searching' && [ -n \"\$(tracenav_pid search)\" ]"
signal search TERM
after search TERM
dir=$main_dir

## During an export (of the scheduler's events: the walk reads it all).
run export 100 30 "$cache_opt"
mkdir "$TMPDIR_TEST/out"
tm send-keys -t export '&' 'sched_switch' Enter
tm send-keys -t export : "write $TMPDIR_TEST/out/switches.txt" Enter
check "export: writing" wait_until 100 shows export 'writing'
signal export TERM
after export TERM
# export_sound: no temporary file; the file absent, or whole (if the
# export ended before the signal).
export_sound() {
	left=$(ls -A "$TMPDIR_TEST/out")
	[ -z "$left" ] && return 0
	[ "$left" = switches.txt ] &&
		[ "$(wc -l < "$TMPDIR_TEST/out/switches.txt")" = "$("$TRACENAV" \
			--batch 'filter-in sched_switch; count' "$dir" 2>/dev/null |
			sed 's/ .*//')" ] &&
		return 0
	diag "left in the export's directory: $left"
	return 1
}
check "export: no partial file, no temporary file" export_sound

## At random moments, with keys typed meanwhile (each round's seed and
## moment said, to replay it).
round=1
while [ "$round" -le "$rounds" ]; do
	set -- $(awk -v seed="$$$round" 'BEGIN { srand(seed); split("INT TERM HUP", s)
		printf "%s %.2f %d\n", s[1 + int(rand() * 3)], rand() * 2.5,
			int(rand() * 4) }')
	sig=$1 delay=$2 keys=$3
	diag "round $round: SIG$sig after ${delay}s, keys $keys"
	rm -rf "$TMPDIR_TEST/cache"	# so that some rounds catch the index
	run "round$round" 100 30 "$cache_opt"
	case $keys in
	1) tm send-keys -t "round$round" / 'zzz+no+match' Enter ;;
	2) tm send-keys -t "round$round" s G m g m ;;
	3) tm send-keys -t "round$round" d S A 5 0 % ;;
	esac
	sleep "$delay"
	signal "round$round" "$sig"
	# SIGINT only cancels what runs: a second signal then ends it.  One
	# that ends it leaves the screen at once, and may take seconds more
	# to exit in a sanitizer build.
	if [ "$sig" = INT ] && ! wait_until 30 left_screen "round$round"; then
		sig="INT TERM"
		signal "round$round" TERM
	fi
	after "round$round" "$sig"
	round=$((round + 1))
done

## The terminal hangs up (ssh drops): the shell that got the SIGHUP
## ignores it, tracenav notices that its terminal is gone.
cat > "$TMPDIR_TEST/hangup.sh" <<EOF
trap '' HUP
export TERM=xterm-256color LANG=C.UTF-8
'$TRACENAV' --cache-dir '$cache' '$dir'
echo \$? > '$TMPDIR_TEST/hangup.status'
EOF
tm new-session -d -s hangup -x 100 -y 30 "sh '$TMPDIR_TEST/hangup.sh'"
wait_for hangup "$HEADER" >/dev/null
tm kill-pane -t hangup
check "hang-up: tracenav ends (status 129), it does not spin" \
	wait_until 50 eval "[ \"\$(cat '$TMPDIR_TEST/hangup.status' 2>/dev/null)\" = 129 ]"
check "hang-up: private directories removed" private_gone
check "hang-up: cache complete or absent" cache_sound

## Two instances on one trace, with one cache, at once.
rm -rf "$TMPDIR_TEST/cache"
run one 100 30 "$cache_opt"
run two 100 30 "$cache_opt"
check "two at once: the first indexes" \
	wait_until 600 shows one " event [0-9]+ of $events "
check "two at once: the second too" \
	wait_until 600 shows two " event [0-9]+ of $events "
tm send-keys -t one m
tm send-keys -t two j m
tm send-keys -t one q
tm send-keys -t two q
check "two at once: both exit 0" eval 'ended one 0 && ended two 0'
check "two at once: the cache and the marks are sound" cache_sound
check "two at once: the index is there" \
	grep -q "^index hit $events " "$TMPDIR_TEST/check"
tm kill-session -t one
tm kill-session -t two

## Terminal sizes (a new cache: no marks, whose column would show).
rm -rf "$TMPDIR_TEST/cache"
"$TRACENAV" --dump --count 300 "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"
run tiny 20 5 "$cache_opt"
check "20x5: the list and its status bar" \
	eval "line_starts tiny 1 'Time' && line_starts tiny 4 ' big '"
tm resize-window -t tiny -x 10 -y 3
check "10x3: too small, and says so" wait_for tiny '^too small'
tm resize-window -t tiny -x 80 -y 24
check "80x24 again: the list" wait_for tiny "$HEADER"
check "80x24 again: the first events" wait_until 50 same_rows tiny 1 21
tm resize-window -t tiny -x 500 -y 200
check "500x200: 197 events" wait_until 50 same_rows tiny 1 197
tm send-keys -t tiny q
check "q: exits 0" ended tiny 0
tm kill-session -t tiny

## A resize storm while keys are typed; then the screen is the one a new
## instance draws at that size.
run storm 80 24 "$cache_opt"
keys="j k Space b G g s d i S A Tab + -"
step=1
while [ "$step" -le "$storm" ]; do
	set -- $(awk -v seed="$step" -v keys="$keys" 'BEGIN { srand(seed)
		n = split(keys, k)
		w = rand() < 0.1 ? 5 + int(rand() * 15) : 20 + int(rand() * 480)
		h = rand() < 0.1 ? 1 + int(rand() * 4) : 5 + int(rand() * 195)
		print w, h, k[1 + int(rand() * n)] }')
	tm resize-window -t storm -x "$1" -y "$2"
	tm send-keys -t storm "$3"
	step=$((step + 1))
done
tm resize-window -t storm -x 100 -y 30
# Close what the storm opened (a pane's title says its key), one at a
# time, each once it is gone (a key sent again would open it again).
has() {
	screen "$1" | grep -q -F -- "$2"
}
close_pane() {
	has storm " $1 ($2 hides)" || return 0
	tm send-keys -t storm "$2"
	wait_until 100 eval "! has storm ' $1 ($2 hides)'"
}
panes_closed() {
	close_pane 'State tree' s && close_pane 'Sequence diagram' d &&
		close_pane Histogram i && close_pane Statistics S &&
		close_pane Analysis A
}
# settled NAME: the screen stays the same for a second (the keys of the
# storm are all taken: a slow build needs time).
settled() {
	screen "$1" > "$TMPDIR_TEST/settle1"
	sleep 1
	screen "$1" | cmp -s - "$TMPDIR_TEST/settle1"
}
check "storm: still running" test -n "$(tracenav_pid storm)"
check "storm: the keys taken" wait_until 60 settled storm
check "storm: its panes close" panes_closed
tm send-keys -t storm Escape Escape g
run fresh 100 30 "$cache_opt"
tm send-keys -t fresh g
# The list's lines (not the status and message lines, whose progress
# may differ).
same_screen() {
	screen storm | head -28 > "$TMPDIR_TEST/storm.screen"
	screen fresh | head -28 > "$TMPDIR_TEST/fresh.screen"
	cmp -s "$TMPDIR_TEST/storm.screen" "$TMPDIR_TEST/fresh.screen"
}
# (The keys of the storm may still be running: a slow build gets time.)
like_fresh() {
	wait_until 300 same_screen && return 0
	diff "$TMPDIR_TEST/fresh.screen" "$TMPDIR_TEST/storm.screen" |
		cut -c1-90 | sed 's/^/# /'
	screen storm | tail -2 | sed 's/^/# /'
	return 1
}
check "storm: then the screen a new instance draws" like_fresh
tm send-keys -t storm q
tm send-keys -t fresh q
check "storm: exits 0" ended storm 0
tm kill-session -t storm
tm kill-session -t fresh

## TERM that cannot draw the list; NO_COLOR.
# in_pty NAME ENV...: tracenav in script(1)'s pseudo-terminal, with
# ENV, q typed after a second; what it wrote in NAME.raw, its status in
# NAME.status.
in_pty() {
	name=$1
	shift
	{
		echo "export LANG=C.UTF-8 LC_ALL=C.UTF-8 $*"
		printf "'%s' --no-index '%s'\n" "$TRACENAV" "$dir"
		echo "echo \$? > '$TMPDIR_TEST/$name.status'"
	} > "$TMPDIR_TEST/$name.sh"
	(sleep 1; printf q) | script -q -c "sh '$TMPDIR_TEST/$name.sh'" \
		"$TMPDIR_TEST/$name.raw" >/dev/null 2>&1
	sed '1d;/^Script done on /d' "$TMPDIR_TEST/$name.raw" > "$TMPDIR_TEST/$name.out"
}
if command -v script >/dev/null 2>&1; then
	in_pty dumb TERM=dumb
	check "TERM=dumb: exit status 2" grep -qx 2 "$TMPDIR_TEST/dumb.status"
	check "TERM=dumb: says what to do" grep -q \
		"the terminal type 'dumb' (TERM) cannot move the cursor.*set TERM" \
		"$TMPDIR_TEST/dumb.out"
	check "TERM=dumb: nothing else written (no escape sequence)" \
		eval "! grep -q \"\$(printf '\\033')\" '$TMPDIR_TEST/dumb.out'"
	in_pty unknown TERM=no-such-terminal
	check "unknown TERM: exit status 2" grep -qx 2 "$TMPDIR_TEST/unknown.status"
	check "unknown TERM: says so" grep -q \
		"cannot use the terminal type 'no-such-terminal' (TERM)" \
		"$TMPDIR_TEST/unknown.out"
	in_pty color TERM=xterm-256color
	in_pty nocolor TERM=xterm-256color NO_COLOR=1
	# colours COLOR: SGR sequences with a colour (30-38, 40-48, 90-107).
	colours() {
		grep -a -o "$(printf '\033')\\[[0-9;]*m" "$TMPDIR_TEST/$1.out" |
			sed -e 's/^.*\[//' -e 's/m$//' | tr ';' '\n' |
			grep -a -c -x -E '3[0-8]|4[0-8]|9[0-7]|10[0-7]'
	}
	check "colours without NO_COLOR" test "$(colours color)" -gt 0
	check "NO_COLOR: no colour at all" test "$(colours nocolor)" = 0
	check "NO_COLOR: the list is drawn" grep -q 'Time' "$TMPDIR_TEST/nocolor.out"
else
	skip "TERM and NO_COLOR: script(1) (util-linux) is not installed"
fi

tap_done
