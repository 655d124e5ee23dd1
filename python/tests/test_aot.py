"""stencilc_add_python_module(): a CMake project (tests/aot/) builds its
stencils into an extension module, which imports with no compile at run
time and behaves as compile()'s module does (on a GPU: the same numbers)."""

import os
import shutil
import subprocess
import sys

import pytest

import stencilc

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = """
import sys
import numpy as np
import heatmod
import stencilc
heat = heatmod.heat
assert isinstance(heat, stencilc.Stencil), heat
assert (heat.info.name, heat.info.dims, heat.info.precision) == ("heat", 2, "fp32")
assert heat.info.boundary == "periodic" and heat.info.coefficients[(0, 0)] == 0.5
try:
    heat.step(np.zeros((8, 8), np.float32), np.zeros((8, 8), np.float32))
except TypeError as e:
    assert "inp: got an array on the cpu" in str(e), e
else:
    raise AssertionError("a NumPy array was taken")
if len(sys.argv) > 1:  # on a GPU: the stencil runs, as compile()'s does
    import cupy
    a = cupy.random.random((37, 129), dtype=cupy.float32)
    b = cupy.empty_like(a)
    heat.step(a, b)
    x = a.get().astype(np.float64)
    want = 0.5 * x + 0.125 * sum(np.roll(x, s, axis) for s in (1, -1) for axis in (0, 1))
    error = np.linalg.norm(b.get() - want) / np.linalg.norm(want)
    assert error < 2e-6, error
print("ok", heat.info.backend)
"""


def _gpu_and_cupy():
    if not shutil.which("nvidia-smi"):
        return False
    try:
        import cupy  # noqa: F401
    except ImportError:
        return False
    return True


def test_ahead_of_time_module(needs_nvcc, tmp_path):
    if not shutil.which("cmake"):
        pytest.skip("needs cmake")
    from stencilc import _build

    build = tmp_path / "build"
    cmake_dir = os.path.join(os.path.dirname(stencilc.__file__), "cmake")
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    env = dict(os.environ, CUDACXX=_build.nvcc_executable())
    configure = subprocess.run(
        ["cmake", "-S", os.path.join(HERE, "aot"), "-B", str(build), *generator,
         "-DCMAKE_BUILD_TYPE=Release", f"-DPython_EXECUTABLE={sys.executable}",
         f"-DSTENCILC_CMAKE_DIR={cmake_dir}", "-DSTENCILC_ARCH=sm_90"],
        capture_output=True, text=True, env=env)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    built = subprocess.run(["cmake", "--build", str(build)], capture_output=True, text=True,
                           env=env)
    assert built.returncode == 0, built.stdout + built.stderr
    args = ["gpu"] if _gpu_and_cupy() else []
    checked = subprocess.run([sys.executable, "-c", CHECK, *args], capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                                 [str(build)] + sys.path)))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("ok")
