# soak-check.awk - hold the probes of a soak run (tools/gen-script's
# scripts, run by tracenav --keep-going --batch-file) to --dump.
#
#   awk -f soak-check.awk MASKS DUMP EXPECT OUT
#
# MASKS: "KEY<TAB>BITS" lines, BITS a 0/1 character per line of DUMP,
#   KEY "f REGEX" (a filter's oracle, over the line without its delta)
#   or "s REGEX" (a search, over the whole line).
# DUMP: tracenav --dump's output.  EXPECT: gen-script --expect's file.
# OUT: the run's standard output, where each probe printed
#   @probe ID / where's line / print's lines / [count's line].
#
# Each probe is held to the events that pass its filters (its "list"):
# where's number and count's total are the list's, its time that of the
# list's event there, print's lines the list's next lines of DUMP; a
# probe whose list is empty printed neither where nor print lines.  A
# probe after a move (EXPECT's move lines) is where the move takes the
# probe before it (after a filter change, from the event the probe
# before was on, or when its list was empty the event it was on when it
# became empty).  Prints one line per failure (the first 20), the
# moves followed and the probes on an event, and last "ok PROBES MOVES"
# or "failed N".

BEGIN { FS = "\t" }

FILENAME == ARGV[1] { bits[$1] = $2; next }

FILENAME == ARGV[2] {
	dump[FNR] = $0
	total = FNR
	next
}

FILENAME == ARGV[3] && $1 == "probe" {
	id = $2
	want_print[id] = $3
	counted[id] = $4
	# The list's key: its filters, sorted (they all must pass).
	n = 0
	for (i = 5; i + 1 <= NF; i += 2)
		part[++n] = $i "\t" $(i + 1)
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && part[j - 1] > part[j]; j--) {
			t = part[j]; part[j] = part[j - 1]; part[j - 1] = t
		}
	key = ""
	for (i = 1; i <= n; i++)
		if (i == 1 || part[i] != part[i - 1])
			key = key (key == "" ? "" : "\t") part[i]
	spec[id] = key
	probes++
	next
}

FILENAME == ARGV[3] && $1 == "move" {
	move[$2] = $3
	next
}

FILENAME == ARGV[4] {
	if ($0 ~ /^@probe [0-9]+$/) {
		current = substr($0, 8) + 0
		line_of[current] = 0
		seen++
		next
	}
	# where, print (30 lines at most), count: what follows is other
	# commands' output.
	if (current != "" && line_of[current] < 40)
		out[current, ++line_of[current]] = $0
	next
}

# The time of day of DUMP's line l, and in ns.
function time_of(l) { return substr(dump[l], 2, 18) }
function ns_of(t) {
	return ((substr(t, 1, 2) * 60 + substr(t, 4, 2)) * 60 + \
		substr(t, 7, 2)) * 1000000000 + substr(t, 10, 9)
}

# Make the list of key (sel[key, 1..count[key]]: DUMP line numbers).
function make_list(key,    n, p, i, l, sign, mask, ok, m) {
	if (key in count)
		return
	n = split(key, p, "\t")
	for (i = 1; i < n; i += 2) {
		if (!(("f " p[i + 1]) in bits)) {
			fail("no mask for filter " p[i + 1])
			return
		}
	}
	m = 0
	for (l = 1; l <= total; l++) {
		ok = 1
		for (i = 1; ok && i < n; i += 2) {
			mask = substr(bits["f " p[i + 1]], l, 1)
			ok = p[i] == "+" ? mask == "1" : mask == "0"
		}
		if (ok)
			sel[key, ++m] = l
	}
	count[key] = m
}

function fail(what) {
	failures++
	if (failures <= 20)
		print what
}

# The position in key's list of the first line at or after dump line l,
# else the last.
function at_or_after(key, l,    lo, hi, mid) {
	lo = 1; hi = count[key]
	if (sel[key, hi] < l)
		return hi
	while (lo < hi) {
		mid = int((lo + hi) / 2)
		if (sel[key, mid] >= l) hi = mid; else lo = mid + 1
	}
	return lo
}

# The first position of key's list whose time is at least ns, else the
# last.
function at_time(key, ns,    j) {
	for (j = 1; j <= count[key]; j++)
		if (ns_of(time_of(sel[key, j])) >= ns)
			return j
	return count[key]
}

# The next (dir 1) or previous (dir -1) position of key's list from k
# (k itself first when inclusive) whose line matches the search re,
# wrapping around; 0 if none.
function find(key, k, re, dir, inclusive,    m, step, j) {
	m = count[key]
	if (!(("s " re) in bits)) {
		fail("no mask for search " re)
		return 0
	}
	for (step = inclusive ? 0 : 1; step <= m; step++) {
		j = k + dir * step
		j = ((j - 1) % m + m) % m + 1
		if (substr(bits["s " re], sel[key, j], 1) == "1")
			return j
	}
	return 0
}

# Where probe id must be, from probe id - 1 at position prev (list
# prev_key, dump line prev_line); -1 when the move is not followed.
function expected(id, key, prev, prev_key, prev_line,    w, m, k, i, j, re) {
	m = count[key]
	split(move[id], w, " ")
	# From an empty list: from the event the cursor was on when it
	# became empty.
	if (w[1] == "refilter")
		return at_or_after(key, prev_line ? prev_line : anchor[id - 1])
	if (key != prev_key) {
		fail("probe " id ": the filters changed across " move[id])
		return -1
	}
	if (!prev)
		return -1
	if (w[1] == "stay") return prev
	if (w[1] == "first") return 1
	if (w[1] == "last") return m
	if (w[1] == "down") return prev + w[2] > m ? m : prev + w[2]
	if (w[1] == "up") return prev - w[2] < 1 ? 1 : prev - w[2]
	if (w[1] == "rank") return w[2] > m ? m : w[2]
	if (w[1] == "time") return at_time(key, ns_of(w[2]))
	if (w[1] == "reltime")
		return at_time(key, ns_of(time_of(prev_line)) + w[2])
	if (w[1] == "search") {
		j = find(key, prev, substr(move[id], 8), 1, 1)
		return j ? j : prev
	}
	if (w[1] == "next" || w[1] == "prev") {
		# The regex is what follows "next K ".
		re = substr(move[id], length(w[1]) + length(w[2]) + 3)
		k = prev
		for (i = 0; i < w[2]; i++) {
			j = find(key, k, re, w[1] == "next" ? 1 : -1, 0)
			if (!j)
				return prev
			k = j
		}
		return k
	}
	fail("probe " id ": unknown move " move[id])
	return -1
}

# Check probe id; its position (0: an empty list) in pos[id].
function check(id,    key, m, first, parts, k, n, i, want, got, e, w) {
	key = spec[id]
	make_list(key)
	m = count[key]
	pos[id] = 0
	first = out[id, 1]
	# The event the cursor is on, or was on when its list became empty
	# (only a filter, probed before and after, empties it).
	anchor[id] = anchor[id - 1]
	if (m == 0) {
		if (first ~ /^(event|match) [0-9]+ of /)
			fail("probe " id ": no event passes its filters, yet: " \
				first)
		if (counted[id] && out[id, 1] !~ /^0 events/)
			fail("probe " id ": count: want 0, got: " out[id, 1])
		return
	}
	if (first !~ /^(event|match) [0-9]+ of [0-9]+ at /) {
		fail("probe " id ": where: want " (key == "" ? "event" : \
			"match") " K of " m ", got: " first)
		return
	}
	split(first, parts, " ")
	k = parts[2] + 0
	if (parts[1] != (key == "" ? "event" : "match") || parts[4] != m ||
	    k < 1 || k > m) {
		fail("probe " id ": where: " first " (the list has " m \
			" events)")
		return
	}
	pos[id] = k
	anchor[id] = sel[key, k]
	if (parts[7] != time_of(sel[key, k]))
		fail("probe " id ": where: time " parts[7] ", want " \
			time_of(sel[key, k]) " (" first ")")
	n = want_print[id]
	if (n > m - k + 1)
		n = m - k + 1
	for (i = 1; i <= n; i++) {
		want = dump[sel[key, k + i - 1]]
		got = out[id, i + 1]
		if (got != want) {
			fail("probe " id ": print line " i ": want: " want \
				"\n  got: " got)
			return
		}
	}
	if (counted[id] && out[id, n + 2] !~ ("^" m " events")) {
		fail("probe " id ": count: want " m ", got: " out[id, n + 2])
		return
	}
	if (!(id in move))
		return
	e = expected(id, key, pos[id - 1], spec[id - 1],
		pos[id - 1] ? sel[spec[id - 1], pos[id - 1]] : 0)
	if (e >= 0 && e != k)
		fail("probe " id ": after " move[id] " from " \
			(pos[id - 1] ? "position " pos[id - 1] : "no event") \
			" (" spec[id - 1] "): want position " e " (" \
			time_of(sel[key, e]) "), got " k " (" first ")")
	if (e >= 0) {
		moves++
		split(move[id], w, " ")
		followed[w[1]]++
	}
}

END {
	if (seen != probes)
		fail("the run printed " seen + 0 " probes of " probes)
	for (id = 1; id <= probes; id++)
		if (id in line_of)
			check(id)
	for (op in followed)
		summary = summary " " op " " followed[op]
	print "moves followed:" summary
	for (id = 1; id <= probes; id++)
		if (pos[id])
			placed++
	print "probes on an event: " placed + 0 " (the others: no event " \
		"passed their filters)"
	if (failures)
		print "failed " failures
	else
		print "ok " probes + 0 " " moves + 0
}
