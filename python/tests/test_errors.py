"""The errors stencilc raises: one base class, StencilcError; under it
CompileError (SourceError, OptionsError, CudaCompileError) and CudaError,
each raised where its failure happens."""

import stat

import pytest

import stencilc

HEAT = """stencil heat1d {
  precision fp32;
  boundary periodic;
  out[i] = 0.25 * in[i-1] + 0.5 * in[i] + 0.25 * in[i+1];
}
"""


def test_every_error_has_the_one_base():
    for error in (stencilc.CompileError, stencilc.SourceError, stencilc.OptionsError,
                  stencilc.CudaCompileError, stencilc.CudaError):
        assert issubclass(error, stencilc.StencilcError), error
        assert issubclass(error, RuntimeError), error  # as both were before the base


def test_compile_errors_share_compile_error():
    for error in (stencilc.SourceError, stencilc.OptionsError, stencilc.CudaCompileError):
        assert issubclass(error, stencilc.CompileError), error
    assert not issubclass(stencilc.CudaError, stencilc.CompileError)


def test_a_refused_source_is_a_source_error(needs_nvcc):
    with pytest.raises(stencilc.SourceError) as caught:
        stencilc.compile(HEAT.replace("in[i+1]", "in[k]"), arch="sm_90")
    assert caught.value.status == 1 and "source.stencil:4:" in str(caught.value)


def test_refused_options_are_an_options_error(needs_nvcc):
    with pytest.raises(stencilc.OptionsError) as caught:
        stencilc.compile(HEAT, arch="sm_90", options=["--plan-option=fuse=99"])
    assert caught.value.status == 2 and "--plan-option fuse must be" in str(caught.value)


def test_an_nvcc_failure_is_a_cuda_compile_error(monkeypatch, tmp_path):
    # A stand-in nvcc that tells its version and fails on every compile.
    nvcc = tmp_path / "nvcc"
    nvcc.write_text('#!/bin/sh\nif [ "$1" = --version ]; then\n'
                    '  echo "Cuda compilation tools, release 99.0, V99.0.1"; exit 0\nfi\n'
                    'echo "stand-in nvcc: refused" >&2\nexit 3\n')
    nvcc.chmod(nvcc.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("CUDACXX", str(nvcc))
    with pytest.raises(stencilc.CudaCompileError) as caught:
        stencilc.compile(HEAT, arch="sm_90")
    assert caught.value.status == 3
    assert "nvcc failed (exit status 3)" in str(caught.value)
    assert "stand-in nvcc: refused" in str(caught.value)


def test_a_missing_nvcc_is_a_cuda_compile_error(monkeypatch):
    monkeypatch.setenv("CUDACXX", "/nonexistent/nvcc")
    with pytest.raises(stencilc.CudaCompileError, match="CUDACXX names '/nonexistent/nvcc'") \
            as caught:
        stencilc.compile(HEAT, arch="sm_90")
    assert caught.value.status is None  # no tool ran
