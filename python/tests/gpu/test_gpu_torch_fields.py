"""A stencil of fields as torch.library custom ops on the GPU: opcheck of
step and run (with time levels and a parameter, and a 1D stencil whose one
field is `in`), a torch.compile graph that calls them giving what the
stencil's own step() and run() give, and the ops ordering with PyTorch's
work on a non-default stream; and for a per-step parameter and receivers
(stencils.WAVE_RECORD), opcheck of run with and without them and a
torch.compile graph whose records are those of the stencil's own run()."""

import pytest

import frameworks
import stencils

SOURCE = stencils.WAVE + stencils.DECAY + stencils.WAVE_RECORD
SHAPE = (37, 131)


@pytest.fixture(scope="module")
def module():
    if "torch" not in frameworks.available():
        pytest.skip("GPU test skipped: PyTorch with CUDA is not installed")
    import stencilc

    return stencilc.compile(SOURCE)


def wave_fields(seed, shape=SHAPE):
    import torch

    generator = torch.Generator(device="cuda").manual_seed(seed)
    return {n: torch.rand(shape, device="cuda", generator=generator)
            for n in ("u", "u_prev", "c2", "out")}


def test_opcheck_wave(module):
    step, run = module.wave2d.torch_ops()
    f = wave_fields(1)
    import torch

    torch.library.opcheck(step, (f["u"], f["u_prev"], f["out"], f["c2"], 0.3))
    torch.library.opcheck(run, (f["u"], f["u_prev"], f["out"], 4, f["c2"], 0.3))


def test_opcheck_field_named_in(module):
    import torch

    step, run = module.decay1d.torch_ops()
    a = torch.rand(1001, device="cuda", dtype=torch.float64)
    b = torch.rand(1001, device="cuda", dtype=torch.float64)
    torch.library.opcheck(step, (a, b, 0.5))
    torch.library.opcheck(run, (a, b, 7, 0.5))


def test_torch_compile_graph(module):
    import torch

    wave = module.wave2d
    step, run = wave.torch_ops()

    def advance(u, u_prev, c2):
        out = torch.zeros_like(u)  # fixed boundary: step() leaves the border as it is
        step(u, u_prev, out, c2, 0.3)
        u, u_prev = out * 1.0, u.clone()
        run(u, u_prev, torch.zeros_like(u), 5, c2, 0.3)
        return u, u_prev

    f = wave_fields(2)
    compiled = torch.compile(advance, backend="aot_eager", fullgraph=True)
    got = compiled(f["u"], f["u_prev"], f["c2"])
    u, u_prev = f["u"].clone(), f["u_prev"].clone()
    out = torch.zeros_like(u)
    wave.step(u, u_prev, out, c2=f["c2"], dt=0.3)
    u, u_prev = out, u
    wave.run(u, u_prev, torch.zeros_like(u), 5, c2=f["c2"], dt=0.3)
    torch.testing.assert_close(got, (u, u_prev), rtol=0, atol=0)


def test_stream_ordering(module):
    """On a non-default stream, the op runs after the work queued before it
    and before the work queued after it (the wave step is linear in u and
    u_prev, so doubling them doubles out exactly)."""
    import torch

    step, _ = module.wave2d.torch_ops()
    f = wave_fields(3, shape=(2048, 2048))
    u, u_prev = torch.empty_like(f["u"]), torch.empty_like(f["u"])
    out = torch.zeros_like(f["u"])  # the border, which step() leaves
    stream = torch.cuda.Stream()
    torch.cuda.synchronize()
    with torch.cuda.stream(stream):
        for _ in range(3):
            u.copy_(f["u"])
            u.mul_(2.0)  # work before the op, on `stream`
            torch.mul(f["u_prev"], 2.0, out=u_prev)
            step(u, u_prev, out, f["c2"], 0.3)  # the current stream: `stream`
            c = out * 0.5  # work after it
    stream.synchronize()
    expect = torch.zeros_like(out)
    module.wave2d.step(f["u"], f["u_prev"], expect, c2=f["c2"], dt=0.3)
    torch.cuda.synchronize()
    assert torch.equal(c, expect), "the op did not order with the stream's own work"


def wave_record_fields(seed, shape=SHAPE):
    import torch

    f = wave_fields(seed, shape)
    f["src"] = torch.zeros(shape, device="cuda")
    f["src"][shape[0] // 2, shape[1] // 2] = 1.0
    return f


def test_opcheck_per_step_and_receivers(module):
    import torch

    step, run = module.wave2d_rec.torch_ops()
    f = wave_record_fields(4)
    amp = torch.linspace(-1.0, 1.0, 8, dtype=torch.float64, device="cuda")
    receivers = torch.tensor([[1, 1], [18, 65], [35, 129]], dtype=torch.int32, device="cuda")
    records = torch.zeros(8, 3, device="cuda")
    torch.library.opcheck(step, (f["u"], f["u_prev"], f["src"], f["out"], f["c2"], 0.3, 0.5))
    torch.library.opcheck(run, (f["u"], f["u_prev"], f["src"], f["out"], 8, f["c2"], 0.3, amp,
                                receivers, records))
    torch.library.opcheck(run, (f["u"], f["u_prev"], f["src"], f["out"], 8, f["c2"], 0.3,
                                amp.cpu(), None, None))  # values in host memory; no receivers


def test_torch_compile_records(module):
    import torch

    wave = module.wave2d_rec
    _, run = wave.torch_ops()
    f = wave_record_fields(5)
    amp = torch.linspace(-1.0, 1.0, 7, dtype=torch.float64, device="cuda")
    receivers = torch.tensor([[1, 1], [18, 65], [18, 66]], dtype=torch.int32, device="cuda")

    def advance(u, u_prev, src, c2):
        u, u_prev = u.clone(), u_prev.clone()
        records = torch.zeros(7, 3, device="cuda")
        run(u, u_prev, src, torch.zeros_like(u), 7, c2, 0.3, amp, receivers, records)
        return u, records

    compiled = torch.compile(advance, backend="aot_eager", fullgraph=True)
    got = compiled(f["u"], f["u_prev"], f["src"], f["c2"])
    u, u_prev = f["u"].clone(), f["u_prev"].clone()
    records = torch.zeros(7, 3, device="cuda")
    wave.run(u, u_prev, f["src"], torch.zeros_like(u), 7, c2=f["c2"], dt=0.3, amp=amp,
             receivers=receivers, records=records)
    torch.testing.assert_close(got, (u, records), rtol=0, atol=0)
