"""stencilc for Python: compile .stencil sources into kernels that run on
CuPy and PyTorch arrays without copies (docs/python.md).

    import cupy as cp, stencilc
    heat = stencilc.compile(open("heat2d.stencil").read()).heat2d
    a = cp.zeros((512, 512)); a[256, 256] = 1000.0; b = cp.empty_like(a)
    heat.run(a, b, 100)
"""

from __future__ import annotations

import os
from typing import Callable, Iterable, Union

from . import _build, _kinds, _library
from ._build import VERSION as __version__, cache_root
from ._errors import (CompileError, CudaCompileError, CudaError, OptionsError, SourceError,
                      StencilcError)
from ._fields import FieldsStencil
from ._info import Info
from ._module import Module
from ._module import attach as _attach  # noqa: F401 (for stencilc_add_python_module)
from ._stencil import PlainStencil, Stencil

__all__ = ["compile", "StencilcError", "CompileError", "SourceError", "OptionsError",
           "CudaCompileError", "CudaError", "Info", "Module", "Stencil", "PlainStencil",
           "FieldsStencil", "cache_root",
           "__version__"]

_BACKENDS = ("auto", *_kinds.BACKENDS)
_LANGUAGES = ("stencil", "c", "c++")
_SUFFIXES = {".stencil": "stencil", ".c": "c", ".cc": "c++", ".cpp": "c++", ".cxx": "c++"}
_TEXT_NAMES = {"stencil": "source.stencil", "c": "source.c", "c++": "source.cpp"}
_libraries: dict[str, _library.Library] = {}  # cache entry -> Library: each loaded once
_modules: dict[tuple[str, bool], Module] = {}  # (cache entry, arch is None) -> Module

SourceOrPath = Union[str, "os.PathLike[str]"]


def _read_source(source_or_path: SourceOrPath, language: str | None) -> _build.Source:
    """The Source: a path is a str ending in a known suffix (no newline) or
    an os.PathLike; anything else of type str is the text itself."""
    if language is not None and language not in _LANGUAGES:
        raise ValueError(f"compile(): language must be one of {', '.join(_LANGUAGES)} (or None: "
                         f"from the file name), got {language!r}")
    is_path = isinstance(source_or_path, os.PathLike) or (
        isinstance(source_or_path, str) and "\n" not in source_or_path
        and os.path.splitext(source_or_path)[1] in _SUFFIXES)
    if is_path:
        path = os.fspath(source_or_path)
        language = language or _SUFFIXES.get(os.path.splitext(path)[1], "stencil")
        with open(path) as f:
            text = f.read()
        if language == "stencil":
            return _build.Source(text, os.path.basename(path), language)
        return _build.Source(text, os.path.basename(path), language, os.path.abspath(path))
    if not isinstance(source_or_path, str):
        raise TypeError(f"compile(): got {type(source_or_path).__name__}; needs the source "
                        "text (str) or the path of a .stencil, .c, .cc, .cpp or .cxx file")
    language = language or "stencil"
    return _build.Source(source_or_path, _TEXT_NAMES[language], language)


def _load(entry: str) -> _library.Library:
    library = _libraries.get(entry)
    if library is None:
        library = _libraries[entry] = _library.Library.load(os.path.join(entry, _build.LIBRARY))
    return library


def compile(source_or_path: SourceOrPath, *, arch: str | int | None = None,
            backend: str = "auto", options: Iterable[str] | None = None,
            language: str | None = None) -> Module:
    """Compiles the stencils of a source and returns a Module with one
    Stencil per stencil. The source is its text or a path: a .stencil file,
    or a C/C++ file (.c, .cc, .cpp, .cxx) whose loop nests are marked
    `#pragma stencil`; `language` ("stencil", "c", "c++") says which for
    text (default "stencil") and overrides the file name's suffix.

    arch: "sm_90" and the like; None: the GPU the arrays are on (the library
    is built at compile() for the current GPU's, or sm_80 without one, and at
    a call on arrays of a device of another architecture, for theirs).
    backend: "auto" or a backend of stencilc's, "tensor" or "simt" (its --backend).
    options: more stencilc flags, e.g. ["--plan-option=fuse=4", "--Werror"];
    for C sources, compiler flags after "--" (["--", "-DN=64"]).
    Runs the pipeline and nvcc once per cache key (see docs/python.md).
    """
    if backend not in _BACKENDS:
        raise ValueError(f"compile(): backend must be one of {', '.join(_BACKENDS)}, "
                         f"got {backend!r}")
    options = list(options or ())
    if not all(isinstance(o, str) for o in options):
        raise TypeError(f"compile(): options must be a list of str (stencilc flags), got {options!r}")
    source = _read_source(source_or_path, language)
    archs = _build.resolve_arch(arch)
    entry = _build.compiled_library(source, backend, options, archs)
    key = (entry, arch is None)
    module = _modules.get(key)
    if module is None:
        build: Callable[[int], _library.Library] | None = None
        if arch is None:
            def build_for(number: int) -> _library.Library:
                return _load(_build.compiled_library(source, backend, options,
                                                     _build.device_archs(number)))
            build = build_for
        first_arch = int(archs[1][3:].rstrip("a"))
        targets = _library.Targets(_load(entry), first_arch, build)
        module = _modules[key] = Module(targets, entry)
    return module
