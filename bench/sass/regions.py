#!/usr/bin/env python3
"""What a kernel executed, region by region, from ncu's per-instruction counters.

Usage: regions.py CSV [--top N]

CSV (or a .gz of it) is what `ncu -i REPORT --page source --print-source sass --csv` printed
for one kernel profiled with its SourceCounters (`--set full` or
`--section SourceCounters`; SOURCE=1 bench/variants/ncu.sh writes it). The
kernel's SASS is cut after each barrier (BAR) and exit (EXIT): a region is
the code between two of them, so a band kernel's setup and loads, each
level's compute and refold, and its stores fall apart. For each region it
prints the share of the executed warp instructions and of the warp stall
samples, and the marking opcodes it holds (global and shared loads and
stores, FMAs, barriers); then the stall reasons of all samples, and with
--top the N most executed runs of instructions of equal count (a loop's
body) with their opcodes. How docs/performance.md split the 3D band
(2026-12-04 16:17-16:44).
"""
import argparse
import collections
import csv
import gzip

MARKS = ("LDG", "STG", "LDS", "STS", "FFMA", "DFMA", "HMMA", "BAR", "EXIT")
STALLS = ("barrier", "branch_resolving", "dispatch", "drain", "imc", "lg", "long_sb", "math",
          "membar", "mio", "misc", "no_inst", "not_selected", "selected", "short_sb", "sleep",
          "tex", "wait")


def instructions(path):
    """[(opcode, SASS text, warp instructions executed, stall samples, {reason: samples})]."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as text:
        rows = list(csv.reader(text))
    header = next(i for i, row in enumerate(rows) if "Source" in row and "Address" in row)
    names = rows[header]
    at = {name: names.index(name) for name in names}
    found = []
    for row in rows[header + 1:]:
        if len(row) != len(names):
            continue
        sass = row[at["Source"]].strip()
        words = sass.split()
        opcode = (words[1] if words and words[0].startswith("@") and len(words) > 1 else
                  words[0] if words else "").split(".")[0]
        stalls = {reason: int(row[at["stall_" + reason]] or 0) for reason in STALLS
                  if "stall_" + reason in at}
        found.append((opcode, sass, int(row[at["Instructions Executed"]] or 0),
                      int(row[at["Warp Stall Sampling (All Samples)"]] or 0), stalls))
    return found


def regions(found):
    """[(first index, last index, executed, samples, marks)], cut after BAR and EXIT."""
    cut, first, executed, samples, marks = [], 0, 0, 0, set()
    for index, (opcode, _, count, sampled, _) in enumerate(found):
        executed, samples = executed + count, samples + sampled
        marks.update(mark for mark in MARKS if opcode.startswith(mark))
        if opcode.startswith(("BAR", "EXIT")) or index == len(found) - 1:
            cut.append((first, index, executed, samples, marks))
            first, executed, samples, marks = index + 1, 0, 0, set()
    return cut


def runs(found, top):
    """The `top` most executed runs of neighbouring instructions of one count."""
    spans, start = [], 0
    for index in range(1, len(found) + 1):
        if index == len(found) or found[index][2] != found[start][2]:
            spans.append((found[start][2] * (index - start), start, index))
            start = index
    return sorted(spans, reverse=True)[:top]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv")
    parser.add_argument("--top", type=int, default=0)
    args = parser.parse_args()
    found = instructions(args.csv)
    total = sum(item[2] for item in found) or 1
    sampled = sum(item[3] for item in found) or 1
    print(f"{len(found)} instructions, {total:,} warp instructions executed, "
          f"{sampled:,} stall samples")
    for first, last, executed, samples, marks in regions(found):
        if executed or samples:
            print(f"  [{first:5d}, {last:5d}]  {100 * executed / total:5.1f} % executed"
                  f"  {100 * samples / sampled:5.1f} % of samples  {' '.join(sorted(marks))}")
    reasons = collections.Counter()
    for item in found:
        reasons.update(item[4])
    stalls = sum(reasons.values()) or 1
    print("stall reasons: " + ", ".join(f"{reason} {100 * count / stalls:.1f} %"
                                        for reason, count in reasons.most_common() if count))
    for weight, start, end in runs(found, args.top):
        opcodes = collections.Counter(found[i][0] for i in range(start, end))
        print(f"  run [{start}, {end}) x {found[start][2]:,}: {100 * weight / total:.1f} %  "
              + " ".join(f"{op} {n}" for op, n in opcodes.most_common(8)))


if __name__ == "__main__":
    main()
