"""The kinds of the language come from the compiler's tables: the installed
package's enums (stencilc/_kinds.py, written at build time by
tools/write_kinds.py) are those of Precisions.def, Boundaries.def and
Backends.def, a line added to a table reaches them with no edit in python/,
and the ctypes copies of stencil_info.h's structs have its fields, in its
order and at the C compiler's offsets."""

import ctypes
import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest

import stencilc
from stencilc import _info, _kinds, _stencil

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = os.path.join(HERE, "..", "..", "compiler", "include", "stencilc")
HEADER = os.path.join(os.path.dirname(stencilc.__file__), "include", "stencilc", "runtime",
                      "stencil_info.h")
needs_tables = pytest.mark.skipif(
    not os.path.isfile(os.path.join(TABLES, "Boundaries.def")),
    reason="the compiler's tables (compiler/include/stencilc/*.def) are not beside the package")


def table(name, macro):
    """The lines of a table as lists of arguments: read here on their own
    (not by write_kinds.py), keyword and what follows up to a comma."""
    with open(os.path.join(TABLES, name)) as f:
        return [re.findall(r'"[^"]*"|[^,\s()"][^,()]*', line[len(macro):].strip())
                for line in f if line.startswith(macro + "(")]


def unquoted(text):
    return text.strip('"')


@needs_tables
def test_precisions_are_the_tables():
    rows = table("Precisions.def", "STENCILC_PRECISION")
    assert _kinds.PRECISIONS == tuple(unquoted(r[1]) for r in rows)
    assert _kinds.PRECISION_ELEMENT_TYPES == tuple(unquoted(r[3]) for r in rows)


@needs_tables
def test_boundaries_are_the_tables():
    rows = table("Boundaries.def", "STENCILC_BOUNDARY")
    assert _kinds.BOUNDARIES == tuple(unquoted(r[1]) for r in rows)
    assert _kinds.BOUNDARY_OUTSIDE == tuple(r[4] for r in rows)


@needs_tables
def test_backends_are_the_tables():
    rows = table("Backends.def", "STENCILC_BACKEND")
    assert _kinds.BACKENDS == tuple(unquoted(r[1]) for r in rows)


def test_every_precision_has_an_array_dtype():
    assert all(t in _info.DTYPES for t in _kinds.PRECISION_ELEMENT_TYPES), (
        _kinds.PRECISION_ELEMENT_TYPES)


def _info_struct(boundary):
    """An InfoStruct as a generated header would define it, of `boundary`."""
    s = _info.InfoStruct()
    s.name, s.dims, s.radius, s.boundary, s.fused_steps = b"blur", 1, 2, boundary, 1
    return s


@needs_tables
def test_a_new_boundary_needs_no_edit(tmp_path, monkeypatch):
    # Boundaries.def with a sixth rule, as `reflect` will be: the kinds
    # written from it name it, and an Info and a stencil take it as they are.
    with open(os.path.join(TABLES, "Boundaries.def")) as f:
        text = f.read()
    line = ('STENCILC_BOUNDARY(Reflect, "reflect", STENCILC_BOUNDARY_REFLECT, '
            '"ReflectBoundary", Fold, "reflect: reads outside reflect", "boundary reflect.")\n')
    (tmp_path / "Boundaries.def").write_text(text.replace("#undef STENCILC_BOUNDARY",
                                                          line + "#undef STENCILC_BOUNDARY"))
    out = tmp_path / "_kinds.py"
    subprocess.run([sys.executable, os.path.join(HERE, "..", "tools", "write_kinds.py"), str(out),
                    os.path.join(TABLES, "Precisions.def"), str(tmp_path / "Boundaries.def"),
                    os.path.join(TABLES, "Backends.def")], check=True)
    spec = importlib.util.spec_from_file_location("kinds_with_reflect", out)
    kinds = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kinds)
    assert kinds.BOUNDARIES == (*_kinds.BOUNDARIES, "reflect")
    monkeypatch.setattr(_info, "_kinds", kinds)
    monkeypatch.setattr(_stencil, "_kinds", kinds)
    info = _info.Info(_info_struct(len(_kinds.BOUNDARIES)))
    assert info.boundary == "reflect"
    # Its reads outside fold back into the grid: every point is written, so
    # one point per axis is enough (fixed, reading zeros, needs 2r + 1).
    assert _stencil.PlainStencil(None, info)._minimum == 1


def test_an_unknown_boundary_is_named():
    with pytest.raises(stencilc.StencilcError, match="its boundary is number 99, which this "
                       "package does not know"):
        _info.Info(_info_struct(99))


def header_fields(struct):
    """The field names of `typedef struct struct {...} struct;` in the
    installed stencil_info.h, in order."""
    with open(HEADER) as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    body = re.search(rf"typedef struct {struct} \{{(.*?)\}} {struct};", text, flags=re.S)
    assert body, f"no struct {struct} in {HEADER}"
    return [re.search(r"(\w+)\s*(\[\d+\])?$", d.strip()).group(1)
            for d in body.group(1).split(";") if d.strip()]


STRUCTS = {"stencilc_stencil_info": _info.InfoStruct, "stencilc_fields_info": _info.FieldsStruct,
           "stencilc_point": _info._Point}


@pytest.mark.parametrize("struct", STRUCTS)
def test_struct_fields_are_the_headers(struct):
    assert [f[0] for f in STRUCTS[struct]._fields_] == header_fields(struct)


def _c_compiler():
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def test_struct_layout_is_the_c_compilers(tmp_path):
    cc = _c_compiler()
    if cc is None:
        pytest.skip("needs a C compiler (cc, gcc or clang; or $CC)")
    lines = []
    for struct in STRUCTS:
        lines.append(f'printf("{struct} %zu\\n", sizeof({struct}));')
        lines += [f'printf("{struct}.{f} %zu\\n", offsetof({struct}, {f}));'
                  for f in header_fields(struct)]
    program = tmp_path / "layout.c"
    program.write_text('#include <stddef.h>\n#include <stdio.h>\n'
                       '#include "stencilc/runtime/stencil_info.h"\n'
                       "int main(void) {\n" + "\n".join(lines) + "\nreturn 0;\n}\n")
    include = os.path.dirname(os.path.dirname(os.path.dirname(HEADER)))
    subprocess.run([cc, "-I", include, str(program), "-o", str(tmp_path / "layout")], check=True)
    told = dict(line.split() for line in subprocess.run(
        [str(tmp_path / "layout")], capture_output=True, text=True, check=True).stdout.splitlines())
    ours = {}
    for struct, cls in STRUCTS.items():
        ours[struct] = str(ctypes.sizeof(cls))
        ours.update({f"{struct}.{f[0]}": str(getattr(cls, f[0]).offset) for f in cls._fields_})
    assert ours == told
