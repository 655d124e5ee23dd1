"""stencilc for Python: compile .stencil sources into kernels that run on
CuPy and PyTorch arrays without copies (docs/python.md).

    import cupy as cp, stencilc
    heat = stencilc.compile(open("heat2d.stencil").read()).heat2d
    a = cp.zeros((512, 512)); a[256, 256] = 1000.0; b = cp.empty_like(a)
    heat.run(a, b, 100)
"""

import os

from . import _build, _module
from ._build import VERSION as __version__, CompileError, cache_root
from ._module import CudaError, Info, Module, Stencil
from ._module import attach as _attach  # noqa: F401 (for stencilc_add_python_module)

__all__ = ["compile", "CompileError", "CudaError", "Info", "Module", "Stencil", "cache_root",
           "__version__"]

_BACKENDS = ("auto", "tensor", "simt")
_loaded = {}  # cache entry -> Module, so that a process loads each library once


def _read_source(source_or_path):
    """(text, file name for stencilc's diagnostics)."""
    if isinstance(source_or_path, os.PathLike) or (
        isinstance(source_or_path, str) and "\n" not in source_or_path
        and source_or_path.endswith(".stencil")
    ):
        path = os.fspath(source_or_path)
        with open(path) as f:
            return f.read(), os.path.basename(path)
    if not isinstance(source_or_path, str):
        raise TypeError(f"compile(): got {type(source_or_path).__name__}; needs the .stencil "
                        "text (str) or the path of a .stencil file")
    return source_or_path, "source.stencil"


def compile(source_or_path, *, arch=None, backend="auto", options=None):
    """Compiles the stencils of a .stencil source (its text, or a path ending
    in .stencil) and returns a Module with one Stencil per stencil.

    arch: "sm_90" and the like; None: the current GPU's (sm_80 without one).
    backend: "auto", "tensor" or "simt" (stencilc's --backend).
    options: more stencilc flags, e.g. ["--plan-option=fuse=4", "--Werror"].
    Runs stencilc and nvcc once per cache key (see docs/python.md).
    """
    if backend not in _BACKENDS:
        raise ValueError(f"compile(): backend must be one of {', '.join(_BACKENDS)}, "
                         f"got {backend!r}")
    options = list(options or ())
    if not all(isinstance(o, str) for o in options):
        raise TypeError(f"compile(): options must be a list of str (stencilc flags), got {options!r}")
    text, name = _read_source(source_or_path)
    entry = _build.compiled_library(text, name, backend, options, arch)
    module = _loaded.get(entry)
    if module is None:
        library = _module.Library.load(os.path.join(entry, _build.LIBRARY))
        module = _loaded[entry] = Module(library, entry)
    return module
