"""A loaded library of stencils: the Module compile() returns, with a
Stencil per stencil of the source, and attach() for the extension modules
stencilc_add_python_module() builds."""

from __future__ import annotations

import types

from ._fields import FieldsStencil
from ._library import Library, Targets
from ._stencil import PlainStencil, Stencil


class Module:
    """The stencils of one compiled source, as attributes by name."""

    def __init__(self, targets: Targets, cache_entry: str | None = None) -> None:
        self._targets = targets
        self.cache_entry = cache_entry
        self.stencils: dict[str, Stencil] = {info.name: (FieldsStencil if info.of_fields else PlainStencil)(
            targets, info) for info in targets.first.infos()}

    @property
    def cache_entries(self) -> dict[int | None, str | None]:
        """{compute capability (90): cache entry} of the libraries loaded so
        far (arch=None: one per architecture of the devices called on)."""
        return {arch: library.entry for arch, library in self._targets.by_arch.items()}

    def __getattr__(self, name: str) -> Stencil:
        # Read from __dict__: before __init__ set it, self.stencils would
        # come back here.
        stencils: dict[str, Stencil] = self.__dict__.get("stencils", {})
        if name in stencils:
            return stencils[name]
        raise AttributeError(f"this stencilc module has no stencil '{name}' "
                             f"(it has {', '.join(stencils) or 'none'})")

    def __dir__(self) -> list[str]:
        return list(super().__dir__()) + list(self.stencils)

    def __repr__(self) -> str:
        return f"<stencilc.Module {', '.join(self.stencils)}>"


def attach(extension: types.ModuleType) -> Module:
    """Called by an extension module that stencilc_add_python_module()
    built, as it is imported: gives it a Stencil attribute per stencil and
    `stencils`, from the addresses in its `_symbols` table."""
    symbols = dict(extension._symbols)
    key = "".join(c if c.isalnum() else "_" for c in extension.__name__)
    module = Module(Targets(Library(symbols.__getitem__, key, extension)))
    for name, stencil in module.stencils.items():
        setattr(extension, name, stencil)
    setattr(extension, "stencils", module.stencils)
    return module
