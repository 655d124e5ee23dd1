"""A stencil of the one input `in`: step(), run() and info; the base of the
stencils of fields (_fields.py)."""

from . import _arrays, _core
from ._errors import CudaError


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
