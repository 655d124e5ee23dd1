"""arch=None: the library for the GPU the arrays are on. compile() builds
for the current GPU (sm_80 without one); a call on arrays of a device of
another architecture builds (once, cached by the same key) and runs the
library for that one. The device comes from the array (DLPack's device id,
or the pointer of a CUDA Array Interface); here each device's compute
capability is a stand-in, as there is no GPU."""

import pytest

import fakes
import stencilc
from stencilc import _library

SOURCE = """stencil blur1d {
  precision fp32;
  boundary clamp;
  out[i] = 0.25 * in[i-1] + 0.5 * in[i] + 0.25 * in[i+1];
}
"""
BASE = 0x7F0000000000
CAPABILITY = {0: 80, 1: 90, 2: 80}


@pytest.fixture
def devices(monkeypatch, needs_nvcc):
    asked = []

    def device_arch(library, device):
        asked.append(device)
        return CAPABILITY[device]

    monkeypatch.setattr(_library, "device_arch", device_arch)
    monkeypatch.setattr(stencilc._build, "_framework_device_arch", lambda: None)
    monkeypatch.setattr(stencilc._build, "_first_device_arch", lambda: (8, 0))
    return asked


def call_on(stencil, device):
    """Runs `stencil` on two fake arrays of `device` up to the stream (the
    last thing read before the launch)."""
    a = fakes.DLPackArray((64,), ptr=BASE, device=(fakes.CUDA, device))
    b = fakes.DLPackArray((64,), ptr=BASE + (1 << 30), device=(fakes.CUDA, device))
    with pytest.raises(TypeError, match="stream: got str"):
        stencil.step(a, b, stream="x")


def test_a_library_per_architecture(devices):
    module = stencilc.compile(SOURCE)
    assert list(module.cache_entries) == [80]
    call_on(module.blur1d, 1)
    assert sorted(module.cache_entries) == [80, 90]
    assert module.cache_entries[90] != module.cache_entries[80]
    call_on(module.blur1d, 0)
    call_on(module.blur1d, 2)
    call_on(module.blur1d, 1)
    assert devices == [1, 0, 2] and sorted(module.cache_entries) == [80, 90]
    # the same key as compile(arch="sm_90") gives
    assert stencilc.compile(SOURCE, arch="sm_90").cache_entry == module.cache_entries[90]


def test_interface_arrays_take_the_pointer_device(devices, monkeypatch):
    module = stencilc.compile(SOURCE.replace("0.25 * in[i+1]", "0.25 * in[i+1] + 0 * in[i]"))
    monkeypatch.setattr(_library.Library, "device_of", lambda self, v, name: 1)
    a = fakes.InterfaceArray((64,), ptr=BASE)
    b = fakes.InterfaceArray((64,), ptr=BASE + (1 << 30))
    with pytest.raises(TypeError, match="stream: got str"):
        module.blur1d.step(a, b, stream="x")
    assert devices == [1] and sorted(module.cache_entries) == [80, 90]


def test_a_given_arch_serves_every_device(devices):
    module = stencilc.compile(SOURCE, arch="sm_80")
    call_on(module.blur1d, 1)
    assert devices == [] and list(module.cache_entries) == [80]
