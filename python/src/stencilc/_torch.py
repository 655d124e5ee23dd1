"""The stencils as torch.library custom ops, so that torch.compile graphs
can call them. Each op writes its outputs in place and returns nothing (its
fake, for tracing, does nothing either); the schema names every argument
and marks the ones written (Tensor(a!)).

A stencil of the one input `in`:

    stencilc::NAME_KEY_step(Tensor inp, Tensor(a!) out) -> ()
    stencilc::NAME_KEY_run(Tensor(a!) a, Tensor(b!) b, int steps) -> ()

A stencil of fields, in the order of its step() and run() (docs/python.md):
the input fields, out (or scratch and steps), the coefficient fields, then
the parameters as floats; run() writes the stepped field, with time levels
the previous level too, and scratch:

    stencilc::wave2d_KEY_step(Tensor u, Tensor u_prev, Tensor(a!) out,
                              Tensor c2, float dt) -> ()
    stencilc::wave2d_KEY_run(Tensor(a!) u, Tensor(b!) u_prev,
                             Tensor(c!) scratch, int steps, Tensor c2,
                             float dt) -> ()

KEY is the compiled library's key: one op per compiled source, registered
once per process however many times it is compiled or loaded.
"""

import inspect
import keyword

import torch

_registered = {}  # qualified name -> op


def schema_name(name):
    """An argument's name in the schema: a field named after a Python
    keyword gets "_" appended (`in`, as the plain stencils' ops, is `inp`)."""
    if name == "in":
        return "inp"
    return name + "_" if keyword.iskeyword(name) else name


def _op(qualname, parameters, mutated, call):
    """The custom op `qualname` taking `parameters` ((name, type) pairs) and
    writing `mutated`, which calls call(**arguments by name)."""
    op = _registered.get(qualname)
    if op is not None:
        return op
    names = {schema_name(n): n for n, _ in parameters}
    signature = inspect.Signature(
        [inspect.Parameter(schema_name(n), inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=t)
         for n, t in parameters], return_annotation=None)

    def function(*args, **kwargs):
        bound = signature.bind(*args, **kwargs).arguments
        call(**{names[n]: v for n, v in bound.items()})

    function.__signature__ = signature
    function.__name__ = qualname.split("::")[1]
    op = torch.library.custom_op(qualname, function,
                                 mutates_args=tuple(schema_name(n) for n in mutated))

    @op.register_fake
    def _(*args, **kwargs):
        return None

    _registered[qualname] = op
    return op


def register(stencil, key):
    """The two ops of `stencil` (step, run), registered on first use."""
    info = stencil.info
    prefix = f"stencilc::{info.name}_{key}"
    if not info.of_fields:
        step = _op(f"{prefix}_step", [("inp", torch.Tensor), ("out", torch.Tensor)], ("out",),
                   stencil.step)
        run = _op(f"{prefix}_run", [("a", torch.Tensor), ("b", torch.Tensor), ("steps", int)],
                  ("a", "b"), stencil.run)
        return step, run
    params = set(info.params)

    def typed(names):
        return [(n, float if n in params else int if n == "steps" else torch.Tensor)
                for n in names]

    step, run = (_op(f"{prefix}_{what}", typed((*stencil._positional[what], *stencil._keywords)),
                     stencil._written[what], getattr(stencil, what)) for what in ("step", "run"))
    return step, run
