"""The stencils the Python tests compile, and a float64 NumPy reference."""

import itertools

import numpy as np

PRECISIONS = ("fp16", "bf16", "tf32", "fp32", "fp64")
DTYPES = {"fp16": "float16", "bf16": "bfloat16", "tf32": "float32", "fp32": "float32",
          "fp64": "float64"}
# One-step relative L2 tolerance against float64 (docs/generated-code.md).
TOLERANCE = {"fp16": 5e-3, "bf16": 3e-2, "tf32": 5e-3, "fp32": 2e-6, "fp64": 1e-12}
CONSTANT = 0.25
BOUNDARIES = ("fixed", f"constant {CONSTANT}", "periodic", "clamp", "mirror")
INDICES = {1: ("i",), 2: ("j", "i"), 3: ("k", "j", "i")}

# Convex stars of radius 1: offset (index order) -> coefficient.
COEFFICIENTS = {
    1: {(-1,): 0.25, (0,): 0.5, (1,): 0.25},
    2: {(0, 0): 0.5, (-1, 0): 0.125, (1, 0): 0.125, (0, -1): 0.125, (0, 1): 0.125},
    3: {(0, 0, 0): 0.4, (-1, 0, 0): 0.1, (1, 0, 0): 0.1, (0, -1, 0): 0.1, (0, 1, 0): 0.1,
        (0, 0, -1): 0.1, (0, 0, 1): 0.1},
}


def name(precision, dims, boundary):
    return f"s{dims}d_{precision}_{boundary.split()[0]}"


def _read(dims, offset):
    parts = []
    for index, d in zip(INDICES[dims], offset):
        parts.append(index if d == 0 else f"{index}{d:+d}")
    return f"in[{', '.join(parts)}]"


def source(precision, dims, boundaries=BOUNDARIES):
    """A .stencil text with one stencil per boundary."""
    out = f"out[{', '.join(INDICES[dims])}]"
    terms = " + ".join(f"{c!r} * {_read(dims, o)}" for o, c in COEFFICIENTS[dims].items())
    return "\n".join(
        f"stencil {name(precision, dims, b)} {{\n  precision {precision};\n  boundary {b};\n"
        f"  {out} = {terms};\n}}\n" for b in boundaries)


# The acoustic wave equation of docs/language.md: a stencil of fields with a
# coefficient field, a parameter and time levels.
WAVE = """
stencil wave2d {
  precision fp32;
  boundary fixed;
  field u, u_prev;
  coefficient c2;
  param dt;
  time u_prev, u;
  out[i, j] = 2 * u[i, j] - u_prev[i, j]
            + dt * dt * c2[i, j] * (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j]);
}
"""

# A 1D stencil of its one field `in` with a parameter (a stencil of fields
# by its param; `in` is a Python keyword).
DECAY = """
stencil decay1d {
  precision fp64;
  boundary periodic;
  param rate;
  out[i] = rate * in[i] + 0.25 * (in[i-1] + in[i+1]);
}
"""

# Per-step parameters and receivers (docs/language.md, `param NAME per step;`
# and `record NAME;`): the wave equation with a source term whose amplitude
# `amp` has a value a step, without receivers (wave2d_src) and recording u
# (wave2d_rec), and a 3D stencil of `in` whose diffusion number `nu` has a
# value a step, recording `in` (heat3d_rec: its run takes inp).
WAVE_SOURCE = """
stencil wave2d_src {
  precision fp32;
  boundary fixed;
  field u, u_prev, src;
  coefficient c2;
  param dt;
  param amp per step;
  time u_prev, u;
  out[i, j] = 2 * u[i, j] - u_prev[i, j] + amp * src[i, j]
            + dt * dt * c2[i, j] * (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j]);
}
"""
WAVE_RECORD = WAVE_SOURCE.replace("wave2d_src", "wave2d_rec").replace(
    "time u_prev, u;", "time u_prev, u;\n  record u;")
HEAT_RECORD = """
stencil heat3d_rec {
  precision fp64;
  boundary periodic;
  param nu per step;
  record in;
  out[k, j, i] = in[k, j, i] + nu * (in[k-1, j, i] + in[k+1, j, i] + in[k, j-1, i]
    + in[k, j+1, i] + in[k, j, i-1] + in[k, j, i+1] - 6 * in[k, j, i]);
}
"""
PER_STEP = WAVE_SOURCE + WAVE_RECORD + HEAT_RECORD

# Point sources (docs/language.md, `source NAME;`): the wave equation whose
# source is a list of points with an amplitude a step each, recording u.
WAVE_POINT = """
stencil wave2d_pt {
  precision fp32;
  boundary fixed;
  field u, u_prev;
  coefficient c2;
  param dt;
  time u_prev, u;
  source u;
  record u;
  out[i, j] = 2 * u[i, j] - u_prev[i, j]
            + dt * dt * c2[i, j] * (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j]);
}
"""


def reference_wave_source(u, u_prev, src, c2, out, dt, amp):
    """One float64 step of wave2d_src: `out` with its inner points updated."""
    new = np.array(out, dtype=np.float64, copy=True)
    inner = (slice(1, -1), slice(1, -1))
    lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[inner]
    new[inner] = 2 * u[inner] - u_prev[inner] + amp * src[inner] + dt * dt * c2[inner] * lap
    return new


def reference_heat3d(x, nu):
    """One float64 step of heat3d_rec (periodic)."""
    lap = sum(np.roll(x, shift, axis) for axis in range(3) for shift in (1, -1)) - 6 * x
    return x + nu * lap


_PAD = {"constant": "constant", "periodic": "wrap", "clamp": "edge", "mirror": "symmetric"}


def reference_step(x, out, dims, boundary):
    """One float64 step of the star of `dims` on x; `out` gives the ring
    a fixed boundary keeps."""
    kind = boundary.split()[0]
    if kind == "fixed":
        padded = x
    elif kind == "constant":
        padded = np.pad(x, 1, mode="constant", constant_values=CONSTANT)
    else:
        padded = np.pad(x, 1, mode=_PAD[kind])
    inner = tuple(n - 2 for n in padded.shape)
    result = np.zeros(inner)
    for offset, c in COEFFICIENTS[dims].items():
        window = tuple(slice(1 + d, 1 + d + n) for d, n in zip(offset, inner))
        result += c * padded[window]
    if kind != "fixed":
        return result
    full = np.array(out, dtype=np.float64, copy=True)
    full[(slice(1, -1),) * dims] = result
    return full


def reference_run(a, b, dims, boundary, steps):
    """`steps` float64 steps; a fixed ring stays that of `a`."""
    x = np.array(a, dtype=np.float64)
    for _ in range(steps):
        x = reference_step(x, x, dims, boundary)
    return x


def relative_l2(got, want):
    got = np.asarray(got, dtype=np.float64)
    return float(np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-300))


def cases():
    return list(itertools.product(PRECISIONS, (1, 2, 3), BOUNDARIES))
