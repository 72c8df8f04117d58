# tmux.sh - running tracenav in tmux for the end-to-end tests (sourced
# after lib.sh): a private tmux server, sessions that report how tracenav
# ended, and what is on the screen, compared with `tracenav --dump`.
#
# The caller sets dir (the trace) and fills $TMPDIR_TEST/events with the
# "TIME NAME" of every event of its dump (events_of_dump does).

# The private server; skips the whole test without tmux.
tmux_setup() {
	if ! command -v tmux >/dev/null 2>&1; then
		skip "tmux is not installed"
		tap_done
		exit 0
	fi
	make_tmpdir
	# A private server, whether or not the tests run inside tmux; a
	# random part, since test runs in other PID namespaces may share
	# /tmp (and a socket of the same name would be removed under us).
	unset TMUX
	SOCKET="tracenav-test-$$-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
	socket_path=
	# kill-server leaves the socket file behind: remove it too.
	trap 'tmux -L "$SOCKET" kill-server 2>/dev/null
		[ -S "$socket_path" ] && rm -f "$socket_path"
		rm -rf "$TMPDIR_TEST"' EXIT
	trap 'exit 1' INT TERM
}

# events_of_dump DUMP: "TIME NAME" of each event of a --dump output into
# $TMPDIR_TEST/events.
events_of_dump() {
	sed 's/^\[\([^]]*\)\] ([^)]*) [^ ]* \([^ ]*\): {.*/\1 \2/' \
		"$1" > "$TMPDIR_TEST/events"
}

tm() {
	tmux -L "$SOCKET" -f /dev/null "$@"
}

# start NAME COLS LINES: tracenav in a new session; when it ends, the
# pane says how it ended and whether the terminal is canonical again.
# start NAME WIDTH HEIGHT [OPTIONS]: tracenav in a new tmux session;
# without OPTIONS, --no-index (the time-based list, no preparse).
start() {
	opts=${4:---no-index}
	tm new-session -d -s "$1" -x "$2" -y "$3" \
		"TERM=${TEST_TERM:-xterm-256color} LANG=C.UTF-8 TZ=UTC $TEST_ENV '$TRACENAV' $opts '$dir';
		 echo EXIT=\$?;
		 echo STTY=\$(stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\?icanon');
		 exec sleep 600"
}

screen() {
	tm capture-pane -p -t "$1"
}

# shows NAME EGREP: the screen matches.
shows() {
	screen "$1" | grep -q -E -- "$2"
}

# wait_for NAME EGREP: poll the screen (5 s at most) until it matches.
wait_for() {
	wait_until 50 shows "$1" "$2"
}

# wait_exit NAME STATUS: until the pane says tracenav exited with
# STATUS.  Up to 30 s: a sanitizer build frees everything and looks for
# leaks at exit, seconds once the state of a large trace is built (a
# normal build exits at once).
wait_exit() {
	wait_until 300 shows "$1" "^EXIT=$2\$"
}

# event N: "TIME NAME" of event N (1-based) of the dump.
event() {
	sed -n "$1p" "$TMPDIR_TEST/events"
}

# time_name NAME: the rows of the screen as "TIME NAME": the event name
# is the word under the header's "Event" (the columns between depend on
# the width: delta, host and CPU may be left out).
time_name() {
	screen "$1" | awk 'NR == 1 { for (i = 1; i <= NF; i++)
			if ($i == "Event") col = i; next }
		{ print $1, $col }'
}

# same_events GOT WANT: files of "TIME NAME" lines hold the same events,
# line by line; a name the list had to cut ends with "~" in GOT.
same_events() {
	awk 'NR == FNR { want[FNR] = $0; n = FNR; next }
		{ split($0, g, " "); split(want[FNR], w, " ")
		  len = length(g[2])
		  if (g[1] != w[1] || (g[2] != w[2] &&
		      !(substr(g[2], len, 1) == "~" &&
			index(w[2], substr(g[2], 1, len - 1)) == 1))) bad = 1
		  seen = FNR }
		END { exit bad || seen != n }' "$2" "$1"
}

# same_event GOT WANT: the same for one "TIME NAME" each.
same_event() {
	echo "$1" > "$TMPDIR_TEST/got1"
	echo "$2" > "$TMPDIR_TEST/want1"
	same_events "$TMPDIR_TEST/got1" "$TMPDIR_TEST/want1"
}

# row NAME K: "TIME NAME" of the K-th event row on screen (1-based).
row() {
	time_name "$1" | sed -n "$2p"
}

# status_time NAME: the cursor time shown in the status bar.
status_time() {
	screen "$1" | tail -2 | head -1 | awk '{ print $2 }'
}

# settled_time NAME: the current event's time on the status bar once it
# shows one (at first, until the first rows are read, it may say
# "seeking...").
settled_time() {
	wait_until 100 shows_a_time "$1"
	status_time "$1"
}

# shows_a_time NAME: the status bar shows the current event's time.
shows_a_time() {
	status_time "$1" | grep -q -E '^[0-9]+:[0-9]+:[0-9.]+$'
}

# row_is NAME K WANT: row K shows WANT ("TIME NAME").
row_is() {
	same_event "$(row "$1" "$2")" "$3"
}

# wait_row NAME K WANT: until row K shows WANT.
wait_row() {
	wait_until 50 row_is "$@" && return 0
	diag "row $2: got '$(row "$1" "$2")', want '$3'"
	return 1
}

# status_is NAME WANT: the status bar's cursor time is WANT.
status_is() {
	[ "$(status_time "$1")" = "$2" ]
}

# wait_status NAME WANT [TENTHS]: until the cursor time is WANT (5 s).
wait_status() {
	wait_until "${3:-50}" status_is "$1" "$2" && return 0
	diag "status time: got '$(status_time "$1")', want '$2'"
	return 1
}

# same_rows NAME FIRST COUNT: screen rows 1..COUNT are events FIRST...
same_rows() {
	time_name "$1" | sed -n "1,$3p" \
		> "$TMPDIR_TEST/rows"
	sed -n "$2,$(($2 + $3 - 1))p" "$TMPDIR_TEST/events" \
		> "$TMPDIR_TEST/want"
	same_events "$TMPDIR_TEST/rows" "$TMPDIR_TEST/want" && return 0
	diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/rows" | head -4 | sed 's/^/# /'
	return 1
}

# same_row_at_cursor NAME K: event K of --dump (time and name) is on
# the screen.
same_row_at_cursor() {
	want=$(sed -n "$2p" "$TMPDIR_TEST/events")
	time_name "$1" > "$TMPDIR_TEST/shown"
	while read -r got; do
		same_event "$got" "$want" && return 0
	done < "$TMPDIR_TEST/shown"
	diag "event $2 ($want) not on the screen"
	return 1
}

# line_is_like NAME N EGREP: screen line N matches.
line_is_like() {
	screen "$1" | sed -n "$2p" | grep -q -E -- "$3"
}

# line_matches NAME N EGREP: screen line N matches (polled, 5 s).
line_matches() {
	wait_until 50 line_is_like "$@" && return 0
	diag "line $2: '$(screen "$1" | sed -n "$2p")'"
	return 1
}

# line_has NAME N TEXT: screen line N holds TEXT (no regex).
line_has() {
	screen "$1" | sed -n "$2p" | grep -q -F -- "$3"
}

# line_starts NAME N TEXT: screen line N starts with TEXT (no regex).
line_starts() {
	case "$(screen "$1" | sed -n "$2p")" in
	"$3"*) return 0 ;;
	*) return 1 ;;
	esac
}

# The list's header: the columns between the time and the event name
# depend on the width (at 80 columns there is no room for the delta); a
# gutter of one column comes first while there are marks.
HEADER='^ ?Time +(Delta +)?(Host +)?(CPU +)?Event +Fields'

# list_gone NAME: the alternate screen is left, the list is not shown.
list_gone() {
	! screen "$1" | grep -q -E "$HEADER"
}

# tracenav's pid: the child of the pane's shell.
tracenav_pid() {
	shell=$(tm display -p -t "$1" '#{pane_pid}')
	for stat in /proc/[0-9]*/stat; do
		set -- $(cat "$stat" 2>/dev/null)
		[ "$4" = "$shell" ] && [ "$2" = "(tracenav)" ] && echo "$1"
	done
}

ns_of_day() {	# HH:MM:SS.NNNNNNNNN -> ns since midnight
	set -- $(echo "$1" | sed 's/[:.]/ /g; s/\b0*\([0-9]\)/\1/g')
	echo $(( (($1 * 60 + $2) * 60 + $3) * 1000000000 + $4 ))
}

# underlined_columns: the columns (0-based, a byte a column) of the
# characters drawn underlined in the line on standard input, as
# `capture-pane -e` writes it (SGR 4 on, 0 or 24 off).
underlined_columns() {
	awk '{
		n = length($0); col = -1; u = 0
		for (i = 1; i <= n; i++) {
			c = substr($0, i, 1)
			if (c == "\033") {
				j = index(substr($0, i), "m")
				k = split(substr($0, i + 2, j - 3), p, ";")
				for (q = 1; q <= k; q++) {
					if (p[q] == "4") u = 1
					if (p[q] == "0" || p[q] == "24") u = 0
				}
				i += j - 1
				continue
			}
			col++
			if (u) print col
		}
	}'
}
