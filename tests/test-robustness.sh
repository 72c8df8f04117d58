#!/bin/sh
# Damaged traces: copies of generated and shared traces damaged here
# (stream files cut at and inside packets, bytes overwritten in packet
# headers, contexts and payloads, metadata cut short or garbled, a bad
# clock, empty and unreadable files, a directory for a stream file,
# packet indexes that disagree with their stream files) and every trace
# of the corpus's babeltrace2/fail.  For each: tracenav answers within
# the bound (timeout; the longest answer is printed), never killed by a
# signal, exits 1, and names the file and the cause on stderr; where the
# trace is readable up to the damage, it prints the events babeltrace2
# prints of a copy without what tracenav left out (repaired_copy,
# lib.sh), or of the damaged trace itself when both stop at the damage.
# Damage that CTF cannot show (a changed value) is read as babeltrace2
# reads it, and said so.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
make_tmpdir

# The bound on any answer (s), and the longest one seen (ms).
BOUND=10
longest_ms=0
longest_case=
answers=0
R=$TMPDIR_TEST/run

if ! have_babeltrace2; then
	skip "babeltrace2 CLI not installed: nothing to compare with"
	tap_done
	exit
fi

# answer NAME ARGS...: tracenav ARGS under `timeout $BOUND`, stdout and
# stderr in $R.out and $R.err, exit status in $status, time in $ms.
answer() {
	a_name=$1
	shift
	a_start=$(date +%s%N)
	timeout "$BOUND" $AS_USER "$TRACENAV" "$@" >"$R.out" 2>"$R.err"
	status=$?
	ms=$((($(date +%s%N) - a_start) / 1000000))
	answers=$((answers + 1))
	if [ "$ms" -gt "$longest_ms" ]; then
		longest_ms=$ms
		longest_case=$a_name
	fi
	if [ "$status" = 124 ] || [ "$status" -ge 128 ]; then
		not_ok "$a_name: answered (exit $status after $ms ms)"
		return 1
	fi
	return 0
}

show() {
	diag "exit $status, $ms ms; stderr:"
	head -3 "$R.err" | cut -c1-240 | sed 's/^/# /'
}

# said PATTERN: a line of stderr matches the grep -E pattern.
said() {
	grep -Eq -- "$1" "$R.err"
}

# bt DIR: babeltrace2's stdout of DIR into $R.bt (a damaged metadata
# file can make it loop for ever: bounded too).
bt() {
	timeout "$BOUND" babeltrace2 "$1" >"$R.bt" 2>/dev/null
	bt_status=$?
}

# damaged NAME FROM: a copy of trace FROM to damage, in $d.
damaged() {
	d=$TMPDIR_TEST/$1
	rm -rf "$d"
	cp -R "$2" "$d"
	chmod -R u+w "$d"
}

# poke FILE OFFSET BYTES: overwrite the bytes (printf escapes) at OFFSET.
poke() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# expect_read_as_repaired NAME DIR FILE PATTERN [ARGS]: exit 1, stderr
# says of FILE (under DIR) PATTERN, and the events are those babeltrace2
# prints of DIR without what tracenav said it left out.
expect_read_as_repaired() {
	n=$1
	dir=$2
	file=$3
	pattern=$4
	shift 4
	answer "$n" --dump "$@" "$dir" || return
	repaired_copy "$dir" "$R.err" "$TMPDIR_TEST/repaired/c"
	bt "$TMPDIR_TEST/repaired/c"
	if [ "$status" = 1 ] &&
	   said "^tracenav: $dir/$file: $pattern" &&
	   [ -n "$repaired_changes" ] && [ "$bt_status" = 0 ] &&
	   [ -s "$R.out" ] && cmp -s "$R.bt" "$R.out"; then
		ok "$n: $(wc -l < "$R.out") events, as babeltrace2 reads the trace without $repaired_changes; said ($ms ms)"
	else
		not_ok "$n: the events before the damage, and a warning"
		show
		diff "$R.bt" "$R.out" | head -3 | cut -c1-200 | sed 's/^/# /'
	fi
}

# expect_stops NAME DIR FILE PATTERN [reordered]: exit 1, "cannot read
# stream file DIR/FILE: PATTERN", and the events before the damage: as
# babeltrace2 prints them before it stops there too, and the first ones
# of the trace before it was damaged (unless the damage is a time, which
# reorders them, or inside an event, which is printed as decoded).
expect_stops() {
	answer "$1" --dump "$2" || return
	bt "$2"
	if [ "$status" = 1 ] && [ "$bt_status" = 1 ] &&
	   said "^tracenav: $2: cannot read stream file $2/$3: $4" &&
	   [ -s "$R.out" ] && cmp -s "$R.bt" "$R.out" &&
	   { [ -n "$5" ] || head -n "$(wc -l < "$R.out")" \
		"$TMPDIR_TEST/good.bt" | cmp -s - "$R.out"; }; then
		ok "$1: the $(wc -l < "$R.out") events before the damage, then the file and the cause ($ms ms)"
	else
		not_ok "$1: the events before the damage, then the file and the cause"
		show
	fi
}

# expect_read_on NAME DIR FILE: a time of FILE goes back where
# babeltrace2 stops: exit 0, every event of the good trace (FILE's in
# its own order, the merge of the rest moved by the wrong time), and a
# warning that names FILE.
expect_read_on() {
	answer "$1" --dump "$2" || return
	bt "$2"
	if [ "$status" = 0 ] && [ "$bt_status" = 1 ] &&
	   sed 's/ ([+-][^)]*)//' "$R.out" | sort |
		cmp -s - "$TMPDIR_TEST/good.sorted" &&
	   said "^tracenav: warning: stream file \`$2/$3\`: [0-9]+ packet bounds? or notices? went back in time" &&
	   [ "$(wc -l < "$R.bt")" -lt "$(wc -l < "$R.out")" ]; then
		ok "$1: read on, all $(wc -l < "$R.out") events, said, where babeltrace2 stops after $(wc -l < "$R.bt") ($ms ms)"
	else
		not_ok "$1: read on, all the events, where babeltrace2 stops"
		show
	fi
}

# expect_refused NAME DIR PATTERN: exit 1, one stderr line "DIR..:
# PATTERN", nothing on stdout.
expect_refused() {
	answer "$1" --dump "$2" || return
	if [ "$status" = 1 ] && [ "$(wc -l < "$R.err")" = 1 ] &&
	   said "^tracenav: $2[^:]*: $3" && [ ! -s "$R.out" ]; then
		ok "$1: refused, saying why ($ms ms)"
	else
		not_ok "$1: refused, saying why"
		show
	fi
}

# expect_index_ignored NAME DIR FILE: exit 0 (no event is missing),
# stderr says FILE's packet index is ignored, and the events are
# babeltrace2's (which ignores it too).
expect_index_ignored() {
	answer "$1" --dump "$2" || return
	bt "$2"
	if [ "$status" = 0 ] &&
	   said "^tracenav: $2/$3: its packet index is ignored: " &&
	   [ "$bt_status" = 0 ] && cmp -s "$R.bt" "$R.out"; then
		ok "$1: the index ignored, said; the events as babeltrace2 reads them ($ms ms)"
	else
		not_ok "$1: the index ignored, said"
		show
	fi
}

# expect_unseen NAME DIR: damage CTF cannot show (a value changed, a
# trace cut between packets without an index to say so): read as
# babeltrace2 reads it, exit 0.
expect_unseen() {
	answer "$1" --dump "$2" || return
	bt "$2"
	if [ "$status" = 0 ] && [ "$bt_status" = 0 ] && [ ! -s "$R.err" ] &&
	   cmp -s "$R.bt" "$R.out"; then
		ok "$1: not detectable; read as babeltrace2 reads it ($ms ms)"
	else
		not_ok "$1: read as babeltrace2 reads it"
		show
	fi
}

# The traces to damage: a kernel trace with packet indexes (4 CPUs,
# packets of 4096 bytes: packet k of a stream file at byte 4096 k), the
# same without indexes, and with LTTng's packetized metadata.
"$GEN_TRACE" --events 6000 --cpus 4 --packet-size 4096 "$TMPDIR_TEST/good" \
	>/dev/null
"$GEN_TRACE" --events 6000 --cpus 4 --packet-size 4096 --no-index \
	"$TMPDIR_TEST/noidx" >/dev/null
"$GEN_TRACE" --events 6000 --cpus 4 --packet-size 4096 \
	--packetized-metadata "$TMPDIR_TEST/packets" >/dev/null
good=$TMPDIR_TEST/good
noidx=$TMPDIR_TEST/noidx
f=channel0_1
babeltrace2 "$good" > "$TMPDIR_TEST/good.bt" 2>/dev/null
# without the deltas, sorted: the events whatever their order
sed 's/ ([+-][^)]*)//' "$TMPDIR_TEST/good.bt" | sort > "$TMPDIR_TEST/good.sorted"

# --- Stream files cut short. ------------------------------------------
damaged cut-mid "$good"; truncate -s 10000 "$d/$f"
expect_read_as_repaired "cut inside a packet" "$d" "$f" \
	"read up to byte 8192 of 10000: it ends inside its packet 2"
damaged cut-all "$good"
for s in 0 1 2 3; do truncate -s $((4096 * (s + 2) + 1000)) "$d/channel0_$s"; done
expect_read_as_repaired "every stream cut inside a packet (a trace being written)" \
	"$d" channel0_3 "read up to byte 20480 of 21480"
check "every stream cut: one line each" \
	test "$(grep -c ': read up to byte ' "$R.err")" = 4
damaged cut-bound "$good"; truncate -s 8192 "$d/$f"
expect_index_ignored "cut between packets" "$d" "$f"
damaged cut-header "$good"; truncate -s 20 "$d/$f"
expect_read_as_repaired "cut inside the first packet's header" "$d" "$f" \
	"skipped, its events are missing: its first packet is incomplete"
damaged cut-empty "$good"; : > "$d/$f"
expect_read_as_repaired "emptied" "$d" "$f" \
	"skipped, its events are missing: it is empty, but its packet index lists"
damaged noidx-mid "$noidx"; truncate -s 10000 "$d/$f"
expect_read_as_repaired "without index, cut inside a packet" "$d" "$f" \
	"read up to byte 8192 of 10000: it ends inside a packet \(its packets are of 4096 bytes\)"
damaged noidx-header "$noidx"; truncate -s 20 "$d/$f"
expect_read_as_repaired "without index, cut inside the first packet" "$d" "$f" \
	"skipped, its events are missing: libbabeltrace2 cannot read it \(it ends inside its first packet\)"
damaged noidx-bound "$noidx"; truncate -s 8192 "$d/$f"
expect_unseen "without index, cut between packets" "$d"
damaged cut-every "$good"
for s in 0 1 2 3; do truncate -s 100 "$d/channel0_$s"; done
expect_refused "every stream file cut inside its first packet" "$d" \
	"cannot read trace: $d/channel0_[0-3]: skipped, its events are missing: its first packet is incomplete"

# --- Bytes overwritten in a packet: its header, context, payload. ------
p3=$((4096 * 3))
damaged magic-first "$good"; poke "$d/$f" 0 'XXXX'
expect_read_as_repaired "the first packet's magic number" "$d" "$f" \
	"skipped, its events are missing: libbabeltrace2 cannot read it: Invalid CTF magic number"
damaged magic "$good"; poke "$d/$f" $p3 'XXXX'
expect_stops "a packet's magic number" "$d" "$f" "Invalid CTF magic number"
damaged stream-id "$good"; poke "$d/$f" $((p3 + 20)) '\007'
expect_stops "a packet's stream class" "$d" "$f" "No stream class with ID"
damaged content-size "$good"; poke "$d/$f" $((p3 + 52)) '\001'
expect_stops "a packet's content size" "$d" "$f" \
	"Invalid packet or content size"
damaged packet-size "$good"; poke "$d/$f" $((p3 + 57)) '\001'
expect_stops "a packet's size" "$d" "$f" "Invalid packet or content size"
damaged time-end "$good"; poke "$d/$f" $((p3 + 47)) '\001'
# (a packet's end past the next one's first event: the next packet's
# beginning goes back in time)
expect_read_on "a packet's end time" "$d" "$f"
damaged time-begin "$good"; poke "$d/$f" $((p3 + 39)) '\177'
expect_stops "a packet's begin time" "$d" "$f" \
	"a clock value does not fit in ns from origin"
# libbabeltrace2 asserts, and aborts, on a packet size of 2^63 bits or
# more in a packet context: --dump reads in a child process, which dies
# alone.
damaged packet-size-huge "$good"; poke "$d/$f" $((p3 + 63)) '\200'
answer "a packet size of 2^63 bits (libbabeltrace2 aborts)" --dump "$d"
stdbuf -o0 babeltrace2 "$d" > "$R.bt" 2>/dev/null
bt_status=$?
check "a packet size of 2^63 bits: exit 1, the crash said, the $(wc -l < "$R.out") events before it; babeltrace2 exits $bt_status ($ms ms)" eval \
	'[ "$status" = 1 ] && said "^tracenav: $d: libbabeltrace2 crashed while reading it \(Aborted\)" && [ -s "$R.out" ] && cmp -s "$R.bt" "$R.out" && head -n "$(wc -l < "$R.out")" "$TMPDIR_TEST/good.bt" | cmp -s - "$R.out"'
answer "--batch, a packet size of 2^63 bits" --batch "print 100000" "$d"
check "--batch: the crash said, exit 1 ($ms ms)" eval \
	'[ "$status" = 1 ] && said "libbabeltrace2 crashed while reading it"'
damaged payload "$good"
poke "$d/$f" $((p3 + 1000)) '\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377'
expect_stops "an event's header and payload" "$d" "$f" \
	"No event class with ID" reordered
damaged payload-value "$good"; poke "$d/$f" $((p3 + 200)) '\377\377\377\377'
expect_unseen "an event's payload value" "$d"
damaged uuid "$good"; poke "$d/$f" $((p3 + 5)) '\007'
expect_unseen "a packet's UUID" "$d"

# --- Files that are not what they should be. -------------------------
damaged directory "$good"; rm "$d/$f"; mkdir "$d/$f"
answer "a directory for a stream file" --dump "$d"
bt "$d"
check "a directory for a stream file: skipped, said; the others read ($ms ms)" eval \
	'[ "$status" = 1 ] && said "^tracenav: $d/$f: skipped, its events are missing: it has a packet index, but it is not a regular file" && cmp -s "$R.bt" "$R.out" && [ -s "$R.out" ]'
damaged junk "$good"; echo "notes about this trace" > "$d/README"
expect_read_as_repaired "a text file among the stream files" "$d" README \
	"skipped, its events are missing: libbabeltrace2 cannot read it: "

# Unreadable files: root reads them all, so as root tracenav runs
# without the capabilities that let it (setpriv).
AS_USER=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
   setpriv --bounding-set=-dac_override,-dac_read_search true 2>/dev/null
then
	AS_USER="setpriv --bounding-set=-dac_override,-dac_read_search"
fi
if [ "$(id -u)" = 0 ] && [ -z "$AS_USER" ]; then
	skip "unreadable files: root reads them all, and setpriv cannot drop the capabilities to read them"
	skip "unreadable metadata: the same"
else
	damaged unreadable "$good"; chmod 000 "$d/$f"
	expect_read_as_repaired "an unreadable stream file" "$d" "$f" \
		"skipped, its events are missing: it cannot be read: Permission denied"
	damaged unreadable-meta "$good"; chmod 000 "$d/metadata"
	expect_refused "an unreadable metadata file" "$d" \
		"cannot read the trace metadata: the .metadata. file cannot be read: Permission denied"
fi
AS_USER=

# --- Packet indexes that disagree with their stream files. ------------
idx=index/$f.idx
damaged index-magic "$good"; poke "$d/$idx" 0 'XXXX'
expect_index_ignored "an index's magic number" "$d" "$f"
damaged index-cut "$good"; truncate -s 100 "$d/$idx"
expect_index_ignored "an index cut short" "$d" "$f"
damaged index-empty "$good"; : > "$d/$idx"
expect_index_ignored "an empty index" "$d" "$f"
# The index of another trace's stream file, which lists more packets.
"$GEN_TRACE" --events 9000 --cpus 4 --packet-size 4096 --seed 7 \
	"$TMPDIR_TEST/bigger" >/dev/null
damaged index-other "$good"; cp "$TMPDIR_TEST/bigger/$idx" "$d/$idx"
expect_index_ignored "another trace's index" "$d" "$f"
damaged index-offset "$good"
poke "$d/$idx" $((16 + 72 * 2 + 6)) '\377'
expect_index_ignored "an index entry's offset" "$d" "$f"
# Every stream's index in another tool's format (magic "CTFI"), in a
# collection of three traces: one line a trace, exit 0, the events as
# babeltrace2 reads them, in --dump and --batch.
"$GEN_TRACE" --events 3000 --cpus 4 --traces 3 --packet-size 4096 \
	--seed 5 "$TMPDIR_TEST/foreign" >/dev/null
for i in "$TMPDIR_TEST"/foreign/*/index/*.idx; do
	printf 'CTFI\001\000\000\000 another format' > "$i"
done
d=$TMPDIR_TEST/foreign
answer "foreign indexes" --dump "$d" && {
	bt "$d"
	lines=$(grep -c "^tracenav: $d/host[0-9]: 4 index files not in LTTng's format: indexing from the stream files$" "$R.err")
	if [ "$status" = 0 ] && [ "$lines" = 3 ] &&
	   [ "$(wc -l < "$R.err")" = 3 ] && [ "$bt_status" = 0 ] &&
	   cmp -s "$R.bt" "$R.out"; then
		ok "foreign indexes: --dump exits 0, one line a trace, the events as babeltrace2 reads them ($ms ms)"
	else
		not_ok "foreign indexes: --dump exits 0, one line a trace"
		show
	fi
}
answer "foreign indexes, --batch" --batch 'goto #2999; print 1' "$d" && {
	if [ "$status" = 0 ] && [ "$(wc -l < "$R.err")" = 3 ] &&
	   [ "$(cut -f1 -d' ' "$R.out")" = "$(sed -n 2999p "$R.bt" | cut -f1 -d' ')" ]; then
		ok "foreign indexes: --batch exits 0, one line a trace, event #2999 is babeltrace2's ($ms ms)"
	else
		not_ok "foreign indexes: --batch exits 0"
		show
	fi
}
answer "foreign indexes, traces and --info" --batch traces "$d" && {
	notes=$(grep -c "^note: $d/host[0-9]: 4 index files not in LTTng's format" "$R.out")
	"$TRACENAV" --info "$d" > "$R.info" 2>/dev/null
	info=$(grep -c "^note: *$d/host[0-9]: 4 index files not in LTTng's format" "$R.info")
	if [ "$status" = 0 ] && [ "$notes" = 3 ] && [ "$info" = 3 ] &&
	   ! grep -q damaged "$R.out" "$R.info"; then
		ok "foreign indexes: traces and --info list a note a trace, nothing damaged"
	else
		not_ok "foreign indexes: traces and --info list a note a trace (traces $notes, --info $info)"
		show
	fi
}

# The index one packet behind its file, as LTTng leaves it between
# writing a packet and its entry: nothing is wrong.
damaged index-behind "$good"
truncate -s $(($(stat -c %s "$good/$idx") - 72)) "$d/$idx"
expect_unseen "an index one packet behind (a trace being written)" "$d"
# ... and the file still writing the next one.
damaged index-behind-cut "$good"
truncate -s $(($(stat -c %s "$good/$idx") - 72)) "$d/$idx"
truncate -s $(($(stat -c %s "$good/$f") - 1000)) "$d/$f"
expect_read_as_repaired "an index behind, the last packet cut" "$d" "$f" \
	"read up to byte [0-9]+ of [0-9]+: the [0-9]+ bytes after the [0-9]+ packets its index lists are left out"

# --- Metadata cut short or garbled; a bad clock. ----------------------
for form in text packets; do
	src=$TMPDIR_TEST/good
	[ "$form" = packets ] && src=$TMPDIR_TEST/packets
	size=$(stat -c %s "$src/metadata")
	for k in 2 5 8 11; do
		damaged "meta-$form-$k" "$src"
		truncate -s $((size * k / 13)) "$d/metadata"
		answer "$form metadata cut at $k/13" --dump "$d" || continue
		if [ "$status" = 1 ] && [ ! -s "$R.out" ] &&
		   said "^tracenav: $d: cannot read (the trace metadata|trace): "; then
			ok "$form metadata cut at $k/13: refused ($ms ms): $(cut -c1-80 "$R.err" | sed "s|$d|DIR|")"
		elif [ "$status" = 0 ] && [ "$form" = packets ] &&
		     bt "$d" && cmp -s "$R.bt" "$R.out"; then
			ok "$form metadata cut at $k/13: only the last packet's padding, read as babeltrace2 reads it"
		else
			not_ok "$form metadata cut at $k/13"
			show
		fi
	done
done
# babeltrace2 itself loops for ever on such metadata.
damaged meta-hang "$TMPDIR_TEST/packets"; truncate -s 4396 "$d/metadata"
timeout 3 babeltrace2 "$d" >/dev/null 2>&1
diag "babeltrace2 on packetized metadata cut inside a packet: exit $? (124: stopped by timeout 3)"
expect_refused "packetized metadata cut inside a packet's text" "$d" \
	"cannot read the trace metadata: the metadata is cut short: its packet 1 \(byte 4096\)"
damaged meta-empty "$good"; : > "$d/metadata"
expect_refused "an empty metadata file" "$d" \
	"cannot read the trace metadata: the .metadata. file is empty"
damaged meta-garbled "$good"; sed -i 's/trace {/trace (/' "$d/metadata"
expect_refused "garbled metadata" "$d" "cannot read the trace metadata: "
damaged meta-packet "$TMPDIR_TEST/packets"; poke "$d/metadata" 4096 'XXXX'
expect_refused "a metadata packet's magic number" "$d" \
	"cannot read the trace metadata: the metadata is damaged: its packet 1"
damaged clock-zero "$good"
sed -i 's/freq = 1000000000;/freq = 0;/' "$d/metadata"
expect_refused "a clock of frequency 0" "$d" \
	"cannot read trace: .*Invalid clock class frequency"
damaged clock-offset "$good"
sed -i 's/offset_s = [0-9]*;/offset_s = 99999999999999999999;/' "$d/metadata"
expect_refused "a clock offset out of range" "$d" \
	"cannot read the trace metadata: .*99999999999999999999"

# --- --batch and --info say it too. ----------------------------------
d=$TMPDIR_TEST/cut-mid
answer "--dump on a damaged trace" --dump "$d"
cp "$R.out" "$TMPDIR_TEST/cut-mid.dump"
answer "--batch on a damaged trace" --batch "print 100000" "$d"
check "--batch: exit 1, the file said first, the events read ($ms ms)" eval \
	'[ "$status" = 1 ] && head -1 "$R.err" | grep -q "^tracenav: $d/$f: read up to byte 8192 of 10000" && cmp -s "$R.out" "$TMPDIR_TEST/cut-mid.dump"'
answer "--info on a damaged trace" --info "$d"
check "--info: exit 1, the file listed as damaged ($ms ms)" eval \
	'[ "$status" = 1 ] && grep -q "^damaged: *$d/$f: read up to byte 8192" "$R.out"'

# --- Shared traces: a real kernel trace damaged, and babeltrace2/fail. -
kernel=$SHARED_TRACES/tracecompass/bug446190
if [ -d "$kernel" ]; then
	# Its channel0_1 holds packets of 256 KiB, 28 KiB and 4 KiB.
	damaged shared-cut "$kernel"
	truncate -s 272144 "$d/channel0_1"
	expect_read_as_repaired "real kernel trace, a stream file cut inside a packet" \
		"$d" channel0_1 "read up to byte 262144 of 272144: it ends inside its packet 1"
	size=$(stat -c %s "$kernel/metadata")
	for k in 2 5 8 11; do
		damaged shared-meta-$k "$kernel"
		truncate -s $((size * k / 13)) "$d/metadata"
		answer "real kernel trace, metadata cut at $k/13" --dump "$d" ||
			continue
		check "real kernel trace, metadata cut at $k/13: refused ($ms ms): $(cut -c1-70 "$R.err" | sed "s|$d|DIR|")" eval \
			'[ "$status" = 1 ] && [ ! -s "$R.out" ] && said "^tracenav: $d: cannot read"'
	done
else
	skip "no shared kernel trace at $kernel"
fi
if [ -d "$SHARED_TRACES/babeltrace2/fail" ]; then
	for dir in "$SHARED_TRACES"/babeltrace2/fail/*/; do
		dir=${dir%/}
		answer "fail/${dir##*/}" --dump "$dir" || continue
		check "fail/${dir##*/}: exit 1, the trace and the cause ($ms ms)" eval \
			'[ "$status" = 1 ] && said "^tracenav: $dir(/[^:]*)?: cannot read"'
	done
else
	skip "no shared trace corpus at $SHARED_TRACES"
fi

diag "$answers answers; the longest: $longest_ms ms ($longest_case)"
check "every answer within ${BOUND} s (the longest: $longest_ms ms)" \
	test "$longest_ms" -lt $((BOUND * 1000))

tap_done
