# analyses.awk - the kernel analyses computed independently of tracenav's
# state system, from babeltrace2's text with --clock-seconds, for
# test-analysis.sh.
#
#   babeltrace2 --clock-seconds TRACE |
#   awk -v mode=MODE [-v begin=SEC.FRAC -v end=SEC.FRAC] -f analyses.awk
#
# Times are ns from the first event's second (awk's numbers cannot hold
# ns since 1970); begin and end (default: the first and the last event)
# make the range, both inclusive.  Modes and what they print, one line each:
#   cputop    TID NS          time as the current thread of some CPU
#                             within the range (tid 0 left out)
#   syscalls  NAME COUNT MIN MAX SUM   calls whose exit is in the range
#   irqs      IRQ COUNT MIN MAX SUM    handlers whose exit is in the range
#   sched     TID COUNT MIN MAX SUM    wake-up to switch-in latencies
#                                      whose switch is in the range
function ns(s,   a) {
	gsub(/[][]/, "", s)
	split(s, a, ".")
	if (base == "")
		base = a[1]
	return (a[1] - base) * 1000000000 + a[2]
}
function field(name,   re) {
	re = name " = -?[0-9]+"
	if (!match($0, re))
		return ""
	return substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 3)
}
function add(key, x) {
	if (!(key in count) || x < min[key]) min[key] = x
	if (!(key in count) || x > max[key]) max[key] = x
	count[key]++
	sum[key] += x
}
# tid ran from a to b: the part inside the range.
function ran(tid, a, b) {
	if (a < lo) a = lo
	if (hi >= 0 && b > hi) b = hi
	if (tid != 0 && b > a) time[tid] += b - a
}
{
	t = ns($1)
	if (first == "") {
		first = t
		lo = begin == "" ? t : ns(begin)
		hi = end == "" ? -1 : ns(end)
	}
	last = t
	cpu = field("cpu_id")
	name = ""
	for (i = 3; i <= NF && name == ""; i++)
		if ($i ~ /:$/)
			name = $i
	sub(/:$/, "", name)
	inside = t >= lo && (hi < 0 || t <= hi)
}
name == "sched_switch" {
	prev = field("prev_tid"); nx = field("next_tid")
	if (cpu in cur) ran(cur[cpu], since[cpu], t)
	else ran(prev, lo, t)
	delete oncpu[prev]
	cur[cpu] = nx; since[cpu] = t; oncpu[nx] = 1
	if ((nx in woken) && inside && mode == "sched")
		add(nx, t - woken[nx])
	delete woken[nx]
	next
}
name ~ /^sched_(wakeup|waking|wakeup_new)$/ {
	tid = field("tid")
	if (!(tid in oncpu) && !(tid in woken)) woken[tid] = t
	next
}
name ~ /^syscall_entry_/ {
	if (cpu in cur) { call[cur[cpu]] = substr(name, 15); callt[cur[cpu]] = t }
	next
}
name ~ /^syscall_exit_/ {
	if ((cpu in cur) && (cur[cpu] in call)) {
		if (inside && mode == "syscalls")
			add(call[cur[cpu]], t - callt[cur[cpu]])
		delete call[cur[cpu]]
	}
	next
}
name == "sched_process_fork" {
	parent = field("parent_tid"); child = field("child_tid")
	if (parent in call) { call[child] = call[parent]; callt[child] = t }
	next
}
name == "sched_process_free" {
	tid = field("tid"); delete call[tid]; delete woken[tid]
	next
}
name == "irq_handler_entry" { irq[cpu "/" field("irq")] = t; next }
name == "irq_handler_exit" {
	key = cpu "/" field("irq")
	if (key in irq) {
		if (inside && mode == "irqs") add(field("irq"), t - irq[key])
		delete irq[key]
	}
	next
}
END {
	if (hi < 0) hi = last
	for (c in cur) ran(cur[c], since[c], hi)
	if (mode == "cputop")
		for (tid in time) print tid, time[tid]
	else
		for (k in count) print k, count[k], min[k], max[k], sum[k]
}
