#!/usr/bin/env python3
"""Writes the .stencil files of the tensor-fusion experiment (issue 19, item 4).

For star2d5p and box2d9p (the suite's coefficients) in fp16, bf16, tf32 and
fp64 it writes, into OUTDIR:
  NAME_p.stencil      the stencil itself with `boundary periodic`;
  NAME_cT.stencil     T steps composed into one stencil of radius T
                      (coefficients exact: rational arithmetic), periodic,
                      for T in STEPS that the tensor planner can take
                      (T*r <= 8, fp64: <= 4);
  pairs.h             TCFUSE_PAIRS: X(single, composed, T) for each composed
                      stencil; TCFUSE_SINGLES: the periodic stencils;
                      TCFUSE_SIMTS: the suite's own (fixed) stencils, fp32
                      too, which run-experiment.sh compiles for CUDA cores.
The GPU experiment (bench/tcfuse/run-experiment.sh) times the composed
stencils' single step and measures their error against T float64 steps.
Usage: compose_suite.py OUTDIR
"""
import sys
from fractions import Fraction
from pathlib import Path

H = Fraction(1, 2)
BASE = {
    "star2d5p": [[0, H / 4, 0], [H / 4, H, H / 4], [0, H / 4, 0]],
    "box2d9p": [[H / 8, H / 8, H / 8], [H / 8, H, H / 8], [H / 8, H / 8, H / 8]],
}
STEPS = (2, 3, 4, 6, 8)  # the composed step counts measured
PRECISIONS = {"fp16": 8, "bf16": 8, "tf32": 8, "fp64": 4}  # largest tensor radius


def compose(a, b):
    ra, rb = len(a) // 2, len(b) // 2
    r = ra + rb
    out = [[Fraction(0)] * (2 * r + 1) for _ in range(2 * r + 1)]
    for i, row in enumerate(a):
        for j, x in enumerate(row):
            if x == 0:
                continue
            for k, brow in enumerate(b):
                for m, y in enumerate(brow):
                    out[i + k][j + m] += x * y
    return out


def text(v):
    v = Fraction(v)
    if v == 0:
        return "0"
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator} / {v.denominator}"


def write(out, name, prec, w, note):
    rows = ",\n          ".join("[" + ", ".join(text(x) for x in row) + "]" for row in w)
    (out / f"{name}.stencil").write_text(
        f"// {name}.stencil: {note}\n// Written by bench/tcfuse/compose_suite.py.\n\n"
        f"stencil {name} {{\n  precision {prec};\n  boundary periodic;\n"
        f"  weights [{rows}];\n}}\n")


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    pairs, singles, simts = [], [], []
    for base, w in BASE.items():
        for prec, rmax in PRECISIONS.items():
            single = f"{base}_{prec}_p"
            singles.append(f"X({single})")
            simts.append(f"X({base}_{prec})")
            write(out, single, prec, w, f"{base}, periodic")
            c = w
            for t in range(2, rmax + 1):
                c = compose(c, w)
                if t in STEPS:
                    write(out, f"{base}_{prec}_c{t}", prec, c, f"{t} steps of {base} composed")
                    pairs.append(f"X({single}, {base}_{prec}_c{t}, {t})")
        simts.append(f"X({base}_fp32)")
    (out / "pairs.h").write_text(
        "#define TCFUSE_PAIRS(X) " + " ".join(pairs) + "\n#define TCFUSE_SINGLES(X) " +
        " ".join(singles) + "\n#define TCFUSE_SIMTS(X) " + " ".join(simts) + "\n")


if __name__ == "__main__":
    main()
