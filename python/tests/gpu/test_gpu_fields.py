"""A stencil of fields on the GPU, in CuPy and PyTorch: the wave equation
of docs/language.md with its fields and parameter passed by name, step
against a float64 NumPy reference, and run with time levels (1 and 37
steps) leaving the newest level in u and the one before in u_prev, as the
C API does; the pointers unchanged.

Per-step parameters and receivers (stencils.PER_STEP): run() with a source
amplitude a step, in NumPy, in the framework's device memory or (PyTorch)
in a CPU tensor, is bit for bit as many step() calls with each step's value
and near the float64 reference; its records are bit for bit those step()
calls' values at the receivers, and its fields those of run() without
receivers; a receiver on the fixed ring records NaN; the 3D stencil of
`in` with a per-step diffusion number records (z, y, x) points."""

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


PER_STEP_STEPS = 13  # two fused passes of 6 steps and one more (wave2d_rec fuses 6)
# Receivers of wave2d_rec: the corners inside the fixed ring, a point of the
# first written row, the centre, and the centre again (a receiver may repeat).
POINTS = [(1, 1), (1, SHAPE[1] - 2), (SHAPE[0] - 2, 1), (SHAPE[0] - 2, SHAPE[1] - 2), (1, 17),
          (18, 65), (18, 65)]


@pytest.fixture(scope="module")
def per_step():
    import stencilc

    return stencilc.compile(stencils.PER_STEP)


def wave_source_fields(framework, seed):
    """Device fields of wave2d_src/_rec with a ring of zeros (so that every
    buffer's ring is u's, as run() makes scratch's) and their float64 values
    as rounded to fp32; one source point at the centre."""
    rng = np.random.default_rng(seed)
    host = {n: np.pad(rng.random((SHAPE[0] - 2, SHAPE[1] - 2)), 1) for n in ("u", "u_prev")}
    host["c2"] = 0.5 + 0.5 * rng.random(SHAPE)
    host["src"] = np.zeros(SHAPE)
    host["src"][18, 65] = 1.0
    host["scratch"] = np.zeros(SHAPE)
    dev = {n: frameworks.to_device(framework, v, "float32") for n, v in host.items()}
    return dev, {n: frameworks.to_host(v) for n, v in dev.items()}


def wave_by_steps(wave, dev, framework, amp, points):
    """(u, u_prev) after len(amp) step() calls, each with its step's value,
    rotating the levels as run() does, and u at `points` after each step
    (float64 NumPy)."""
    current, previous = frameworks.copy(dev["u"]), frameworks.copy(dev["u_prev"])
    following = frameworks.to_device(framework, np.zeros(SHAPE), "float32")
    seen = []
    for value in amp:
        wave.step(current, previous, dev["src"], following, c2=dev["c2"], dt=DT, amp=float(value))
        previous, current, following = current, following, previous
        seen.append(frameworks.to_host(current)[tuple(np.array(points).T)])
    return frameworks.to_host(current), frameworks.to_host(previous), np.array(seen)


def skip_without(framework):
    if framework == "none":
        pytest.skip("GPU test skipped: neither CuPy nor PyTorch with CUDA is installed")


WHERE = [(f, w) for f in frameworks.available() or ["none"]
         for w in ("numpy", "device", *(("torch-cpu",) if f == "torch" else ()))]


@pytest.mark.parametrize("framework,where", WHERE)
def test_per_step_amplitude(per_step, framework, where):
    skip_without(framework)
    wave = per_step.wave2d_src
    dev, host = wave_source_fields(framework, 1)
    amp = np.random.default_rng(2).uniform(-1.0, 1.0, PER_STEP_STEPS)
    u, u_prev = wave_by_steps(wave, dev, framework, amp, POINTS)[:2]
    values = frameworks.per_step_values(framework, amp, where)
    result = wave.run(dev["u"], dev["u_prev"], dev["src"], dev["scratch"], PER_STEP_STEPS,
                      c2=dev["c2"], dt=DT, amp=values)
    assert result is dev["u"]
    assert np.array_equal(frameworks.to_host(dev["u"]), u)
    assert np.array_equal(frameworks.to_host(dev["u_prev"]), u_prev)
    previous, current = host["u_prev"], host["u"]
    for value in amp:
        previous, current = current, stencils.reference_wave_source(
            current, previous, host["src"], host["c2"], current, DT, value)
    assert relative(frameworks.to_host(dev["u"]), current) < 1e-5 * PER_STEP_STEPS


@pytest.mark.parametrize("framework", frameworks.available() or ["none"])
def test_receivers(per_step, framework):
    skip_without(framework)
    wave = per_step.wave2d_rec
    dev, _ = wave_source_fields(framework, 3)
    plain = {n: frameworks.copy(v) for n, v in dev.items()}
    amp = np.random.default_rng(4).uniform(-1.0, 1.0, PER_STEP_STEPS)
    u, u_prev, seen = wave_by_steps(wave, dev, framework, amp, POINTS)
    receivers = frameworks.to_device(framework, np.array(POINTS), "int32")
    records = frameworks.to_device(framework, np.full((PER_STEP_STEPS, len(POINTS)), -1.0),
                                   "float32")
    wave.run(dev["u"], dev["u_prev"], dev["src"], dev["scratch"], PER_STEP_STEPS, c2=dev["c2"],
             dt=DT, amp=amp, receivers=receivers, records=records)
    assert np.array_equal(frameworks.to_host(records), seen)
    assert np.array_equal(frameworks.to_host(dev["u"]), u)
    assert np.array_equal(frameworks.to_host(dev["u_prev"]), u_prev)
    # Without receivers: the same fields.
    wave.run(plain["u"], plain["u_prev"], plain["src"], plain["scratch"], PER_STEP_STEPS,
             c2=plain["c2"], dt=DT, amp=amp)
    assert np.array_equal(frameworks.to_host(plain["u"]), u)


@pytest.mark.parametrize("framework", frameworks.available() or ["none"])
def test_a_receiver_on_the_fixed_ring_records_nan(per_step, framework):
    """In device memory the points are not read by the host: a point the
    step never writes records NaN (the C API's rule), the others their
    values."""
    skip_without(framework)
    wave = per_step.wave2d_rec
    dev, _ = wave_source_fields(framework, 5)
    receivers = frameworks.to_device(framework, np.array([(0, 0), (18, 65)]), "int32")
    records = frameworks.to_device(framework, np.zeros((3, 2)), "float32")
    wave.run(dev["u"], dev["u_prev"], dev["src"], dev["scratch"], 3, c2=dev["c2"], dt=DT,
             amp=np.ones(3), receivers=receivers, records=records)
    got = frameworks.to_host(records)
    assert np.isnan(got[:, 0]).all() and np.isfinite(got[:, 1]).all()


@pytest.mark.parametrize("framework", frameworks.available() or ["none"])
def test_receivers_in_3d_of_in(per_step, framework):
    """heat3d_rec (fp64, periodic, `record in;`, nu per step): records at
    (z, y, x) points, the grid's first and last among them, bit for bit
    those of step() calls; the field near the float64 reference."""
    skip_without(framework)
    heat = per_step.heat3d_rec
    shape, steps = (9, 10, 33), 4
    rng = np.random.default_rng(6)
    start = rng.random(shape)
    nu = rng.uniform(0.05, 0.15, steps)
    points = [(0, 0, 0), (8, 9, 32), (4, 5, 6)]
    x = frameworks.to_device(framework, start, "float64")
    out = frameworks.to_device(framework, np.zeros(shape), "float64")
    seen = []
    for value in nu:
        heat.step(x, out, nu=value)
        x, out = out, x
        seen.append(frameworks.to_host(x)[tuple(np.array(points).T)])
    a = frameworks.to_device(framework, start, "float64")
    scratch = frameworks.to_device(framework, np.zeros(shape), "float64")
    records = frameworks.to_device(framework, np.zeros((steps, 3)), "float64")
    receivers = frameworks.to_device(framework, np.array(points), "int32")
    assert heat.run(a, scratch, steps, nu=frameworks.per_step_values(framework, nu, "device"),
                    receivers=receivers, records=records) is a
    assert np.array_equal(frameworks.to_host(records), np.array(seen))
    assert np.array_equal(frameworks.to_host(a), frameworks.to_host(x))
    want = start
    for value in nu:
        want = stencils.reference_heat3d(want, value)
    assert relative(frameworks.to_host(a), want) < 1e-12


@pytest.mark.parametrize("framework", frameworks.available() or ["none"])
def test_point_sources(framework):
    """wave2d_pt (`source u;`, recording u): run() with two sources at one
    point and one at another, amplitudes in device memory, bit for bit
    step() calls with the amplitudes added as the kernels add them (each
    rounded to float32, added in float32, in the list's order), its records
    those values after each step."""
    skip_without(framework)
    import stencilc

    wave = stencilc.compile(stencils.WAVE_POINT).wave2d_pt
    dev, _ = wave_source_fields(framework, 7)
    sources = [(18, 65), (1, 1), (18, 65)]
    amp = np.random.default_rng(8).uniform(-1.0, 1.0, (PER_STEP_STEPS, len(sources)))
    current, previous = frameworks.copy(dev["u"]), frameworks.copy(dev["u_prev"])
    following = frameworks.to_device(framework, np.zeros(SHAPE), "float32")
    seen = []
    for row in amp:
        wave.step(current, previous, following, c2=dev["c2"], dt=DT)
        level = frameworks.to_host(following).astype(np.float32)
        for (y, x), a in zip(sources, row):
            level[y, x] = np.float32(level[y, x] + np.float32(a))
        following = frameworks.to_device(framework, level, "float32")
        previous, current = current, following
        following = frameworks.to_device(framework, np.zeros(SHAPE), "float32")
        seen.append(level[tuple(np.array(POINTS).T)])
    points = frameworks.to_device(framework, np.array(sources), "int32")
    amplitudes = frameworks.to_device(framework, amp, "float64")
    receivers = frameworks.to_device(framework, np.array(POINTS), "int32")
    records = frameworks.to_device(framework, np.zeros((PER_STEP_STEPS, len(POINTS))), "float32")
    wave.run(dev["u"], dev["u_prev"], dev["scratch"], PER_STEP_STEPS, c2=dev["c2"], dt=DT,
             sources=points, amplitudes=amplitudes, receivers=receivers, records=records)
    assert np.array_equal(frameworks.to_host(dev["u"]), frameworks.to_host(current))
    assert np.array_equal(frameworks.to_host(dev["u_prev"]), frameworks.to_host(previous))
    assert np.array_equal(frameworks.to_host(records), np.array(seen))
