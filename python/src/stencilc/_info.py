"""What a compiled stencil is: its NAME_info (and NAME_fields_info) structs
as the generated header defines them (runtime/include/stencilc/runtime/
stencil_info.h; tests/test_kinds.py checks the layout against it), read
through ctypes into an Info. The enums' names come from the compiler's
tables, by way of _kinds.py, written when the package is built."""

from __future__ import annotations

import ctypes
from typing import Any, Literal, NamedTuple, Sequence, TypeVar

from . import _kinds
from ._errors import StencilcError

ShapeName = Literal["star", "box"]
SHAPES: tuple[ShapeName, ...] = ("star", "box")  # stencilc_shape (no table: two shapes)

# The array dtype of each CUDA element type of Precisions.def.
DTYPES = {"__half": "float16", "__nv_bfloat16": "bfloat16", "float": "float32",
          "double": "float64"}


class PointList(NamedTuple):
    """A list of points NAME_run takes after its parameters, as three
    arguments `const int* POINTS, int COUNT, VALUES`: the points (dims ints
    each, in index order) and a value per step and point (steps x count)."""

    points: str  # the argument of the points, the list's name: (count, dims) int32
    values: str  # the argument of the values: (steps, count)
    dtype: str | None  # the values' dtype; None: the stencil's
    written: bool  # NAME_run writes the values (receivers' records), else reads them


# The lists of points the package passes, by name (the header's name of the
# points argument). A list NAME_run takes that is not here is refused when
# the source is compiled (_generate.refuse_what_run_cannot_pass).
POINT_LISTS = {"sources": PointList("sources", "amplitudes", "float64", False),
               "receivers": PointList("receivers", "records", None, True)}


class _Point(ctypes.Structure):  # stencilc_point
    _fields_ = [("offset", ctypes.c_int * 3), ("coefficient", ctypes.c_double)]


class InfoStruct(ctypes.Structure):  # stencilc_stencil_info
    _fields_ = [("name", ctypes.c_char_p), ("dims", ctypes.c_int), ("radius", ctypes.c_int),
                ("shape", ctypes.c_int), ("precision", ctypes.c_int), ("boundary", ctypes.c_int),
                ("boundary_value", ctypes.c_double), ("num_points", ctypes.c_int),
                ("points", ctypes.POINTER(_Point)), ("backend", ctypes.c_int),
                ("tile", ctypes.c_int * 3), ("fused_steps", ctypes.c_int),
                ("run_composed", ctypes.c_int)]


class FieldsStruct(ctypes.Structure):  # stencilc_fields_info
    _fields_ = [("num_fields", ctypes.c_int), ("field_names", ctypes.POINTER(ctypes.c_char_p)),
                ("field_is_coefficient", ctypes.POINTER(ctypes.c_int)),
                ("num_params", ctypes.c_int), ("param_names", ctypes.POINTER(ctypes.c_char_p)),
                ("num_terms", ctypes.c_int), ("terms", ctypes.c_void_p),
                ("stepped_field", ctypes.c_int), ("previous_field", ctypes.c_int)]


Name = TypeVar("Name", bound=str)


def _kind(names: Sequence[Name], value: int, what: str, stencil: str) -> Name:
    """The name of the enumerator `value`, or an error saying that the
    library was built by a stencilc newer than this package's tables."""
    if not 0 <= value < len(names):
        raise StencilcError(f"stencil '{stencil}': its {what} is number {value}, which this "
                            f"package does not know (it knows {', '.join(names)}): the library "
                            "was built by another stencilc; rebuild it with this package's")
    return names[value]


class Info:
    """What a stencil is (its spec) and how it was compiled (its plan)."""

    def __init__(self, s: Any, fields: Any = None, per_step: Any = None,
                 lists: bytes = b"") -> None:
        """From an InfoStruct and, for a stencil of fields, its FieldsStruct,
        its parameters' per-step flags (a pointer to an int each, or None)
        and the names of the lists of points its NAME_run takes
        (space-separated)."""
        self.name: str = s.name.decode()
        self.dims: int = s.dims
        self.radius: int = s.radius
        self.shape = _kind(SHAPES, s.shape, "shape", self.name)
        self.precision = _kind(_kinds.PRECISIONS, s.precision, "precision", self.name)
        element = _kinds.PRECISION_ELEMENT_TYPES[s.precision]
        # An element type with no array dtype here (a new precision's) is
        # named as it is: no array matches it, so calls say what is needed.
        self.dtype: str = DTYPES.get(element, element)
        self.boundary = _kind(_kinds.BOUNDARIES, s.boundary, "boundary", self.name)
        self.boundary_value: float = s.boundary_value
        # {offset (index order, outermost first): coefficient}
        self.coefficients: dict[tuple[int, ...], float] = {
            tuple(s.points[i].offset[: s.dims]): s.points[i].coefficient
            for i in range(s.num_points)}
        self.backend = _kind(_kinds.BACKENDS, s.backend, "backend", self.name)
        self.tile: tuple[int, ...] = tuple(s.tile[: s.dims])
        self.fused_steps: int = s.fused_steps
        # Whether run's passes compose the steps (rounded otherwise than as
        # many single steps: docs/generated-code.md).
        self.run_composed: bool = bool(s.run_composed)
        # A stencil of the one input `in` (fields None), or of fields
        # (docs/language.md): every field in declaration order (the order of
        # the C API's pointers), the coefficient fields among them, the
        # run-time parameters, the field NAME_run steps and, with time
        # levels, (previous, current).
        self.fields: tuple[str, ...] = ("in",)
        self.coefficient_fields: tuple[str, ...] = ()
        self.params: tuple[str, ...] = ()
        self.stepped = "in"
        self.time: tuple[str, str] | None = None
        # The parameters NAME_run takes a value a step of, and the lists of
        # points it takes (POINT_LISTS), in its arguments' order.
        self.per_step: tuple[str, ...] = ()
        self.point_lists: tuple[str, ...] = tuple(lists.decode().split())
        self.of_fields = fields is not None
        if fields is not None:
            names = [fields.field_names[i].decode() for i in range(fields.num_fields)]
            self.fields = tuple(names)
            self.coefficient_fields = tuple(n for i, n in enumerate(names)
                                            if fields.field_is_coefficient[i])
            self.params = tuple(fields.param_names[i].decode() for i in range(fields.num_params))
            self.stepped = names[fields.stepped_field]
            if fields.previous_field >= 0:
                self.time = (names[fields.previous_field], self.stepped)
            if per_step:
                self.per_step = tuple(p for i, p in enumerate(self.params) if per_step[i])

    def __repr__(self) -> str:
        return (f"Info(name={self.name!r}, dims={self.dims}, radius={self.radius}, "
                f"shape={self.shape!r}, precision={self.precision!r}, "
                f"boundary={self.boundary!r}, points={len(self.coefficients)}, "
                f"backend={self.backend!r}, fused_steps={self.fused_steps}"
                + (f", fields={self.fields!r}, params={self.params!r}, time={self.time!r}"
                   if self.of_fields else "")
                + (f", per_step={self.per_step!r}" if self.per_step else "")
                + (f", point_lists={self.point_lists!r}" if self.point_lists else "") + ")")
