#!/usr/bin/env python3
"""Plots the benchmark CSV as % of the measured copy roofline per stencil
and backend (issue 5). Usage: plot.py BENCH.csv [BENCH.csv ...] OUT.png
(several CSVs: a suite run in shards, one plot)."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ORDER = ["fp64", "fp32", "tf32", "fp16", "bf16"]
BACKENDS = [("naive", "#999999"), ("simt", "#1f77b4"), ("tensor", "#d62728")]


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__ + "\n")
        return 2
    rows = []
    for path in argv[1:-1]:
        with open(path, encoding="utf-8") as f:
            rows += list(csv.DictReader(f))
    if not rows:
        sys.stderr.write(f"{' '.join(argv[1:-1])}: no rows\n")
        return 1
    best = {}  # (stencil, backend) -> % of copy (the best of repeated rows)
    for r in rows:
        key = (r["stencil"], r["backend"])
        best[key] = max(best.get(key, 0.0), float(r["percent_of_copy"]))
    stencils = sorted({s for s, _ in best},
                      key=lambda s: (s.rsplit("_", 1)[0], ORDER.index(s.rsplit("_", 1)[1])
                                     if s.rsplit("_", 1)[1] in ORDER else 9))
    width = 0.27
    fig, ax = plt.subplots(figsize=(max(10, 0.32 * len(stencils)), 5))
    for i, (backend, colour) in enumerate(BACKENDS):
        xs = [j + (i - 1) * width for j, s in enumerate(stencils) if (s, backend) in best]
        ys = [best[(s, backend)] for s in stencils if (s, backend) in best]
        if xs:
            ax.bar(xs, ys, width, label=backend, color=colour)
    ax.axhline(90, color="black", linewidth=0.8, linestyle="--", label="target 90 %")
    ax.set_xticks(range(len(stencils)))
    ax.set_xticklabels(stencils, rotation=90, fontsize=7)
    ax.set_ylabel("% of measured device-to-device copy bandwidth")
    ax.set_ylim(0, 110)
    copy = float(rows[0]["copy_gb_per_s"])
    ax.set_title(f"{rows[0]['device']}: single step, copy {copy:.0f} GB/s", fontsize=9)
    ax.legend(fontsize=8, ncol=4, loc="upper right")
    fig.tight_layout()
    fig.savefig(argv[-1], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
