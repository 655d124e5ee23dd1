#!/usr/bin/env python3
"""Writes the benchmark suite's .stencil files, one per stencil and precision
(NAME_PREC.stencil, so a precision the compiler cannot take yet does not
stop the others), with the coefficients bench/suite.cpp uses: the centre
0.5, the other points sharing 0.5 equally. Run it from anywhere; it writes
beside itself."""
import itertools
import os

FAMILIES = [
    ("heat1d", 1, 1, "star"), ("star1d5p", 1, 2, "star"),
    ("star2d5p", 2, 1, "star"), ("box2d9p", 2, 1, "box"),
    ("star2d9p", 2, 2, "star"), ("box2d25p", 2, 2, "box"),
    ("star2d13p", 2, 3, "star"), ("box2d49p", 2, 3, "box"),
    ("star3d7p", 3, 1, "star"), ("box3d27p", 3, 1, "box"),
    ("star3d13p", 3, 2, "star"), ("box3d125p", 3, 2, "box"),
]
PRECISIONS = ["fp64", "fp32", "tf32", "fp16", "bf16"]


def table(dims, radius, shape):
    """The weights table as nested lists of coefficient expressions."""
    span = range(-radius, radius + 1)
    points = [p for p in itertools.product(span, repeat=dims)
              if shape == "box" or sum(1 for c in p if c) <= 1]
    share = f"0.5 / {len(points) - 1}"

    def weight(p):
        if not any(p):
            return "0.5"
        return share if p in points else "0"

    def nest(prefix, depth, indent):
        if depth == dims - 1:
            return "[" + ", ".join(weight(prefix + (c,)) for c in span) + "]"
        inner = [nest(prefix + (c,), depth + 1, indent + 1) for c in span]
        sep = ",\n" + " " * (10 + indent)
        return "[" + sep.join(inner) + "]"

    return nest((), 0, 0)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for name, dims, radius, shape in FAMILIES:
        for prec in PRECISIONS:
            body = [f"// {name}_{prec}.stencil: benchmark suite, {shape} of radius {radius} in {dims}D.",
                    "// Written by make_suite.py.", "",
                    f"stencil {name}_{prec} {{",
                    f"  precision {prec};",
                    "  boundary fixed;",
                    f"  weights {table(dims, radius, shape)};",
                    "}", ""]
            with open(os.path.join(here, f"{name}_{prec}.stencil"), "w", encoding="utf-8") as f:
                f.write("\n".join(body))


if __name__ == "__main__":
    main()
