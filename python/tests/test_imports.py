"""The package's modules import each other without a cycle: every import
statement counts, those inside functions (made late, for an optional or a
heavy dependency) and under `if TYPE_CHECKING:` too, since a cycle through
any of them makes the import order matter again."""

import ast
import os
import types

import stencilc

PACKAGE_DIR = os.path.dirname(os.path.abspath(stencilc.__file__))
# The package's Python modules (the compiled ones import none of them).
MODULES = {os.path.splitext(n)[0] for n in os.listdir(PACKAGE_DIR) if n.endswith(".py")}


def _names(node):
    """The dotted names an import statement imports."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:  # relative: from the package (every module is at its top)
        base = "stencilc" + (f".{node.module}" if node.module else "")
    else:
        base = node.module or ""
    # `from ._x import y` imports _x; `from . import _x`, the module _x.
    return [f"{base}.{a.name}" for a in node.names] + ([base] if node.module else [])


def _module_of(name):
    """The package's Python module a dotted name lies in: stencilc._x(.y)
    is _x, stencilc.compile and the like __init__; None for the rest
    (outside the package, or a compiled module, which imports none of it)."""
    parts = name.split(".")
    if parts[0] != "stencilc":
        return None
    if len(parts) == 1 or parts[1] in MODULES:
        return parts[1] if len(parts) > 1 else "__init__"
    defined = getattr(stencilc, parts[1], None)
    return "__init__" if defined is not None and not isinstance(defined, types.ModuleType) else None


def _imported(module):
    """The package's modules that `module`'s source imports."""
    path = os.path.join(PACKAGE_DIR, module + ".py")
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update(m for m in map(_module_of, _names(node)) if m is not None)
    found.discard(module)
    return found


def _cycle(graph):
    """A cycle of module names (the first one again at its end), or None."""
    state = {}  # module -> "open" while on the path, "done" after

    def visit(module, path):
        state[module] = "open"
        for other in sorted(graph[module]):
            if state.get(other) == "open":
                return path[path.index(other):] + [other]
            if other not in state:
                found = visit(other, path + [other])
                if found:
                    return found
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module, [module])
            if found:
                return found
    return None


def test_the_imports_are_read():
    # The reading itself, so that a reader finding nothing cannot pass the
    # test below: a late import (in a function) and one at the top are seen.
    graph = {m: _imported(m) for m in MODULES}
    assert "_torch" in graph["_stencil"] and "_generate" in graph["_build"], graph
    assert "_module" in graph["__init__"], graph


def test_no_import_cycle():
    graph = {m: _imported(m) for m in MODULES}
    cycle = _cycle(graph)
    assert cycle is None, "an import cycle: " + " -> ".join(cycle)
