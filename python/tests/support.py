"""Helpers the CPU tests share."""


def nvcc_reason():
    """Why nvcc cannot be used here, or None."""
    from stencilc import _build

    try:
        _build.nvcc_executable()
    except _build.CompileError as e:
        return str(e)
    return None
