"""The torch.library custom ops of a stencil of fields, without a GPU: their
schemas (the arguments of step() and run() in order, the written ones
marked; a stencil of the one input keeps its own), one registration per
compiled source, the fake implementation tracing a graph on fake tensors
with no kernel call, and the real op reaching the stencil's own argument
checks. Skipped where PyTorch is not
installed (CI installs no PyTorch; the GPU tests run opcheck)."""

import re

import pytest

import stencils
import support

torch = pytest.importorskip("torch", reason="PyTorch is not installed here")

SOURCE = stencils.WAVE + stencils.DECAY


@pytest.fixture(scope="module")
def module():
    return support.compile_or_skip(SOURCE, arch="sm_90")


def schemas(stencil):
    """The two ops' schemas, with the library's key left out."""
    key = stencil._targets.first.key
    return [str(op._opoverload._schema).replace(f"_{key}_", "_") for op in stencil.torch_ops()]


def test_schemas(module):
    assert schemas(module.wave2d) == [
        "stencilc::wave2d_step(Tensor u, Tensor u_prev, Tensor(a2!) out, Tensor c2, "
        "float dt) -> ()",
        "stencilc::wave2d_run(Tensor(a0!) u, Tensor(a1!) u_prev, Tensor(a2!) scratch, "
        "SymInt steps, Tensor c2, float dt) -> ()"]
    # The field `in`, a Python keyword, is `inp` as in the plain stencils' ops.
    assert schemas(module.decay1d) == [
        "stencilc::decay1d_step(Tensor inp, Tensor(a1!) out, float rate) -> ()",
        "stencilc::decay1d_run(Tensor(a0!) inp, Tensor(a1!) scratch, SymInt steps, "
        "float rate) -> ()"]


def test_plain_stencil_schemas():
    """A stencil of the one input keeps its ops' schemas."""
    plain = support.compile_or_skip(stencils.source("fp32", 1, ("periodic",)), arch="sm_90")
    assert schemas(getattr(plain, stencils.name("fp32", 1, "periodic"))) == [
        "stencilc::s1d_fp32_periodic_step(Tensor inp, Tensor(a1!) out) -> ()",
        "stencilc::s1d_fp32_periodic_run(Tensor(a0!) a, Tensor(a1!) b, SymInt steps) -> ()"]


def test_registered_once(module):
    ops = module.wave2d.torch_ops()
    assert module.wave2d.torch_ops() is ops
    again = support.compile_or_skip(SOURCE, arch="sm_90")  # the same library key
    assert again.wave2d.torch_ops() == ops
    key = module._targets.first.key
    assert hasattr(torch.ops.stencilc, f"wave2d_{key}_run")


def test_fake_traces_without_a_kernel(module):
    from torch.fx.experimental.proxy_tensor import make_fx

    step, run = module.wave2d.torch_ops()

    def advance(u, u_prev, c2):
        out = torch.zeros_like(u)
        step(u, u_prev, out, c2, 0.3)
        run(out, u, torch.empty_like(u), 4, c2, 0.3)
        return out, u

    fields = [torch.rand(16, 32) for _ in range(3)]  # CPU tensors: a real call would raise
    graph = make_fx(advance, tracing_mode="fake")(*fields)
    called = [n.target for n in graph.graph.nodes if n.op == "call_function"]
    assert called.count(step._opoverload) == 1 and called.count(run._opoverload) == 1
    results = [n for n in graph.graph.nodes if n.op == "output"][0].args[0]
    assert [(tuple(r.meta["val"].shape), r.meta["val"].dtype) for r in results] == [
        ((16, 32), torch.float32)] * 2


def test_meta_tensors(module):
    step, run = module.decay1d.torch_ops()
    a, b = (torch.empty(64, dtype=torch.float64, device="meta") for _ in range(2))
    assert step(a, b, 0.5) is None and run(a, b, 3, 0.5) is None


def test_real_call_checks_arguments(module):
    step, run = module.wave2d.torch_ops()
    u, u_prev, c2, out = (torch.rand(16, 32) for _ in range(4))
    with pytest.raises(TypeError, match="u: got an array on the cpu"):
        step(u, u_prev, out, c2, 0.3)
    with pytest.raises(ValueError, match=re.escape("steps: got -1; needs 0 <= steps < 2^31")):
        run(u, u_prev, out, -1, c2, 0.3)


@pytest.fixture(scope="module")
def recording():
    return support.compile_or_skip(stencils.WAVE_RECORD + stencils.HEAT_RECORD, arch="sm_90")


def test_schemas_of_per_step_parameters_and_receivers(recording):
    """run takes a per-step parameter as a Tensor of a value a step (step
    as a float: that step's value), then receivers and records as optional
    Tensors without a default (None for none: torch fails on a written
    optional tensor left out), records written."""
    assert schemas(recording.wave2d_rec) == [
        "stencilc::wave2d_rec_step(Tensor u, Tensor u_prev, Tensor src, Tensor(a3!) out, "
        "Tensor c2, float dt, float amp) -> ()",
        "stencilc::wave2d_rec_run(Tensor(a0!) u, Tensor(a1!) u_prev, Tensor src, "
        "Tensor(a3!) scratch, SymInt steps, Tensor c2, float dt, Tensor amp, "
        "Tensor? receivers, Tensor(a9!)? records) -> ()"]
    assert schemas(recording.heat3d_rec)[1] == (
        "stencilc::heat3d_rec_run(Tensor(a0!) inp, Tensor(a1!) scratch, SymInt steps, "
        "Tensor nu, Tensor? receivers, Tensor(a5!)? records) -> ()")


def test_real_call_checks_per_step_values_and_records(recording):
    _, run = recording.heat3d_rec.torch_ops()
    a, b = (torch.rand(4, 5, 6, dtype=torch.float64) for _ in range(2))
    with pytest.raises(ValueError, match=re.escape("nu: got 2 values; parameter 'nu' of stencil "
                                                   "'heat3d_rec' is per step: run() of 3 steps")):
        run(a, b, 3, torch.zeros(2, dtype=torch.float64), None, None)
    with pytest.raises(TypeError, match="records: given without receivers"):
        run(a, b, 3, torch.zeros(3, dtype=torch.float64), None, torch.zeros(3, 1))
