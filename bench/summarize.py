#!/usr/bin/env python3
"""Short tables from the GPU check's outputs, printed last by
scripts/gpu-check.sh and scripts/bench.sh.

  --tests LOG   a log holding the conformance lines of the GPU test driver
                ("[PASS] name prec boundary impl size what detail", with or
                without ctest -V's "N: " prefix): one row per stencil and
                implementation, with the worst one-step error and the verdict
                (its step, run, pass, range and bad-args cases all counted)
  --bench CSV   the benchmark CSV: one row per stencil, precision, backend
                (repeatable: the CSVs of a suite run in shards, one table)
  --backend-table SUITE_DIR
                instead of the table, the lines of
                compiler/lib/Backends/Common/BackendTable.inc: each suite stencil
                (SUITE_DIR/NAME.stencil) that both backends ran and passed
  --markdown    instead of the table, the one docs/performance.md shows: a
                row per stencil in the suite's order (1D, 2D, 3D; by points;
                fp64, fp32, tf32, fp16, bf16), each backend's GStencil/s and
                % of copy (truncated to 0.1; bold at or above 90 %), the faster one (what
                --backend=auto takes when BackendTable.inc holds this run),
                and whether issue 5's target is met: the faster backend at
                90 % of copy or more; for 2D and 3D tf32, within 5 % of the
                time of the same stencil in fp32 (1D tf32: both)
"""
import argparse
import csv
import math
import os
import re
import sys

CASE = re.compile(
    r"^(?:\d+: )?\[(PASS|FAIL)\] (\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+"
    r"(step|run \d+|pass \d+|range \d+\+\d+|bad-args)\s*(.*)$")
RELL2 = re.compile(r"relL2=(\S+)")


def tests(path):
    rows = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = CASE.match(line.rstrip("\n"))
            if not m:
                continue
            verdict, name, prec, boundary, impl, size, what, detail = m.groups()
            key = (name, prec, boundary, impl)
            row = rows.setdefault(key, {"cases": 0, "failed": 0, "worst": 0.0, "worst_size": "-",
                                        "largest": "-", "largest_points": 0})
            row["cases"] += 1
            row["failed"] += verdict == "FAIL"
            points = 1
            for n in size.split("x"):
                points *= max(int(n), 0) if n.lstrip("-").isdigit() else 0
            if what == "step":
                if points > row["largest_points"]:
                    row["largest"], row["largest_points"] = size, points
                e = RELL2.search(detail)
                if e and float(e.group(1)) >= row["worst"]:
                    row["worst"], row["worst_size"] = float(e.group(1)), size
    if not rows:
        print(f"(no conformance lines in {path})")
        return 1
    print(f"{'stencil':<22} {'prec':<5} {'boundary':<9} {'impl':<10} {'cases':>5} "
          f"{'worst 1-step relL2':>18} {'at':<14} {'largest':<14} result")
    failed = 0
    for (name, prec, boundary, impl), r in sorted(rows.items()):
        ok = r["failed"] == 0
        failed += not ok
        print(f"{name:<22} {prec:<5} {boundary:<9} {impl:<10} {r['cases']:>5} {r['worst']:>18.2e} "
              f"{r['worst_size']:<14} {r['largest']:<14} "
              f"{'PASS' if ok else 'FAIL (%d cases)' % r['failed']}")
    return 1 if failed else 0


SUITE_ORDER = ["heat1d", "star1d5p", "star2d5p", "box2d9p", "star2d9p", "box2d25p", "star2d13p",
               "box2d49p", "star3d7p", "box3d27p", "star3d13p", "box3d125p"]
PRECISION_ORDER = ["fp64", "fp32", "tf32", "fp16", "bf16"]


def read_rows(paths):
    """The rows of the benchmark CSVs `paths`, in order."""
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            rows += list(csv.DictReader(f))
    return rows


def bench(paths):
    try:
        rows = read_rows(paths)
    except FileNotFoundError as missing:
        print(f"(no benchmark results: {missing.filename} missing)")
        return 1
    if not rows:
        print("(no benchmark rows)")
        return 1
    copies = sorted({f"{float(r['copy_gb_per_s']):.0f}" for r in rows})
    print(f"\n{rows[0]['device']}; copy {' / '.join(copies)} GB/s (read+write)")
    naive = {r["stencil"]: float(r["gstencil_per_s"]) for r in rows if r["implementation"] == "naive"}
    order = {"tensor": 0, "simt": 1, "naive": 2}
    rows.sort(key=lambda r: (r["stencil"], order.get(r["backend"], 3)))
    print(f"{'stencil':<18} {'prec':<5} {'backend':<7} {'size':<13} {'GStencil/s':>10} "
          f"{'GB/s':>7} {'%copy':>6} {'x naive':>7} {'relL2':>9} check")
    for r in rows:
        speed = float(r["gstencil_per_s"])
        over = "-" if r["implementation"] == "naive" or r["stencil"] not in naive \
            else f"{speed / naive[r['stencil']]:.2f}"
        print(f"{r['stencil']:<18} {r['precision']:<5} {r['backend']:<7} {r['size']:<13} "
              f"{speed:>10.1f} {float(r['gb_per_s']):>7.0f} "
              f"{float(r['percent_of_copy']):>5.1f}% {over:>7} {float(r['relative_l2']):>9.1e} "
              f"{r['check']}")
    best = latest_rows(rows)
    judged = {name: target(best, name, fastest(best, name)) for name, _ in best
              if name.rpartition("_")[2] in PRECISION_ORDER}
    missed = sorted(name for name, verdict in judged.items() if verdict == "missed")
    if judged:
        print(f"targets (90 % of copy for the faster backend; tf32 within 5 % of fp32): "
              f"{sum(v == 'met' for v in judged.values())} met, {len(missed)} missed"
              + (": " + ", ".join(missed) if missed else ""))
    return 1 if any(r["check"] != "PASS" for r in rows) else 0


SUITE_LINE = re.compile(r"benchmark suite, (star|box) of radius (\d+) in (\d)D")


def backend_table(paths, suite_dir):
    """The BackendTable.inc lines of the suite stencils both backends ran."""
    speed, arch = {}, None
    for r in read_rows(paths):
        if r["implementation"] == "api" and r["check"] == "PASS":
            speed[(r["stencil"], r["backend"])] = float(r["gstencil_per_s"])
            found = re.search(r"\((sm_\d+)", r["device"])
            arch = arch or (found.group(1) if found else None)
    for stencil in sorted({s for s, _ in speed}):
        # A peer's stencil (ebisu_*) has a suite kind's shape but other
        # weights: the table's rows are the suite's own kinds, one a key.
        if stencil.startswith("ebisu_"):
            continue
        if (stencil, "tensor") not in speed or (stencil, "simt") not in speed:
            continue
        with open(os.path.join(suite_dir, stencil + ".stencil"), encoding="utf-8") as f:
            text = f.read()
        # The low-rank examples (make_suite.py) are no suite kind either.
        if "a low-rank example" in text:
            continue
        found = SUITE_LINE.search(text)
        if not found:
            print(f"(no shape line in {stencil}.stencil)")
            return 1
        shape, radius, dims = found.groups()
        precision = stencil.rsplit("_", 1)[1].upper()
        print(f'{{"{arch}", {shape.capitalize()}, {dims}, {radius}, {precision}, '
              f'{speed[(stencil, "tensor")]:.1f}, {speed[(stencil, "simt")]:.1f}}}, // {stencil}')
    return 0


def latest_rows(rows):
    """{(stencil, backend): row}, a later row of the same key winning; of the
    naive baseline (each program runs it), the faster."""
    best = {}
    for r in rows:
        key = (r["stencil"], r["backend"])
        if r["backend"] == "naive" and key in best and \
                float(best[key]["gstencil_per_s"]) >= float(r["gstencil_per_s"]):
            continue
        best[key] = r
    return best


def fastest(best, name):
    """The faster passing backend's row of `name`, or None."""
    ran = [best[(name, b)] for b in ("tensor", "simt")
           if (name, b) in best and best[(name, b)]["check"] == "PASS"]
    return max(ran, key=lambda r: float(r["gstencil_per_s"]), default=None)


def target(best, name, row):
    """Issue 5's target for suite stencil `name` with its fastest `row`:
    "met", "missed", or "—" (nothing to judge). 90 % of copy; tf32 within 5 %
    of fp32's time, and in 1D also 90 %."""
    if row is None:
        return "—"
    kind, _, precision = name.rpartition("_")
    at_roofline = float(row["percent_of_copy"]) >= 90.0
    if precision != "tf32":
        return "met" if at_roofline else "missed"
    fp32 = fastest(best, kind + "_fp32")
    if fp32 is None:
        return "—"
    near_fp32 = float(fp32["gstencil_per_s"]) / float(row["gstencil_per_s"]) <= 1.05
    return "met" if near_fp32 and (at_roofline or "1d" not in kind) else "missed"


def markdown(paths):
    """The docs table: one row per suite stencil, later CSVs winning."""
    best = latest_rows(read_rows(paths))
    stencils = {s for s, _ in best}

    def rank(name):
        kind, _, precision = name.rpartition("_")
        return (SUITE_ORDER.index(kind) if kind in SUITE_ORDER else len(SUITE_ORDER), kind,
                PRECISION_ORDER.index(precision) if precision in PRECISION_ORDER else 9)

    def cell(r):
        if r is None:
            return "—"
        # Truncated, not rounded: 89.99 % shows as 89.9, not as a 90.0 that missed.
        percent = math.floor(float(r["percent_of_copy"]) * 10) / 10
        text = f'{float(r["gstencil_per_s"]):.1f} ({percent:.1f} %)'
        return f"**{text}**" if float(r["percent_of_copy"]) >= 90.0 else text

    print("| stencil | grid | naive | tensor (% copy) | simt (% copy) | faster | target | check |")
    print("|---|---|---:|---:|---:|---|---|---|")
    status = 0
    for name in sorted(stencils, key=rank):
        rows = {b: best.get((name, b)) for b in ("tensor", "simt", "naive")}
        present = [r for r in rows.values() if r]
        row = fastest(best, name)
        check = "PASS" if all(r["check"] == "PASS" for r in present) else "FAIL"
        status |= check != "PASS"
        naive = f'{float(rows["naive"]["gstencil_per_s"]):.1f}' if rows["naive"] else "—"
        print(f'| {name} | {present[0]["size"]} | {naive} | {cell(rows["tensor"])} | '
              f'{cell(rows["simt"])} | {row["backend"] if row else "—"} | {target(best, name, row)} | '
              f'{check} |')
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tests")
    ap.add_argument("--bench", action="append")
    ap.add_argument("--backend-table", metavar="SUITE_DIR")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    if args.markdown:
        return markdown(args.bench or [])
    if args.backend_table:
        return backend_table(args.bench or [], args.backend_table)
    status = 0
    if args.tests:
        status |= tests(args.tests)
    if args.bench:
        status |= bench(args.bench)
    return status


if __name__ == "__main__":
    sys.exit(main())
