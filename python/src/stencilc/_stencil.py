"""A compiled stencil: Stencil, what every stencil has (info, torch_ops()),
and PlainStencil, a stencil of the one input `in`, whose step() and run()
call the generated NAME_step and NAME_run through the native core. The
stencils of fields are _fields.py's FieldsStencil.

Each kind has one signature per method, the one inspect.signature() gives:
a PlainStencil's are written below; a FieldsStencil's depend on its fields,
so they are made per stencil (_calls.py).
"""

from __future__ import annotations

from typing import Any, Callable, NoReturn, TypeVar

from . import _arrays, _core, _kinds
from ._errors import CudaError
from ._info import Info
from ._library import Targets

Array = TypeVar("Array")  # what run() returns: the array passed as `a`
Views = tuple[_arrays.View, _arrays.View, int]  # the two arrays, and their device


class Stencil:
    """A compiled stencil: `info`, `step()`, `run()` and `torch_ops()`.
    Every stencil is a PlainStencil (of the one input `in`) or a
    FieldsStencil (of fields and parameters); their step() and run() take
    different arguments (docs/python.md)."""

    step: Callable[..., None]
    run: Callable[..., Any]

    def __init__(self, targets: Targets, info: Info) -> None:
        self.info = info
        self._targets = targets
        self._name = info.name
        # The smallest size per axis the generated API takes: where reads
        # outside the grid are zero (fixed), only the interior is written,
        # and there must be one point of it; every other rule writes all.
        outside = _kinds.BOUNDARY_OUTSIDE[_kinds.BOUNDARIES.index(info.boundary)]
        self._minimum = 2 * info.radius + 1 if outside == "Zero" else 1
        self._ops: tuple[Any, Any] | None = None

    def torch_ops(self) -> tuple[Any, Any]:
        """(step, run) as torch.library custom ops, registered on first use,
        for torch.compile graphs: step(inp, out) and run(a, b, steps), or,
        for a stencil of fields, its step() and run() arguments in order
        (_torch.py, docs/python.md)."""
        if self._ops is None:
            from . import _torch  # late: PyTorch is optional, and slow to import

            self._ops = _torch.register(self.info, self._targets.first.key, self.step, self.run)
        return self._ops

    def __repr__(self) -> str:
        return f"<stencilc.Stencil {self.info.name}: {self.info!r}>"

    def _addresses(self, device: int) -> tuple[int, int]:
        """NAME_step and NAME_run in the library for `device`."""
        library = self._targets.for_device(device)
        return library.address(f"{self._name}_step"), library.address(f"{self._name}_run")

    def _raise(self, code: int, what: str) -> NoReturn:
        message = self._targets.first.error_string(code)
        raise CudaError(f"{self.info.name}_{what}: CUDA error {code}: {message}", code)


class PlainStencil(Stencil):
    """A compiled stencil of the one input `in`: step(inp, out) and
    run(a, b, steps)."""

    def __init__(self, targets: Targets, info: Info) -> None:
        super().__init__(targets, info)
        self._dtype, self._dims = info.dtype, info.dims
        self._call_step = getattr(_core, f"step{info.dims}")
        self._call_run = getattr(_core, f"run{info.dims}")
        self._by_device: dict[int, tuple[int, int]] = {}  # device -> _addresses(device)

    def _functions(self, device: int) -> tuple[int, int]:
        found = self._by_device[device] = self._addresses(device)
        return found

    def _views(self, x: object, y: object, names: tuple[str, str]) -> Views:
        """The two arrays, checked, and their device."""
        a = _arrays.view(x, names[0])
        b = _arrays.view(y, names[1])
        if _arrays.usable(a, b, self._dtype, self._dims, self._minimum):
            device = a.device[1]
            assert device is not None  # usable() found it known
            return a, b, device
        info, library = self.info, self._targets.first
        _arrays.check(a, names[0], info.dtype, info.dims, self._minimum, info.name)
        _arrays.check(b, names[1], info.dtype, info.dims, self._minimum, info.name)
        _arrays.check_pair(a, b, names)
        return a, b, library.check_devices((a, b), names)

    def step(self, inp: object, out: object, *, stream: object = None) -> None:
        """One step, out = stencil(inp), enqueued on `stream` (default: the
        framework's current stream)."""
        a, b, device = self._views(inp, out, ("inp", "out"))
        functions = self._by_device.get(device) or self._functions(device)
        handle = _arrays.stream_handle(stream, a)
        if a.stream is not None or b.stream is not None:
            self._targets.first.order_after(handle, (a, b))
        code = self._call_step(functions[0], a.ptr, b.ptr, *a.shape, handle)
        if code:
            self._raise(code, "step")

    def run(self, a: Array, b: object, steps: int, *, stream: object = None) -> Array:
        """`steps` steps ping-ponging between a and b; the result is left in a
        (b is scratch of the same shape), which it returns."""
        _arrays.check_steps(steps)
        va, vb, device = self._views(a, b, ("a", "b"))
        functions = self._by_device.get(device) or self._functions(device)
        handle = _arrays.stream_handle(stream, va)
        if va.stream is not None or vb.stream is not None:
            self._targets.first.order_after(handle, (va, vb))
        code = self._call_run(functions[1], va.ptr, vb.ptr, *va.shape, steps, handle)
        if code:
            self._raise(code, "run")
        return a
