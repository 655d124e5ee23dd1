#!/usr/bin/env python3
"""scaling_table.py CSV [PNG]: the tables of a scaling run (scaling.sh) in
Markdown, and with PNG (and matplotlib) a plot of the efficiencies.

- weak: per stencil and rank count, the time of the run with overlap, the
  efficiency (time on 1 rank / time on N), and the exchange's share of a
  pass with the overlap and without it ((dist - local) / dist, where local
  is the ranks' local runs alone);
- strong: the same with the speedup (time on 1 / time on N) and the
  efficiency (speedup / N).
"""
import csv
import sys
from collections import defaultdict


def load(path):
    rows = defaultdict(dict)  # (mode, stencil, ranks) -> what -> row
    for r in csv.DictReader(open(path)):
        rows[(r["mode"], r["stencil"], int(r["ranks"]))][r["what"]] = r
    return rows


def table(rows, mode):
    keys = sorted(k for k in rows if k[0] == mode)
    if not keys:
        return [], {}
    head = "speedup | " if mode == "strong" else ""
    out = [
        f"| stencil | ranks | grid | ms (overlap) | GStencil/s | {head}efficiency | "
        "exchange share, overlap | without |",
        "|---|--:|---|--:|--:|" + ("--:|" if mode == "strong" else "") + "--:|--:|--:|",
    ]
    curves = defaultdict(list)
    for mode_, stencil, ranks in keys:
        what = rows[(mode_, stencil, ranks)]
        if not {"local-only", "dist-plain", "dist-overlap"} <= what.keys():
            continue
        base = rows.get((mode_, stencil, 1), {}).get("dist-overlap")
        ms = float(what["dist-overlap"]["ms"])
        local = float(what["local-only"]["ms"])
        plain = float(what["dist-plain"]["ms"])
        grid = "x".join(what["dist-overlap"][a] for a in ("nz", "ny", "nx"))
        eff = speed = None
        if base:
            speed = float(base["ms"]) / ms
            eff = speed / ranks if mode == "strong" else speed
            curves[stencil].append((ranks, eff))
        cells = [stencil, str(ranks), grid, f"{ms:.2f}", what["dist-overlap"]["gstencil_per_s"]]
        if mode == "strong":
            cells.append(f"{speed:.2f}" if speed else "-")
        cells += [
            f"{100 * eff:.1f} %" if eff else "-",
            f"{100 * (ms - local) / ms:.1f} %",
            f"{100 * (plain - local) / plain:.1f} %",
        ]
        out.append("| " + " | ".join(cells) + " |")
    return out, curves


def main():
    rows = load(sys.argv[1])
    plots = {}
    for mode in ("weak", "strong"):
        lines, curves = table(rows, mode)
        if lines:
            print(f"{mode} scaling\n")
            print("\n".join(lines) + "\n")
            plots[mode] = curves
    if len(sys.argv) > 2 and plots:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("no matplotlib: no plot")
            return
        fig, axes = plt.subplots(1, len(plots), figsize=(5 * len(plots), 3.5))
        axes = axes if len(plots) > 1 else [axes]
        for ax, (mode, curves) in zip(axes, plots.items()):
            for stencil, points in sorted(curves.items()):
                ax.plot(*zip(*sorted(points)), marker="o", label=stencil)
            ax.set_title(f"{mode} scaling")
            ax.set_xlabel("GPUs (one rank each)")
            ax.set_ylabel("efficiency")
            ax.set_ylim(0, 1.1)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
