#!/usr/bin/env python3
"""Compares two benchmark runs of the suite (scripts/gpu-compare.sh).

Usage: compare.py [--tolerance PCT] --before CSV... --after CSV...

One row per stencil and backend that both runs measured: GStencil/s before
and after, the ratio, each run's % of its own copy roofline and its check
verdict. A row whose change is beyond the tolerance (default 2 %) is marked;
exit status 1 when any row is, or when a check failed, so a script can stop
on it. Rows only one run has are listed apart.
"""
import argparse
import csv
import statistics
import sys


def read(paths):
    rows = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for r in csv.DictReader(f):
                if r["implementation"] != "naive":
                    rows[(r["stencil"], r["backend"])] = r
    return rows


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tolerance", type=float, default=2.0)
    parser.add_argument("--before", nargs="+", required=True)
    parser.add_argument("--after", nargs="+", required=True)
    args = parser.parse_args(argv[1:])
    before, after = read(args.before), read(args.after)
    if not before or not after:
        print("compare: no rows in one of the runs")
        return 1
    device = next(iter(after.values()))["device"]
    print(f"{device}\n{'stencil':<18} {'backend':<7} {'before':>9} {'after':>9} {'ratio':>7} "
          f"{'%copy b':>7} {'%copy a':>7}  check")
    ratios, beyond, failed = [], 0, 0
    for key in sorted(set(before) & set(after)):
        b, a = before[key], after[key]
        gb, ga = float(b["gstencil_per_s"]), float(a["gstencil_per_s"])
        ratio = ga / gb if gb > 0 else float("inf")
        ratios.append(ratio)
        mark = ""
        if abs(ratio - 1) * 100 > args.tolerance:
            mark = f"  <-- beyond {args.tolerance:g} %"
            beyond += 1
        checks = f"{b['check']}/{a['check']}"
        failed += b["check"] != "PASS" or a["check"] != "PASS"
        print(f"{key[0]:<18} {key[1]:<7} {gb:>9.1f} {ga:>9.1f} {ratio:>7.3f} "
              f"{float(b['percent_of_copy']):>7.1f} {float(a['percent_of_copy']):>7.1f}  {checks}{mark}")
    for key in sorted(set(before) ^ set(after)):
        print(f"{key[0]:<18} {key[1]:<7} only in the {'before' if key in before else 'after'} run")
    if ratios:
        print(f"{len(ratios)} kinds: median ratio {statistics.median(ratios):.3f}, "
              f"min {min(ratios):.3f}, max {max(ratios):.3f}; {beyond} beyond "
              f"{args.tolerance:g} %, {failed} with a failed check")
    return 1 if beyond or failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
