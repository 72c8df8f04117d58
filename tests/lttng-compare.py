#!/usr/bin/env python3
"""lttng-compare.py - compare an analysis of tracenav --batch with the
same one of lttng-analyses (its -mi command's JSON), for
test-analysis.sh.

    lttng-compare.py ANALYSIS LTTNG_JSON TRACENAV_OUTPUT

ANALYSIS: cputop (lttng-cputop-mi), syscallstats (lttng-syscallstats-mi),
irqstats (lttng-irqstats-mi) or schedtop (lttng-schedstats-mi).  Prints
one line per difference and "rows N" (the rows compared); exits 1 when
there is a difference, else 2 when neither has a row.
"""
import json
import re
import sys

# Durations: lttng-analyses gives the mean and the deviation as floats,
# tracenav rounds them to ns.
NS_SLACK = 1.0


def tables(path):
    """tracenav's output: {table name: [fields of each row]}; the first
    table is called "" (it has no header line)."""
    out = {"": []}
    name = ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# "):
                name = line.split()[1]
                out[name] = []
            elif line:
                out[name].append(line.split(" "))
    return out


def number(cell):
    return None if cell == "-" else float(cell)


def stats_of(fields):
    """COUNT MIN MEAN MAX STDDEV, the last five fields."""
    return [number(c) for c in fields[-5:]]


def lttng_stats(row, first):
    """count, min, mean, max, stdev from the MI cells row[first:]."""
    values = []
    for cell in row[first:first + 5]:
        values.append(cell.get("value") if cell.get("class") in
                      ("number", "duration") else None)
    return values


def same_stats(what, ours, theirs, problems):
    names = ("count", "min", "mean", "max", "stddev")
    for name, a, b in zip(names, ours, theirs):
        if a is None or b is None:
            # lttng-syscallstats gives no deviation of two samples.
            if name == "stddev" and (ours[0] < 2 or
                                     (b is None and ours[0] == 2)):
                continue
            if (a is None) != (b is None):
                problems.append("%s: %s %s here, %s there" %
                                (what, name, a, b))
            continue
        slack = 0 if name in ("count", "min", "max") else NS_SLACK
        if abs(a - b) > slack:
            problems.append("%s: %s %s here, %s there" % (what, name, a, b))


def compare_cputop(mi, ours, problems):
    result = [r for r in mi["results"] if r.get("class") == "per-process"]
    r = result[0]
    begin = r["time-range"]["begin"]["value"]
    end = r["time-range"]["end"]["value"]
    theirs = {}
    for row in r["data"]:
        tid = row[0]["tid"]
        if tid != 0:  # lttng-cputop keeps a row for swapper/0
            theirs[tid] = row[3]["value"] * (end - begin)
    here = {int(f[0]): float(f[-2]) for f in ours[""]}
    for tid in sorted(set(theirs) | set(here)):
        a, b = here.get(tid), theirs.get(tid)
        if a is None or b is None or abs(a - b) > 2:
            problems.append("tid %d: %s ns here, %s there" % (tid, a, b))
    return len(theirs)


def compare_syscallstats(mi, ours, problems):
    theirs = {}
    for r in mi["results"]:
        cls = r.get("class")
        title = cls.get("title", "") if isinstance(cls, dict) else ""
        m = re.search(r"TID: (\d+)\)\]$", title)
        if not m:
            continue
        for row in r["data"]:
            theirs[(int(m.group(1)), row[0]["name"])] = lttng_stats(row, 1)
    here = {(int(f[0]), f[-6]): stats_of(f) for f in ours.get("threads", [])}
    for key in sorted(set(theirs) | set(here)):
        if key not in here or key not in theirs:
            problems.append("tid %d %s: only %s" % (key[0], key[1],
                            "here" if key in here else "there"))
            continue
        same_stats("tid %d %s" % key, here[key], theirs[key], problems)
    return len(theirs)


def compare_keyed(label, theirs, here, problems):
    """theirs and here: {key: count, min, mean, max, stdev}."""
    for key in sorted(set(theirs) | set(here)):
        if key not in here or key not in theirs:
            problems.append("%s %d: only %s" % (label, key, "here"
                            if key in here else "there"))
            continue
        same_stats("%s %d" % (label, key), here[key], theirs[key], problems)
    return len(theirs)


def compare_irqstats(mi, ours, problems):
    theirs = {row[0]["nr"]: lttng_stats(row, 1)
              for r in mi["results"] if r.get("class") == "hard-stats"
              for row in r["data"]}
    here = {int(f[0]): stats_of(f) for f in ours[""]}
    return compare_keyed("irq", theirs, here, problems)


def compare_schedtop(mi, ours, problems):
    theirs = {row[0]["tid"]: lttng_stats(row, 1)
              for r in mi["results"] if r.get("class") == "per_tid_stats"
              for row in r["data"]}
    here = {int(f[0]): stats_of(f) for f in ours[""]}
    return compare_keyed("tid", theirs, here, problems)


def main():
    analysis, mi_path, ours_path = sys.argv[1:4]
    with open(mi_path, encoding="utf-8") as f:
        mi = json.load(f)
    ours = tables(ours_path)
    problems = []
    rows = globals()["compare_" + analysis](mi, ours, problems)
    for p in problems[:20]:
        print(p)
    if len(problems) > 20:
        print("... %d differences in all" % len(problems))
    print("rows %d" % rows)
    if problems:
        sys.exit(1)
    sys.exit(2 if rows == 0 else 0)


if __name__ == "__main__":
    main()
