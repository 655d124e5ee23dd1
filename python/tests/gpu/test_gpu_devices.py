"""arch=None on the GPU: the library is the one for the device the arrays
are on (asked of CUDA at the first call on a device), and a device of
another architecture gets a library of its own, built at that call. The
machine has one GPU, so the second architecture is a stand-in: device 0
reported as 8.0, whose library (sm_80 code, JIT-compiled from its PTX by
the driver) must give the same results."""

import numpy as np
import pytest

import frameworks
import stencils

BLUR = """
stencil blur2d_dev {
  precision fp32;
  boundary clamp;
  out[j, i] = 0.5 * in[j, i] + 0.125 * (in[j-1, i] + in[j+1, i] + in[j, i-1] + in[j, i+1]);
}
"""


def _blur_reference(x):
    padded = np.pad(x, 1, mode="edge")
    return (0.5 * padded[1:-1, 1:-1] + 0.125 * (padded[:-2, 1:-1] + padded[2:, 1:-1]
                                                + padded[1:-1, :-2] + padded[1:-1, 2:]))


def _framework():
    available = frameworks.available()
    if not available:
        pytest.skip("GPU test skipped: neither CuPy nor PyTorch with CUDA is installed")
    return available[0]


def _step_and_check(stencil, framework):
    rng = np.random.default_rng(5)
    a = frameworks.to_device(framework, rng.random((61, 67)), "float32")
    b = frameworks.to_device(framework, rng.random((61, 67)), "float32")
    stencil.step(a, b)
    want = _blur_reference(frameworks.to_host(a))
    assert stencils.relative_l2(frameworks.to_host(b), want) < 1e-6


def test_the_arrays_device_decides(monkeypatch):
    import stencilc
    from stencilc import _library

    framework = _framework()
    module = stencilc.compile(BLUR)
    (arch,) = module.cache_entries
    asked = []
    real = _library.device_arch
    monkeypatch.setattr(_library, "device_arch",
                        lambda library, device: asked.append(real(library, device)) or asked[-1])
    _step_and_check(module.blur2d_dev, framework)
    assert asked == [arch] and list(module.cache_entries) == [arch]


def test_another_architecture_builds_its_library(monkeypatch):
    import stencilc
    from stencilc import _library

    framework = _framework()
    module = stencilc.compile(BLUR.replace("blur2d_dev", "blur2d_other"))
    (arch,) = module.cache_entries
    other = 80 if arch != 80 else 90
    monkeypatch.setattr(_library, "device_arch", lambda library, device: other)
    _step_and_check(module.blur2d_other, framework)
    assert sorted(module.cache_entries) == sorted([arch, other])
