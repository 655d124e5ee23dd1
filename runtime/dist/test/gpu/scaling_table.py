#!/usr/bin/env python3
"""scaling_table.py CSV [PNG]: the tables of a scaling run (scaling.sh) in
Markdown, and with PNG (and matplotlib) a plot of the efficiencies.

Every efficiency is against the single-GPU NAME_run: the 1-rank run's
"local-only" time (NAME_run of the whole grid, no distributed runtime).

- weak: per stencil and rank count, the time of NAME_dist_run as created
  (the runtime's default: overlap or plain), the efficiency (single-GPU
  NAME_run of one rank's grid / time on N), the times with the overlap and
  without it, and the exchange's share of a run as created
  ((dist - local) / dist, where local is the ranks' local runs alone);
- strong: the same with the speedup (single-GPU NAME_run of the whole grid
  / time on N) and the efficiency (speedup / N).
"""
import csv
import sys
from collections import defaultdict

DEFAULTS = ("default-overlap", "default-plain")


def load(path):
    rows = defaultdict(dict)  # (mode, stencil, ranks) -> what -> row
    for r in csv.DictReader(open(path)):
        rows[(r["mode"], r["stencil"], int(r["ranks"]))][r["what"]] = r
    return rows


def default_of(what):
    """The row of the run as created, and 'overlap' or 'plain'."""
    for key in DEFAULTS:
        if key in what:
            return what[key], key.split("-")[1]
    return None, None


def row_cells(mode, stencil, ranks, what, single):
    run, choice = default_of(what)
    ms = float(run["ms"])
    local = float(what["local-only"]["ms"])
    grid = "x".join(run[a] for a in ("nz", "ny", "nx"))
    speed = single / ms if single else None
    eff = None if speed is None else (speed / ranks if mode == "strong" else speed)
    cells = [stencil, str(ranks), grid, f"{ms:.2f} ({choice})", run["gstencil_per_s"]]
    if mode == "strong":
        cells.append(f"{speed:.2f}" if speed else "-")
    cells += [
        f"{100 * eff:.1f} %" if eff else "-",
        f"{float(what['dist-overlap']['ms']):.2f}",
        f"{float(what['dist-plain']['ms']):.2f}",
        f"{100 * (ms - local) / ms:.1f} %",
    ]
    return cells, eff


def table(rows, mode):
    keys = sorted(k for k in rows if k[0] == mode)
    head = "speedup | " if mode == "strong" else ""
    out = [
        f"| stencil | ranks | grid | ms as created | GStencil/s | {head}efficiency vs NAME_run | "
        "ms overlap | ms plain | exchange share |",
        "|---|--:|---|--:|--:|" + ("--:|" if mode == "strong" else "") + "--:|--:|--:|--:|",
    ]
    curves = defaultdict(list)
    for mode_, stencil, ranks in keys:
        what = rows[(mode_, stencil, ranks)]
        if not {"local-only", "dist-plain", "dist-overlap"} <= what.keys() or not default_of(what)[0]:
            continue
        one = rows.get((mode_, stencil, 1), {}).get("local-only")
        cells, eff = row_cells(mode, stencil, ranks, what, float(one["ms"]) if one else None)
        if eff:
            curves[stencil].append((ranks, eff))
        out.append("| " + " | ".join(cells) + " |")
    return (out if len(out) > 2 else []), curves


def plot(plots, path):
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
        ax.set_ylabel("efficiency vs single-GPU NAME_run")
        ax.set_ylim(0, 1.1)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


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
        plot(plots, sys.argv[2])


if __name__ == "__main__":
    main()
