"""The package is typed: it ships py.typed and stubs of its compiled modules
(which match them), and mypy, configured by python/pyproject.toml
([tool.mypy], strict), finds no error in it, and does find one put there.
mypy runs on a copy of the installed package's Python files: the generated
_kinds.py is there and nothing is silenced as an installed package's
errors would be. Skipped without mypy (pip install ./python[test])."""

import ast
import importlib
import os
import re
import shutil
import subprocess
import sys

import pytest

import stencilc

PACKAGE_DIR = os.path.dirname(os.path.abspath(stencilc.__file__))
PYPROJECT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pyproject.toml")


def test_the_package_ships_its_types():
    for name in ("py.typed", "_core.pyi", "_pipeline.pyi"):
        assert os.path.isfile(os.path.join(PACKAGE_DIR, name)), name


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory):
    pytest.importorskip("mypy", reason="mypy is not installed (pip install ./python[test])")
    return str(tmp_path_factory.mktemp("mypy-cache"))


def _copy_of_package(into):
    """The installed package's .py and .pyi files and py.typed, in into/stencilc."""
    copy = into / "stencilc"
    copy.mkdir()
    for name in os.listdir(PACKAGE_DIR):
        if name.endswith((".py", ".pyi")) or name == "py.typed":
            shutil.copy(os.path.join(PACKAGE_DIR, name), copy / name)
    return copy


def _mypy(root, cache):
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", PYPROJECT,
                           "--cache-dir", cache, "stencilc"],
                          cwd=root, capture_output=True, text=True)


def test_mypy_finds_no_error(mypy_cache, tmp_path):
    _copy_of_package(tmp_path)
    done = _mypy(tmp_path, mypy_cache)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_a_type_error(mypy_cache, tmp_path):
    # The check above is only worth something where an error fails it: one
    # put into a module the package imports.
    copy = _copy_of_package(tmp_path)
    with open(copy / "_arrays.py", "a") as f:
        f.write("\n\ndef _probe() -> int:\n    return nbytes\n")
    done = _mypy(tmp_path, mypy_cache)
    assert done.returncode == 1, done.stdout + done.stderr
    assert re.search(r"_arrays\.py:\d+: error: Incompatible return value", done.stdout), (
        done.stdout)


def _stub_parameters(module):
    """{name: [(parameter, positional only)] or None for a constant} of the
    stub of `module`."""
    with open(os.path.join(PACKAGE_DIR, module + ".pyi")) as f:
        tree = ast.parse(f.read())
    found = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = ([(a.arg, True) for a in node.args.posonlyargs]
                                + [(a.arg, False) for a in node.args.args])
        elif isinstance(node, ast.AnnAssign):
            found[node.target.id] = None
    return found


def _real_parameters(module):
    """The same of the compiled module, from nanobind's signatures: an
    argument nanobind names argN has no name, so only its place counts."""
    real = importlib.import_module(f"stencilc.{module}")
    found = {}
    for name in dir(real):
        if name.startswith("__"):
            continue
        value = getattr(real, name)
        if not hasattr(value, "__nb_signature__"):
            found[name] = None
            continue
        text = value.__nb_signature__[0][0]  # "def f(arg0: int, x: str, /) -> int"
        inside = text[text.index("(") + 1:text.rindex(")")]
        names = [p.split(":")[0].strip() for p in re.split(r",\s*(?![^\[]*\])", inside)]
        found[name] = [(n, True) if re.fullmatch(r"arg\d+", n) else (n, False)
                       for n in names if n and n != "/"]
    return found


def _same(stub, real):
    """Whether the stub's parameters are the module's: the same number, and
    the names of those nanobind names."""
    if stub is None or real is None:
        return stub is real
    return len(stub) == len(real) and all(
        (r_only and s_only) or (not r_only and (s, s_only) == (r, False))
        for (s, s_only), (r, r_only) in zip(stub, real))


@pytest.mark.parametrize("module", ["_core", "_pipeline"])
def test_stub_is_the_module(module):
    try:
        real = _real_parameters(module)
    except ImportError:
        pytest.skip(f"stencilc.{module} was not built here")
    stub = _stub_parameters(module)
    assert sorted(stub) == sorted(real)
    assert all(_same(stub[n], real[n]) for n in stub), (stub, real)
