"""Arrays and streams: what a kernel call needs to know of its arguments.

An argument is read, never copied, through one of
  - PyTorch's and CuPy's own attributes (the fast path: the same facts their
    DLPack export carries, without building a capsule per call),
  - __cuda_array_interface__ (v2 or v3),
  - DLPack (__dlpack__, or a NumPy array through the buffer protocol), by the
    native core.
Every check raises TypeError or ValueError naming the argument, what it got
and what it needs, before anything is launched.
"""

from __future__ import annotations

import math
import sys
from typing import Any, Callable, Optional, Tuple

from . import _core

# DLPack type codes (int, float, bfloat) and the CUDA Array Interface's
# typestr: the element types of fields, int32 of lists of points, and int64,
# the integers NumPy makes by default, named in messages as what they are.
_DLPACK_DTYPES = {(2, 16): "float16", (4, 16): "bfloat16", (2, 32): "float32", (2, 64): "float64",
                  (0, 32): "int32", (0, 64): "int64"}
_TYPESTR_DTYPES = {"<f2": "float16", "<f4": "float32", "<f8": "float64", "<i4": "int32",
                   "<i8": "int64"}
ITEMSIZE = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int32": 4, "int64": 8}

# Where an array lives: ("cuda", index) or (kind, index); index None: not
# known yet (the CUDA Array Interface names no device: its pointer's decides).
Device = Tuple[str, Optional[int]]


class View:
    """An argument as the checks see it."""

    __slots__ = ("ptr", "dtype", "shape", "contiguous", "device", "framework", "stream")

    def __init__(self, ptr: int, dtype: str, shape: tuple[int, ...], contiguous: bool,
                 device: Device, framework: str, stream: int | None = None) -> None:
        self.ptr = ptr
        self.dtype = dtype  # a name of ITEMSIZE, or what the array has
        self.shape = shape
        self.contiguous = contiguous
        self.device = device  # ("cuda", index) or (kind, index); index None: unknown
        self.framework = framework
        self.stream = stream  # the producer's stream (CUDA Array Interface v3)


def _c_contiguous(shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int,
                  in_bytes: bool) -> bool:
    if 0 in shape:  # no element: any strides (an empty per-step array of 0 steps)
        return True
    expected = 1 if not in_bytes else itemsize
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return True


_TORCH_DTYPES: dict[Any, str] = {}  # torch.dtype -> its name ("float32")


def _torch_view(x: Any) -> View:
    dtype = x.dtype
    name = _TORCH_DTYPES.get(dtype)
    if name is None:
        name = _TORCH_DTYPES[dtype] = str(dtype).replace("torch.", "")
    index = x.get_device()  # -1 on the CPU
    device = ("cuda", index) if index >= 0 else (x.device.type, None)
    return View(x.data_ptr(), name, tuple(x.shape), x.is_contiguous(), device, "torch")


_CUPY_DTYPES: dict[Any, str] = {}  # numpy dtype -> its name (computed anew on each read)


def _cupy_view(x: Any) -> View:
    data, dtype = x.data, x.dtype
    name = _CUPY_DTYPES.get(dtype)
    if name is None:
        name = _CUPY_DTYPES[dtype] = dtype.name
    # _c_contiguous: the flag CuPy keeps on the array (.flags builds an object)
    return View(data.ptr, name, x.shape, x._c_contiguous, ("cuda", data.device_id), "cupy")


def _cupy_view_by_flags(x: Any) -> View:  # a CuPy without ndarray._c_contiguous
    data = x.data
    return View(data.ptr, x.dtype.name, x.shape, x.flags.c_contiguous, ("cuda", data.device_id),
                "cupy")


def _interface_view(interface: dict[str, Any]) -> View:
    shape = tuple(interface["shape"])
    typestr = interface["typestr"]
    dtype = _TYPESTR_DTYPES.get(typestr, f"typestr {typestr!r}")
    strides = interface.get("strides")
    itemsize = ITEMSIZE.get(dtype, 1)
    contiguous = strides is None or _c_contiguous(shape, strides, itemsize, in_bytes=True)
    stream = interface.get("stream") if interface.get("version", 0) >= 3 else None
    return View(interface["data"][0], dtype, shape, contiguous, ("cuda", None),
                "__cuda_array_interface__", stream)


_DEVICE_NAMES = {_core.DEVICE_CPU: "cpu", _core.DEVICE_CUDA: "cuda",
                 _core.DEVICE_CUDA_MANAGED: "cuda"}


NEEDS_CUDA = ("needs a CUDA array (one with __dlpack__ or __cuda_array_interface__: CuPy, "
              "PyTorch, ...)")


def _dlpack_view(x: object, name: str, needs: str) -> View:
    try:
        ptr, code, bits, lanes, shape, strides, kind, index = _core.describe(x)
    except TypeError:
        raise TypeError(f"{name}: got {_type_name(x)}, which is not an array: {needs}") from None
    dtype = _DLPACK_DTYPES.get((code, bits)) if lanes == 1 else None
    dtype = dtype or f"DLPack type code {code} of {bits} bits x {lanes}"
    contiguous = _c_contiguous(shape, strides, 0, in_bytes=False)
    return View(ptr, dtype, shape, contiguous, (_DEVICE_NAMES.get(kind, f"DLPack device {kind}"),
                index), "DLPack")


def _type_name(x: object) -> str:
    t = type(x)
    return f"{t.__module__}.{t.__qualname__}" if t.__module__ != "builtins" else t.__qualname__


_FAST: dict[type, Callable[[Any], View] | None] = {}  # type -> view function, once seen


def _unseen(x: Any) -> View:  # what _FAST gives for a type not seen yet; never called
    raise AssertionError("_unseen() called")


def _fast_path(t: type) -> Callable[[Any], View] | None:
    module = t.__module__
    if module.startswith("torch") and "torch" in sys.modules:
        if issubclass(t, sys.modules["torch"].Tensor):
            return _torch_view
    if module.startswith("cupy") and "cupy" in sys.modules:
        if issubclass(t, sys.modules["cupy"].ndarray):
            return _cupy_view if hasattr(t, "_c_contiguous") else _cupy_view_by_flags
    return None


def view(x: object, name: str, needs: str = NEEDS_CUDA) -> View:
    """The View of argument `name`; TypeError for what is no array, saying
    what is `needs`ed."""
    t = type(x)
    fast = _FAST.get(t, _unseen)
    if fast is _unseen:
        fast = _FAST[t] = _fast_path(t)
    if fast is not None:
        return fast(x)
    interface = getattr(x, "__cuda_array_interface__", None)
    if interface is not None:
        return _interface_view(interface)
    return _dlpack_view(x, name, needs)


def check_cuda(v: View, name: str) -> None:
    if v.device[0] != "cuda":
        raise TypeError(f"{name}: got an array on the {v.device[0]} ({v.framework}); needs a "
                        "CUDA device array (CuPy, PyTorch on 'cuda', ...)")


def check_contiguous(v: View, name: str) -> None:
    if not v.contiguous:
        raise ValueError(f"{name}: got a non-contiguous array (shape {v.shape}); needs a "
                         "C-contiguous (row-major, dense) one: stencilc never copies, so "
                         "pass .contiguous() / cupy.ascontiguousarray(...) yourself")


def check(v: View, name: str, dtype: str, dims: int, minimum: int, stencil: str) -> None:
    """Checks one array against the stencil (device, dtype, rank, sizes, layout)."""
    check_cuda(v, name)
    if v.dtype != dtype:
        raise TypeError(f"{name}: got {with_article(v.dtype)} array; stencil '{stencil}' needs "
                        f"{dtype}")
    if len(v.shape) != dims:
        raise ValueError(f"{name}: got an array of {len(v.shape)} dimensions {v.shape}; "
                         f"stencil '{stencil}' is {dims}D and needs {dims} dimensions")
    small = [n for n in v.shape if n < minimum]
    if small:
        raise ValueError(f"{name}: got shape {v.shape}; stencil '{stencil}' needs at least "
                         f"{minimum} points per axis (its boundary and radius)")
    if max(v.shape) > 2**31 - 1:
        raise ValueError(f"{name}: got shape {v.shape}; the generated API takes sizes up to "
                         "2^31 - 1 per axis")
    check_contiguous(v, name)


def with_article(word: str) -> str:
    """`word` after "a" or "an", as it sounds: "a float32", "an int32"."""
    return ("an " if word[0] in "aeiou" else "a ") + word


def check_per_step(v: View, name: str, steps: int, stencil: str) -> None:
    """Checks the array of a per-step parameter: a float64 value a step, at
    least `steps`, dense, in host memory or on a CUDA device (which one:
    the caller checks, once the fields' is known)."""
    what = f"parameter '{name}' of stencil '{stencil}' is per step"
    if v.device[0] not in ("cpu", "cuda"):
        raise TypeError(f"{name}: got an array on the {v.device[0]} ({v.framework}); {what}: "
                        "needs host memory (NumPy, PyTorch on 'cpu') or a CUDA array")
    if v.dtype != "float64":
        raise TypeError(f"{name}: got {with_article(v.dtype)} array; {what} and needs float64 "
                        "(its NAME_run reads doubles)")
    if len(v.shape) != 1:
        raise ValueError(f"{name}: got an array of {len(v.shape)} dimensions {v.shape}; {what} "
                         "and needs one dimension, a value a step")
    if v.shape[0] < steps:
        raise ValueError(f"{name}: got {v.shape[0]} values; {what}: run() of {steps} steps "
                         f"needs at least {steps}, a value a step")
    check_contiguous(v, name)


def check_points(v: View, name: str, dims: int) -> None:
    """Checks a list of points (receivers): (count, dims) int32, dense, on
    a CUDA device."""
    check_cuda(v, name)
    if v.dtype != "int32":
        raise TypeError(f"{name}: got {with_article(v.dtype)} array; needs int32 (the C API's "
                        "const int*)")
    if len(v.shape) != 2 or v.shape[1] != dims:
        raise ValueError(f"{name}: got shape {v.shape}; needs (count, {dims}): a point a row, "
                         f"its {dims} indices in index order")
    if v.shape[0] > 2**31 - 1:
        raise ValueError(f"{name}: got {v.shape[0]} points; the generated API takes up to "
                         "2^31 - 1")
    check_contiguous(v, name)


def check_values(v: View, name: str, dtype: str, shape: tuple[int, int], points: str,
                 stencil: str) -> None:
    """Checks the values of a list of points (records): `shape` (steps,
    count of `points`) of `dtype`, dense, on a CUDA device."""
    check_cuda(v, name)
    if v.dtype != dtype:
        raise TypeError(f"{name}: got {with_article(v.dtype)} array; stencil '{stencil}' needs "
                        f"{dtype}")
    if v.shape != shape:
        raise ValueError(f"{name}: got shape {v.shape}; needs (steps, points in {points}), "
                         f"{shape}")
    check_contiguous(v, name)


def nbytes(v: View) -> int:
    return ITEMSIZE[v.dtype] * math.prod(v.shape)


def usable(a: View, b: View, dtype: str, dims: int, minimum: int) -> bool:
    """True when a and b pass every check: the fast path of a call. Where
    it is False, check() and check_pair() say what is wrong."""
    shape = a.shape
    if not (a.dtype == dtype and b.dtype == dtype and shape == b.shape and len(shape) == dims
            and a.contiguous and b.contiguous and a.device == b.device
            and a.device[0] == "cuda" and a.device[1] is not None
            and min(shape) >= minimum and max(shape) < 2**31):
        return False
    size = ITEMSIZE[dtype] * math.prod(shape)  # the same for both
    return a.ptr >= b.ptr + size or b.ptr >= a.ptr + size


def check_shape(a: View, b: View, names: tuple[str, str]) -> None:
    if a.shape != b.shape:
        raise ValueError(f"{names[1]}: got shape {b.shape}; needs the shape of {names[0]}, "
                         f"{a.shape}")


def check_apart(a: View, b: View, names: tuple[str, str]) -> None:
    """No byte of b is one of a's."""
    if a.ptr < b.ptr + nbytes(b) and b.ptr < a.ptr + nbytes(a):
        raise ValueError(f"{names[1]}: overlaps {names[0]} (memory at {b.ptr:#x} and {a.ptr:#x}); "
                         "needs separate buffers: the kernels read through __restrict__ pointers")


def check_pair(a: View, b: View, names: tuple[str, str]) -> None:
    """Same shape, no overlap between the two."""
    check_shape(a, b, names)
    check_apart(a, b, names)


def check_steps(steps: object) -> int:
    """`steps` as the int it is; TypeError for anything else (a bool too:
    bool has no subclasses, so its class says it), ValueError out of range."""
    if not isinstance(steps, int) or steps.__class__ is bool:
        raise TypeError(f"steps: got {type(steps).__name__} {steps!r}; needs an int")
    if steps < 0 or steps > 2**31 - 1:
        raise ValueError(f"steps: got {steps}; needs 0 <= steps < 2^31")
    return steps


def _torch_current_stream(index: int | None) -> int:
    torch = sys.modules["torch"]
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    handle: int = raw(index) if raw else torch.cuda.current_stream(index).cuda_stream
    return handle


def _cupy_current_stream() -> Any:  # CuPy's own function replaces this at the first call
    global _cupy_current_stream
    _cupy_current_stream = sys.modules["cupy"].cuda.get_current_stream
    return _cupy_current_stream()


def stream_handle(stream: object, v: View) -> int:
    """The cudaStream_t (an int) for `stream`: a torch.cuda.Stream, a
    cupy.cuda.Stream, an int, or None for the framework's current stream."""
    if stream is None:
        if v.framework == "torch":
            return _torch_current_stream(v.device[1])
        if v.framework == "cupy":
            current: int = _cupy_current_stream().ptr
            return current
        return v.stream or 0
    if isinstance(stream, int) and not isinstance(stream, bool):
        return stream
    for attribute in ("cuda_stream", "ptr"):
        handle = getattr(stream, attribute, None)
        if isinstance(handle, int):
            return handle
    raise TypeError(f"stream: got {_type_name(stream)}; needs a torch.cuda.Stream, a "
                    "cupy.cuda.Stream, an int (a cudaStream_t) or None")
