#!/bin/sh
# Sequence diagram rules (--seq-rules FILE, and the default file under
# $XDG_CONFIG_HOME/tracenav) on generated message traces:
#   - rules that re-create the reference convention on app:send and
#     app:receive (with `loaders none`) draw the same diagram as the
#     reference loader, and list the same messages;
#   - an RPC-like rule (a whole synchronous message at each event, names
#     made of fields, a where condition) against awk over --dump;
#   - a lifeline rule's creation marks in the drawing;
#   - the default file is read, --seq-rules wins over it, and a bad
#     file stops tracenav (exit 2) with its line and column.
# No LTTng is needed: the traces are gen-trace's (its app:send and
# app:receive events carry sender, receiver, signal and seq fields, and
# the vpid, vtid and procname contexts).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir
export TZ=UTC LC_ALL=C.UTF-8

dir="$TMPDIR_TEST/messages"
"$GEN_TRACE" --domain ust --events 3000 --cpus 3 --seed 11 "$dir" >/dev/null
rules="$TMPDIR_TEST/reference.rules"
cat > "$rules" <<'EOF'
# The reference convention, as rules: sends and receives paired by
# sender, receiver, signal and seq.
loaders none
send    app:send    from=sender to=receiver signal=signal id=seq
receive app:receive from=sender to=receiver signal=signal id=seq
EOF

# ---- the reference convention ----

for script in "goto #40" "goto #1500" "goto 77%" "bottom"; do
	"$TRACENAV" --batch "$script; seqdiag 160" "$dir" > "$TMPDIR_TEST/ref"
	"$TRACENAV" --seq-rules "$rules" --batch "$script; seqdiag 160" "$dir" \
		> "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
	if [ -s "$TMPDIR_TEST/ref" ] &&
	   cmp -s "$TMPDIR_TEST/ref" "$TMPDIR_TEST/got"; then
		ok "$script; seqdiag: the rules draw what the reference loader does"
	else
		not_ok "$script; seqdiag: the rules draw what the reference loader does"
		diag "$(head -2 "$TMPDIR_TEST/err")"
		diff "$TMPDIR_TEST/ref" "$TMPDIR_TEST/got" | head -6 |
			sed 's/^/# /'
	fi
done
"$TRACENAV" --batch "seqdiag-list 100000" "$dir" > "$TMPDIR_TEST/ref"
"$TRACENAV" --seq-rules "$rules" --batch "seqdiag-list 100000" "$dir" \
	> "$TMPDIR_TEST/got"
n=$(wc -l < "$TMPDIR_TEST/ref")
check "seqdiag-list: the same $n messages with the rules" \
	[ "$n" -gt 100 ] && cmp -s "$TMPDIR_TEST/ref" "$TMPDIR_TEST/got"
# Without `loaders none` both run: every message twice.
grep -v '^loaders' "$rules" > "$TMPDIR_TEST/both.rules"
"$TRACENAV" --seq-rules "$TMPDIR_TEST/both.rules" \
	--batch "seqdiag-list 100000" "$dir" > "$TMPDIR_TEST/got"
check "without 'loaders none': the reference loader and the rules, $n twice" \
	[ "$(wc -l < "$TMPDIR_TEST/got")" -eq $((n * 2)) ]

# ---- an RPC-like rule against awk ----

cat > "$TMPDIR_TEST/rpc.rules" <<'EOF'
loaders none
message app:send from="t{$ctx.vtid}" to="call {seq}" signal="{signal}()" kind=sync where signal == "ping"
EOF
"$TRACENAV" --seq-rules "$TMPDIR_TEST/rpc.rules" \
	--batch "seqdiag-list 100000" "$dir" |
	awk -F '\t' '{ print $1, $2, $3, $4, $5, $6 }' > "$TMPDIR_TEST/got"
"$TRACENAV" --dump "$dir" | awk '
	/ app:send: / && /signal = "ping"/ {
		vtid = $0; sub(/.*vtid = /, "", vtid); sub(/,.*/, "", vtid)
		seq = $0; sub(/.*seq = /, "", seq); sub(/ .*/, "", seq)
		print $1, $1, "sync", "t" vtid, "call " seq, "ping()"
	}' > "$TMPDIR_TEST/want"
n=$(wc -l < "$TMPDIR_TEST/want")
if [ "$n" -gt 10 ] && cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got"; then
	ok "an RPC-like rule: $n synchronous calls as awk finds them"
else
	not_ok "an RPC-like rule: synchronous calls as awk finds them"
	diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -6 | sed 's/^/# /'
fi

# ---- lifelines ----

cat > "$TMPDIR_TEST/life.rules" <<'EOF'
lifeline app:flush name="{$ctx.procname}" category=thread create
EOF
"$TRACENAV" --seq-rules "$TMPDIR_TEST/life.rules" \
	--batch "goto #1500; seqdiag 400" "$dir" > "$TMPDIR_TEST/got"
check "a lifeline rule: creation marks ('*') in the drawing" \
	grep -q '^[ >][0-9:.]* .*\*' "$TMPDIR_TEST/got"

# ---- the default file, and errors ----

mkdir -p "$XDG_CONFIG_HOME/tracenav"
cp "$TMPDIR_TEST/rpc.rules" "$XDG_CONFIG_HOME/tracenav/seq-rules"
"$TRACENAV" --batch "seqdiag-list 100000" "$dir" |
	awk -F '\t' '{ print $1, $2, $3, $4, $5, $6 }' > "$TMPDIR_TEST/got"
check "the default file \$XDG_CONFIG_HOME/tracenav/seq-rules is read" \
	cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got"
"$TRACENAV" --seq-rules "$rules" --batch "seqdiag-list 100000" "$dir" \
	> "$TMPDIR_TEST/got"
check "--seq-rules FILE is read instead of the default file" \
	cmp -s "$TMPDIR_TEST/ref" "$TMPDIR_TEST/got"

printf 'loaders none\n\nsend app:send from=sender to= signal=x\n' \
	> "$XDG_CONFIG_HOME/tracenav/seq-rules"
"$TRACENAV" --batch "seqdiag" "$dir" > /dev/null 2> "$TMPDIR_TEST/err"
st=$?
want="tracenav: $XDG_CONFIG_HOME/tracenav/seq-rules:3:30: expected a field after '=', got end of line"
check "a bad default file: exit 2 and its line and column" \
	[ "$st" -eq 2 ] && [ "$(cat "$TMPDIR_TEST/err")" = "$want" ]
rm "$XDG_CONFIG_HOME/tracenav/seq-rules"
"$TRACENAV" --seq-rules "$TMPDIR_TEST/none" --batch "seqdiag" "$dir" \
	> /dev/null 2> "$TMPDIR_TEST/err"
st=$?
check "a missing --seq-rules file: exit 2, said" \
	[ "$st" -eq 2 ] && grep -q 'cannot read the sequence diagram rules' \
		"$TMPDIR_TEST/err"
# --dump does not read the rules.
"$TRACENAV" --seq-rules "$TMPDIR_TEST/none" --dump --count 1 "$dir" \
	> /dev/null 2>&1
check "--dump ignores --seq-rules" [ $? -eq 0 ]

tap_done
