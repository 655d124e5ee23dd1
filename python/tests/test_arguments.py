"""Every argument check, with NumPy arrays and stand-ins for device arrays
(tests/fakes.py): each is a TypeError or ValueError that names the
argument, what it got and what it needs, raised before anything launches."""

import re

import numpy as np
import pytest

import fakes
import support

SOURCE = """
stencil heat2d {
  precision fp32;
  boundary fixed;
  out[j, i] = 0.5 * in[j, i] + 0.125 * (in[j-1, i] + in[j+1, i] + in[j, i-1] + in[j, i+1]);
}
stencil smooth1d {
  precision bf16;
  boundary periodic;
  out[i] = 0.25 * in[i-1] + 0.5 * in[i] + 0.25 * in[i+1];
}
"""
BASE = 0x7F0000000000


@pytest.fixture(scope="module")
def module():
    return support.compile_or_skip(SOURCE, arch="sm_90")


def pair(shape=(16, 32), dtype="float32", **kwargs):
    """Two separate fake device arrays."""
    a = fakes.DLPackArray(shape, dtype, ptr=BASE, **kwargs)
    b = fakes.DLPackArray(shape, dtype, ptr=BASE + (1 << 30), **kwargs)
    return a, b


def expect(kind, text, call, *args, **kwargs):
    with pytest.raises(kind, match=re.escape(text)):
        call(*args, **kwargs)


def test_numpy_arrays_are_refused(module):
    a = np.random.rand(16, 32).astype(np.float32)
    b = np.zeros_like(a)
    expect(TypeError, "inp: got an array on the cpu (DLPack); needs a CUDA device array",
           module.heat2d.step, a, b)
    _, gpu = pair()
    expect(TypeError, "out: got an array on the cpu", module.heat2d.step, gpu, b)
    expect(TypeError, "a: got an array on the cpu", module.heat2d.run, a, b, 3)


def test_cpu_dlpack_object_is_refused(module):
    a = fakes.OnlyDLPack(np.random.rand(16, 32).astype(np.float32))
    _, b = pair()
    expect(TypeError, "inp: got an array on the cpu", module.heat2d.step, a, b)


def test_not_an_array(module):
    _, b = pair()
    expect(TypeError, "inp: got list, which is not an array: needs a CUDA array",
           module.heat2d.step, [1.0, 2.0], b)


@pytest.mark.parametrize("dtype", ["float64", "float16", "bfloat16"])
def test_dtype(module, dtype):
    a, b = pair(dtype=dtype)
    expect(TypeError, f"inp: got a {dtype} array; stencil 'heat2d' needs float32",
           module.heat2d.step, a, b)


def test_bfloat16_is_taken(module):
    a, b = pair((64,), "float32")
    expect(TypeError, "a: got a float32 array; stencil 'smooth1d' needs bfloat16",
           module.smooth1d.run, a, b, 1)


def test_interface_dtype(module):
    a = fakes.InterfaceArray((16, 32), "<f8")
    _, b = pair()
    expect(TypeError, "inp: got a float64 array", module.heat2d.step, a, b)
    a = fakes.InterfaceArray((16, 32), "<i4")  # known: the points of receivers are int32
    expect(TypeError, "inp: got an int32 array; stencil 'heat2d' needs float32",
           module.heat2d.step, a, b)
    a = fakes.InterfaceArray((16, 32), "<i2")
    expect(TypeError, "inp: got a typestr '<i2' array", module.heat2d.step, a, b)


def test_dimensions(module):
    a, b = pair((16, 32, 2))
    expect(ValueError, "inp: got an array of 3 dimensions (16, 32, 2); stencil 'heat2d' is 2D "
           "and needs 2 dimensions", module.heat2d.step, a, b)


def test_sizes_below_the_halo(module):
    a, b = pair((2, 32))
    expect(ValueError, "inp: got shape (2, 32); stencil 'heat2d' needs at least 3 points per axis",
           module.heat2d.step, a, b)
    a, b = pair((1,), "bfloat16")  # periodic: one point is enough
    with pytest.raises(TypeError, match="stream"):
        module.smooth1d.step(a, b, stream="default")


def test_shapes_differ(module):
    a = fakes.DLPackArray((16, 32), ptr=BASE)
    b = fakes.DLPackArray((16, 33), ptr=BASE + (1 << 30))
    expect(ValueError, "out: got shape (16, 33); needs the shape of inp, (16, 32)",
           module.heat2d.step, a, b)


def test_not_contiguous(module):
    a = fakes.DLPackArray((16, 32), ptr=BASE, strides=(64, 2))
    _, b = pair()
    expect(ValueError, "inp: got a non-contiguous array (shape (16, 32)); needs a C-contiguous",
           module.heat2d.step, a, b)
    a = fakes.InterfaceArray((16, 32), strides=(4, 64))  # column-major
    expect(ValueError, "inp: got a non-contiguous array", module.heat2d.step, a, b)


def test_unit_axes_and_explicit_dense_strides_are_contiguous(module):
    a = fakes.DLPackArray((16, 32), ptr=BASE, strides=(32, 1))
    b = fakes.DLPackArray((16, 32), ptr=BASE + (1 << 30), strides=(32, 1))
    with pytest.raises(TypeError, match="stream: got str"):
        module.heat2d.step(a, b, stream="default")
    # Past the layout checks, an address the CUDA Array Interface gives is
    # asked for its device: this one is no device memory.
    b = fakes.InterfaceArray((16, 32), ptr=BASE + (1 << 30), strides=(128, 4))
    expect(TypeError, "out: got a pointer (0x7f0040000000, from __cuda_array_interface__) that "
           "is not CUDA device memory", module.heat2d.step, a, b)


@pytest.mark.parametrize("offset", [0, 4, fakes.nbytes((16, 32), "float32") - 4])
def test_aliasing(module, offset):
    a = fakes.DLPackArray((16, 32), ptr=BASE)
    b = fakes.DLPackArray((16, 32), ptr=BASE + offset)
    expect(ValueError, "out: overlaps inp", module.heat2d.step, a, b)
    expect(ValueError, "b: overlaps a", module.heat2d.run, a, b, 2)


def test_adjacent_buffers_do_not_alias(module):
    a = fakes.DLPackArray((16, 32), ptr=BASE)
    b = fakes.DLPackArray((16, 32), ptr=BASE + fakes.nbytes((16, 32), "float32"))
    with pytest.raises(TypeError, match="stream: got str"):
        module.heat2d.step(a, b, stream="default")


def test_devices_differ(module):
    a = fakes.DLPackArray((16, 32), ptr=BASE, device=(fakes.CUDA, 0))
    b = fakes.DLPackArray((16, 32), ptr=BASE + (1 << 30), device=(fakes.CUDA, 1))
    expect(ValueError, "out: got an array on cuda:1; needs the device of inp, cuda:0",
           module.heat2d.step, a, b)


@pytest.mark.parametrize("steps,kind,text", [
    (2.0, TypeError, "steps: got float 2.0; needs an int"),
    (True, TypeError, "steps: got bool True; needs an int"),
    (-1, ValueError, "steps: got -1; needs 0 <= steps < 2^31"),
])
def test_steps(module, steps, kind, text):
    a, b = pair()
    expect(kind, text, module.heat2d.run, a, b, steps)


def test_stream_type(module):
    a, b = pair()
    expect(TypeError, "stream: got object; needs a torch.cuda.Stream, a cupy.cuda.Stream, an int",
           module.heat2d.step, a, b, stream=object())


def test_unknown_stencil(module):
    with pytest.raises(AttributeError, match="has no stencil 'heat3d' \\(it has heat2d, smooth1d\\)"):
        module.heat3d
