"""Each public method of a stencil has one signature, and inspect.signature
tells it: what the signature binds the method takes, and what it refuses
the method refuses (with stand-ins for device arrays, tests/fakes.py)."""

import inspect
import re

import numpy as np
import pytest

import fakes
import stencils
import support

import stencilc

PLAIN = """stencil heat2d {
  precision fp32;
  boundary fixed;
  out[j, i] = 0.5 * in[j, i] + 0.125 * (in[j-1, i] + in[j+1, i] + in[j, i-1] + in[j, i+1]);
}
"""
SHAPES = {"heat2d": ((16, 32), "float32"), "wave2d": ((16, 32), "float32"),
          "decay1d": ((64,), "float64"), "wave2d_rec": ((16, 32), "float32")}
BASE = 0x7F0000000000
PASSED = "stream: got str"  # every check passed; the stream is the last thing read
METHODS = [(s, m) for s in SHAPES for m in ("step", "run")]


@pytest.fixture(scope="module")
def module():
    return support.compile_or_skip(PLAIN + stencils.WAVE + stencils.DECAY + stencils.WAVE_RECORD,
                                   arch="sm_90")


def full_call(stencil, signature):
    """(args, kwargs) giving every parameter: the positional ones by
    position, the keyword-only ones by name, each array a separate
    stand-in, and stream last: a str, which only the last check refuses.
    run() takes a per-step parameter as a NumPy array of 3 values, and two
    receivers, recorded at each of 3 steps."""
    shape, dtype = SHAPES[stencil.info.name]
    params = set(stencil.info.params)  # rate, dt: names Python takes as they are
    per_step = set(stencil.info.per_step) if signature.parameters.get("steps") else set()
    lists = {"receivers": ((2, len(shape)), "int32"), "records": ((3, 2), dtype)}
    args, kwargs = [], {}
    for i, (name, p) in enumerate(signature.parameters.items()):
        if name == "stream":
            value = "x"
        elif name == "steps":
            value = 3
        elif name in per_step:
            value = np.full(3, 0.5)
        elif name in params:
            value = 0.5
        elif name in lists:
            value = fakes.DLPackArray(*lists[name], ptr=BASE + (i << 30))
        else:
            value = fakes.DLPackArray(shape, dtype, ptr=BASE + (i << 30))
        if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:
            args.append(value)
        else:
            kwargs[name] = value
    return args, kwargs


def outcome(method, args, kwargs):
    """"passed" where every check passed, else the TypeError's text."""
    try:
        method(*args, **kwargs)
    except TypeError as e:
        return "passed" if str(e).startswith(PASSED) else str(e)
    raise AssertionError("the call got past the stream")


def parameters(method):
    """inspect.signature(method) without its annotations, as text."""
    signature = inspect.signature(method)
    empty = inspect.Parameter.empty
    return str(signature.replace(
        parameters=[p.replace(annotation=empty) for p in signature.parameters.values()],
        return_annotation=empty))


def test_the_signatures_say_the_arguments(module):
    assert parameters(module.heat2d.step) == "(inp, out, *, stream=None)"
    assert parameters(module.heat2d.run) == "(a, b, steps, *, stream=None)"
    assert parameters(module.wave2d.step) == "(u, u_prev, out, *, c2, dt, stream=None)"
    assert parameters(module.wave2d.run) == "(u, u_prev, scratch, steps, *, c2, dt, stream=None)"
    # `in` is no Python name: the one input is `inp`, as in heat2d.step.
    assert parameters(module.decay1d.step) == "(inp, out, *, rate, stream=None)"


def test_every_stencil_is_a_stencil(module):
    assert isinstance(module.heat2d, stencilc.PlainStencil)
    assert isinstance(module.wave2d, stencilc.FieldsStencil)
    assert all(isinstance(s, stencilc.Stencil) for s in module.stencils.values())


@pytest.mark.parametrize("name,what", METHODS)
def test_the_full_call_is_taken(module, name, what):
    method = getattr(module.stencils[name], what)
    signature = inspect.signature(method)
    args, kwargs = full_call(module.stencils[name], signature)
    signature.bind(*args, **kwargs)
    assert outcome(method, args, kwargs) == "passed"


@pytest.mark.parametrize("name,what", METHODS)
def test_positional_ones_are_taken_by_name(module, name, what):
    method = getattr(module.stencils[name], what)
    signature = inspect.signature(method)
    args, kwargs = full_call(module.stencils[name], signature)
    names = list(signature.parameters)
    for i in range(len(args)):  # the last i by position, the rest by name
        by_name = dict(kwargs, **dict(zip(names[i:len(args)], args[i:])))
        signature.bind(*args[:i], **by_name)
        assert outcome(method, args[:i], by_name) == "passed", names[i:len(args)]


@pytest.mark.parametrize("name,what", METHODS)
def test_each_one_left_out_is_refused(module, name, what):
    method = getattr(module.stencils[name], what)
    signature = inspect.signature(method)
    args, kwargs = full_call(module.stencils[name], signature)
    for i, name in enumerate(signature.parameters):
        if name == "stream":
            continue
        fewer_args = args[:i] if i < len(args) else args
        # Left out by position, the ones after it go by name.
        fewer_kwargs = dict(kwargs, **dict(zip(list(signature.parameters)[i + 1:len(args)],
                                               args[i + 1:])))
        fewer_kwargs.pop(name, None)
        refused = outcome(method, fewer_args, fewer_kwargs)
        if signature.parameters[name].default is None:  # receivers or records: both or neither
            assert f"given without {name}; run() takes both or neither" in refused, refused
            continue
        with pytest.raises(TypeError):
            signature.bind(*fewer_args, **fewer_kwargs)
        assert re.search(f"missing .*'{name}'", refused), (name, refused)


@pytest.mark.parametrize("name,what", METHODS)
def test_one_positional_too_many_is_refused(module, name, what):
    method = getattr(module.stencils[name], what)
    signature = inspect.signature(method)
    args, kwargs = full_call(module.stencils[name], signature)
    extra = fakes.DLPackArray(*SHAPES[name], ptr=BASE + (40 << 30))
    with pytest.raises(TypeError):
        signature.bind(*args, extra, **kwargs)
    assert "positional argument" in outcome(method, [*args, extra], kwargs)


@pytest.mark.parametrize("name,what", METHODS)
def test_an_unknown_keyword_is_refused(module, name, what):
    method = getattr(module.stencils[name], what)
    signature = inspect.signature(method)
    args, kwargs = full_call(module.stencils[name], signature)
    with pytest.raises(TypeError):
        signature.bind(*args, **kwargs, dx=1.0)
    assert "unexpected keyword argument 'dx'" in outcome(method, args, dict(kwargs, dx=1.0))
