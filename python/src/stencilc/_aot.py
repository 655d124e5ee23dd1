"""Ahead of time: the sources of an extension module holding stencils, for
stencilc_add_python_module() (cmake/StencilcPython.cmake), which runs

    python -m stencilc._aot --name NAME --out DIR [--arch sm_90]
                            [--backend auto] [--option FLAG ...] a.stencil ...

For every a.stencil it writes DIR/a.cu and DIR/a.h (stencilc), and
DIR/NAME_module.cpp: the package's helpers and a nanobind module NAME whose
`_symbols` table gives the address of every NAME_step, NAME_run and helper;
importing it calls stencilc._attach(), which makes its stencils attributes,
as compile() would. Nothing is compiled when the module is imported.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from . import _build, _generate, _kinds
from ._errors import CompileError


def module_source(name: str, header_names: Sequence[str], names: Sequence[str],
                  tables: _generate.Tables) -> str:
    symbols = list(_generate.HELPERS) + [f"{n}_{f}" for n in names for f in ("step", "run")]
    table = "".join(
        f'  symbols.append(nb::make_tuple("{s}", reinterpret_cast<std::uintptr_t>({s})));\n'
        for s in symbols)
    return (_generate.shim_source(header_names, names, tables) +
            f"""
#include <cstdint>
#include <nanobind/nanobind.h>

namespace nb = nanobind;

NB_MODULE({name}, m) {{
  nb::list symbols;
{table}  m.attr("_symbols") = symbols;
  nb::module_::import_("stencilc").attr("_attach")(m);
}}
""")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stencilc._aot")
    parser.add_argument("--name", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--arch", default=_build.DEFAULT_ARCH)
    parser.add_argument("--backend", default="auto", choices=("auto", *_kinds.BACKENDS))
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("sources", nargs="+")
    args = parser.parse_args(argv)
    stencilc_arch, _ = _build.resolve_arch(args.arch)
    os.makedirs(args.out, exist_ok=True)
    headers: list[str] = []
    names: list[str] = []
    tables: list[_generate.Tables] = []
    try:
        for source in args.sources:
            base = os.path.splitext(os.path.basename(source))[0]
            cuda = os.path.join(args.out, base + ".cu")
            language = "stencil" if source.endswith(".stencil") else "c"
            names += _generate.generate_file(source, cuda, args.backend, args.option,
                                             stencilc_arch, language)
            headers.append(base + ".h")
            tables.append(_generate.header_tables(os.path.join(args.out, base + ".h")))
    except CompileError as e:
        print(e, file=sys.stderr)
        return 1
    text = module_source(args.name, headers, names, _generate.merge(tables))
    path = os.path.join(args.out, f"{args.name}_module.cpp")
    partial = path + ".partial"
    with open(partial, "w") as f:
        f.write(text)
    os.replace(partial, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
