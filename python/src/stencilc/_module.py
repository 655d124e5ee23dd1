"""A loaded library of stencils: the Module compile() returns, and a Stencil
per stencil of the source with its step(), run() and info."""

import ctypes
import os

from . import _arrays, _core
from ._errors import CudaError

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


class _FieldsStruct(ctypes.Structure):  # stencilc_fields_info, the same header
    _fields_ = [("num_fields", ctypes.c_int), ("field_names", ctypes.POINTER(ctypes.c_char_p)),
                ("field_is_coefficient", ctypes.POINTER(ctypes.c_int)),
                ("num_params", ctypes.c_int), ("param_names", ctypes.POINTER(ctypes.c_char_p)),
                ("num_terms", ctypes.c_int), ("terms", ctypes.c_void_p),
                ("stepped_field", ctypes.c_int), ("previous_field", ctypes.c_int)]


class Info:
    """What a stencil is (its spec) and how it was compiled (its plan)."""

    def __init__(self, s, fields=None):
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
        # A stencil of the one input `in` (fields None), or of fields
        # (docs/language.md): every field in declaration order (the order of
        # the C API's pointers), the coefficient fields among them, the
        # run-time parameters, the field NAME_run steps and, with time
        # levels, (previous, current).
        self.fields, self.coefficient_fields, self.params = ("in",), (), ()
        self.stepped, self.time = "in", None
        self.of_fields = fields is not None
        if fields:
            names = [fields.field_names[i].decode() for i in range(fields.num_fields)]
            self.fields = tuple(names)
            self.coefficient_fields = tuple(n for i, n in enumerate(names)
                                            if fields.field_is_coefficient[i])
            self.params = tuple(fields.param_names[i].decode() for i in range(fields.num_params))
            self.stepped = names[fields.stepped_field]
            if fields.previous_field >= 0:
                self.time = (names[fields.previous_field], self.stepped)

    def __repr__(self):
        return (f"Info(name={self.name!r}, dims={self.dims}, radius={self.radius}, "
                f"shape={self.shape!r}, precision={self.precision!r}, "
                f"boundary={self.boundary!r}, points={len(self.coefficients)}, "
                f"backend={self.backend!r}, fused_steps={self.fused_steps}"
                + (f", fields={self.fields!r}, params={self.params!r}, time={self.time!r}"
                   if self.of_fields else "") + ")")


class Stencil:
    """One compiled stencil of the one input `in`: step(), run() and info."""

    def __init__(self, targets, info):
        self.info = info
        self._targets = targets
        self._name = info.name
        self._minimum = 2 * info.radius + 1 if info.boundary == "fixed" else 1
        self._dtype, self._dims = info.dtype, info.dims
        self._call_step = getattr(_core, f"step{info.dims}")
        self._call_run = getattr(_core, f"run{info.dims}")
        self._by_device = {}  # device index -> (NAME_step, NAME_run) there
        self._ops = None

    def torch_ops(self):
        """(step, run) as torch.library custom ops, registered on first use,
        for torch.compile graphs: step(inp, out) and run(a, b, steps), or,
        for a stencil of fields, its step() and run() arguments in order
        (_torch.py, docs/python.md)."""
        if self._ops is None:
            from . import _torch

            self._ops = _torch.register(self, self._targets.first.key)
        return self._ops

    def __repr__(self):
        return f"<stencilc.Stencil {self.info.name}: {self.info!r}>"

    def _functions(self, device):
        """The stencil's two functions in the library for `device`."""
        library = self._targets.for_device(device)
        found = self._by_device[device] = (library.address(f"{self._name}_step"),
                                           library.address(f"{self._name}_run"))
        return found

    def _views(self, x, y, names):
        a = _arrays.view(x, names[0])
        b = _arrays.view(y, names[1])
        if not _arrays.usable(a, b, self._dtype, self._dims, self._minimum):
            info, library = self.info, self._targets.first
            _arrays.check(a, names[0], info.dtype, info.dims, self._minimum, info.name)
            _arrays.check(b, names[1], info.dtype, info.dims, self._minimum, info.name)
            _arrays.check_pair(a, b, names)
            library.check_devices((a, b), names)
        return a, b

    def _raise(self, code, what):
        message = self._targets.first.error_string(code)
        raise CudaError(f"{self.info.name}_{what}: CUDA error {code}: {message}", code)

    def step(self, inp, out, *, stream=None):
        """One step, out = stencil(inp), enqueued on `stream` (default: the
        framework's current stream)."""
        a, b = self._views(inp, out, ("inp", "out"))
        device = a.device[1]
        functions = self._by_device.get(device) or self._functions(device)
        handle = _arrays.stream_handle(stream, a)
        if a.stream is not None or b.stream is not None:
            self._targets.first.order_after(handle, (a, b))
        code = self._call_step(functions[0], a.ptr, b.ptr, *a.shape, handle)
        if code:
            self._raise(code, "step")

    def run(self, a, b, steps, *, stream=None):
        """`steps` steps ping-ponging between a and b; the result is left in a
        (b is scratch of the same shape), which it returns."""
        _arrays.check_steps(steps)
        va, vb = self._views(a, b, ("a", "b"))
        device = va.device[1]
        functions = self._by_device.get(device) or self._functions(device)
        handle = _arrays.stream_handle(stream, va)
        if va.stream is not None or vb.stream is not None:
            self._targets.first.order_after(handle, (va, vb))
        code = self._call_run(functions[1], va.ptr, vb.ptr, *va.shape, steps, handle)
        if code:
            self._raise(code, "run")
        return a


_ErrorString = ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.c_int)
_PointerDevice = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
_StreamWait = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
_DeviceArch = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)


class Library:
    """Generated stencils with the package's helpers beside them (HELPERS in
    _generate.py): a shared library compile() built, or an extension module
    stencilc_add_python_module() built. `address(symbol)` gives a function's
    or table's address; `keep` is what must stay loaded while it is used."""

    entry = None  # the cache entry it was loaded from

    def __init__(self, address, key, keep):
        self.address, self.key, self._keep = address, key, keep
        self._error_string = _ErrorString(address("stencilc_py_error_string"))
        self._pointer_device = _PointerDevice(address("stencilc_py_pointer_device"))
        self._stream_wait = _StreamWait(address("stencilc_py_stream_wait"))
        self.device_arch = _DeviceArch(address("stencilc_py_device_arch"))

    @classmethod
    def load(cls, path):
        dll = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
        key = os.path.basename(os.path.dirname(path))[:16]
        library = cls(lambda symbol: ctypes.cast(getattr(dll, symbol), ctypes.c_void_p).value,
                      key, dll)
        library.entry = os.path.dirname(path)
        return library

    def infos(self):
        table = ctypes.cast(self.address("stencilc_py_infos"),
                            ctypes.POINTER(ctypes.POINTER(_InfoStruct)))
        fields = ctypes.cast(self.address("stencilc_py_fields"),
                             ctypes.POINTER(ctypes.POINTER(_FieldsStruct)))
        found = []
        while table[len(found)]:
            i = len(found)
            found.append(Info(table[i].contents, fields[i].contents if fields[i] else None))
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

    def check_devices(self, views, names):
        """All on one device (each view's device is then known)."""
        devices = [self.device_of(v, n) for v, n in zip(views, names)]
        for v, n, d in zip(views, names, devices):
            if d != devices[0]:
                raise ValueError(f"{n}: got an array on cuda:{d}; needs the device of "
                                 f"{names[0]}, cuda:{devices[0]}")
            v.device = ("cuda", d)

    def order_after(self, handle, views):
        """CUDA Array Interface v3: work on `handle` waits for the stream an
        array's producer named, where that is another stream."""
        for v in views:
            if v.stream is not None and v.stream != handle:
                code = self._stream_wait(handle, v.stream)
                if code:
                    raise CudaError(f"ordering after the producer's stream: CUDA error {code}: "
                                    f"{self.error_string(code)}", code)


def device_arch(library, device):
    """The compute capability of CUDA device `device` (90 for 9.0), or -1."""
    return library.device_arch(device)


class Targets:
    """The libraries a Module's stencils run from: the one compile() built
    (`first`) for every device, or, where compile() was given arch=None
    (`build`: compute capability -> Library), one per architecture of the
    devices the arrays are on, built at the first call there."""

    def __init__(self, first, first_arch=None, build=None):
        self.first, self._build = first, build
        self.by_arch = {first_arch: first}
        self._by_device = {}

    def for_device(self, device):
        library = self._by_device.get(device)
        if library is None:
            library = self._by_device[device] = self._choose(device)
        return library

    def _choose(self, device):
        if self._build is None:
            return self.first
        number = device_arch(self.first, device)
        if number < 0:  # no such device: the call reports CUDA's error
            return self.first
        library = self.by_arch.get(number)
        if library is None:
            library = self.by_arch[number] = self._build(number)
        return library


class Module:
    """The stencils of one compiled source, as attributes by name."""

    def __init__(self, targets, cache_entry=None):
        from ._fields import FieldsStencil

        self._targets = targets
        self.cache_entry = cache_entry
        self.stencils = {info.name: (FieldsStencil if info.of_fields else Stencil)(
            targets, info) for info in targets.first.infos()}

    @property
    def cache_entries(self):
        """{compute capability (90): cache entry} of the libraries loaded so
        far (arch=None: one per architecture of the devices called on)."""
        return {arch: library.entry for arch, library in self._targets.by_arch.items()}

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
    module = Module(Targets(Library(symbols.__getitem__, key, extension)))
    for name, stencil in module.stencils.items():
        setattr(extension, name, stencil)
    extension.stencils = module.stencils
    return module
