"""The stencils as torch.library custom ops: opcheck, and a torch.compile
graph that calls them."""

import pytest

import frameworks
import stencils


@pytest.fixture(scope="module")
def ops(modules):
    if "torch" not in frameworks.available():
        pytest.skip("GPU test skipped: PyTorch with CUDA is not installed")
    return modules["fp32", 2], modules["bf16", 3]


@pytest.mark.parametrize("which", [0, 1])
def test_opcheck(ops, which):
    import torch

    module = ops[which]
    precision, dims = ("fp32", 2) if which == 0 else ("bf16", 3)
    stencil = getattr(module, stencils.name(precision, dims, "periodic"))
    step, run = stencil.torch_ops()
    dtype = getattr(torch, stencils.DTYPES[precision])
    shape = (33, 65) if dims == 2 else (9, 17, 33)
    a = torch.rand(shape, device="cuda").to(dtype)
    b = torch.rand(shape, device="cuda").to(dtype)
    torch.library.opcheck(step, (a, b))
    torch.library.opcheck(run, (a, b, 3))


def test_torch_compile_graph(ops):
    import torch

    stencil = getattr(ops[0], stencils.name("fp32", 2, "periodic"))
    step, _ = stencil.torch_ops()

    def smooth_twice(x):
        y = torch.empty_like(x)
        z = torch.empty_like(x)
        step(x, y)
        step(y * 1.0, z)
        return z

    x = torch.rand((64, 96), device="cuda")
    compiled = torch.compile(smooth_twice, backend="aot_eager", fullgraph=True)
    torch.testing.assert_close(compiled(x), smooth_twice(x), rtol=0, atol=0)
