"""Point sources without a GPU: run() of a stencil with `source u;` takes
the source points and their amplitudes (steps x points, float64) by name,
both or neither, before the receivers; each refusal a TypeError or
ValueError naming the argument, before anything is launched (stand-ins for
device arrays, tests/fakes.py)."""

import inspect

import numpy as np
import pytest

import stencils
import support

from support import PASSED, device, expect

SHAPE = (16, 32)
STEPS = 5


@pytest.fixture(scope="module")
def module():
    return support.compile_or_skip(stencils.WAVE_POINT, arch="sm_90")


def fields():
    return {n: device(SHAPE, slot=i) for i, n in enumerate(("u", "u_prev", "c2", "scratch"))}


def sources(count=2, slot=5, dtype="int32"):
    return device((count, 2), dtype, slot)


def amplitudes(count=2, steps=STEPS, slot=6, dtype="float64"):
    return device((steps, count), dtype, slot)


def test_info_and_signature(module):
    wave = module.wave2d_pt
    assert wave.info.point_lists == ("sources", "receivers")
    assert str(inspect.signature(wave.run)) == (
        "(u, u_prev, scratch, steps, *, c2, dt, sources=None, amplitudes=None, receivers=None, "
        "records=None, stream=None)")


def test_sources_and_amplitudes_are_taken(module):
    run = module.wave2d_pt.run
    for given in ({"sources": sources(), "amplitudes": amplitudes()}, {}):
        expect(TypeError, PASSED, run, **fields(), steps=STEPS, dt=0.1, **given, stream="x")


@pytest.mark.parametrize("points,values,kind,text", [
    (sources(), None, TypeError, "sources: given without amplitudes"),
    (sources(dtype="int64"), amplitudes(), TypeError, "sources: got an int64 array"),
    (sources(), amplitudes(dtype="float32"), TypeError, "amplitudes: got a float32 array"),
    (sources(), amplitudes(steps=STEPS - 1), ValueError, "amplitudes: got shape (4, 2)"),
    (sources(), amplitudes(count=3), ValueError, "amplitudes: got shape (5, 3)"),
    (sources(), np.zeros((STEPS, 2)), TypeError, "amplitudes: got an array on the cpu"),
], ids=["alone", "int64", "float32", "fewer-steps", "more-points", "host"])
def test_sources_and_amplitudes_are_checked(module, points, values, kind, text):
    given = {"sources": points} if values is None else {"sources": points, "amplitudes": values}
    expect(kind, text, module.wave2d_pt.run, **fields(), steps=STEPS, dt=0.1, **given)


def test_sources_are_run_only(module):
    step_fields = {("out" if n == "scratch" else n): v for n, v in fields().items()}
    expect(TypeError, "wave2d_pt.step() got an unexpected keyword argument 'sources'",
           module.wave2d_pt.step, **step_fields, dt=0.1, sources=sources())
