#!/usr/bin/env python3
"""Issue 35's targets from bench/variants/run.sh outputs, as the table
"Issue 35's targets: the latest figure of each" in docs/performance.md
gives them: each target with the figures of the runs that hold it and
whether it is met.

  targets.py [--label LABEL] RUN_OUTPUT...

RUN_OUTPUT is what run.sh printed (ROUNDS=N: "round 2" starts the second
round), e.g. of bench/variants/targets.list and targets-10240.list, or a
bench/results file that holds such lines. Only the variants labelled LABEL
(default `auto`: the plans as --backend=auto makes them) count.

- An absolute target (GStencil/s of NAME_run of 100 steps) takes every
  NAME_run figure of its kind.
- A 16-bit target (fp16 or bf16 NAME_run at least k times fp32's) takes
  one ratio a round: the 16-bit figure over the fp32 figure of the same
  file and round, as the table divides them.

A target is met where every figure reaches it, missed where none does, and
"on the line" otherwise (saying how many fell short). A target whose kinds
are not in the input says so. Exit status 1 where the input holds no line
of run.sh's form.
"""
import argparse
import math
import re
import sys
from collections import defaultdict

# Issue 35's table: (kind, GStencil/s) and (shape, 16-bit over fp32).
ABSOLUTE = [
    ("ebisu_2d9pt_fp64", 679), ("star2d9p_fp64", 545),
    ("ebisu_2d25pt_fp64", 351), ("ebisu_2d25pt_fp32", 558),
    ("ebisu_2d49pt_fp64", 250), ("ebisu_2d49pt_fp32", 375),
    ("star2d13p_fp64", 300), ("star2d13p_fp32", 700),
    ("star3d7p_fp64", 450), ("star3d7p_fp32", 800),
    ("box3d27p_fp64", 350), ("box3d27p_fp32", 600),
    ("box15_fp16", 400),  # SPIDER's 15 x 15 box, at 10240^2
    ("blur7x7_fp64", 500),
]
RATIOS = [("star2d5p", 2.0), ("box2d9p", 2.0), ("star2d9p", 1.6),
          ("box2d25p", 1.6), ("box2d49p", 1.6), ("star2d13p", 1.6)]

LINE = re.compile(r"^(\S+)\s+(\S+)\s+step\s+\S+ ms\s+\S+ GStencil/s\s+"
                  r"run\s+\S+ ms\s+([\d.]+) GStencil/s")


def read_runs(paths, label):
    """{kind: [(file index, round, GStencil/s)]} of the label's NAME_run lines."""
    runs = defaultdict(list)
    for index, path in enumerate(paths):
        round_ = 1
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("round "):
                    round_ = int(line.split()[1])
                    continue
                m = LINE.match(line)
                if m and m.group(2) == label:
                    runs[m.group(1)].append((index, round_, float(m.group(3))))
    return runs


def verdict(figures, target):
    short = sum(1 for x in figures if x < target)
    if short == 0:
        return "met"
    if short == len(figures):
        # Truncated, so that a miss never reads 1.00.
        return f"**missed** ({math.floor(max(figures) / target * 100) / 100:.2f})"
    return f"**on the line** ({short} of {len(figures)} under)"


def span(figures, digits):
    low, high = f"{min(figures):.{digits}f}", f"{max(figures):.{digits}f}"
    return low if low == high else f"{low}-{high}"


def ratio_figures(runs, shape, precision):
    """The 16-bit over fp32 NAME_run of each file and round holding both."""
    wide = {(i, r): x for i, r, x in runs.get(f"{shape}_fp32", [])}
    return [x / wide[(i, r)] for i, r, x in runs.get(f"{shape}_{precision}", [])
            if (i, r) in wide]


def rows(runs):
    for kind, target in ABSOLUTE:
        figures = [x for _, _, x in runs.get(kind, [])]
        yield (f"{kind} ≥ {target}",
               (span(figures, 1), verdict(figures, target)) if figures else None)
    for shape, k in RATIOS:
        for precision in ("fp16", "bf16"):
            figures = ratio_figures(runs, shape, precision)
            yield (f"{shape}_{precision} ≥ {k:g} × fp32",
                   (span(figures, 3) + " ×", verdict(figures, k)) if figures else None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outputs", nargs="+", help="run.sh outputs")
    parser.add_argument("--label", default="auto", help="the variants' label (default auto)")
    args = parser.parse_args()
    runs = read_runs(args.outputs, args.label)
    if not runs:
        print(f"targets.py: no NAME_run line labelled {args.label} in the input", file=sys.stderr)
        return 1
    print("| target | figures | |")
    print("|---|---:|---|")
    for name, found in rows(runs):
        figure, says = found if found else ("–", "not in the input")
        print(f"| {name} | {figure} | {says} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
