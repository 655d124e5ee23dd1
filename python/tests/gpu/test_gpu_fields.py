"""A stencil of fields on the GPU, in CuPy and PyTorch: the wave equation
of docs/language.md with its fields and parameter passed by name, step
against a float64 NumPy reference, and run with time levels (1 and 37
steps) leaving the newest level in u and the one before in u_prev, as the
C API does; the pointers unchanged."""

import numpy as np
import pytest

import frameworks
import stencils

SHAPE = (37, 131)
DT = 0.3


def reference_step(u, u_prev, c2, out):
    """out with its inner points updated (float64)."""
    new = np.array(out, dtype=np.float64, copy=True)
    lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    new[1:-1, 1:-1] = 2 * u[1:-1, 1:-1] - u_prev[1:-1, 1:-1] + DT * DT * c2[1:-1, 1:-1] * lap
    return new


def relative(got, want):
    return float(np.linalg.norm(got - want) / np.linalg.norm(want))


@pytest.fixture(scope="module")
def wave():
    import stencilc

    return stencilc.compile(stencils.WAVE).wave2d


@pytest.mark.parametrize("framework", frameworks.available() or ["none"])
@pytest.mark.parametrize("steps", [1, 37])
def test_wave(wave, framework, steps):
    if framework == "none":
        pytest.skip("GPU test skipped: neither CuPy nor PyTorch with CUDA is installed")
    rng = np.random.default_rng(steps)
    host = {n: rng.random(SHAPE) for n in ("u", "u_prev", "out", "scratch")}
    host["c2"] = 0.5 + 0.5 * rng.random(SHAPE)
    dev = {n: frameworks.to_device(framework, v, "float32") for n, v in host.items()}
    host = {n: frameworks.to_host(v) for n, v in dev.items()}  # as rounded to fp32
    pointers = {n: frameworks.pointer(v) for n, v in dev.items()}

    wave.step(dev["u"], dev["u_prev"], dev["out"], c2=dev["c2"], dt=DT)
    want = reference_step(host["u"], host["u_prev"], host["c2"], host["out"])
    assert relative(frameworks.to_host(dev["out"]), want) < 1e-6

    result = wave.run(dev["u"], dev["u_prev"], dev["scratch"], steps, c2=dev["c2"], dt=DT)
    assert result is dev["u"]
    previous, current = host["u_prev"], host["u"]
    for _ in range(steps):
        previous, current = current, reference_step(current, previous, host["c2"], current)
    assert relative(frameworks.to_host(dev["u"]), current) < 1e-5 * steps
    assert relative(frameworks.to_host(dev["u_prev"]), previous) < 1e-5 * steps
    assert {n: frameworks.pointer(v) for n, v in dev.items()} == pointers
