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
#   oncpu     TID BUCKET NS   the same in each of -v buckets=N equal
#                             buckets of the range (timeline.h), the
#                             buckets with time only
#   irqline   IRQ BUCKET NS   the time a handler of the irq ran (on any
#                             CPU, entry to exit) in each of -v
#                             buckets=N buckets, with time only
#   softirqline VEC BUCKET NS the same of the softirq vector (entry to
#                             exit)
#   topthread CPU BUCKET TID  the thread that ran longest between two
#                             switches in each bucket of each CPU
#                             (interrupts not taken out)
#   syscalls  NAME COUNT MIN MAX SUM   calls whose exit is in the range
#   irqs      IRQ COUNT MIN MAX SUM    handlers whose exit is in the range
#   softirqs  VEC COUNT MIN MAX SUM    softirq runs whose exit is in it
#   raises    VEC COUNT MIN MAX SUM    raise (the first since the last
#                                      entry) to entry, the entry in it
#   sched     TID COUNT MIN MAX SUM    wake-up to switch-in latencies
#                                      whose wake-up and switch are in
#                                      the range (and that did not
#                                      wait for the CPU since before it)
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
	if (tid != 0 && b > a && (mode == "oncpu" || mode == "topthread")) {
		runs++; run_tid[runs] = tid; run_a[runs] = a; run_b[runs] = b
		run_cpu[runs] = ran_cpu
	}
}
# Interrupt line `line` ran from a to b: the part inside the range, for
# the modes irqline and softirqline.
function line_ran(line, a, b) {
	if (a < lo) a = lo
	if (hi >= 0 && b > hi) b = hi
	if (b > a) {
		runs++; run_tid[runs] = line; run_a[runs] = a; run_b[runs] = b
	}
}
# Where bucket k of the range begins.
function edge(k) {
	return lo + int(k * (hi - lo) / buckets)
}
# The runs cut at the buckets' edges (the range's end known by now):
# the time of each (tid or line) per bucket, or with mode topthread the
# longest run of each CPU and bucket.
function bucket_runs(   r, k, a, b, e, key, d) {
	for (r = 1; r <= runs; r++) {
		a = run_a[r]; b = run_b[r]
		if (b > hi) b = hi
		for (k = 0; k < buckets && a < b; k++) {
			e = edge(k + 1)
			if (e <= a)
				continue
			d = (b < e ? b : e) - a
			if (mode != "topthread") {
				on[run_tid[r] " " k] += d
			} else if (d > best[key = run_cpu[r] " " k]) {
				best[key] = d
				top[key] = run_tid[r]
			}
			a = e
		}
	}
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
	# prev_state: an enumeration "( LABEL : container = N )", or N.
	if (match($0, /prev_state = \( [^)]*container = [0-9]+ \)/)) {
		state = substr($0, RSTART, RLENGTH)
		sub(/.*container = /, "", state); sub(/ \)$/, "", state)
	} else
		state = field("prev_state")
	# Preempted: it waits for a CPU from now on, not woken.
	if (state % 256 == 0 && prev != 0) runnable[prev] = t
	ran_cpu = cpu
	if (cpu in cur) ran(cur[cpu], since[cpu], t)
	else ran(prev, lo, t)
	delete oncpu[prev]
	cur[cpu] = nx; since[cpu] = t; oncpu[nx] = 1
	# Woken in the range, and waiting since then (not since a
	# preemption before the range).
	if ((nx in woken) && inside && woken[nx] >= lo && mode == "sched" &&
	    !((nx in runnable) && runnable[nx] < lo))
		add(nx, t - woken[nx])
	delete woken[nx]
	delete runnable[nx]
	next
}
name ~ /^sched_(wakeup|waking|wakeup_new)$/ {
	tid = field("tid")
	if (!(tid in oncpu) && !(tid in woken)) woken[tid] = t
	next
}
# LTTng 2.x before 2.7 names them sys_NAME and exit_syscall.
name ~ /^(compat_)?(syscall_entry_|sys_)/ {
	sub(/^(compat_)?(syscall_entry_|sys_)/, "", name)
	if (cpu in cur) { call[cur[cpu]] = name; callt[cur[cpu]] = t }
	next
}
name ~ /^(compat_)?syscall_exit_/ || name == "exit_syscall" {
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
	runnable[child] = t	# it waits for its first CPU
	next
}
name == "sched_process_free" {
	tid = field("tid"); delete call[tid]; delete woken[tid]
	delete runnable[tid]
	next
}
name ~ /^(irq_)?softirq_raise$/ {
	key = cpu "/" field("vec")
	if (!(key in raisedat)) raisedat[key] = t
	next
}
name ~ /^(irq_)?softirq_entry$/ {
	key = cpu "/" field("vec")
	if (key in raisedat) {
		if (inside && mode == "raises") add(field("vec"), t - raisedat[key])
		delete raisedat[key]
	}
	run[key] = t
	next
}
name ~ /^(irq_)?softirq_exit$/ {
	key = cpu "/" field("vec")
	if (key in run) {
		if (inside && mode == "softirqs") add(field("vec"), t - run[key])
		if (mode == "softirqline") line_ran(field("vec"), run[key], t)
		delete run[key]
	}
	next
}
name == "irq_handler_entry" { irq[cpu "/" field("irq")] = t; next }
name == "irq_handler_exit" {
	key = cpu "/" field("irq")
	if (key in irq) {
		if (inside && mode == "irqs") add(field("irq"), t - irq[key])
		if (mode == "irqline") line_ran(field("irq"), irq[key], t)
		delete irq[key]
	}
	next
}
END {
	if (hi < 0) hi = last
	for (c in cur) { ran_cpu = c; ran(cur[c], since[c], hi) }
	# Handlers that run at the range's end ran until it.
	if (mode == "irqline")
		for (key in irq) { split(key, kc, "/"); line_ran(kc[2], irq[key], hi) }
	if (mode == "softirqline")
		for (key in run) { split(key, kc, "/"); line_ran(kc[2], run[key], hi) }
	# printf: print writes numbers past 2^31 with OFMT (%.6g).
	if (mode == "topthread") {
		bucket_runs()
		for (key in top) print key, top[key]
	} else if (mode == "oncpu" || mode == "irqline" || mode == "softirqline") {
		bucket_runs()
		for (key in on) printf "%s %.0f\n", key, on[key]
	} else if (mode == "cputop")
		for (tid in time) printf "%s %.0f\n", tid, time[tid]
	else
		for (k in count)
			printf "%s %.0f %.0f %.0f %.0f\n", k, count[k], min[k],
				max[k], sum[k]
}
