"""A stencil of fields (docs/language.md, "Fields, coefficient fields and
parameters"): its input fields and `out` (or `scratch` and `steps`) by
position or name, its coefficient fields and parameters by name only, in
the order of the generated C API (docs/generated-code.md):

    wave2d.step(u, u_prev, out, *, c2, dt, stream=None)
    wave2d.run(u, u_prev, scratch, steps, *, c2, dt, stream=None)

Those are the signatures inspect.signature() gives for the stencil's
step and run: they are made per stencil from its Info (_calls.py). A field
named after a Python keyword is taken as `name_`, the one input `in` as
`inp`.

run() returns the array that holds the result: the stepped field's, which
with time levels is the current one (the C API leaves the newest level in
it and the one before in the previous level's).
"""

from __future__ import annotations

import ctypes
import numbers
from typing import Any, Callable

from . import _arrays
from ._calls import Arguments, Call, arguments, python_name, signature
from ._info import Info
from ._library import Targets
from ._stencil import Stencil


class FieldsStencil(Stencil):
    """A compiled stencil of fields: step(), run() and info. Its step and
    run take its fields and parameters by their names (see
    inspect.signature(stencil.step))."""

    def __init__(self, targets: Targets, info: Info) -> None:
        super().__init__(targets, info)
        self._arguments = {what: arguments(info, what) for what in ("step", "run")}
        self._fields = tuple(python_name(f) for f in info.fields)  # the C API's pointer order
        self._stepped = python_name(info.stepped)
        head = [ctypes.c_void_p] * (len(info.fields) + 1) + [ctypes.c_int] * info.dims + [
            ctypes.c_double] * len(info.params)
        self._types = (ctypes.CFUNCTYPE(ctypes.c_int, *head, ctypes.c_void_p),
                       ctypes.CFUNCTYPE(ctypes.c_int, *head, ctypes.c_int, ctypes.c_void_p))
        self._by_device: dict[int, tuple[Any, Any]] = {}  # device -> (NAME_step, NAME_run)
        self.step = self._method("step", "One step, out = stencil(fields), enqueued on "
                                 "`stream` (default: the framework's current stream).")
        self.run = self._method("run", "`steps` steps of the stepped field (with time levels, "
                                "rotating the previous, current and scratch buffers), "
                                "enqueued on `stream`; returns the array holding the result.")

    def _method(self, what: Call, doc: str) -> Callable[..., Any]:
        """step or run of this stencil: a function whose signature
        (inspect.signature) is the stencil's own."""
        def method(*args: object, **kwargs: object) -> Any:
            bound = self._call(what, args, kwargs)
            return bound[self._stepped] if what == "run" else None

        method.__name__ = what
        method.__qualname__ = f"{self._name}.{what}"
        method.__doc__ = doc
        # Functions take any attribute; typing knows of no __signature__.
        setattr(method, "__signature__", signature(self._arguments[what]))
        return method

    def _functions(self, device: int) -> tuple[Any, Any]:
        step, run = self._addresses(device)
        found = self._by_device[device] = (self._types[0](step), self._types[1](run))
        return found

    def _bind(self, what: Call, args: tuple[object, ...],
              kwargs: dict[str, object]) -> dict[str, object]:
        """{argument name: value}, `stream` among them where given; a
        TypeError for what the signature refuses, worded as Python's own
        binding would, with the arguments the stencil takes."""
        call = f"{self._name}.{what}()"
        taken = self._arguments[what]
        positional, keywords, names = taken.positional, taken.keywords, taken.names
        if len(args) > len(positional):
            raise TypeError(f"{call} takes {len(positional)} positional arguments "
                            f"({', '.join(positional)}) but {len(args)} were given"
                            + (f"; {', '.join(keywords)} are keyword-only" if keywords else ""))
        bound = dict(zip(positional, args))
        for name, value in kwargs.items():
            if name not in names and name != "stream":
                raise TypeError(f"{call} got an unexpected keyword argument '{name}'; it takes "
                                f"{', '.join(names)} and stream")
            if name in bound:
                raise TypeError(f"{call} got multiple values for argument '{name}'")
            bound[name] = value
        missing = [n for n in names if n not in bound]
        if missing:
            raise TypeError(f"{call} missing argument{'s' if len(missing) > 1 else ''} "
                            f"{', '.join(repr(n) for n in missing)} (it takes "
                            f"{', '.join(names)})")
        return bound

    def _param(self, name: str, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name}: got {type(value).__name__} {value!r}; needs a real number "
                            f"(parameter '{name}' of stencil '{self._name}')")
        return float(value)

    def _checked_views(self, taken: Arguments, last: str,
                       bound: dict[str, object]) -> tuple[list[_arrays.View], int]:
        """The views of the fields in declaration order and of `last` (out
        or scratch), each checked, then together: one shape, one device
        (returned with them), and no written buffer sharing a byte with
        another buffer."""
        info = self.info
        names = (*self._fields, last)
        views = [_arrays.view(bound[n], n) for n in names]
        for v, n in zip(views, names):
            _arrays.check(v, n, info.dtype, info.dims, self._minimum, info.name)
        for v, n in zip(views[1:], names[1:]):
            _arrays.check_shape(views[0], v, (names[0], n))
        device = self._targets.first.check_devices(views, names)
        for w in taken.written:
            i = names.index(w)
            for j, n in enumerate(names):
                if j != i:
                    _arrays.check_apart(views[j], views[i], (n, w))
        return views, device

    def _call(self, what: Call, args: tuple[object, ...],
              kwargs: dict[str, object]) -> dict[str, object]:
        """Binds, checks and calls NAME_step or NAME_run; the arguments by name."""
        taken = self._arguments[what]
        bound = self._bind(what, args, kwargs)
        tail = (_arrays.check_steps(bound["steps"]),) if what == "run" else ()
        params = [self._param(n, bound[n]) for n in taken.params]
        views, device = self._checked_views(taken, "out" if what == "step" else "scratch", bound)
        first = views[0]
        functions = self._by_device.get(device) or self._functions(device)
        handle = _arrays.stream_handle(bound.get("stream"), first)
        if any(v.stream is not None for v in views):
            self._targets.first.order_after(handle, views)
        function = functions[0 if what == "step" else 1]
        code = function(*(v.ptr for v in views), *first.shape, *params, *tail, handle)
        if code:
            self._raise(code, what)
        return bound
