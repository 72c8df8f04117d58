# ust-checks.sh - the checks of the LTTng-UST traces that
# tools/record-ust-traces records (sourced after lib.sh and make_tmpdir,
# by test-ust-real.sh on the traces under tests/data and by
# test-ust-record.sh on fresh ones).  What the programs of tests/ust/
# do fixes some answers (the event and message counts, the unpaired
# ends, the threads' names and deepest stacks); the rest comes from awk
# over tracenav --dump, whose text is babeltrace2's.

# same_value DESC WANT GOT: one check, two words equal.
same_value() {
	if [ "$2" = "$3" ]; then
		ok "$1: $3"
	else
		not_ok "$1: got $3, want $2"
	fi
}

# check_dump NAME TRACE EVENTS: tracenav --dump prints what babeltrace2
# prints, line for line; its event count (the count command) is
# babeltrace2's number of lines and EVENTS.
check_dump() {
	if have_babeltrace2; then
		same_output "$1: --dump = babeltrace2" "$2"
		bt=$(babeltrace2 "$2" 2>/dev/null | wc -l)
		same_value "$1: babeltrace2's event count" "$3" "$bt"
	else
		skip "$1: babeltrace2 CLI not installed"
	fi
	"$TRACENAV" --no-cache --dump "$2" > "$TMPDIR_TEST/dump" 2>/dev/null
	same_value "$1: --dump's lines" "$3" "$(wc -l < "$TMPDIR_TEST/dump")"
	got=$("$TRACENAV" --no-cache --batch 'count' "$2" 2>/dev/null)
	same_value "$1: count" "$3 events" "$got"
}

# ---- messages ----

# messages DUMP: the messages of the dump's msgdemo send and receive
# events, in the order of their first ends: "LINE<tab>SEND<tab>RECEIVE
# <tab>async<tab>SENDER<tab>RECEIVER<tab>SIGNAL<tab>SEQ", LINE the first
# end's event number, SEND and RECEIVE the ends' times ("-" when not
# seen).  A receive ends the oldest send before it with the same
# sender, receiver, signal and seq.
messages() {
	awk '
	function field(name,    s) {
		if (!match($0, " " name " = \"[^\"]*\""))
			return ""
		return substr($0, RSTART + length(name) + 5,
			RLENGTH - length(name) - 6)
	}
	/ msgdemo:(send|receive): / {
		match($0, / seq = -?[0-9]+/)
		seq = substr($0, RSTART + 7, RLENGTH - 7)
		s = field("sender")
		r = field("receiver")
		g = field("signal")
		key = s SUBSEP r SUBSEP g SUBSEP seq
		if (index($0, " msgdemo:receive: ") &&
		    head[key] < tail[key]) {
			m = queue[key, head[key]++]
			recv[m] = $1
			next
		}
		n++
		line[n] = NR
		what[n] = "async\t" s "\t" r "\t" g "\t" seq
		if (index($0, " msgdemo:send: ")) {
			send[n] = $1
			recv[n] = "-"
			queue[key, tail[key]++] = n
		} else {
			send[n] = "-"
			recv[n] = $1
		}
	}
	END {
		for (i = 1; i <= n; i++)
			print line[i] "\t" send[i] "\t" recv[i] "\t" what[i]
	}' "$1"
}

# want_find RE K [back]: the event number of the first message after
# event K (wrapping around to K itself) whose sender, receiver or signal
# matches RE (smart case), from the messages file; with back, the last
# one before K (wrapping around to the last one); empty if none.
want_find() {
	awk -F '\t' -v re="$1" -v k="$2" -v back="${3:+1}" '
	function hit(s) {
		if (re == tolower(re))
			s = tolower(s)
		return s ~ re
	}
	hit($5) || hit($6) || hit($7) { m[++n] = $1 }
	END {
		if (back) {
			for (i = n; i >= 1; i--)
				if (m[i] < k) { print m[i]; exit }
			if (n) print m[n]
			exit
		}
		for (i = 1; i <= n; i++) if (m[i] > k) { print m[i]; exit }
		if (n) print m[1]
	}' "$TMPDIR_TEST/messages"
}

# check_messages NAME TRACE: the sequence diagram of a messages trace.
check_messages() {
	name=$1
	trace=$2
	messages "$TMPDIR_TEST/dump" > "$TMPDIR_TEST/messages"
	total=$(wc -l < "$TMPDIR_TEST/dump")
	# 3 clients x 12 requests x 4 messages, and the two unpaired ends
	same_value "$name: messages in the dump (awk)" 146 \
		"$(wc -l < "$TMPDIR_TEST/messages")"
	same_value "$name: paired ones" 144 \
		"$(awk -F '\t' '$2 != "-" && $3 != "-"' \
			"$TMPDIR_TEST/messages" | wc -l)"
	same_value "$name: sends never received" "client-3>server:cancel" \
		"$(awk -F '\t' '$3 == "-" { print $5 ">" $6 ":" $7 }' \
			"$TMPDIR_TEST/messages")"
	same_value "$name: receives without a send" \
		"monitor>server:heartbeat" \
		"$(awk -F '\t' '$2 == "-" { print $5 ">" $6 ":" $7 }' \
			"$TMPDIR_TEST/messages")"

	# seqdiag-list from the top and from events inside: the messages
	# whose first end is there or after it, in order.
	for k in 1 97 200 "$total"; do
		"$TRACENAV" --no-cache --batch "goto #$k; seqdiag-list 1000" \
			"$trace" > "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
		st=$?
		awk -v k="$k" '$1 >= k' "$TMPDIR_TEST/messages" | cut -f2- \
			> "$TMPDIR_TEST/want"
		if [ ! -s "$TMPDIR_TEST/want" ]; then
			# none begins there (the last event of a recording
			# can be a receive)
			check "$name: seqdiag-list from event $k: none, as awk" \
				[ "$st" = 0 ] && [ ! -s "$TMPDIR_TEST/got" ] &&
				grep -q "no message from the current event on" \
					"$TMPDIR_TEST/err"
		elif [ "$st" = 0 ] &&
		   cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got"; then
			ok "$name: seqdiag-list from event $k: the $(wc -l < "$TMPDIR_TEST/want") messages awk pairs"
		else
			not_ok "$name: seqdiag-list from event $k: the messages awk pairs"
			diag "exit $st: $(head -2 "$TMPDIR_TEST/err")"
			diff "$TMPDIR_TEST/want" "$TMPDIR_TEST/got" | head -6 |
				cut -c1-160 | sed 's/^/# /'
		fi
	done
	"$TRACENAV" --no-cache --batch "seqdiag-list 10" "$trace" \
		> "$TMPDIR_TEST/got" 2>/dev/null
	head -10 "$TMPDIR_TEST/messages" | cut -f2- > "$TMPDIR_TEST/want"
	check "$name: seqdiag-list 10: the first 10" \
		cmp -s "$TMPDIR_TEST/want" "$TMPDIR_TEST/got"

	# the unpaired ends in the drawing: one line marked '?' each
	for at in top:heartbeat bottom:cancel; do
		"$TRACENAV" --no-cache --batch "${at%%:*}; seqdiag 1000" \
			"$trace" > "$TMPDIR_TEST/got" 2>/dev/null
		check "$name: seqdiag at the ${at%%:*}: one line marked unpaired, ${at#*:}'s" \
			[ "$(grep -c '?' "$TMPDIR_TEST/got")" = 1 ] &&
			grep '?' "$TMPDIR_TEST/got" | grep -q "${at#*:}"
	done

	# seqdiag-find from events spread over the trace
	for re in cancel heartbeat '^db$' 'client-2' 'query|reply' monitor \
			Server SERVER; do
		for k in 1 60 145 "$total"; do
			want=$(want_find "$re" "$k")
			"$TRACENAV" --no-cache --batch \
				"goto #$k; seqdiag-find $re; where" "$trace" \
				> "$TMPDIR_TEST/got" 2> "$TMPDIR_TEST/err"
			st=$?
			got=$(awk '/^event / { print $2 }' "$TMPDIR_TEST/got")
			if [ -z "$want" ]; then
				if [ "$st" = 1 ] && grep -q "no message matches" \
					"$TMPDIR_TEST/err"; then
					ok "$name: seqdiag-find /$re/ from $k: none, as awk"
				else
					not_ok "$name: seqdiag-find /$re/ from $k: none, as awk (exit $st, at $got)"
				fi
				continue
			fi
			same_value "$name: seqdiag-find /$re/ from $k" \
				"$st:$want" "$st:$got"
		done
	done
	for re in '^db$' 'client-1' cancel; do
		for k in 1 100 "$total"; do
			want=$(want_find "$re" "$k" back)
			"$TRACENAV" --no-cache --batch \
				"goto #$k; seqdiag-find --backward $re; where" \
				"$trace" > "$TMPDIR_TEST/got" 2>/dev/null
			st=$?
			got=$(awk '/^event / { print $2 }' "$TMPDIR_TEST/got")
			same_value "$name: seqdiag-find --backward /$re/ from $k" \
				"0:$want" "$st:$got"
		done
	done
}

# ---- call stacks and names ----

# state_lines OUTPUT: the lines of "goto #K; where; state Processes/**"
# as "#K<tab>LINE".
state_lines() {
	awk '
	/^event [0-9]+ of [0-9]+ at / { k = $2; next }
	/^Processes\// { print "#" k "\t" $0 }
	' "$1"
}

# check_state NAME TRACE NUMBERS [MAP]: at each event number, every
# attribute under Processes (names, call stacks, depths) is what
# stacks.awk rebuilds from the dump; with MAP, through --symbols MAP.
check_state() {
	# its own names: the callers' variables stay
	st_map=${4:-}
	awk -v numbers="$3" -v map="$st_map" -v names=1 -v depths=1 \
		-f "$top_srcdir/tests/stacks.awk" "$TMPDIR_TEST/dump" \
		> "$TMPDIR_TEST/want"
	st_script=$(for k in $3; do
		printf 'goto #%s; where; state Processes/**; ' "$k"; done)
	st_trace=$2
	st_name=$1
	st_numbers=$3
	set --
	[ -n "$st_map" ] && set -- --symbols "$st_map"
	"$TRACENAV" --no-cache "$@" --batch "$st_script" "$st_trace" \
		> "$TMPDIR_TEST/out" 2> "$TMPDIR_TEST/err"
	st=$?
	state_lines "$TMPDIR_TEST/out" > "$TMPDIR_TEST/got"
	same_lines "$st_name${st_map:+ --symbols}: the processes at $(echo "$st_numbers" |
		wc -w) events (names, stacks) = awk over the dump" \
		"$TMPDIR_TEST/want" "$TMPDIR_TEST/got" "$st"
}

# check_calls NAME TRACE MAP: the calls trace: what the program did,
# then the state at events spread over the trace, at each thread's
# deepest stack and at the end, in hex and named from MAP.
check_calls() {
	name=$1
	trace=$2
	map=$3
	dump=$TMPDIR_TEST/dump
	total=$(wc -l < "$dump")
	entries=$(grep -c ':func_entry: ' "$dump")
	exits=$(grep -c ':func_exit: ' "$dump")
	check "$name: every call returns ($entries func_entry, $exits func_exit)" \
		[ "$entries" -gt 300 ] && [ "$entries" = "$exits" ]
	same_value "$name: calldemo events (phase, result)" "25 20" \
		"$(grep -c ' calldemo:phase: ' "$dump") $(grep -c \
			' calldemo:result: ' "$dump")"
	# thread name, deepest stack and its first event number
	awk '
	/:func_(entry|exit): / {
		match($0, /[{ ]vtid = [0-9]+/)
		t = substr($0, RSTART + 8, RLENGTH - 8)
		match($0, /procname = "[^"]*"/)
		nm[t] = substr($0, RSTART + 12, RLENGTH - 13)
		if ($0 ~ /:func_entry: /) {
			if (++d[t] > max[t]) { max[t] = d[t]; at[t] = NR }
		} else {
			d[t]--
		}
	}
	END { for (t in nm) print nm[t], max[t], at[t] }
	' "$dump" | sort > "$TMPDIR_TEST/deepest"
	same_value "$name: threads and their deepest stacks" \
		"calls:6 chain:6 fib:9 parity:41" \
		"$(awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $1, $2 }' \
			"$TMPDIR_TEST/deepest")"

	# every func_entry address is a function's own in the nm file
	awk 'FNR == NR { if ($2 ~ /^[tT]$/) f[toupper($1)] = 1; next }
	/:func_entry: / {
		match($0, / addr = 0x[0-9A-F]+/)
		a = substr($0, RSTART + 10, RLENGTH - 10)
		a = substr("0000000000000000", 1, 16 - length(a)) a
		if (!(a in f)) bad++
		n++
	}
	END { print n + 0, bad + 0 }' "$map" "$dump" > "$TMPDIR_TEST/addrs"
	read -r n bad < "$TMPDIR_TEST/addrs"
	check "$name: the $n func_entry addresses are the nm file's functions ($bad not)" \
		[ "$n" = "$entries" ] && [ "$bad" = 0 ]

	numbers=$( (pick 40 1 "$total" 41; echo 1; echo "$total";
		awk '{ print $3 }' "$TMPDIR_TEST/deepest") |
		sort -n -u | tr '\n' ' ')
	check_state "$name" "$trace" "$numbers"
	check_state "$name" "$trace" "$numbers" "$map"
	check "$name --symbols: the stacks name fib, is_odd, chain_e and main" \
		sh -c 'for f in fib is_odd chain_e main; do
			grep -q "= \"$f\"\$" "$1" || exit 1; done' sh \
			"$TMPDIR_TEST/got"
	check "$name --symbols: no address left in hex" \
		sh -c '! grep -q "Call_stack/[0-9]* = \"0x" "$1"' sh \
			"$TMPDIR_TEST/got"
}

# check_recordings DIR: every check above on the two recordings that
# tools/record-ust-traces writes in DIR.
check_recordings() {
	check_dump ust-messages "$1/ust-messages" 290
	check_messages ust-messages "$1/ust-messages"
	check_state ust-messages "$1/ust-messages" \
		"1 2 50 145 $(wc -l < "$TMPDIR_TEST/dump")"
	check_dump ust-calls "$1/ust-calls" 1579
	check_calls ust-calls "$1/ust-calls" "$1/ust-calls.nm"
}
