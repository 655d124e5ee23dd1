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

A row each stencil, rank count and transport (TIME_TRANSPORTS of
scaling.sh times the weak runs with several).
"""
import csv
import sys
from collections import defaultdict

DEFAULTS = ("default-overlap", "default-plain")


def load(path):
    rows = defaultdict(dict)  # (mode, stencil, ranks, transport) -> what -> row
    for r in csv.DictReader(open(path)):
        rows[(r["mode"], r["stencil"], int(r["ranks"]), r["transport"])][r["what"]] = r
    return rows


def single_gpu(rows, mode, stencil):
    """The 1-rank run's local-only time (NAME_run alone), or None."""
    for (mode_, stencil_, ranks, _), what in rows.items():
        if (mode_, stencil_, ranks) == (mode, stencil, 1) and "local-only" in what:
            return float(what["local-only"]["ms"])
    return None


def default_of(what):
    """The row of the run as created, and 'overlap' or 'plain'."""
    for key in DEFAULTS:
        if key in what:
            return what[key], key.split("-")[1]
    return None, None


def row_cells(mode, stencil, ranks, transport, what, single):
    run, choice = default_of(what)
    ms = float(run["ms"])
    local = float(what["local-only"]["ms"])
    grid = "x".join(run[a] for a in ("nz", "ny", "nx"))
    speed = single / ms if single else None
    eff = None if speed is None else (speed / ranks if mode == "strong" else speed)
    cells = [stencil, str(ranks), transport, grid, f"{ms:.2f} ({choice})", run["gstencil_per_s"]]
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
        f"| stencil | ranks | transport | grid | ms as created | GStencil/s | {head}efficiency vs "
        "NAME_run | ms overlap | ms plain | exchange share |",
        "|---|--:|---|---|--:|--:|" + ("--:|" if mode == "strong" else "") + "--:|--:|--:|--:|",
    ]
    curves = defaultdict(list)
    for mode_, stencil, ranks, transport in keys:
        what = rows[(mode_, stencil, ranks, transport)]
        if not {"local-only", "dist-plain", "dist-overlap"} <= what.keys() or not default_of(what)[0]:
            continue
        single = single_gpu(rows, mode, stencil)
        cells, eff = row_cells(mode, stencil, ranks, transport, what, single)
        if eff:
            curves[f"{stencil} ({transport})" if ranks > 1 else stencil].append((ranks, eff))
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
