"""compile(): the package imports, compiles a stencil, describes it, and
refuses bad arguments and bad sources with clear errors."""

import os

import pytest

import stencilc

HEAT = """stencil heat2d {
  precision fp64;
  boundary constant 0.5;
  out[j, i] = 0.5 * in[j, i] + 0.125 * (in[j-1, i] + in[j+1, i] + in[j, i-1] + in[j, i+1]);
}
"""


def test_import():
    assert stencilc.__version__ == "0.1.0"
    assert os.access(os.path.join(os.path.dirname(stencilc.__file__), "bin", "stencilc"), os.X_OK)
    assert os.path.isfile(os.path.join(os.path.dirname(stencilc.__file__), "include", "stencilc",
                                       "runtime", "stencil_info.h"))


def test_compile_and_info(needs_nvcc):
    module = stencilc.compile(HEAT, arch="sm_90")
    info = module.heat2d.info
    assert (info.name, info.dims, info.radius, info.shape) == ("heat2d", 2, 1, "star")
    assert (info.precision, info.dtype) == ("fp64", "float64")
    assert (info.boundary, info.boundary_value) == ("constant", 0.5)
    assert info.coefficients == {(0, 0): 0.5, (-1, 0): 0.125, (1, 0): 0.125, (0, -1): 0.125,
                                 (0, 1): 0.125}
    assert info.backend in ("tensor", "simt") and info.fused_steps >= 1
    assert info.run_composed == (info.backend == "tensor" and info.fused_steps > 1)  # a star
    assert list(module.stencils) == ["heat2d"]
    assert module.cache_entry.startswith(stencilc.cache_root())


def test_compile_from_path_and_backend(needs_nvcc, tmp_path):
    path = tmp_path / "heat.stencil"
    path.write_text(HEAT)
    module = stencilc.compile(path, arch="sm_90", backend="simt")
    assert module.heat2d.info.backend == "simt"
    assert stencilc.compile(str(path), arch="sm_90", backend="simt") is module


def test_source_errors_are_located(needs_nvcc):
    bad = HEAT.replace("in[j, i+1]", "in[j, k]")
    with pytest.raises(stencilc.CompileError) as caught:
        stencilc.compile(bad, arch="sm_90")
    assert "source.stencil:4:" in str(caught.value) and "error:" in str(caught.value)


@pytest.mark.parametrize("kwargs,kind,text", [
    ({"backend": "gpu"}, ValueError, "backend must be one of auto, tensor, simt, got 'gpu'"),
    ({"arch": "sm_70"}, ValueError, "arch must be one of sm_80"),
    ({"options": ["-v", 3]}, TypeError, "options must be a list of str"),
])
def test_bad_arguments(kwargs, kind, text):
    with pytest.raises(kind, match=text):
        stencilc.compile(HEAT, **kwargs)


def test_not_a_source():
    with pytest.raises(TypeError,
                       match="needs the source text \\(str\\) or the path of a .stencil, .c"):
        stencilc.compile(42)


def test_missing_nvcc_names_cudacxx_and_path(monkeypatch):
    monkeypatch.setenv("CUDACXX", "/nonexistent/nvcc")
    with pytest.raises(stencilc.CompileError, match="CUDACXX"):
        stencilc.compile(HEAT, arch="sm_90")
    monkeypatch.delenv("CUDACXX")
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr("stencilc._build.os.access", lambda path, mode: False)
    with pytest.raises(stencilc.CompileError, match="set CUDACXX to its path, or put the CUDA "
                       "toolkit's bin directory on PATH"):
        stencilc._build.nvcc_executable()
