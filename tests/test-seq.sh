#!/bin/sh
# seqdiag and seqdiag-find in --batch, on generated message traces: the
# exact text of a fixed page (snapshots under tests/seq/, in ASCII and
# with line drawing, scrolled to the third lifeline), lines within the
# width, the horizontal offset against the whole header, an orphan
# receive marked unpaired; seqdiag-find from events spread over the
# trace against awk over --dump (the next send, or receive without a
# send, whose sender, receiver or signal matches), wrapping around, and
# backward (--backward), and skipping what seq-hide hides; hide
# patterns (a signal or a lifeline gone from the drawing, seq-hidden,
# seq-unhide); the errors: a trace without messages, bad arguments, a
# bad regex, no match.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC LC_ALL=C.UTF-8
SNAPSHOTS="$top_srcdir/tests/seq"

dir="$TMPDIR_TEST/messages"
"$GEN_TRACE" --domain ust --events 400 --cpus 2 --seed 3 "$dir" >/dev/null

# same_text DESC FILE SCRIPT: the script's output is FILE, byte for byte.
same_text() {
	"$TRACENAV" --batch "$3" "$dir" > "$TMPDIR_TEST/got" \
		2> "$TMPDIR_TEST/err"
	st=$?
	if [ "$st" = 0 ] && cmp -s "$2" "$TMPDIR_TEST/got"; then
		ok "$1"
	else
		not_ok "$1"
		diag "exit $st; $(head -2 "$TMPDIR_TEST/err")"
		diff "$2" "$TMPDIR_TEST/got" | head -8 | sed 's/^/# /'
	fi
}

same_text "seqdiag at event 150: the snapshot in ASCII, 120 columns" \
	"$SNAPSHOTS/page-ascii-120.txt" "goto #150; seqdiag"
same_text "seqdiag --unicode 100 3: line drawing from the third lifeline" \
	"$SNAPSHOTS/page-unicode-100-3.txt" "goto #150; seqdiag --unicode 100 3"

# Every line within the width (ASCII: bytes are columns).
for w in 40 60 120 200; do
	"$TRACENAV" --batch "goto #200; seqdiag $w" "$dir" > "$TMPDIR_TEST/got"
	long=$(awk -v w="$w" 'length($0) > w' "$TMPDIR_TEST/got" | wc -l)
	lines=$(wc -l < "$TMPDIR_TEST/got")
	check "seqdiag $w: $lines lines, none wider than $w columns" \
		[ "$long" -eq 0 ] && [ "$lines" -gt 3 ]
done

# The horizontal offset: from the second lifeline, the header shows the
# names the whole one shows from its second box on.
names() {
	sed -n 2p "$1" | tr '|' '\n' | sed 's/^ *//;s/ *$//' | grep -v '^$'
}
"$TRACENAV" --batch "goto #150; seqdiag 1000" "$dir" > "$TMPDIR_TEST/all"
"$TRACENAV" --batch "goto #150; seqdiag 80 2" "$dir" > "$TMPDIR_TEST/part"
names "$TMPDIR_TEST/all" | sed 1d | head -n "$(names "$TMPDIR_TEST/part" |
	wc -l)" > "$TMPDIR_TEST/want"
names "$TMPDIR_TEST/part" > "$TMPDIR_TEST/got"
if [ "$(wc -l < "$TMPDIR_TEST/got")" -ge 2 ] &&
   cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" &&
   head -1 "$TMPDIR_TEST/part" | grep -q '^ 2-4 of 6 '; then
	ok "seqdiag 80 2: lifelines 2-4 of 6, as in the whole header"
else
	not_ok "seqdiag 80 2: lifelines 2-4 of 6, as in the whole header"
	head -2 "$TMPDIR_TEST/part" | sed 's/^/# /'
fi
# Each message line of the whole drawing has one selection mark at most.
sel=$(grep -c '^>' "$TMPDIR_TEST/all")
check "one selected message" [ "$sel" -eq 1 ]

# An orphan receive (a receive whose send was not traced) at the end of
# a short trace: its line is marked unpaired.
short="$TMPDIR_TEST/short"
"$GEN_TRACE" --domain ust --events 60 --cpus 2 --plan "$TMPDIR_TEST/short.plan" \
	"$short" >/dev/null
orphans=$(awk '$1 == "orphan_receives" { print $2 }' "$TMPDIR_TEST/short.plan")
"$TRACENAV" --batch "bottom; seqdiag 1000" "$short" > "$TMPDIR_TEST/got"
marked=$(grep -c '?' "$TMPDIR_TEST/got")
check "the plan's $orphans orphan receive(s): as many lines marked '?'" \
	[ "$orphans" -ge 1 ] && [ "$marked" -eq "$orphans" ]

# ---- seqdiag-find against awk over --dump ----

"$TRACENAV" --dump "$dir" > "$TMPDIR_TEST/dump"
total=$(wc -l < "$TMPDIR_TEST/dump")

# expected_find RE K: the line number of the next message start after
# line K whose sender, receiver or signal matches RE (lower case: case
# ignored), wrapping around to K itself; empty if none.
expected_find() {
	awk -v re="$1" -v k="$2" -v n="$total" '
	function field(name,    s) {
		if (!match($0, name " = \"([^\"\\\\]|\\\\.)*\""))
			return ""
		s = substr($0, RSTART + length(name) + 4,
			RLENGTH - length(name) - 5)
		gsub(/\\"/, "\"", s)
		gsub(/\\\\/, "\\", s)
		return s
	}
	function hit(s) {
		if (re == tolower(re))
			s = tolower(s)
		return s ~ re
	}
	{
		start = index($0, " app:send: ") ||
			(index($0, " app:receive: ") && index($0, "seq = 0 }"))
		if (start && (hit(field("sender")) ||
		    hit(field("receiver")) || hit(field("signal"))))
			m[NR] = 1
	}
	END {
		for (i = k + 1; i <= n; i++) if (i in m) { print i; exit }
		for (i = 1; i <= k; i++) if (i in m) { print i; exit }
	}' "$TMPDIR_TEST/dump"
}

for re in ack '^ping$' 'gateway|node' main 节点 'LAUNCH'; do
	for k in 1 137 250 400; do
		want=$(expected_find "$re" "$k")
		"$TRACENAV" --batch "goto #$k; seqdiag-find $re; print" "$dir" \
			> "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
		st=$?
		if [ -z "$want" ]; then
			if [ "$st" = 1 ] &&
			   grep -q "no message matches" "$TMPDIR_TEST/err"; then
				ok "seqdiag-find /$re/ from $k: none, as awk"
			else
				not_ok "seqdiag-find /$re/ from $k: none, as awk"
			fi
			continue
		fi
		sed -n "${want}p" "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
		wrapped=no
		[ "$want" -le "$k" ] && wrapped=yes
		said=no
		grep -q "hit BOTTOM, continuing at TOP" "$TMPDIR_TEST/err" &&
			said=yes
		if [ "$st" = 0 ] && cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" &&
		   [ "$said" = "$wrapped" ]; then
			ok "seqdiag-find /$re/ from $k: line $want, as awk (wrapped: $wrapped)"
		else
			not_ok "seqdiag-find /$re/ from $k: line $want, as awk (wrapped: $wrapped)"
			diag "exit $st; said wrapped: $said"
			diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -4 |
				cut -c1-160 | sed 's/^/# /'
		fi
	done
done

# Two finds in a row: the second goes past the first.
first=$(expected_find data 1)
second=$(expected_find data "$first")
sed -n "${second}p" "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
"$TRACENAV" --batch "top; seqdiag-find data; seqdiag-find data; print" \
	"$dir" > "$TMPDIR_TEST/got" 2>/dev/null
check "seqdiag-find twice: lines $first then $second" \
	cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got"

# ---- seqdiag-find --backward against awk ----

# expected_back RE K: the line number of the last message start before
# line K that matches RE, wrapping around to the last one from K on;
# empty if none.
expected_back() {
	awk -v re="$1" -v k="$2" -v n="$total" '
	function field(name,    s) {
		if (!match($0, name " = \"([^\"\\\\]|\\\\.)*\""))
			return ""
		s = substr($0, RSTART + length(name) + 4,
			RLENGTH - length(name) - 5)
		gsub(/\\"/, "\"", s)
		gsub(/\\\\/, "\\", s)
		return s
	}
	function hit(s) {
		if (re == tolower(re))
			s = tolower(s)
		return s ~ re
	}
	{
		start = index($0, " app:send: ") ||
			(index($0, " app:receive: ") && index($0, "seq = 0 }"))
		if (start && (hit(field("sender")) ||
		    hit(field("receiver")) || hit(field("signal"))))
			m[NR] = 1
	}
	END {
		for (i = k - 1; i >= 1; i--) if (i in m) { print i; exit }
		for (i = n; i >= k; i--) if (i in m) { print i; exit }
	}' "$TMPDIR_TEST/dump"
}

for re in ack '^ping$' 节点 main; do
	for k in 1 5 200 400; do
		want=$(expected_back "$re" "$k")
		"$TRACENAV" --batch "goto #$k; seqdiag-find --backward $re; print" \
			"$dir" > "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
		st=$?
		sed -n "${want}p" "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
		wrapped=no
		[ "$want" -ge "$k" ] && wrapped=yes
		said=no
		grep -q "hit TOP, continuing at BOTTOM" "$TMPDIR_TEST/err" &&
			said=yes
		if [ "$st" = 0 ] && cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" &&
		   [ "$said" = "$wrapped" ]; then
			ok "seqdiag-find --backward /$re/ from $k: line $want, as awk (wrapped: $wrapped)"
		else
			not_ok "seqdiag-find --backward /$re/ from $k: line $want, as awk (wrapped: $wrapped)"
			diag "exit $st; said wrapped: $said"
			diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -4 |
				cut -c1-160 | sed 's/^/# /'
		fi
	done
done

# Back and forth: --backward from the match of a forward find returns to
# the match before it.
first=$(expected_find data 1)
second=$(expected_find data "$first")
sed -n "${first}p" "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
"$TRACENAV" --batch "top; seqdiag-find data; seqdiag-find data; seqdiag-find --backward data; print" \
	"$dir" > "$TMPDIR_TEST/got" 2>/dev/null
check "seqdiag-find twice, then --backward: lines $first, $second, $first" \
	cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got"

# ---- hide patterns ----

# A hidden signal is in no line of the drawing, a hidden lifeline has
# no box; the others stay as they were.
"$TRACENAV" --batch "goto #150; seq-hide ack; seqdiag 1000" "$dir" \
	> "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
check "seq-hide ack: says it hides ack" \
	grep -q "the diagram hides ack (1 hide pattern" "$TMPDIR_TEST/err"
check "seq-hide ack: no ack (and no back\\end, whose name matches) in the drawing" \
	[ "$(grep -c -i ack "$TMPDIR_TEST/got")" = 0 ] && [ "$(wc -l < "$TMPDIR_TEST/got")" -gt 10 ]
names "$TMPDIR_TEST/all" | grep -v '^gateway$' > "$TMPDIR_TEST/want"
"$TRACENAV" --batch "goto #150; seq-hide ^gateway$; seqdiag 1000" "$dir" \
	> "$TMPDIR_TEST/got" 2>/dev/null
names "$TMPDIR_TEST/got" > "$TMPDIR_TEST/names"
check "seq-hide ^gateway\$: every lifeline of the page but gateway" \
	cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/names"
same_text "seq-hide, then seq-unhide: the snapshot again" \
	"$SNAPSHOTS/page-ascii-120.txt" \
	"goto #150; seq-hide ack; seq-hide data; seq-unhide ack; seq-unhide; seqdiag"
"$TRACENAV" --batch "seq-hide ack; seq-hide ^node; seq-hide ack; seq-hidden" \
	"$dir" > "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
printf 'ack\n^node\n' > "$TMPDIR_TEST/want"
check "seq-hidden lists the patterns in order, each once" \
	cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got"
check "seq-hide a pattern twice: says so" \
	grep -q "ack is hidden already" "$TMPDIR_TEST/err"
# A hidden message is never found: with data hidden, data|ping finds
# the pings alone.
for k in 1 137 250; do
	want=$(expected_find '^ping$' "$k")
	sed -n "${want}p" "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/want"
	"$TRACENAV" --batch "goto #$k; seq-hide data; seqdiag-find data|ping; print" \
		"$dir" > "$TMPDIR_TEST/got" 2>/dev/null
	check "seq-hide data; seqdiag-find data|ping from $k: the ping at line $want" \
		cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got"
done

# ---- errors ----

# fails DESC PATH SCRIPT TEXT: exit 1, TEXT on stderr, nothing on stdout.
fails() {
	"$TRACENAV" --batch "$3" "$2" > "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
	st=$?
	if [ "$st" = 1 ] && [ ! -s "$TMPDIR_TEST/got" ] &&
	   grep -q -F -- "$4" "$TMPDIR_TEST/err"; then
		ok "$1"
	else
		not_ok "$1"
		diag "exit $st; $(head -2 "$TMPDIR_TEST/err")"
	fi
}

# A trace none of whose events makes a message: a kernel trace, with a
# rule file that keeps no built-in loader (its wake-ups make messages
# otherwise).
kernel="$TMPDIR_TEST/kernel"
"$GEN_TRACE" --events 300 --cpus 2 "$kernel" >/dev/null
mkdir -p "$XDG_CONFIG_HOME/tracenav"
echo "loaders none" > "$XDG_CONFIG_HOME/tracenav/seq-rules"
fails "seqdiag on a kernel trace: no message" "$kernel" seqdiag \
	"no event of this trace makes a message"
fails "seqdiag-find on a kernel trace: no message" "$kernel" \
	"seqdiag-find x" "no event of this trace makes a message"
rm "$XDG_CONFIG_HOME/tracenav/seq-rules"
fails "seqdiag 0: a bad width" "$dir" "seqdiag 0" \
	"WIDTH must be a number from 1 to 10000, not \"0\""
fails "seqdiag 80 x: a bad first lifeline" "$dir" "seqdiag 80 x" \
	"FIRST must be a number"
fails "seqdiag 80 1 2: too many arguments" "$dir" "seqdiag 80 1 2" \
	"usage: seqdiag [--unicode] [WIDTH [FIRST]]"
fails "seqdiag-find with a bad regex: its column" "$dir" "seqdiag-find a(b" \
	"column 4"
fails "seqdiag-find without a match" "$dir" "seqdiag-find zzqq" \
	"no message matches: zzqq"
fails "seq-hide with a bad regex: its column" "$dir" "seq-hide a(b" \
	"column 4"
fails "seq-unhide of a pattern not there" "$dir" "seq-hide ack; seq-unhide data" \
	"no hide pattern is data"
fails "seq-hide everything: no message" "$dir" "seq-hide .; seqdiag-find ." \
	"no message matches: ."

tap_done
