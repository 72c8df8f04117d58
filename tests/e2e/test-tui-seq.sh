#!/bin/sh
# test-tui-seq.sh - the sequence diagram pane, through tmux, on a
# generated message trace: d opens it at the list's cursor, and its text
# is what `--batch 'goto #K; seqdiag --unicode W'` prints for the same
# width (the header, then a run of its lines with the selected one);
# moving the list moves the selection to the message the event selects
# (an end at the cursor, else the next one); Tab gives it the keys: j
# selects the next message and moves the list to its send (the status
# bar's time is the send's in --dump), r to its receive (the event of
# the same seq); / finds a message, N the one before; hide patterns
# (seq-hide, seq-hidden, seq-unhide) take lifelines and messages out;
# --ascii draws in plain ASCII; at 80x24 the list and the pane share
# the screen.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/e2e/tmux.sh"
tmux_setup
export TZ=UTC LC_ALL=C.UTF-8

dir="$TMPDIR_TEST/messages"
"$GEN_TRACE" --domain ust --events 400 --cpus 2 --seed 3 "$dir" >/dev/null
"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump" 2>/dev/null
events_of_dump "$TMPDIR_TEST/dump"
opts="--no-index --no-cache"
WIDTH=160
W=$((WIDTH - 1))	# the pane's text starts at its second column

t() {
	event "$1" | cut -d' ' -f1
}

# pane NAME: the pane's lines (its title's next to the status bar's
# previous), from its second column.
pane() {
	screen "$1" | awk '/^ Sequence diagram \(d hides\)/ { at = NR; next }
		at { lines[NR] = substr($0, 2); last = NR }
		END { for (i = at + 1; i <= last - 2; i++) print lines[i] }'
}

pane_has() {
	pane "$1" | grep -q -E -- "$2"
}

# wait_pane NAME EGREP: until the pane shows it (5 s).
wait_pane() {
	wait_until 50 pane_has "$1" "$2" && return 0
	diag "the pane: $(pane "$1" | head -6)"
	return 1
}

# selected NAME: the pane's selected line (it starts with '>').
selected() {
	pane "$1" | grep '^>'
}

# selected_time NAME: the time of its first end, on the left.
selected_time() {
	selected "$1" | awk '{ print substr($1, 2) }'
}

# batch K: seqdiag --unicode W at event K.
batch() {
	"$TRACENAV" --no-cache --batch "goto #$1; seqdiag --unicode $W" \
		"$dir" 2>/dev/null
}

# same_as_batch NAME K: the pane's lines are the batch drawing's: its
# header, then a run of its lines holding the selected one.
same_as_batch() {
	pane "$1" > "$TMPDIR_TEST/pane"
	batch "$2" > "$TMPDIR_TEST/batch"
	head -3 "$TMPDIR_TEST/pane" > "$TMPDIR_TEST/got-head"
	head -3 "$TMPDIR_TEST/batch" > "$TMPDIR_TEST/want-head"
	cmp -s "$TMPDIR_TEST/got-head" "$TMPDIR_TEST/want-head" || return 1
	sed 1,3d "$TMPDIR_TEST/pane" > "$TMPDIR_TEST/got-body"
	first=$(head -1 "$TMPDIR_TEST/got-body")
	at=$(grep -n -F -x -- "$first" "$TMPDIR_TEST/batch" | head -1 |
		cut -d: -f1)
	[ -n "$at" ] || return 1
	n=$(wc -l < "$TMPDIR_TEST/got-body")
	[ "$n" -ge 4 ] || return 1
	sed -n "$at,$((at + n - 1))p" "$TMPDIR_TEST/batch" \
		> "$TMPDIR_TEST/want-body"
	cmp -s "$TMPDIR_TEST/got-body" "$TMPDIR_TEST/want-body" &&
		grep -q '^>' "$TMPDIR_TEST/got-body"
}

check_same() {
	if wait_until 50 same_as_batch "$1" "$2"; then
		ok "$3"
	else
		not_ok "$3"
		diff "$TMPDIR_TEST/batch" "$TMPDIR_TEST/pane" | head -8 |
			cut -c1-120 | sed 's/^/# /'
	fi
}

# dump_line TIME: the --dump line of the event at TIME.
dump_line() {
	grep -F "[$1]" "$TMPDIR_TEST/dump" | head -1
}

# field LINE NAME: a string field of a --dump line.
field() {
	echo "$1" | sed -n "s/.* $2 = \"\(\([^\"\\\\]\|\\\\.\)*\)\".*/\1/p"
}

# receive_of TIME: the time of the receive of the send at TIME (the same
# sender, receiver, signal and seq).
receive_of() {
	line=$(dump_line "$1")
	seq=$(echo "$line" | sed -n 's/.* seq = \([0-9]*\) }.*/\1/p')
	grep " app:receive: " "$TMPDIR_TEST/dump" |
		grep -F "sender = \"$(field "$line" sender)\"" |
		grep -F "receiver = \"$(field "$line" receiver)\"" |
		grep " seq = $seq }" | head -1 |
		sed 's/^\[\([^]]*\)\].*/\1/'
}

# the selection's time, once it is TIME (5 s).
selected_is() {
	[ "$(selected_time "$1")" = "$2" ]
}

wait_selected() {
	wait_until 50 selected_is "$1" "$2" && return 0
	diag "selected: '$(selected "$1" | cut -c1-100)', want time $2"
	return 1
}

start sq "$WIDTH" 50 "$opts"
wait_for sq "$HEADER" >/dev/null
tm send-keys -t sq 1 4 9 j
check "149j: the list is at event 150" wait_status sq "$(t 150)"
tm send-keys -t sq d
check "d: the pane opens" wait_for sq '^ Sequence diagram \(d hides\)'
check_same sq 150 "the pane is seqdiag --unicode $W's page at event 150"
check "line drawing: the header's boxes" pane_has sq '^ +┌─+┐ ┌'
# Event 150 is a receive: its message is selected, drawn from its send.
ev=$(dump_line "$(t 150)")
sig=$(field "$ev" signal)
check "the selected message is event 150's: its signal ($sig)" \
	eval 'selected sq | grep -q -F -- "$sig"'

# The list moves: the selection follows.
tm send-keys -t sq 1 0 j
check "10j: the list is at event 160" wait_status sq "$(t 160)"
batch 160 | grep '^>' | awk '{ print substr($1, 2) }' > "$TMPDIR_TEST/want"
check "the pane selects what seqdiag selects at event 160" \
	wait_selected sq "$(cat "$TMPDIR_TEST/want")"
tm send-keys -t sq 2 0 0 j
check "200j: the list is at event 360" wait_status sq "$(t 360)"
batch 360 | grep '^>' | awk '{ print substr($1, 2) }' > "$TMPDIR_TEST/want"
check "far away: a new page, the message seqdiag selects at event 360" \
	wait_selected sq "$(cat "$TMPDIR_TEST/want")"
check_same sq 360 "... and the pane is seqdiag's page at event 360"

# Tab: the pane takes j, k and r; the list follows.
tm send-keys -t sq Tab
before=$(selected_time sq)
tm send-keys -t sq j
moved() {
	s=$(selected_time sq)
	[ -n "$s" ] && [ "$s" != "$before" ] && status_is sq "$s"
}
check "Tab, j: the next message is selected, the list at its send" \
	wait_until 50 moved
send=$(selected_time sq)
check "the event at the status bar's time is a send (--dump)" \
	eval 'dump_line "$send" | grep -q " app:send: "'
sig=$(field "$(dump_line "$send")" signal)
check "... of the selected message's signal ($sig)" \
	eval 'selected sq | grep -q -F -- "$sig"'
recv=$(receive_of "$send")
tm send-keys -t sq r
check "r: the list goes to the receive ($recv)" wait_status sq "$recv"
check "r: the same message stays selected" selected_is sq "$send"
tm send-keys -t sq k
gone_back() {
	s=$(selected_time sq)
	[ -n "$s" ] && [ "$s" \< "$send" ] && status_is sq "$s"
}
check "k: the previous message, the list at its send" wait_until 50 gone_back
tm send-keys -t sq 3 j
check "3j: three messages on" wait_until 50 eval \
	'[ "$(selected_time sq)" \> "$send" ] && status_is sq "$(selected_time sq)"'

# Find: / launch, then N back to the one before.
launches=$(grep -E ' app:send: .*signal = "[^"]*launch' "$TMPDIR_TEST/dump" |
	sed 's/^\[\([^]]*\)\].*/\1/')
first_launch=$(echo "$launches" | head -1)
last_launch=$(echo "$launches" | tail -1)
tm send-keys -t sq /
tm send-keys -t sq -l launch
tm send-keys -t sq Enter
check "/launch: wraps to the first launch ($first_launch)" \
	wait_status sq "$first_launch"
check "/launch: says it wrapped" wait_for sq 'find hit BOTTOM, continuing at TOP'
check "/launch: its message is selected" wait_selected sq "$first_launch"
tm send-keys -t sq N
check "N: back over the top to the last launch ($last_launch)" \
	wait_status sq "$last_launch"
check "N: says it wrapped" wait_for sq 'find hit TOP, continuing at BOTTOM'
tm send-keys -t sq n
check "n: the first again" wait_status sq "$first_launch"

# Hide patterns.
no_ack() {
	pane sq | grep -q '^>' && ! pane sq | grep -q -i ack
}
tm send-keys -t sq :
tm send-keys -t sq -l 'seq-hide ack'
tm send-keys -t sq Enter
check ":seq-hide ack: says so" wait_for sq 'the diagram hides ack \(1 hide pattern'
check ":seq-hide ack: no ack in the pane (nor the back end lifeline)" \
	wait_until 50 no_ack
tm send-keys -t sq :
tm send-keys -t sq -l 'seq-hidden'
tm send-keys -t sq Enter
check ":seq-hidden: a view with the pattern" wait_for sq '^ack$'
tm send-keys -t sq q
tm send-keys -t sq :
tm send-keys -t sq -l 'seq-unhide'
tm send-keys -t sq Enter
check ":seq-unhide: says so" wait_for sq '1 hide pattern removed'
check ":seq-unhide: the acks are back" wait_pane sq 'ack'

# h and l: the lifelines scroll when they do not fit.
tm send-keys -t sq Tab
tm send-keys -t sq d
check "d: the pane closes" wait_until 50 eval '! shows sq "^ Sequence diagram"'
tm send-keys -t sq q
check "q: exits 0" wait_exit sq 0

# 80x24, line drawing off (--ascii): the list and the pane share the
# screen, the lifelines scroll with l.
start small 80 24 "$opts --ascii"
wait_for small "$HEADER" >/dev/null
tm send-keys -t small 1 4 9 j d
check "80x24: the pane opens" wait_for small '^ Sequence diagram \(d hides\)'
check "80x24: the list still shows its header" line_is_like small 1 "$HEADER"
check "80x24: the list still shows the cursor's event" \
	same_row_at_cursor small 150
check "80x24: the selected message shows" wait_pane small '^>'
check "80x24: the title says which lifelines show" \
	wait_for small 'lifelines 1-3 of 6 \(h, l\)'
check "--ascii: no line drawing" eval '! pane small | grep -q "[│─┌]"'
check "--ascii: ASCII lifelines and arrows" wait_pane small '\|.*(->|<-)'
tm send-keys -t small Tab l
check "l: the lifelines scroll" wait_for small 'lifelines 2-4 of 6 \(h, l\)'
tm send-keys -t small h
check "h: back" wait_for small 'lifelines 1-3 of 6 \(h, l\)'
tm send-keys -t small q
check "q: exits 0" wait_exit small 0

# A find on a trace of a million events runs in the background: the
# list moves meanwhile, and Esc cancels it.
big="$TMPDIR_TEST/big"
"$GEN_TRACE" --domain ust --events 1000000 --cpus 2 --seed 3 "$big" >/dev/null
dir=$big
second=$("$TRACENAV" --dump --count 2 "$big" |
	sed -n '2s/^\[\([^]]*\)\].*/\1/p')
start big 120 40 "$opts"
wait_for big "$HEADER" >/dev/null
tm send-keys -t big d
check "a big trace: the pane shows its first messages" wait_pane big '^>'
tm send-keys -t big Tab /
tm send-keys -t big -l zzzz
tm send-keys -t big Enter
check "/zzzz: the title says it is finding" wait_for big 'finding [0-9]+%'
tm send-keys -t big Tab j
check "... while the list moves" wait_status big "$second"
tm send-keys -t big Escape
check "Esc: the find is cancelled" wait_for big 'find cancelled'
no_finding() {
	! shows big 'finding [0-9]+%'
}
check "Esc: the title no longer says it" wait_until 50 no_finding
tm send-keys -t big q
check "q: exits 0" wait_exit big 0

tap_done
