"""The array protocols without the frameworks' fast paths (an object with
only __cuda_array_interface__, one with only __dlpack__), stream ordering
on non-default streams, and CUDA errors as Python exceptions."""

import numpy as np
import pytest

import frameworks
import stencils
from fakes import OnlyDLPack

HEAT = """
stencil heat {
  precision fp32;
  boundary periodic;
  out[j, i] = 0.5 * in[j, i] + 0.125 * (in[j-1, i] + in[j+1, i] + in[j, i-1] + in[j, i+1]);
}
"""


def _heat_reference(x, steps):
    for _ in range(steps):
        x = stencils.reference_step(x, x, 2, "periodic")
    return x


@pytest.fixture(scope="module")
def heat():
    import stencilc

    return stencilc.compile(HEAT).heat


def _need(name):
    if name not in frameworks.available():
        pytest.skip(f"GPU test skipped: {name} with CUDA is not installed")


class OnlyInterface:
    """Exposes a CuPy array through __cuda_array_interface__ alone."""

    def __init__(self, array):
        self.array = array
        self.__cuda_array_interface__ = array.__cuda_array_interface__


def test_cuda_array_interface_zero_copy(heat):
    _need("cupy")
    import cupy

    rng = np.random.default_rng(1)
    a0 = rng.random((67, 129))
    a, b = cupy.asarray(a0, dtype=cupy.float32), cupy.zeros((67, 129), cupy.float32)
    heat.step(OnlyInterface(a), OnlyInterface(b))
    cupy.cuda.get_current_stream().synchronize()
    assert stencils.relative_l2(b.get(), _heat_reference(a.get().astype(np.float64), 1)) < 2e-6


def test_dlpack_zero_copy(heat):
    _need("torch")
    import torch

    from stencilc import _core

    a = torch.rand((67, 129), device="cuda")
    b = torch.zeros_like(a)
    a0 = a.double().cpu().numpy()
    assert _core.describe(OnlyDLPack(a))[0] == a.data_ptr()
    heat.run(OnlyDLPack(a), OnlyDLPack(b), 5)
    torch.cuda.synchronize()
    # The result is in the tensor passed: nothing was copied.
    assert stencils.relative_l2(a.double().cpu().numpy(), _heat_reference(a0, 5)) < 5 * 2e-6


def test_torch_stream_ordering(heat):
    """On a non-default stream, the stencil runs after the framework's work
    queued before it and before the work queued after it."""
    _need("torch")
    import torch

    n = 4096
    source = torch.rand((n, n), device="cuda", dtype=torch.float32)
    reference_input = source.clone()
    stream = torch.cuda.Stream()
    a = torch.empty_like(source)
    b = torch.empty_like(source)
    torch.cuda.synchronize()
    with torch.cuda.stream(stream):
        for _ in range(3):
            a.copy_(source)
            a.mul_(2.0)  # work before the stencil, on `stream`
            heat.step(a, b)  # the current stream: `stream`
            c = b * 0.5  # work after it
    stream.synchronize()
    expect = torch.empty_like(source)
    heat.step(reference_input, expect)
    torch.cuda.synchronize()
    assert torch.equal(c, expect), "the stencil did not order with the stream's own work"


def test_explicit_cupy_stream(heat):
    _need("cupy")
    import cupy

    n = 4096
    source = cupy.random.random((n, n), dtype=cupy.float32)
    expect = cupy.empty_like(source)
    heat.step(source, expect)
    cupy.cuda.Device().synchronize()
    stream = cupy.cuda.Stream(non_blocking=True)
    a, b = cupy.empty_like(source), cupy.empty_like(source)
    with stream:
        a[...] = source * 2.0
        heat.step(a, b, stream=stream)
        c = b * 0.5
    stream.synchronize()
    assert bool((c == expect).all()), "the stencil did not order with the stream's own work"


def test_cuda_error_becomes_exception():
    """The CUDA-core kernel's 65535-block limit on rows: the C API refuses
    the launch, and the exception carries CUDA's message."""
    _need("cupy")
    import cupy
    import stencilc

    heat = stencilc.compile(HEAT, backend="simt").heat
    rows = 65535 * heat.info.tile[0] + 1
    a = cupy.zeros((rows, 1), cupy.float32)
    b = cupy.zeros((rows, 1), cupy.float32)
    with pytest.raises(stencilc.CudaError, match="invalid argument"):
        heat.step(a, b)


def test_torch_cpu_tensor_refused(heat):
    _need("torch")
    import torch

    with pytest.raises(TypeError, match="inp: got an array on the cpu"):
        heat.step(torch.zeros((8, 8)), torch.zeros((8, 8), device="cuda"))
