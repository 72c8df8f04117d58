# stacks.awk - what `state` prints of the userspace call stacks (and
# optionally the process and thread names) at chosen events, rebuilt
# from the --dump text of a trace of liblttng-ust-cyg-profile events:
# each func_entry pushes its addr on its thread's stack, each func_exit
# pops it.  One line per attribute, "#K<tab>LINE", LINE as state prints
# it.  Used by the shell tests (awk -f stacks.awk -v ... DUMP).
#
# Variables:
#   numbers  the event numbers (line numbers of the dump), ascending,
#            separated by spaces
#   map      an nm output file: the addresses named as tracenav
#            --symbols names them (FUNCTION or FUNCTION+0xOFFSET; hex
#            when no text symbol covers one); empty: hex
#   top      1: each thread's depth ("Call_stack = D") and top level
#            only; otherwise every level
#   depths   1: with every level, the depth too
#   names    1: also the processes' and threads' names from the
#            procname contexts, as the UST provider sets them (a
#            thread: its last procname; a process: its first event's,
#            then its main thread's)
function hexval(s,   i, v) {
	s = toupper(s)
	sub(/^0X/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789ABCDEF", substr(s, i, 1)) - 1
	return v
}

# The function of address a (hex text as the dump prints it).
function name(a,   v, lo, hi, mid) {
	if (map == "")
		return a
	v = hexval(a)
	lo = 0
	hi = nsym
	while (lo < hi) {
		mid = int((lo + hi) / 2)
		if (addr[mid] <= v) lo = mid + 1; else hi = mid
	}
	if (lo == 0 || !text[lo - 1])
		return a
	if (addr[lo - 1] == v)
		return sym[lo - 1]
	return sprintf("%s+0x%x", sym[lo - 1], v - addr[lo - 1])
}

# The value of context field f ("" when the line has none).
function context(f) {
	if (!match($0, "[{ ]" f " = [0-9]+"))
		return ""
	return substr($0, RSTART + length(f) + 4, RLENGTH - length(f) - 4)
}

function read_map(   line, f, a, t, i, j, x, m, mt, first, firsttext,
		order) {
	# "ADDR TYPE NAME": the first text symbol of each address
	while ((getline line < map) > 0) {
		if (split(line, f, " ") < 3)
			continue
		a = hexval(f[1])
		t = (f[2] ~ /^[tTwWiI]$/)
		if (a in first && (!t || firsttext[a]))
			continue
		first[a] = 1
		if (t)
			firsttext[a] = 1
		m[a] = f[3]
		mt[a] = t
	}
	close(map)
	nsym = 0
	for (a in m)
		order[nsym++] = a + 0
	# insertion sort: a few hundred symbols
	for (i = 1; i < nsym; i++) {
		x = order[i]
		for (j = i - 1; j >= 0 && order[j] > x; j--)
			order[j + 1] = order[j]
		order[j + 1] = x
	}
	for (i = 0; i < nsym; i++) {
		addr[i] = order[i]
		sym[i] = m[order[i]]
		text[i] = mt[order[i]]
	}
}

BEGIN {
	q = "\""
	if (map != "")
		read_map()
	n = split(numbers, want, " ")
	k = 1
}

names == 1 && match($0, /[{ ]procname = "[^"]*"/) {
	proc = substr($0, RSTART + 13, RLENGTH - 14)
	vpid = context("vpid")
	vtid = context("vtid")
	if (vpid != "" && (!(vpid in pname) || vtid == "" || vtid == vpid))
		pname[vpid] = proc
	if (vtid != "")
		tname[(vpid == "" ? "unknown" : vpid) "/Threads/" vtid] = proc
}

/:func_(entry|exit): / {
	vpid = context("vpid")
	key = (vpid == "" ? "unknown" : vpid) "/Threads/" context("vtid")
	seen[key] = 1
	if ($0 ~ /:func_entry: /) {
		match($0, / addr = 0x[0-9A-F]+/)
		stack[key, ++depth[key]] = substr($0, RSTART + 8, RLENGTH - 8)
	} else if (depth[key] > 0) {
		depth[key]--
	}
}

{
	while (k <= n && want[k] == NR) {
		for (p in pname)
			print "#" NR "\tProcesses/" p "/Name = " q pname[p] q
		for (t in tname)
			print "#" NR "\tProcesses/" t " = " q tname[t] q
		for (key in seen) {
			d = depth[key]
			if (d == 0)
				continue
			path = "Processes/" key "/Call_stack"
			if (top == 1) {
				print "#" NR "\t" path " = " d
				print "#" NR "\t" path "/" d " = " q \
					name(stack[key, d]) q
				continue
			}
			if (depths == 1)
				print "#" NR "\t" path " = " d
			for (i = 1; i <= d; i++)
				print "#" NR "\t" path "/" i " = " q \
					name(stack[key, i]) q
		}
		k++
	}
}
