"""The pipeline in process (the _pipeline extension, which links
compiler/lib/Pipeline): the same .cu and .h as the stencilc executable,
its located diagnostics as a CompileError, and stencilc's exit statuses."""

import os
import subprocess

import pytest

import stencilc
from stencilc import _generate

HEAT = """stencil heat2d {
  precision fp32;
  boundary periodic;
  out[j, i] = 0.5 * in[j, i] + 0.125 * (in[j-1, i] + in[j+1, i] + in[j, i-1] + in[j, i+1]);
}
"""

pytestmark = pytest.mark.skipif(_generate._pipeline is None,
                                reason="the package was built without the in-process pipeline "
                                "(no LLVM 19 where it was built, or STENCILC_PYTHON_PIPELINE=OFF)")


def _both(tmp_path, text, options):
    """(in process, executable): (status, .cu, .h, diagnostics) for `text`."""
    path = tmp_path / "heat.stencil"
    path.write_text(text)
    inside = _generate._pipeline.generate(text, str(path), "sm_90", "auto", options, "out.h")
    done = subprocess.run([_generate.stencilc_executable(), str(path), "-o",
                           str(tmp_path / "out.cu"), "--arch=sm_90", *options],
                          capture_output=True, text=True)
    outside = [done.returncode, "", "", done.stderr]
    if done.returncode == 0:
        outside[1] = (tmp_path / "out.cu").read_text()
        outside[2] = (tmp_path / "out.h").read_text()
    return tuple(inside), tuple(outside)


@pytest.mark.parametrize("options", [[], ["--plan-option=fuse=2", "-v"], ["--Werror"]])
def test_same_output_as_the_executable(tmp_path, options):
    inside, outside = _both(tmp_path, HEAT, options)
    assert inside[0] == 0 and inside == outside


def test_same_diagnostics_as_the_executable(tmp_path):
    inside, outside = _both(tmp_path, HEAT.replace("in[j, i+1]", "in[j, k]"), [])
    assert inside[0] == 1 and inside == outside
    assert "heat.stencil:4:" in inside[3] and "error:" in inside[3]


def test_bad_options_are_usage_errors(tmp_path):
    inside, outside = _both(tmp_path, HEAT, ["--plan-option=fuse=99"])
    assert inside[0] == outside[0] == 2 and inside[3] == outside[3]
    status, _, _, message = _generate._pipeline.generate(HEAT, "h.stencil", "sm_90", "auto",
                                                         ["--emit=plan"], "h.h")
    assert status == 2
    assert "option '--emit=plan' is not one the in-process pipeline takes" in message


def test_compile_runs_no_process(needs_nvcc, monkeypatch):
    started = []
    real = _generate.run

    def spy(command, failed):
        started.append(os.path.basename(command[0]))
        return real(command, failed)

    monkeypatch.setattr(_generate, "run", spy)
    stencilc.compile(HEAT.replace("0.5 *", "0.25 * in[j, i] + 0.25 *"), arch="sm_90")
    assert started == ["nvcc"]


def test_compile_error_carries_the_status(needs_nvcc):
    with pytest.raises(stencilc.CompileError) as caught:
        stencilc.compile(HEAT, arch="sm_90", options=["--plan-option=fuse=99"])
    assert caught.value.status == 2 and "--plan-option fuse must be" in str(caught.value)
    with pytest.raises(stencilc.CompileError) as caught:
        stencilc.compile(HEAT.replace("in[j-1, i]", "in[j-1, q]"), arch="sm_90")
    assert caught.value.status == 1 and "source.stencil:4:" in str(caught.value)


def test_stencilc_variable_turns_it_off(monkeypatch):
    monkeypatch.setenv("STENCILC", os.path.join(os.path.dirname(stencilc.__file__), "bin",
                                                "stencilc"))
    assert not _generate.in_process("stencil")
    monkeypatch.delenv("STENCILC")
    assert _generate.in_process("stencil") and not _generate.in_process("c")
