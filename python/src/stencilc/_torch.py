"""The stencils as torch.library custom ops, so that torch.compile graphs
can call them: stencilc::NAME_step_KEY(inp, out) and
stencilc::NAME_run_KEY(a, b, steps), which write their outputs in place
and return nothing (their fake, for tracing, does nothing either)."""

import torch


def register(stencil, key):
    """Registers the two ops of `stencil` (once); returns them."""
    name = f"{stencil.info.name}_{key}"

    @torch.library.custom_op(f"stencilc::{name}_step", mutates_args=("out",))
    def step(inp: torch.Tensor, out: torch.Tensor) -> None:
        stencil.step(inp, out)

    @step.register_fake
    def _(inp, out):
        return None

    @torch.library.custom_op(f"stencilc::{name}_run", mutates_args=("a", "b"))
    def run(a: torch.Tensor, b: torch.Tensor, steps: int) -> None:
        stencil.run(a, b, steps)

    @run.register_fake
    def _(a, b, steps):
        return None

    return step, run
