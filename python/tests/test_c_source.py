"""compile() takes C and C++ sources with `#pragma stencil` loop nests: a
path ending .c/.cc/.cpp/.cxx, or the text with language="c"/"c++"
(translated by the bundled stencilc, which runs stencilc-cfront)."""

import os

import pytest

import stencilc

HEAT_C = """
void heat(int n, const float in[n], float out[n]) {
#pragma stencil name(heat1d)
  for (int i = 1; i < n - 1; ++i)
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}
"""


@pytest.fixture
def needs_cfront(needs_nvcc):
    cfront = os.path.join(os.path.dirname(stencilc.__file__), "bin", "stencilc-cfront")
    if not os.access(cfront, os.X_OK):
        pytest.skip("the package bundles no stencilc-cfront (built from a stencilc without it)")


def _check(module):
    info = module.heat1d.info
    assert (info.dims, info.radius, info.precision) == (1, 1, "fp32")
    assert info.coefficients == {(-1,): 0.25, (0,): 0.5, (1,): 0.25}


def test_c_path(needs_cfront, tmp_path):
    path = tmp_path / "heat.c"
    path.write_text(HEAT_C)
    _check(stencilc.compile(path, arch="sm_90"))
    _check(stencilc.compile(str(path), arch="sm_90"))


def test_c_text(needs_cfront):
    _check(stencilc.compile(HEAT_C, arch="sm_90", language="c"))
    _check(stencilc.compile(HEAT_C, arch="sm_90", language="c++"))


def test_c_includes_next_to_the_file(needs_cfront, tmp_path):
    (tmp_path / "weights.h").write_text("#define CENTRE 0.5f\n")
    path = tmp_path / "heat.cc"
    path.write_text('#include "weights.h"\n' + HEAT_C.replace("0.5f", "CENTRE"))
    _check(stencilc.compile(path, arch="sm_90"))


def test_c_errors_are_located(needs_cfront, tmp_path):
    path = tmp_path / "bad.c"
    path.write_text(HEAT_C.replace("in[i + 1]", "in[i * 2]"))
    with pytest.raises(stencilc.CompileError) as caught:
        stencilc.compile(path, arch="sm_90")
    assert f"{path}:" in str(caught.value) and "error:" in str(caught.value)


def test_language_is_checked():
    with pytest.raises(ValueError, match="language must be one of stencil, c, c\\+\\+"):
        stencilc.compile(HEAT_C, language="fortran")
