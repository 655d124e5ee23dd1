"""The arguments of a stencil's step() and run(), by the names Python takes
them by, from its Info alone: one answer for its methods (_stencil.py,
_fields.py) and its PyTorch ops (_torch.py).

A stencil of the one input `in`:

    step(inp, out, *, stream=None)
    run(a, b, steps, *, stream=None)

A stencil of fields (docs/language.md), in the order of its generated C
API: the input fields and out (or scratch and steps) by position or by
name, the coefficient fields and the parameters by name only, and, for run,
the arrays of each list of points its NAME_run takes (receivers and
records of `record u;`), by name, both or neither:

    wave2d.step(u, u_prev, out, *, c2, dt, stream=None)
    wave2d.run(u, u_prev, scratch, steps, *, c2, dt, stream=None)
    wave2d.run(u, u_prev, scratch, steps, *, c2, dt, amp, receivers=None,
               records=None, stream=None)     # amp per step, record u
"""

from __future__ import annotations

import inspect
import keyword
from typing import Literal, NamedTuple

from ._info import POINT_LISTS, Info


def python_name(name: str) -> str:
    """A field's or parameter's name as a Python argument. The language
    forbids C and C++ keywords there, not Python's: one that is a Python
    keyword gets "_" appended (`lambda_`), except `in` (the one input of a
    stencil with parameters), which is `inp` as in step(inp, out)."""
    if name == "in":
        return "inp"
    return name + "_" if keyword.iskeyword(name) else name


class Arguments(NamedTuple):
    """The arguments of step() or run() but `stream`, by their Python names."""

    positional: tuple[str, ...]  # taken by position or by name, in this order
    keywords: tuple[str, ...]  # taken by name only: coefficient fields, then parameters
    params: tuple[str, ...]  # those of `keywords` that are parameters (numbers or per_step)
    written: tuple[str, ...]  # the arrays the call writes
    per_step: tuple[str, ...] = ()  # those of `params` taken as an array of a value a step
    optional: tuple[str, ...] = ()  # by name only, None by default: the lists' arrays

    @property
    def required(self) -> tuple[str, ...]:
        return (*self.positional, *self.keywords)

    @property
    def names(self) -> tuple[str, ...]:
        return (*self.positional, *self.keywords, *self.optional)


Call = Literal["step", "run"]


def arguments(info: Info, what: Call) -> Arguments:
    """The arguments of `what` of the stencil `info`."""
    if not info.of_fields:
        if what == "step":
            return Arguments(("inp", "out"), (), (), ("out",))
        return Arguments(("a", "b", "steps"), (), (), ("a", "b"))
    inputs = tuple(python_name(f) for f in info.fields if f not in info.coefficient_fields)
    params = tuple(python_name(p) for p in info.params)
    keywords = (*(python_name(f) for f in info.coefficient_fields), *params)
    if what == "step":
        return Arguments((*inputs, "out"), keywords, params, ("out",))
    # run() writes the stepped field, with time levels the previous level
    # too (the C API rotates the three buffers), scratch, and the values of
    # the lists it writes (records).
    previous = (python_name(info.time[0]),) if info.time else ()
    lists = [POINT_LISTS[n] for n in info.point_lists]
    return Arguments((*inputs, "scratch", "steps"), keywords, params,
                     (python_name(info.stepped), *previous, "scratch",
                      *(p.values for p in lists if p.written)),
                     tuple(python_name(p) for p in info.per_step),
                     tuple(a for p in lists for a in (p.points, p.values)))


def signature(taken: Arguments) -> inspect.Signature:
    """The Python signature of a call taking `taken` and then `stream`."""
    kind = inspect.Parameter
    return inspect.Signature(
        [kind(n, kind.POSITIONAL_OR_KEYWORD) for n in taken.positional]
        + [kind(n, kind.KEYWORD_ONLY) for n in taken.keywords]
        + [kind(n, kind.KEYWORD_ONLY, default=None) for n in (*taken.optional, "stream")])
