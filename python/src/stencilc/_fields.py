"""A stencil of fields (docs/language.md, "Fields, coefficient fields and
parameters"): its input fields and `out` (or `scratch` and `steps`) by
position or name, its coefficient fields and parameters by keyword, in the
order of the generated C API (docs/generated-code.md):

    wave2d.step(u, u_prev, out, *, c2, dt, stream=None)
    wave2d.run(u, u_prev, scratch, steps, *, c2, dt, stream=None)

run() returns the array that holds the result: the stepped field's, which
with time levels is the current one (the C API leaves the newest level in
it and the one before in the previous level's).
"""

import ctypes
import numbers

from . import _arrays
from ._stencil import Stencil


class FieldsStencil(Stencil):
    """One compiled stencil of fields: step(), run() and info."""

    def __init__(self, targets, info):
        super().__init__(targets, info)
        inputs = tuple(f for f in info.fields if f not in info.coefficient_fields)
        self._positional = {"step": (*inputs, "out"), "run": (*inputs, "scratch", "steps")}
        self._keywords = (*info.coefficient_fields, *info.params)
        # Written by run(): the stepped field, the previous level, scratch.
        self._written = {"step": ("out",),
                         "run": (info.stepped, *(info.time[:1] if info.time else ()), "scratch")}
        head = [ctypes.c_void_p] * (len(info.fields) + 1) + [ctypes.c_int] * info.dims + [
            ctypes.c_double] * len(info.params)
        self._types = (ctypes.CFUNCTYPE(ctypes.c_int, *head, ctypes.c_void_p),
                       ctypes.CFUNCTYPE(ctypes.c_int, *head, ctypes.c_int, ctypes.c_void_p))

    def _functions(self, device):
        step, run = super()._functions(device)
        found = self._by_device[device] = (self._types[0](step), self._types[1](run))
        return found

    def _bind(self, what, args, kwargs):
        """{argument name: value}; a TypeError for what Python's own
        binding would refuse, naming the argument."""
        call = f"{self._name}.{what}()"
        positional = self._positional[what]
        names = (*positional, *self._keywords)
        if len(args) > len(positional):
            raise TypeError(f"{call} takes {len(positional)} positional arguments "
                            f"({', '.join(positional)}) but {len(args)} were given"
                            + (f"; {', '.join(self._keywords)} are keyword-only"
                               if self._keywords else ""))
        bound = dict(zip(positional, args))
        for name, value in kwargs.items():
            if name not in names:
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

    def _param(self, name, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name}: got {type(value).__name__} {value!r}; needs a real number "
                            f"(parameter '{name}' of stencil '{self._name}')")
        return float(value)

    def _checked_views(self, what, bound):
        """The views of the fields in declaration order and of out/scratch,
        each checked, then together: one shape, one device, and no written
        buffer sharing a byte with another buffer."""
        info = self.info
        names = (*info.fields, "out" if what == "step" else "scratch")
        views = [_arrays.view(bound[n], n) for n in names]
        for v, n in zip(views, names):
            _arrays.check(v, n, info.dtype, info.dims, self._minimum, info.name)
        for v, n in zip(views[1:], names[1:]):
            _arrays.check_shape(views[0], v, (names[0], n))
        self._targets.first.check_devices(views, names)
        for w in self._written[what]:
            i = names.index(w)
            for j, n in enumerate(names):
                if j != i:
                    _arrays.check_apart(views[j], views[i], (n, w))
        return views

    def _call(self, what, args, kwargs, stream):
        bound = self._bind(what, args, kwargs)
        tail = ()
        if what == "run":
            _arrays.check_steps(bound["steps"])
            tail = (bound["steps"],)
        params = [self._param(n, bound[n]) for n in self.info.params]
        views = self._checked_views(what, bound)
        first = views[0]
        device = first.device[1]
        functions = self._by_device.get(device) or self._functions(device)
        handle = _arrays.stream_handle(stream, first)
        if any(v.stream is not None for v in views):
            self._targets.first.order_after(handle, views)
        function = functions[0 if what == "step" else 1]
        code = function(*(v.ptr for v in views), *first.shape, *params, *tail, handle)
        if code:
            self._raise(code, what)
        return bound

    def step(self, *args, stream=None, **kwargs):
        """One step, out = stencil(fields), on `stream` (default: the
        framework's current stream)."""
        self._call("step", args, kwargs, stream)

    def run(self, *args, stream=None, **kwargs):
        """`steps` steps of the stepped field (with time levels, rotating the
        previous, current and scratch buffers); returns the array holding
        the result."""
        return self._call("run", args, kwargs, stream)[self.info.stepped]
