#!/usr/bin/env python3
"""The peers' table printed last by scripts/gpu-peers.sh: a peer's figure
and ours for each of the peer's stencils, both counted the same way.

  --ebisu TSV   one EBISU run a line: "STENCIL<TAB>PRECISION<TAB>OUTPUT",
                OUTPUT the last line EBISU's program printed (empty when it
                printed none). EBISU's line (share/printHelper.hpp, not
                --verbose) ends with the time of its one timed pass in ms and
                its own GCells/s; before them it gives the requested steps
                and its fused depth T. Its timed pass runs ceil(steps / T)
                launches of T steps each, so the steps done are that many
                times T; its own figure counts the requested steps over the
                interior (each extent less twice the radius). Here EBISU's figure is
                recounted as ours is: every grid point x the steps done /
                its time.
  --ours CSV    the benchmark's CSV (repeatable): run_gstencil_per_s, every
                point x every step of a NAME_run of run_steps steps; the
                faster backend whose run passed its check
"""
import argparse
import csv
import math
import re
import sys

EBISU_2D_FIELDS = 14  # ptx, size, x, y, steps, T, bdim, tile, grid, blocks, smem, range, ms, GCells
EBISU_3D_FIELDS = 15  # ptx, size, x, y, z, steps, T, bdim, ilp, grid, blocks, smem, range, ms, GCells


def parse_ebisu_line(text):
    """The counts of one EBISU output line, or None when it is not one."""
    fields = text.split()
    if len(fields) not in (EBISU_2D_FIELDS, EBISU_3D_FIELDS):
        return None
    dims = 2 if len(fields) == EBISU_2D_FIELDS else 3
    try:
        extents = [int(v) for v in fields[2:2 + dims]]
        steps, depth = int(fields[2 + dims]), int(fields[3 + dims])
        ms, own = float(fields[-2]), float(fields[-1])
    except ValueError:
        return None
    if ms <= 0 or depth <= 0:
        return None
    done = math.ceil(steps / depth) * depth
    points = math.prod(extents)
    return {"size": "x".join(map(str, extents)), "steps": steps, "depth": depth,
            "done": done, "ms": ms, "own": own, "gstencils": points * done / ms / 1e6}


def read_ebisu(path):
    results = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t", 2)
            if len(parts) < 2:
                continue
            output = parts[2] if len(parts) == 3 else ""
            results[(parts[0], parts[1])] = parse_ebisu_line(output)
    return results


def read_ours(paths):
    """Per (stencil, precision): the faster passing backend's row; the
    copy bandwidth of each CSV."""
    best, copies = {}, []
    for path in paths:
        with open(path, encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                copies.append(float(row["copy_gb_per_s"]))
                if row["implementation"] != "api" or int(row["run_steps"]) == 0:
                    continue
                key = (row["stencil"], row["precision"])
                row["ok"] = row["run_check"] == "PASS" and row["check"] == "PASS"
                held = best.get(key)
                rate = float(row["run_gstencil_per_s"])
                if held is None or (row["ok"], rate) > (held["ok"], float(held["run_gstencil_per_s"])):
                    best[key] = row
    return best, copies


def peer_key(name):
    """ebisu_2d5pt_fp64 -> (ebisu_2d5pt, fp64): the suite names the peer's
    stencil and its precision."""
    m = re.match(r"^(.*)_(fp64|fp32|tf32|fp16|bf16)$", name)
    return (m.group(1), m.group(2)) if m else (name, "")


def table_rows(ebisu, ours):
    rows = []
    keys = sorted(set(ebisu) | {peer_key(name) for name, _ in ours},
                  key=lambda k: (k[0], k[1] != "fp64", k[1]))
    for stencil, precision in keys:
        peer = ebisu.get((stencil, precision))
        mine = ours.get((f"{stencil}_{precision}", precision))
        # EBISU's size where it is not ours (its 3D fp64 programs cannot run
        # 512^3 on fewer than 256 SMs: scripts/gpu-peers.sh runs another)
        elsewhere = (f"; at {peer['size']}" if peer and mine and mine.get("size")
                     and peer["size"] != mine["size"] else "")
        peer_text = (f"{peer['gstencils']:.1f} ({peer['done']} steps, T {peer['depth']}; "
                     f"own {peer['own']:.1f}{elsewhere})" if peer else "no result")
        mine_text = "no result"
        ratio = "-"
        if mine:
            rate = float(mine["run_gstencil_per_s"])
            mine_text = (f"{rate:.1f} ({mine['backend']}, {mine['run_steps']} steps, "
                         f"T {mine['fused_steps']})" + ("" if mine["ok"] else " CHECK FAILED"))
            if peer and mine["ok"]:
                ratio = f"{rate / peer['gstencils']:.2f}"
        rows.append((stencil, precision, peer_text, mine_text, ratio))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ebisu", required=True)
    parser.add_argument("--ours", action="append", default=[])
    args = parser.parse_args()
    ebisu = read_ebisu(args.ebisu)
    ours, copies = read_ours(args.ours)
    header = ("stencil", "precision", "EBISU GStencil/s", "ours GStencil/s", "ours/EBISU")
    rows = table_rows(ebisu, ours)
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for row in [header] + rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    if copies:
        print(f"copy: {min(copies):.0f}-{max(copies):.0f} GB/s (measured by our benchmark, same run)")
    print("GStencil/s: every grid point x every step done / time (EBISU's 'own': its "
          "interior x requested steps)")
    missing = [r for r in rows if r[4] == "-"]
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
