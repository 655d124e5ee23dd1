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

run() takes a parameter declared `per step` as a float64 array of a value a
step, in host memory or on the fields' device, and step() as one number;
run() of a stencil that records (`record u;`) takes receivers ((count, dims)
int32) and records ((steps, count) of the stencil's dtype) on the fields'
device, both or neither (docs/python.md):

    wave2d.run(u, u_prev, src, scratch, steps, *, c2, dt, amp,
               receivers=None, records=None, stream=None)
"""

from __future__ import annotations

import ctypes
import numbers
from typing import Any, Callable

from . import _arrays
from ._calls import Arguments, Call, arguments, python_name, signature
from ._info import POINT_LISTS, Info
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
        self._per_step = {python_name(p) for p in info.per_step}
        head = [ctypes.c_void_p] * (len(info.fields) + 1) + [ctypes.c_int] * info.dims
        # NAME_run takes a per-step parameter as a pointer to its values, and
        # each list of points as (points, count, values).
        run_params = [ctypes.c_void_p if p in info.per_step else ctypes.c_double
                      for p in info.params]
        lists = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p] * len(info.point_lists)
        self._types = (
            ctypes.CFUNCTYPE(ctypes.c_int, *head, *[ctypes.c_double] * len(info.params),
                             ctypes.c_void_p),
            ctypes.CFUNCTYPE(ctypes.c_int, *head, *run_params, *lists, ctypes.c_int,
                             ctypes.c_void_p))
        self._by_device: dict[int, tuple[Any, Any]] = {}  # device -> (NAME_step, NAME_run)
        self.step = self._method("step", "One step, out = stencil(fields), enqueued on "
                                 "`stream` (default: the framework's current stream).")
        self.run = self._method("run", "`steps` steps of the stepped field (with time levels, "
                                "rotating the previous, current and scratch buffers), "
                                "enqueued on `stream`; returns the array holding the result. "
                                "A per-step parameter is an array of a value a step; "
                                "receivers and records, where taken, record the stepped "
                                "field after each step.")

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
        positional, names = taken.positional, taken.names
        keywords = names[len(positional):]
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
        missing = [n for n in taken.required if n not in bound]
        if missing:
            raise TypeError(f"{call} missing argument{'s' if len(missing) > 1 else ''} "
                            f"{', '.join(repr(n) for n in missing)} (it takes "
                            f"{', '.join(names)})")
        return bound

    def _param(self, name: str, value: object, per_step: bool,
               steps: int) -> float | _arrays.View:
        """A parameter's value: a float, or for one that `run` takes per step
        the View of its array, checked but for its device."""
        what = f"parameter '{name}' of stencil '{self._name}'"
        if per_step:
            if isinstance(value, numbers.Real):  # bool too
                raise TypeError(f"{name}: got {type(value).__name__} {value!r}; {what} is per "
                                "step: run() needs an array of a value a step (step() takes "
                                "one step's value)")
            v = _arrays.view(value, name, "needs a float64 array of a value a step (NumPy, "
                             "CuPy, PyTorch)")
            _arrays.check_per_step(v, name, steps, self._name)
            return v
        if not isinstance(value, bool) and isinstance(value, numbers.Real):
            return float(value)
        array = any(hasattr(value, a) for a in _ARRAY_ATTRIBUTES)
        got = f"an array ({type(value).__name__})" if array else f"{type(value).__name__} {value!r}"
        # step() of a per-step parameter takes that step's one value
        tail = "; step() takes one step's value" if name in self._per_step else ""
        raise TypeError(f"{name}: got {got}; needs a real number ({what}{tail})")

    def _lists(self, bound: dict[str, object],
               steps: int) -> tuple[list[object], list[tuple[str, _arrays.View]]]:
        """The C arguments of NAME_run's lists of points, (points, count,
        values) each, and the (name, View) of each array given, checked but
        for their device; a list left out is (null, 0, null)."""
        info = self.info
        args: list[object] = []
        given: list[tuple[str, _arrays.View]] = []
        for p in (POINT_LISTS[n] for n in info.point_lists):
            points, values = bound.get(p.points), bound.get(p.values)
            if points is None or values is None:
                if points is not None or values is not None:
                    named, other = (p.points, p.values) if values is None else (p.values, p.points)
                    raise TypeError(f"{named}: given without {other}; run() takes both or "
                                    "neither")
                args += [None, 0, None]
                continue
            pv = _arrays.view(points, p.points)
            _arrays.check_points(pv, p.points, info.dims)
            vv = _arrays.view(values, p.values)
            _arrays.check_values(vv, p.values, p.dtype or info.dtype, (steps, pv.shape[0]),
                                 p.points, info.name)
            args += [pv.ptr, pv.shape[0], vv.ptr]
            given += [(p.points, pv), (p.values, vv)]
        return args, given

    def _checked_views(self, taken: Arguments, last: str, bound: dict[str, object],
                       more: list[tuple[str, _arrays.View]]) -> tuple[list[_arrays.View], int]:
        """The views of the fields in declaration order and of `last` (out
        or scratch), each checked, then together with `more` (device arrays
        already checked alone): one shape for the fields, one device
        (returned with them), and no written buffer sharing a byte with
        another array."""
        info = self.info
        names = (*self._fields, last)
        views = [_arrays.view(bound[n], n) for n in names]
        for v, n in zip(views, names):
            _arrays.check(v, n, info.dtype, info.dims, self._minimum, info.name)
        for v, n in zip(views[1:], names[1:]):
            _arrays.check_shape(views[0], v, (names[0], n))
        every = [*zip(names, views), *more]
        device = self._targets.first.check_devices([v for _, v in every], [n for n, _ in every])
        for i, (w, written) in enumerate(every):
            if w in taken.written:
                for j, (n, v) in enumerate(every):
                    if j != i:
                        _arrays.check_apart(v, written, (n, w))
        return views, device

    def _call(self, what: Call, args: tuple[object, ...],
              kwargs: dict[str, object]) -> dict[str, object]:
        """Binds, checks and calls NAME_step or NAME_run; the arguments by name."""
        taken = self._arguments[what]
        bound = self._bind(what, args, kwargs)
        steps = _arrays.check_steps(bound["steps"]) if what == "run" else 0
        params = [self._param(n, bound[n], n in taken.per_step, steps) for n in taken.params]
        lists, more = self._lists(bound, steps) if what == "run" else ([], [])
        # Per-step values on a device must be on the fields' (NAME_run copies
        # them to the host); those in host memory are read there.
        more += [(n, p) for n, p in zip(taken.params, params)
                 if isinstance(p, _arrays.View) and p.device[0] == "cuda"]
        views, device = self._checked_views(taken, "out" if what == "step" else "scratch", bound,
                                            more)
        first = views[0]
        functions = self._by_device.get(device) or self._functions(device)
        handle = _arrays.stream_handle(bound.get("stream"), first)
        if any(v.stream is not None for v in (*views, *(v for _, v in more))):
            self._targets.first.order_after(handle, [*views, *(v for _, v in more)])
        function = functions[0 if what == "step" else 1]
        tail = (steps,) if what == "run" else ()
        code = function(*(v.ptr for v in views), *first.shape,
                        *(_per_step_pointer(p) if isinstance(p, _arrays.View) else p
                          for p in params), *lists, *tail, handle)
        if code:
            self._raise(code, what)
        return bound


# What marks an array, for saying that one was passed where a number is taken.
_ARRAY_ATTRIBUTES = ("__dlpack__", "__cuda_array_interface__", "__array_interface__")
# Where NAME_run may read the values of a per-step parameter when steps is 0
# (it reads none, but refuses a null pointer): an empty array's pointer may be
# null (PyTorch's, CuPy's).
_NO_VALUES = ctypes.c_double(0.0)


def _per_step_pointer(v: _arrays.View) -> int:
    return v.ptr or ctypes.addressof(_NO_VALUES)
