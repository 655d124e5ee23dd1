"""The stencils as torch.library custom ops, so that torch.compile graphs
can call them. Each op writes its outputs in place and returns nothing (its
fake, for tracing, does nothing either); the schema names every argument
and marks the ones written (Tensor(a!)).

A stencil of the one input `in`:

    stencilc::NAME_KEY_step(Tensor inp, Tensor(a!) out) -> ()
    stencilc::NAME_KEY_run(Tensor(a!) a, Tensor(b!) b, int steps) -> ()

A stencil of fields, in the order of its step() and run() (docs/python.md):
the input fields, out (or scratch and steps), the coefficient fields, then
the parameters as floats (in run, a per-step one as a Tensor of a value a
step), then in run each list of points as two optional Tensors without a
default, None for no list (sources and amplitudes; receivers and records,
which it writes); run() writes the stepped field, with time
levels the previous level too, and scratch:

    stencilc::wave2d_KEY_step(Tensor u, Tensor u_prev, Tensor(a!) out,
                              Tensor c2, float dt) -> ()
    stencilc::wave2d_KEY_run(Tensor(a!) u, Tensor(b!) u_prev,
                             Tensor(c!) scratch, int steps, Tensor c2,
                             float dt) -> ()

KEY is the compiled library's key: one op per compiled source, registered
once per process however many times it is compiled or loaded.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, Optional

import torch

from ._calls import Call, arguments
from ._info import Info

_registered: dict[str, Any] = {}  # qualified name -> op
Parameter = tuple[str, Any, Any]  # (Python name, type, default: inspect.Parameter.empty for none)


def _op(qualname: str, parameters: list[Parameter], mutated: tuple[str, ...],
        call: Callable[..., Any]) -> Any:
    """The custom op `qualname` taking `parameters` and writing `mutated`
    (an optional Tensor among them where it is given), which calls
    call(**arguments by name)."""
    op = _registered.get(qualname)
    if op is not None:
        return op
    signature = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=t, default=d)
         for n, t, d in parameters], return_annotation=None)

    def function(*args: Any, **kwargs: Any) -> None:
        call(**signature.bind(*args, **kwargs).arguments)

    # torch.library reads the schema off the signature; functions take any
    # attribute, but typing knows of no __signature__.
    setattr(function, "__signature__", signature)
    function.__name__ = qualname.split("::")[1]
    op = torch.library.custom_op(qualname, function, mutates_args=mutated)

    def fake(*args: Any, **kwargs: Any) -> None:  # for tracing: the op returns nothing
        return None

    op.register_fake(fake)
    _registered[qualname] = op
    return op


def _stencil_op(info: Info, key: str, what: Call, call: Callable[..., Any]) -> Any:
    """The op of `what` (step or run) of the stencil `info` of the library
    `key`, which calls `call` (the stencil's method) by argument name. The
    schema's names are the method's (_calls.py: a field named after a
    Python keyword with "_" appended, `in` as `inp`)."""
    taken = arguments(info, what)
    empty = inspect.Parameter.empty
    parameters: list[Parameter] = [
        (n, float if n in taken.params and n not in taken.per_step
         else int if n == "steps" else torch.Tensor, empty) for n in taken.required]
    # The lists' tensors (receivers, records, ...) come without a default:
    # torch (2.11) fails on a written optional tensor left out of a call
    # (its in-place bookkeeping indexes the arguments given), so an op's
    # caller passes None for a list it does not give.
    parameters += [(n, Optional[torch.Tensor], empty) for n in taken.optional]
    return _op(f"stencilc::{info.name}_{key}_{what}", parameters, taken.written, call)


def register(info: Info, key: str, step: Callable[..., Any],
             run: Callable[..., Any]) -> tuple[Any, Any]:
    """The two ops (step, run) of a stencil, registered on first use."""
    return _stencil_op(info, key, "step", step), _stencil_op(info, key, "run", run)
