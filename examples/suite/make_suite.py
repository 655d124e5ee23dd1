#!/usr/bin/env python3
"""Writes the benchmark suite's .stencil files, one per stencil and precision
(NAME_PREC.stencil, so a precision the compiler cannot take yet does not
stop the others), with the coefficients bench/suite.cpp uses: the centre
0.5, the other points sharing 0.5 equally. Beside them, EBISU's stencils
(ebisu_SHAPE_PREC.stencil, in fp64 and fp32, the precisions EBISU runs) with
the coefficients of its source, for a comparison on the same arithmetic. Run
it from anywhere; it writes beside itself."""
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

# EBISU (L. Zhang et al., "Revisiting Temporal Blocking Stencil
# Optimizations", ICS '23), read from its public source at this commit.
EBISU_SOURCE = "github.com/neozhang307/EBISU-ICS23, commit dd3d84471cb6"
EBISU_PRECISIONS = ["fp64", "fp32"]
# Its 3D stars and poisson write the weights as float literals (0.162f), so
# its fp64 build multiplies by the float nearest each decimal.
FLOAT_NOTE = ("EBISU writes these weights as float literals (an f suffix); here each is "
              "the decimal itself.")


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

    return weights_text(dims, radius, weight)


def weights_text(dims, radius, weight):
    """The weights table of weight(offset) over the box of `radius`."""
    span = range(-radius, radius + 1)

    def nest(prefix, depth, indent):
        if depth == dims - 1:
            return "[" + ", ".join(weight(prefix + (c,)) for c in span) + "]"
        inner = [nest(prefix + (c,), depth + 1, indent + 1) for c in span]
        sep = ",\n" + " " * (10 + indent)
        return "[" + sep.join(inner) + "]"

    return nest((), 0, 0)


def dense(rows, scale=""):
    """weight(offset) of a dense table, rows[i + r][j + r]..., each non-zero
    entry followed by `scale` (" / 118")."""
    radius = len(rows) // 2

    def weight(p):
        entry = rows
        for c in p:
            entry = entry[c + radius]
        return entry + scale if entry != "0" else "0"

    return weight


def star(centre, arms, scale=""):
    """weight(offset) of a star: arms[axis] = (minus, plus), each listing the
    weights at distance 1, 2, ... on that side of the centre."""
    def weight(p):
        if not any(p):
            return centre + scale
        axes = [a for a, c in enumerate(p) if c]
        if len(axes) > 1:
            return "0"
        c = p[axes[0]]
        return arms[axes[0]][c > 0][abs(c) - 1] + scale

    return weight


def corners(value):
    """A 3x3 plane of `value` at its corners, zero elsewhere."""
    return [[value, "0", value], ["0", "0", "0"], [value, "0", value]]


def ebisu_stencils():
    """(name, dims, radius, shape, EBISU's file, weight(offset), note) of each
    stencil. Rows are the outer index (EBISU's y, z in 3D) and the signs of
    the star arms are those of its CPU references (*_gold.cpp)."""
    arms2d = [(["5", "7"], ["5", "7"]), (["12", "9"], ["12", "9"])]
    box25 = [["1", "2", "3", "4", "5"], ["7", "7", "5", "7", "6"], ["8", "12", "15", "12", "12"],
             ["9", "9", "5", "7", "15"], ["10", "11", "12", "13", "14"]]
    box49 = [["1", "1", "2", "3", "4", "5", "5"], ["1", "1", "2", "3", "4", "5", "5"],
             ["1", "7", "7", "5", "7", "6", "5"], ["1", "8", "12", "15", "12", "12", "5"],
             ["1", "9", "9", "5", "7", "15", "5"], ["1", "9", "9", "5", "7", "15", "5"],
             ["1", "10", "11", "12", "13", "14", "5"]]
    mid27 = [["0.51", "0.71", "0.91"], ["1.21", "1.51", "1.21"], ["0.91", "0.71", "0.51"]]
    box27 = [[["0.5", "0.7", "0.9"], ["1.2", "1.5", "1.2"], ["0.9", "0.7", "0.5"]], mid27,
             [["0.52", "0.72", "0.92"], ["1.22", "1.52", "1.22"], ["0.92", "0.72", "0.52"]]]
    edge, face = "-0.0833", "-0.166"
    poisson_outer = [["0", edge, "0"], [edge, face, edge], ["0", edge, "0"]]
    poisson = [poisson_outer, [[edge, face, edge], [face, "2.666", face], [edge, face, edge]],
               poisson_outer]
    traditional = "2dstencil/jacobi-temporal-traditional.cu"
    return [
        ("2d5pt", 2, 1, "star", traditional + ", the first weight of each arm",
         star("15", [([m[0]], [p[0]]) for m, p in arms2d], " / 118"), ""),
        ("2ds9pt", 2, 2, "star", traditional, star("15", arms2d, " / 118"), ""),
        ("2d9pt", 2, 1, "box", "2dstencil/2d9pt/config.cuh",
         dense([["7", "5", "9"], ["12", "15", "12"], ["9", "5", "7"]], " / 118"), ""),
        ("2d25pt", 2, 2, "box", "2dstencil/2d25pt/config.cuh", dense(box25, " / 118"), ""),
        ("2d49pt", 2, 3, "box", "2dstencil/2d49pt/config.cuh", dense(box49, " / 118"), ""),
        ("3d7pt", 3, 1, "star", "3dstencil/3d7pt/config.cuh",
         star("-1.67", [(["0.166"], ["0.165"]), (["0.164"], ["0.163"]),
                        (["0.162"], ["0.161"])]), FLOAT_NOTE),
        ("3d13pt", 3, 2, "star", "3dstencil/3d13pt/config.cuh",
         star("-0.996", [(["0.083"] * 2, ["0.083"] * 2)] * 3), FLOAT_NOTE),
        ("3d17pt", 3, 1, "box", "3dstencil/3d17pt/config.cuh",
         dense([corners("0.50"), mid27, corners("0.52")], " / 159"), ""),
        ("3d27pt", 3, 1, "box", "3dstencil/3d27pt/config.cuh", dense(box27, " / 159"), ""),
        ("poisson", 3, 1, "box", "3dstencil/poisson/config.cuh", dense(poisson), FLOAT_NOTE),
    ]


# Stencils of their own for the low-rank form (issue 35): sums of few
# separable terms, where 1D passes take fewer operations than one
# multiply-add a tap. Not suite kinds: bench/summarize.py leaves them out
# of the backend table, whose rows are the suite's own weights.
LOW_RANK_NOTE = "a low-rank example"


def low_rank_stencils():
    """(name, dims, radius, weight(offset), precisions, what, structure) of
    each example."""
    binomial = ["1", "4", "6", "4", "1"]
    by_distance = ["-128", "14", "3", "1"]  # the 27-point Laplacian's classes
    # u + nu * lap27(u) with nu = 30 / 256: the centre 1 - 128 / 256, every
    # weight positive and their sum 1, so steps stay bounded (the bare
    # Laplacian's sum is 0: its steps grow, and a 1 x 1 x 1 result is 0
    # up to rounding, which no relative error can judge).
    heat_by_distance = ["128", "14", "3", "1"]
    return [
        ("blur7x7", 2, 3, lambda p: "1 / 49", ["fp64", "fp32"], "a uniform 7 x 7 blur",
         "rank 1"),
        ("gauss5x5", 2, 2, lambda p: f"{int(binomial[p[0] + 2]) * int(binomial[p[1] + 2])} / 256",
         ["fp64", "fp32"], "a 5 x 5 Gaussian blur, (1, 4, 6, 4, 1) times itself over 256",
         "rank 1"),
        ("lap27", 3, 1, lambda p: f"{by_distance[sum(abs(c) for c in p)]} / 30",
         ["fp64", "fp32"],
         "the 27-point Laplacian, its weights by distance class (-128, 14, 3, 1) over 30",
         "unfolding along i of rank 2"),
        ("heat27", 3, 1, lambda p: f"{heat_by_distance[sum(abs(c) for c in p)]} / 256",
         ["fp64", "fp32"],
         "a heat step on the 27-point Laplacian, u + (30 / 256) lap27(u): its weights by "
         "distance class (128, 14, 3, 1) over 256",
         "unfolding along i of rank 2"),
    ]


def write(here, name, prec, header, weights):
    body = header + ["", f"stencil {name}_{prec} {{", f"  precision {prec};",
                     "  boundary fixed;", f"  weights {weights};", "}", ""]
    with open(os.path.join(here, f"{name}_{prec}.stencil"), "w", encoding="utf-8") as f:
        f.write("\n".join(body))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for name, dims, radius, shape in FAMILIES:
        for prec in PRECISIONS:
            header = [f"// {name}_{prec}.stencil: benchmark suite, {shape} of radius {radius} in {dims}D.",
                      "// Written by make_suite.py."]
            write(here, name, prec, header, table(dims, radius, shape))
    for shape_name, dims, radius, shape, source, weight, note in ebisu_stencils():
        name = f"ebisu_{shape_name}"
        for prec in EBISU_PRECISIONS:
            header = [f"// {name}_{prec}.stencil: benchmark suite, {shape} of radius {radius} in {dims}D:",
                      f"// EBISU's {shape_name}, its coefficients from {EBISU_SOURCE},",
                      f"// {source}."]
            header += [f"// {note}"] if note else []
            header += ["// Written by make_suite.py."]
            write(here, name, prec, header, weights_text(dims, radius, weight))
    for name, dims, radius, weight, precisions, what, structure in low_rank_stencils():
        for prec in precisions:
            header = [f"// {name}_{prec}.stencil: {LOW_RANK_NOTE}, {what}",
                      f"// (a box of radius {radius} in {dims}D, {structure}). Written by "
                      "make_suite.py."]
            write(here, name, prec, header, weights_text(dims, radius, weight))


if __name__ == "__main__":
    main()
