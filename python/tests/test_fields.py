"""A stencil of fields: its fields and parameters as arguments by name
(input fields and out/scratch by position too, coefficient fields and
parameters by keyword), `.info` listing them, and every argument error
naming the argument, with stand-ins for device arrays (tests/fakes.py)."""

import re

import pytest

import fakes
import stencils
import support

WAVE = stencils.WAVE + stencils.DECAY
BASE = 0x7F0000000000
SHAPE = (16, 32)


@pytest.fixture(scope="module")
def module():
    return support.compile_or_skip(WAVE, arch="sm_90")


def arrays(*names, shape=SHAPE, dtype="float32", **kwargs):
    """Separate fake device arrays, one per name."""
    return {n: fakes.DLPackArray(shape, dtype, ptr=BASE + (i << 30), **kwargs)
            for i, n in enumerate(names)}


def expect(kind, text, call, *args, **kwargs):
    with pytest.raises(kind, match=re.escape(text)):
        call(*args, **kwargs)


PASSED = "stream: got str"  # every check passed; the stream is the last thing read


def test_info_lists_fields_and_params(module):
    info = module.wave2d.info
    assert info.fields == ("u", "u_prev", "c2") and info.coefficient_fields == ("c2",)
    assert info.params == ("dt",) and info.time == ("u_prev", "u") and info.stepped == "u"
    assert "params=('dt',)" in repr(info)
    info = module.decay1d.info
    assert (info.fields, info.params, info.time, info.stepped) == (("in",), ("rate",), None, "in")


def test_step_by_position_and_by_name(module):
    a = arrays("u", "u_prev", "c2", "out")
    expect(TypeError, PASSED, module.wave2d.step, a["u"], a["u_prev"], a["out"], c2=a["c2"],
           dt=0.1, stream="x")
    expect(TypeError, PASSED, module.wave2d.step, **a, dt=1, stream="x")
    b = arrays("in", "scratch", dtype="float64", shape=(64,))
    expect(TypeError, PASSED, module.decay1d.run, b["in"], b["scratch"], 5, rate=0.5, stream="x")


def test_binding_errors(module):
    a = arrays("u", "u_prev", "c2", "out")
    step = module.wave2d.step
    expect(TypeError, "wave2d.step() takes 3 positional arguments (u, u_prev, out) but 4 were "
           "given; c2, dt are keyword-only", step, a["u"], a["u_prev"], a["c2"], a["out"], dt=1)
    expect(TypeError, "wave2d.step() missing argument 'dt' (it takes u, u_prev, out, c2, dt)",
           step, **a)
    expect(TypeError, "wave2d.step() missing arguments 'c2', 'dt'", step, a["u"], a["u_prev"],
           a["out"])
    expect(TypeError, "wave2d.step() got an unexpected keyword argument 'dx'", step, **a, dt=1,
           dx=2)
    expect(TypeError, "wave2d.step() got multiple values for argument 'u'", step, a["u"],
           a["u_prev"], a["out"], u=a["u"], c2=a["c2"], dt=1)


@pytest.mark.parametrize("value,text", [("0.1", "dt: got str '0.1'; needs a real number "
                                                "(parameter 'dt' of stencil 'wave2d')"),
                                        (True, "dt: got bool True; needs a real number")])
def test_parameter_type(module, value, text):
    expect(TypeError, text, module.wave2d.step, **arrays("u", "u_prev", "c2", "out"), dt=value)


def test_field_dtype_shape_and_device(module):
    a = arrays("u", "u_prev", "out")
    c2 = fakes.DLPackArray(SHAPE, "float64", ptr=BASE + (7 << 30))
    expect(TypeError, "c2: got a float64 array; stencil 'wave2d' needs float32",
           module.wave2d.step, **a, c2=c2, dt=1)
    c2 = fakes.DLPackArray((16, 33), ptr=BASE + (7 << 30))
    expect(ValueError, "c2: got shape (16, 33); needs the shape of u, (16, 32)",
           module.wave2d.step, **a, c2=c2, dt=1)
    c2 = fakes.DLPackArray(SHAPE, ptr=BASE + (7 << 30), device=(fakes.CUDA, 1))
    expect(ValueError, "c2: got an array on cuda:1; needs the device of u, cuda:0",
           module.wave2d.step, **a, c2=c2, dt=1)


def test_written_buffers_do_not_overlap(module):
    a = arrays("u", "u_prev", "c2")
    out = fakes.DLPackArray(SHAPE, ptr=BASE + (2 << 30) + 64)  # inside c2
    expect(ValueError, "out: overlaps c2", module.wave2d.step, **a, out=out, dt=1)
    # step reads its fields only: two of them may share memory
    out = fakes.DLPackArray(SHAPE, ptr=BASE + (6 << 30))
    expect(TypeError, PASSED, module.wave2d.step, a["u"], a["u"], out, c2=a["c2"], dt=1,
           stream="x")
    # run writes u, u_prev (the time levels) and scratch
    scratch = fakes.DLPackArray(SHAPE, ptr=BASE + (5 << 30))
    expect(ValueError, "u: overlaps c2", module.wave2d.run, a["u"], a["u_prev"], scratch, 3,
           c2=a["u"], dt=1)
    expect(ValueError, "u_prev: overlaps scratch", module.wave2d.run, a["u"], a["u_prev"],
           a["u_prev"], 3, c2=a["c2"], dt=1)
    expect(TypeError, PASSED, module.wave2d.run, a["u"], a["u_prev"], scratch, 3, c2=a["c2"],
           dt=1, stream="x")


def test_run_steps(module):
    a = arrays("u", "u_prev", "c2", "scratch")
    expect(ValueError, "steps: got -1; needs 0 <= steps < 2^31", module.wave2d.run, **a,
           steps=-1, dt=1)
    expect(TypeError, "steps: got float 2.0; needs an int", module.wave2d.run, **a, steps=2.0,
           dt=1)


