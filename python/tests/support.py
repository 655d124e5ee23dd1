"""Helpers the CPU tests share."""


def nvcc_reason():
    """Why nvcc cannot be used here, or None."""
    import stencilc
    from stencilc import _build

    try:
        _build.nvcc_executable()
    except stencilc.CudaCompileError as e:
        return str(e)
    return None


def compile_or_skip(source, **kwargs):
    """stencilc.compile(source, **kwargs), or the test skipped without nvcc."""
    import pytest

    reason = nvcc_reason()
    if reason:
        pytest.skip(f"needs nvcc: {reason}")
    import stencilc

    return stencilc.compile(source, **kwargs)


# Fake device arrays for the tests of run()'s arguments (per-step values,
# point lists): each at its own 1 GiB slot above BASE, so that overlaps are
# only those a test asks for.
BASE = 0x7F0000000000
# What run() refuses last, after every other check passed: a str stream.
PASSED = "stream: got str"


def device(shape, dtype="float32", slot=0, **kwargs):
    """A fake device array at its own 1 GiB slot."""
    import fakes

    return fakes.DLPackArray(shape, dtype, ptr=BASE + (slot << 30), **kwargs)


def expect(kind, text, call, *args, **kwargs):
    """call(*args, **kwargs) raises `kind` with `text` in its message."""
    import re

    import pytest

    with pytest.raises(kind, match=re.escape(text)):
        call(*args, **kwargs)
