"""Per-step parameters and receivers without a GPU: run() takes a per-step
parameter as an array of a value a step (host or device memory) and step()
as one number; run() of a stencil that records takes receivers and records
by name, both or neither. Every accepted call passes every check (a str
`stream`, the last thing read, is what it then refuses), and every refused
one is a TypeError or ValueError naming the argument, raised before
anything is launched (stand-ins for device arrays, tests/fakes.py)."""

import inspect

import numpy as np
import pytest

import fakes
import stencils
import support

import stencilc
from stencilc import _generate

from support import BASE, PASSED, device, expect

SHAPE = (16, 32)
STEPS = 5


@pytest.fixture(scope="module")
def module():
    return support.compile_or_skip(stencils.PER_STEP, arch="sm_90")


def wave_fields(scratch="scratch"):
    """The wave stencils' fields and scratch (or out), slots 0 to 4."""
    return {n: device(SHAPE, slot=i) for i, n in enumerate(("u", "u_prev", "src", "c2", scratch))}


def receivers(count=3, dims=2, slot=6, dtype="int32"):
    return device((count, dims), dtype, slot)


def records(count=3, steps=STEPS, slot=7, dtype="float32", **kwargs):
    return device((steps, count), dtype, slot, **kwargs)


def amp(steps=STEPS):
    return np.linspace(0.0, 1.0, steps)


def passes(call, *args, **kwargs):
    expect(TypeError, PASSED, call, *args, **kwargs, stream="x")


def test_info(module):
    info = module.wave2d_rec.info
    assert info.params == ("dt", "amp") and info.per_step == ("amp",)
    assert info.point_lists == ("receivers",)
    assert "per_step=('amp',), point_lists=('receivers',)" in repr(info)
    assert module.wave2d_src.info.point_lists == ()
    info = module.heat3d_rec.info
    assert (info.fields, info.per_step, info.point_lists) == (("in",), ("nu",), ("receivers",))


def test_signatures(module):
    """run takes the lists' arrays by name after the parameters, None by
    default; step is as for any stencil of fields."""
    assert str(inspect.signature(module.wave2d_rec.run)) == (
        "(u, u_prev, src, scratch, steps, *, c2, dt, amp, receivers=None, records=None, "
        "stream=None)")
    assert str(inspect.signature(module.wave2d_rec.step)) == (
        "(u, u_prev, src, out, *, c2, dt, amp, stream=None)")
    assert str(inspect.signature(module.wave2d_src.run)) == (
        "(u, u_prev, src, scratch, steps, *, c2, dt, amp, stream=None)")
    assert str(inspect.signature(module.heat3d_rec.run)) == (
        "(inp, scratch, steps, *, nu, receivers=None, records=None, stream=None)")


@pytest.mark.parametrize("values", [
    amp(),  # NumPy: host memory, read during the call
    amp(STEPS + 3),  # more values than steps: the first `steps` are read
    device((STEPS,), "float64", slot=5),  # device memory on the fields' device
    fakes.OnlyDLPack(amp()),
], ids=["numpy", "longer", "device", "dlpack"])
def test_per_step_array_is_taken(module, values):
    passes(module.wave2d_src.run, **wave_fields(), steps=STEPS, dt=0.1, amp=values)


def test_zero_steps_take_an_empty_array(module):
    passes(module.wave2d_src.run, **wave_fields(), steps=0, dt=0.1, amp=np.zeros(0))


def test_step_takes_one_value_of_a_per_step_parameter(module):
    passes(module.wave2d_src.step, **wave_fields("out"), dt=0.1, amp=0.5)
    passes(module.heat3d_rec.step, device((4, 5, 6), "float64"),
           device((4, 5, 6), "float64", slot=1), nu=1)


def test_a_number_for_a_per_step_parameter_is_refused(module):
    expect(TypeError, "amp: got float 0.5; parameter 'amp' of stencil 'wave2d_src' is per step: "
           "run() needs an array of a value a step (step() takes one step's value)",
           module.wave2d_src.run, **wave_fields(), steps=STEPS, dt=0.1, amp=0.5)
    expect(TypeError, "amp: got bool True; parameter 'amp'", module.wave2d_src.run,
           **wave_fields(), steps=STEPS, dt=0.1, amp=True)


def test_an_array_for_a_number_is_refused(module):
    expect(TypeError, "dt: got an array (ndarray); needs a real number (parameter 'dt' of "
           "stencil 'wave2d_src')", module.wave2d_src.run, **wave_fields(), steps=STEPS,
           dt=amp(), amp=amp())
    expect(TypeError, "amp: got an array (ndarray); needs a real number (parameter 'amp' of "
           "stencil 'wave2d_src'; step() takes one step's value)", module.wave2d_src.step,
           **wave_fields("out"), dt=0.1, amp=amp())


@pytest.mark.parametrize("values,kind,text", [
    ([0.1] * STEPS, TypeError, "amp: got list, which is not an array: needs a float64 array of "
     "a value a step (NumPy, CuPy, PyTorch)"),
    (amp().astype(np.float32), TypeError, "amp: got a float32 array; parameter 'amp' of "
     "stencil 'wave2d_src' is per step and needs float64"),
    (amp(STEPS - 1), ValueError, f"amp: got {STEPS - 1} values; parameter 'amp' of stencil "
     f"'wave2d_src' is per step: run() of {STEPS} steps needs at least {STEPS}, a value a step"),
    (np.zeros((STEPS, 2)), ValueError, f"amp: got an array of 2 dimensions ({STEPS}, 2); "
     "parameter 'amp' of stencil 'wave2d_src' is per step and needs one dimension"),
    (np.zeros(2 * STEPS)[::2], ValueError, "amp: got a non-contiguous array"),
    (device((STEPS,), "float64", slot=5, device=(3, 0)), TypeError,
     "amp: got an array on the DLPack device 3 (DLPack); parameter 'amp' of stencil "
     "'wave2d_src' is per step: needs host memory (NumPy, PyTorch on 'cpu') or a CUDA array"),
    (device((STEPS,), "float64", slot=5, device=(fakes.CUDA, 1)), ValueError,
     "amp: got an array on cuda:1; needs the device of u, cuda:0"),
], ids=["list", "float32", "short", "2d", "strided", "pinned-kind", "other-device"])
def test_per_step_array_is_checked(module, values, kind, text):
    expect(kind, text, module.wave2d_src.run, **wave_fields(), steps=STEPS, dt=0.1, amp=values)


def test_records_overlapping_a_per_step_device_array_are_refused(module):
    values = device((STEPS,), "float64", slot=7)  # where records() lies
    expect(ValueError, "records: overlaps amp", module.wave2d_rec.run, **wave_fields(),
           steps=STEPS, dt=0.1, amp=values, receivers=receivers(), records=records())


def test_receivers_and_records_are_taken(module):
    run = module.wave2d_rec.run
    passes(run, **wave_fields(), steps=STEPS, dt=0.1, amp=amp(), receivers=receivers(),
           records=records())
    passes(run, **wave_fields(), steps=STEPS, dt=0.1, amp=amp())  # neither: count 0
    passes(run, **wave_fields(), steps=STEPS, dt=0.1, amp=amp(), receivers=receivers(0),
           records=records(0))
    passes(run, **wave_fields(), steps=0, dt=0.1, amp=amp(0), receivers=receivers(),
           records=records(steps=0))
    inp, scratch = device((4, 5, 6), "float64"), device((4, 5, 6), "float64", slot=1)
    passes(module.heat3d_rec.run, inp, scratch, STEPS, nu=amp(), receivers=receivers(dims=3),
           records=records(dtype="float64"))


def test_interface_receivers_are_int32(module):
    """The CUDA Array Interface's '<i4' is int32: the checks pass and the
    pointer is asked for its device (a stand-in's is no device memory)."""
    points = fakes.InterfaceArray((3, 2), "<i4", ptr=BASE + (6 << 30))
    expect(TypeError, "receivers: got a pointer (0x7f0180000000, from __cuda_array_interface__) "
           "that is not CUDA device memory", module.wave2d_rec.run, **wave_fields(),
           steps=STEPS, dt=0.1, amp=amp(), receivers=points, records=records())


@pytest.mark.parametrize("given,missing", [("receivers", "records"), ("records", "receivers")])
def test_receivers_and_records_go_together(module, given, missing):
    lists = {"receivers": receivers(), "records": records()}
    expect(TypeError, f"{given}: given without {missing}; run() takes both or neither",
           module.wave2d_rec.run, **wave_fields(), steps=STEPS, dt=0.1, amp=amp(),
           **{given: lists[given]})


@pytest.mark.parametrize("points,values,kind,text", [
    (receivers(dtype="int64"), records(), TypeError,
     "receivers: got an int64 array; needs int32 (the C API's const int*)"),
    (receivers(dims=3), records(), ValueError,
     "receivers: got shape (3, 3); needs (count, 2): a point a row, its 2 indices in index "
     "order"),
    (device((3,), "int32", slot=6), records(), ValueError, "receivers: got shape (3,)"),
    (np.zeros((3, 2), np.int32), records(), TypeError,
     "receivers: got an array on the cpu (DLPack); needs a CUDA device array"),
    (device((3, 2), "int32", slot=6, strides=(1, 3)), records(), ValueError,
     "receivers: got a non-contiguous array"),
    (receivers(), records(dtype="float64"), TypeError,
     "records: got a float64 array; stencil 'wave2d_rec' needs float32"),
    (receivers(), records(steps=STEPS + 1), ValueError,
     f"records: got shape ({STEPS + 1}, 3); needs (steps, points in receivers), ({STEPS}, 3)"),
    (receivers(), records(count=4), ValueError, "records: got shape (5, 4); needs (steps, "
     "points in receivers), (5, 3)"),
    (receivers(), np.zeros((STEPS, 3), np.float32), TypeError,
     "records: got an array on the cpu (DLPack); needs a CUDA device array"),
    (receivers(), records(device=(fakes.CUDA, 1)), ValueError,
     "records: got an array on cuda:1; needs the device of u, cuda:0"),
    (receivers(), records(slot=2), ValueError, "records: overlaps src"),
    (receivers(slot=4), records(), ValueError, "scratch: overlaps receivers"),
    (receivers(slot=7), records(), ValueError, "records: overlaps receivers"),
], ids=["int64", "3-indices", "1d", "host-points", "strided", "float64", "more-steps",
        "more-points", "host-records", "other-device", "records-in-a-field",
        "points-in-scratch", "records-on-points"])
def test_receivers_and_records_are_checked(module, points, values, kind, text):
    expect(kind, text, module.wave2d_rec.run, **wave_fields(), steps=STEPS, dt=0.1, amp=amp(),
           receivers=points, records=values)


def test_lists_are_run_only(module):
    expect(TypeError, "wave2d_rec.step() got an unexpected keyword argument 'receivers'; it "
           "takes u, u_prev, src, out, c2, dt, amp and stream", module.wave2d_rec.step,
           **wave_fields("out"), dt=0.1, amp=0.5, receivers=receivers())
    expect(TypeError, "wave2d_src.run() got an unexpected keyword argument 'records'",
           module.wave2d_src.run, **wave_fields(), steps=STEPS, dt=0.1, amp=amp(),
           records=records())
    expect(TypeError, "wave2d_rec.run() takes 5 positional arguments (u, u_prev, src, scratch, "
           "steps) but 6 were given; c2, dt, amp, receivers, records are keyword-only",
           module.wave2d_rec.run, *wave_fields().values(), STEPS)


# A NAME_run of a source list before receivers, as stencilc writes one.
HEADER = """cudaError_t s_run(float* in, float* scratch, int nx,
 const int* sources, int source_count, const double* amplitudes,
 const int* receivers, int receiver_count, float* records, int steps, cudaStream_t stream);
"""


def test_lists_are_read_off_the_header():
    assert _generate.run_lists(HEADER.replace("\n", "")) == {"s": ["sources", "receivers"]}


def test_a_list_the_package_does_not_pass_is_refused():
    """A NAME_run taking a list of points this package does not know (one a
    later stencilc might add) would read arguments run() never passes: the
    source is refused."""
    unknown = HEADER.replace("\n", "").replace("sources", "probes").replace("source_count",
                                                                           "probe_count")
    with pytest.raises(stencilc.SourceError, match="stencil 's' takes a list of probes, which "
                                                   "this Python package does not pass"):
        _generate.refuse_what_run_cannot_pass(unknown)
    _generate.refuse_what_run_cannot_pass(HEADER.replace("\n", ""))
    _generate.refuse_what_run_cannot_pass(
        "cudaError_t s_run(float* in, const int* receivers, int receiver_count, float* records, "
        "int steps, cudaStream_t stream);")


def test_the_helpers_list_per_step_parameters_and_lists():
    """The tables the package reads Info.per_step and Info.point_lists from,
    in a shared library's helpers and an extension module's symbols."""
    from stencilc import _aot

    tables = _generate.Tables({"w", "h"}, {"w"}, {"w": ["receivers"]})
    text = _aot.module_source("m", ["a.h"], ["w", "h", "p"], tables)
    assert "const int *stencilc_py_per_step[] = {w_param_is_per_step, nullptr, nullptr, " \
           "nullptr};" in text
    assert 'const char *stencilc_py_lists[] = {"receivers", "", "", nullptr};' in text
    for helper in ("stencilc_py_per_step", "stencilc_py_lists"):
        assert f'nb::make_tuple("{helper}", ' in text
