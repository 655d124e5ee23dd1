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
