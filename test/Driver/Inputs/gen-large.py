#!/usr/bin/env python3
"""Writes the large inputs of the resource-limit tests to stdout.

Usage: gen-large.py KIND. Each kind is described beside its function; the
tests that use them say what they check.
"""
import sys

STAR = ("out[i, j] = 0.25*in[i-1, j] + 0.25*in[i+1, j]"
        " + 0.25*in[i, j-1] + 0.25*in[i, j+1];")


def huge_file():
    """About 33 MB: 10,000 stencils, each after a 3,200-byte comment line."""
    comment = "// " + "x" * 3200 + "\n"
    return "".join(f"{comment}stencil s{k} {{ {STAR} }}\n" for k in range(10000))


def huge_file_error():
    """huge_file, then a non-linear stencil on line 20001 ('*' at column 33)."""
    return huge_file() + "stencil last { out[i] = in[i+1] * in[i-1]; }\n"


def one_line():
    """About 1.2 MB on one line: 10,000 stencils, then a stencil whose last
    number is at a column the test checks."""
    body = " ".join(f"stencil s{k} {{ {STAR} }}" for k in range(10000))
    return body + " stencil last { out[i] = in[i+1] * 7; }\n"


def one_line_error():
    """one_line with the last stencil reading 'out'."""
    return one_line().replace("in[i+1] * 7", "out[i+1] * 7")


def long_sum():
    """A 'let' that sums a million ones, then a stencil that uses it."""
    return ("stencil s { let a = 1" + " + 1" * 999999 + ";\n"
            "  out[i] = a * in[i+1]; }\n")


def long_product():
    """A radius declared as a product of a million ones."""
    return ("stencil s { radius 1" + " * 1" * 1000000 + ";\n"
            "  out[i] = in[i-1] + in[i+1]; }\n")


def long_read_sum():
    """An update that adds 300,000 reads of the same point."""
    return "stencil s { out[i] = " + " + ".join(["in[i+1]"] * 300000) + "; }\n"


def scaled_sum():
    """A sum of all 9,261 reads of a 3D box of radius 10, times 0.5 and a
    chain of 10,000 factors of 1: each factor scales every coefficient."""
    r = range(-10, 11)
    reads = " + ".join(f"in[i+{z}, j+{y}, k+{x}]" for z in r for y in r for x in r)
    return ("stencil scaled { precision fp64;\n  out[i, j, k] = (" + reads + ") * 0.5"
            + " * 1" * 10000 + ";\n}\n")


def scaled_sum_small():
    """The same sum times a chain of 1,000 factors: within the limit."""
    r = range(-10, 11)
    reads = " + ".join(f"in[i+{z}, j+{y}, k+{x}]" for z in r for y in r for x in r)
    return ("stencil scaled { precision fp64;\n  out[i, j, k] = (" + reads + ") * 0.5"
            + " * 1" * 1000 + ";\n}\n")


def huge_radius():
    """A radius of 1000 asked for in four ways."""
    ones = ", ".join(["1"] * 2001)
    rows = ", ".join(["[1]"] * 2001)
    return (
        "stencil declared { radius 1000; out[i] = in[i-1] + in[i+1]; }\n"
        "stencil offset { out[i] = in[i+1000] + in[i]; }\n"
        f"stencil table1d {{ weights [{ones}]; }}\n"
        f"stencil table2d {{ weights [{rows}]; }}\n")


def largest_box():
    """The largest stencil the language allows: a 3D box of radius 32, as a
    65x65x65 table of ones."""
    width = 65

    def table(depth):
        if depth == 0:
            return "1"
        return "[" + ", ".join(table(depth - 1) for _ in range(width)) + "]"
    return f"stencil box3d65 {{ precision fp64; weights {table(3)}; }}\n"


KINDS = {name.replace("_", "-"): fn for name, fn in list(globals().items())
         if callable(fn) and fn.__doc__ and name != "main"}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in KINDS:
        sys.exit("usage: gen-large.py " + "|".join(sorted(KINDS)))
    sys.stdout.write(KINDS[sys.argv[1]]())
