"""A loaded library of stencils: the Module compile() returns, and a Stencil
per stencil of the source with its step(), run() and info."""

import ctypes
import os

from . import _arrays, _core

_PRECISIONS = ("fp16", "bf16", "tf32", "fp32", "fp64")
_DTYPES = ("float16", "bfloat16", "float32", "float32", "float64")
_SHAPES = ("star", "box")
_BOUNDARIES = ("fixed", "constant", "periodic", "clamp", "mirror")
_BACKENDS = ("tensor", "simt")


class _Point(ctypes.Structure):
    _fields_ = [("offset", ctypes.c_int * 3), ("coefficient", ctypes.c_double)]


class _InfoStruct(ctypes.Structure):  # runtime/include/stencilc/runtime/stencil_info.h
    _fields_ = [("name", ctypes.c_char_p), ("dims", ctypes.c_int), ("radius", ctypes.c_int),
                ("shape", ctypes.c_int), ("precision", ctypes.c_int), ("boundary", ctypes.c_int),
                ("boundary_value", ctypes.c_double), ("num_points", ctypes.c_int),
                ("points", ctypes.POINTER(_Point)), ("backend", ctypes.c_int),
                ("tile", ctypes.c_int * 3), ("fused_steps", ctypes.c_int)]


class Info:
    """What a stencil is (its spec) and how it was compiled (its plan)."""

    def __init__(self, s):
        self.name = s.name.decode()
        self.dims = s.dims
        self.radius = s.radius
        self.shape = _SHAPES[s.shape]
        self.precision = _PRECISIONS[s.precision]
        self.dtype = _DTYPES[s.precision]
        self.boundary = _BOUNDARIES[s.boundary]
        self.boundary_value = s.boundary_value
        # {offset (index order, outermost first): coefficient}
        self.coefficients = {tuple(s.points[i].offset[: s.dims]): s.points[i].coefficient
                             for i in range(s.num_points)}
        self.backend = _BACKENDS[s.backend]
        self.tile = tuple(s.tile[: s.dims])
        self.fused_steps = s.fused_steps

    def __repr__(self):
        return (f"Info(name={self.name!r}, dims={self.dims}, radius={self.radius}, "
                f"shape={self.shape!r}, precision={self.precision!r}, "
                f"boundary={self.boundary!r}, points={len(self.coefficients)}, "
                f"backend={self.backend!r}, fused_steps={self.fused_steps})")


class CudaError(RuntimeError):
    """A CUDA error from a kernel call; `code` is the cudaError_t."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


class Stencil:
    """One compiled stencil: step(), run() and info."""

    def __init__(self, library, info):
        self.info = info
        self._library = library
        name = info.name
        self._step = library.address(f"{name}_step")
        self._run = library.address(f"{name}_run")
        self._minimum = 2 * info.radius + 1 if info.boundary == "fixed" else 1
        self._dtype, self._dims = info.dtype, info.dims
        self._call_step = getattr(_core, f"step{info.dims}")
        self._call_run = getattr(_core, f"run{info.dims}")
        self._ops = None

    def torch_ops(self):
        """(step, run) as torch.library custom ops, registered on first use:
        step(inp, out) and run(a, b, steps), for torch.compile graphs."""
        if self._ops is None:
            from . import _torch

            self._ops = _torch.register(self, self._library.key)
        return self._ops

    def __repr__(self):
        return f"<stencilc.Stencil {self.info.name}: {self.info!r}>"

    def _views(self, x, y, names):
        a = _arrays.view(x, names[0])
        b = _arrays.view(y, names[1])
        if not _arrays.usable(a, b, self._dtype, self._dims, self._minimum):
            info = self.info
            _arrays.check(a, names[0], info.dtype, info.dims, self._minimum, info.name)
            _arrays.check(b, names[1], info.dtype, info.dims, self._minimum, info.name)
            _arrays.check_pair(a, b, names)
            self._library.check_devices(a, b, names)
        return a, b

    def _raise(self, code, what):
        message = self._library.error_string(code)
        raise CudaError(f"{self.info.name}_{what}: CUDA error {code}: {message}", code)

    def step(self, inp, out, *, stream=None):
        """One step, out = stencil(inp), enqueued on `stream` (default: the
        framework's current stream)."""
        a, b = self._views(inp, out, ("inp", "out"))
        handle = _arrays.stream_handle(stream, a)
        if a.stream is not None or b.stream is not None:
            self._library.order_after(handle, a, b)
        code = self._call_step(self._step, a.ptr, b.ptr, *a.shape, handle)
        if code:
            self._raise(code, "step")

    def run(self, a, b, steps, *, stream=None):
        """`steps` steps ping-ponging between a and b; the result is left in a
        (b is scratch of the same shape)."""
        if steps.__class__ is not int:
            if not isinstance(steps, int) or isinstance(steps, bool):
                raise TypeError(f"steps: got {type(steps).__name__} {steps!r}; needs an int")
        if steps < 0 or steps > 2**31 - 1:
            raise ValueError(f"steps: got {steps}; needs 0 <= steps < 2^31")
        va, vb = self._views(a, b, ("a", "b"))
        handle = _arrays.stream_handle(stream, va)
        if va.stream is not None or vb.stream is not None:
            self._library.order_after(handle, va, vb)
        code = self._call_run(self._run, va.ptr, vb.ptr, *va.shape, steps, handle)
        if code:
            self._raise(code, "run")


_ErrorString = ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.c_int)
_PointerDevice = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
_StreamWait = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


class Library:
    """Generated stencils with the package's helpers beside them (HELPERS in
    _build.py): a shared library compile() built, or an extension module
    stencilc_add_python_module() built. `address(symbol)` gives a function's
    or table's address; `keep` is what must stay loaded while it is used."""

    def __init__(self, address, key, keep):
        self.address, self.key, self._keep = address, key, keep
        self._error_string = _ErrorString(address("stencilc_py_error_string"))
        self._pointer_device = _PointerDevice(address("stencilc_py_pointer_device"))
        self._stream_wait = _StreamWait(address("stencilc_py_stream_wait"))

    @classmethod
    def load(cls, path):
        dll = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
        key = os.path.basename(os.path.dirname(path))[:16]
        return cls(lambda symbol: ctypes.cast(getattr(dll, symbol), ctypes.c_void_p).value, key,
                   dll)

    def infos(self):
        table = ctypes.cast(self.address("stencilc_py_infos"),
                            ctypes.POINTER(ctypes.POINTER(_InfoStruct)))
        found = []
        while table[len(found)]:
            found.append(Info(table[len(found)].contents))
        return found

    def error_string(self, code):
        return self._error_string(code).decode()

    def device_of(self, v, name):
        if v.device[1] is not None:
            return v.device[1]
        device = self._pointer_device(v.ptr)
        if device < 0:
            raise TypeError(f"{name}: got a pointer ({v.ptr:#x}, from {v.framework}) that is not "
                            "CUDA device memory; needs a CUDA device array")
        return device

    def check_devices(self, a, b, names):
        da, db = self.device_of(a, names[0]), self.device_of(b, names[1])
        if da != db:
            raise ValueError(f"{names[1]}: got an array on cuda:{db}; needs the device of "
                             f"{names[0]}, cuda:{da}")

    def order_after(self, handle, *views):
        """CUDA Array Interface v3: work on `handle` waits for the stream an
        array's producer named, where that is another stream."""
        for v in views:
            if v.stream is not None and v.stream != handle:
                code = self._stream_wait(handle, v.stream)
                if code:
                    raise CudaError(f"ordering after the producer's stream: CUDA error {code}: "
                                    f"{self.error_string(code)}", code)


class Module:
    """The stencils of one compiled source, as attributes by name."""

    def __init__(self, library, cache_entry=None):
        self._library = library
        self.cache_entry = cache_entry
        self.stencils = {info.name: Stencil(library, info) for info in library.infos()}

    def __getattr__(self, name):
        stencils = self.__dict__.get("stencils", {})
        if name in stencils:
            return stencils[name]
        raise AttributeError(f"this stencilc module has no stencil '{name}' "
                             f"(it has {', '.join(stencils) or 'none'})")

    def __dir__(self):
        return list(super().__dir__()) + list(self.stencils)

    def __repr__(self):
        return f"<stencilc.Module {', '.join(self.stencils)}>"


def attach(extension):
    """Called by an extension module that stencilc_add_python_module()
    built, as it is imported: gives it a Stencil attribute per stencil and
    `stencils`, from the addresses in its `_symbols` table."""
    symbols = dict(extension._symbols)
    key = "".join(c if c.isalnum() else "_" for c in extension.__name__)
    library = Library(symbols.__getitem__, key, extension)
    module = Module(library)
    for name, stencil in module.stencils.items():
        setattr(extension, name, stencil)
    extension.stencils = module.stencils
    return module
