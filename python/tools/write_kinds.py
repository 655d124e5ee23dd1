"""Writes stencilc/_kinds.py, the kinds of the language as the package
knows them, from the compiler's tables (compiler/include/stencilc/
Precisions.def, Boundaries.def, Backends.def), so that a line added there
needs no edit in python/. Run by python/CMakeLists.txt when the package is
built:

    python write_kinds.py OUT Precisions.def Boundaries.def Backends.def

Each table is X-macro lines, one entry a line, `MACRO(Enumerator,
"keyword", C enumerator, ...)`, in the order of the C enum's values
(stencilc/runtime/stencil_info.h): the order the generated tuples keep.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Iterable, Sequence


def entries(path: str, macro: str) -> list[list[str]]:
    """The arguments of each `macro(...)` line of the table `path`, as
    text (a quoted argument unquoted, its escapes kept as written)."""
    found = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.startswith(macro + "("):
                continue
            body = line.rstrip().removesuffix(")")[len(macro) + 1:]
            # Arguments split at the commas outside "..." (texts hold commas).
            parts = re.findall(r'\s*("(?:[^"\\]|\\.)*"|[^,]*)\s*(?:,|$)', body)
            args = [p[1:-1] if p.startswith('"') else p.strip() for p in parts if p != ""]
            if len(args) < 3:
                sys.exit(f"{path}:{number}: expected {macro}(Enumerator, \"keyword\", ...)")
            found.append(args)
    if not found:
        sys.exit(f"{path}: no {macro}(...) line")
    return found


def quoted(values: Iterable[str]) -> str:
    """The values as Python string literals, comma-separated. Only words
    are written (keywords, type names), so no escape is needed."""
    values = list(values)
    for v in values:
        if not re.fullmatch(r"\w+", v):
            sys.exit(f"write_kinds.py: {v!r} is no word (a keyword or a type name)")
    return ", ".join(f'"{v}"' for v in values)


def literal(values: Iterable[str]) -> str:
    return f"Literal[{quoted(values)}]"


def tuple_text(values: Iterable[str]) -> str:
    values = list(values)
    return f"({quoted(values)}{',' if len(values) == 1 else ''})"


def kinds_source(precisions: Sequence[Sequence[str]], boundaries: Sequence[Sequence[str]],
                 backends: Sequence[Sequence[str]]) -> str:
    precision_names = [p[1] for p in precisions]
    boundary_names = [b[1] for b in boundaries]
    backend_names = [b[1] for b in backends]
    return f'''"""The kinds of the stencil language, by the value of their C enumerator
(stencilc/runtime/stencil_info.h). Written by python/tools/write_kinds.py
from compiler/include/stencilc/Precisions.def, Boundaries.def and
Backends.def when the package was built: do not edit."""

from __future__ import annotations

from typing import Literal

PrecisionName = {literal(precision_names)}
BoundaryName = {literal(boundary_names)}
BackendName = {literal(backend_names)}
Outside = Literal["Zero", "Value", "Fold"]

# Precisions.def: the keyword, and the CUDA type of an element in memory.
PRECISIONS: tuple[PrecisionName, ...] = {tuple_text(precision_names)}
PRECISION_ELEMENT_TYPES: tuple[str, ...] = {tuple_text(p[3] for p in precisions)}

# Boundaries.def: the keyword, and what a read outside the grid gives (Zero:
# only the interior is written, the ring of width radius is left as it was).
BOUNDARIES: tuple[BoundaryName, ...] = {tuple_text(boundary_names)}
BOUNDARY_OUTSIDE: tuple[Outside, ...] = {tuple_text(b[4] for b in boundaries)}

# Backends.def: the keyword (what compile(backend=...) takes besides "auto").
BACKENDS: tuple[BackendName, ...] = {tuple_text(backend_names)}
'''


def main(argv: Sequence[str]) -> None:
    if len(argv) != 5:
        sys.exit("usage: write_kinds.py OUT Precisions.def Boundaries.def Backends.def")
    out, precisions, boundaries, backends = argv[1:]
    text = kinds_source(entries(precisions, "STENCILC_PRECISION"),
                        entries(boundaries, "STENCILC_BOUNDARY"),
                        entries(backends, "STENCILC_BACKEND"))
    partial = out + ".partial"
    with open(partial, "w") as f:
        f.write(text)
    os.replace(partial, out)


if __name__ == "__main__":
    main(sys.argv)
