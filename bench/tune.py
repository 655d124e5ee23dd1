#!/usr/bin/env python3
"""Picks the fastest --plan-option variant per suite stencil and backend
(scripts/tune.sh) and prints the table entries the planners read.

Usage: bench/tune.py VARIANTS.tsv BENCH.csv [BENCH.csv ...] [--base TunedPlans.inc]
                     [--chosen OUT.csv]

VARIANTS.tsv comes from `scripts/tune.sh gen`, BENCH.csv from the benchmark
run over those variants (several: the shards of one sweep). Only variants whose result passed its check count.
Prints a table (default and best GStencil/s per stencil and backend), then
the lines for compiler/lib/Backends/Common/TunedPlans.inc (where a variant beat the
planner's default by at least MIN_GAIN) and for BackendTable.inc (the best
of each backend, for stencils both take).

--base names the TunedPlans.inc the variants were generated with (`scripts/
tune.sh gen` copies it beside variants.tsv). A variant's options were laid
over that table's entry for its kind (the planner fills what an option leaves
open from it), so the entry printed for a winner keeps the base entry's
fields the variant did not set.

--chosen writes, per stencil and backend, the benchmark row of the variant
the planner now generates (the best where it entered TunedPlans.inc, else
the default) under the suite stencil's name: a CSV that
`bench/summarize.py --bench FULL.csv --bench OUT.csv --backend-table` lays
over a full run's rows when the tuned plans were not yet in that run."""
import argparse
import csv
import re
import sys
from pathlib import Path

MIN_GAIN = 0.02  # below this, keep the planner's default: within the noise
# The --plan-option names of TunedPlans.inc's fields, in the entry's order:
# read from the table that declares every plan option (PlanOptions.def), so
# that a new option is a new field here without an edit.
PLAN_OPTIONS_DEF = (Path(__file__).resolve().parent.parent / "compiler" / "include" /
                    "stencilc" / "PlanOptions.def")


def read_fields(path=PLAN_OPTIONS_DEF):
    names = re.findall(r'^STENCILC_PLAN_OPTION\(\w+, "([\w-]+)"',
                       path.read_text(encoding="utf-8"), re.MULTILINE)
    if not names:
        sys.exit(f"tune.py: {path}: no STENCILC_PLAN_OPTION entries")
    return names


FIELDS = read_fields()
ENTRY = re.compile(r'^\{"(sm_\d+)", (\w+), (\d+), (\d+), (\w+), (\w+), ([\d, ]+), [\d.]+\},')


def parse_options(text):
    if text == "default":
        return {}
    return {k: int(v) for k, v in (item.split("=") for item in text.split(","))}


def unlisted(variant):
    """The variant's options that TunedPlans.inc has no field for."""
    return sorted(set(parse_options(variant["options"])) - set(FIELDS))


def read_base(path):
    """TunedPlans.inc's fields per kind: {(arch, shape, dims, radius,
    precision, backend): {option: value}}, as the variants' keys spell them."""
    base = {}
    if not path:
        return base
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = ENTRY.match(line)
            if not m:
                continue
            values = [int(x) for x in m.group(7).split(",")]
            if len(values) != len(FIELDS):
                sys.exit(f"tune.py: {path}: an entry with {len(values)} fields: {line.strip()}")
            key = (m.group(1),) + tuple(x.lower() for x in m.group(2, 3, 4, 5, 6))
            base[key] = dict(zip(FIELDS, values))
    return base


def main(variants_path, bench_paths, chosen_path=None, base_path=None):
    base_entries = read_base(base_path)
    variants = {row["variant"]: row for row in csv.DictReader(open(variants_path), delimiter="\t")}
    speed, rows = {}, {}
    arch = None
    for row in (row for path in bench_paths for row in csv.DictReader(open(path))):
        if row["implementation"] != "api" or row["check"] != "PASS":
            continue
        if row["stencil"] in variants:
            speed[row["stencil"]] = float(row["gstencil_per_s"])
            rows[row["stencil"]] = row
            found = re.search(r"\((sm_\d+)", row["device"])
            arch = arch or (found.group(1) if found else None)
    if arch is None:
        sys.exit("tune.py: no passing variant in " + ", ".join(bench_paths))

    groups = {}
    for name, v in variants.items():
        if name in speed:
            groups.setdefault((v["stencil"], v["backend"]), []).append(v)
    tuned, best_of, chosen = [], {}, []
    print(f"{'stencil':18} {'backend':7} {'default':>8} {'best':>8} {'gain':>6}  options")
    for (stencil, backend), members in sorted(groups.items()):
        default = next((m for m in members if m["options"] == "default"), None)
        best = max(members, key=lambda m: speed[m["variant"]])
        base = speed[default["variant"]] if default else float("nan")
        gain = speed[best["variant"]] / base - 1 if default else float("nan")
        print(f"{stencil:18} {backend:7} {base:8.1f} {speed[best['variant']]:8.1f} "
              f"{gain * 100:5.1f}%  {best['options']}")
        best_of[(stencil, backend)] = (best, speed[best["variant"]])
        enters = default and best is not default and gain >= MIN_GAIN
        if enters:
            tuned.append((best, speed[best["variant"]], base))
        if enters and not unlisted(best):
            chosen.append(dict(rows[best["variant"]], stencil=stencil))
        elif default:
            chosen.append(dict(rows[default["variant"]], stencil=stencil))

    def key(v):
        return (f'"{arch}", {v["shape"].capitalize()}, {v["dims"]}, {v["radius"]}, '
                f'{v["precision"].upper()}')

    print("\n// TunedPlans.inc")
    for v, s, base in tuned:
        options, others = parse_options(v["options"]), unlisted(v)
        if others:
            # An option without a field (e.g. l2-prefetch) cannot enter the
            # table; say so rather than write an entry that drops it.
            print(f'// {v["stencil"]}: {v["options"]} ({s:.1f}, default {base:.1f}): '
                  f'{", ".join(others)} has no TunedPlans.inc field')
            continue
        kind = (arch, v["shape"], v["dims"], v["radius"], v["precision"], v["backend"])
        options = {**base_entries.get(kind, {}), **options}
        fields = [options.get(k, 0) for k in FIELDS]
        print(f'{{{key(v)}, {v["backend"].capitalize()}, {", ".join(map(str, fields))}, '
              f'{s:.1f}}}, // {v["stencil"]}: default {base:.1f}')
    print("\n// BackendTable.inc")
    for (stencil, backend), (v, s) in sorted(best_of.items()):
        if backend != "tensor" or (stencil, "simt") not in best_of:
            continue
        print(f'{{{key(v)}, {s:.1f}, {best_of[(stencil, "simt")][1]:.1f}}}, // {stencil}')
    if chosen_path and chosen:
        with open(chosen_path, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=list(chosen[0].keys()))
            writer.writeheader()
            writer.writerows(chosen)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("variants")
    parser.add_argument("bench", nargs="+")
    parser.add_argument("--chosen")
    parser.add_argument("--base")
    args = parser.parse_args()
    main(args.variants, args.bench, args.chosen, args.base)
