"""What a compiled stencil is: its NAME_info (and NAME_fields_info) structs
as the generated header defines them (runtime/include/stencilc/runtime/
stencil_info.h), read through ctypes into an Info."""

import ctypes

_PRECISIONS = ("fp16", "bf16", "tf32", "fp32", "fp64")
_DTYPES = ("float16", "bfloat16", "float32", "float32", "float64")
_SHAPES = ("star", "box")
_BOUNDARIES = ("fixed", "constant", "periodic", "clamp", "mirror")
_BACKENDS = ("tensor", "simt")


class _Point(ctypes.Structure):
    _fields_ = [("offset", ctypes.c_int * 3), ("coefficient", ctypes.c_double)]


class InfoStruct(ctypes.Structure):  # runtime/include/stencilc/runtime/stencil_info.h
    _fields_ = [("name", ctypes.c_char_p), ("dims", ctypes.c_int), ("radius", ctypes.c_int),
                ("shape", ctypes.c_int), ("precision", ctypes.c_int), ("boundary", ctypes.c_int),
                ("boundary_value", ctypes.c_double), ("num_points", ctypes.c_int),
                ("points", ctypes.POINTER(_Point)), ("backend", ctypes.c_int),
                ("tile", ctypes.c_int * 3), ("fused_steps", ctypes.c_int)]


class FieldsStruct(ctypes.Structure):  # stencilc_fields_info, the same header
    _fields_ = [("num_fields", ctypes.c_int), ("field_names", ctypes.POINTER(ctypes.c_char_p)),
                ("field_is_coefficient", ctypes.POINTER(ctypes.c_int)),
                ("num_params", ctypes.c_int), ("param_names", ctypes.POINTER(ctypes.c_char_p)),
                ("num_terms", ctypes.c_int), ("terms", ctypes.c_void_p),
                ("stepped_field", ctypes.c_int), ("previous_field", ctypes.c_int)]


class Info:
    """What a stencil is (its spec) and how it was compiled (its plan)."""

    def __init__(self, s, fields=None):
        self.name = s.name.decode()
        self.dims = s.dims
        self.radius = s.radius
        self.shape = _SHAPES[s.shape]
        self.precision = _PRECISIONS[s.precision]
        self.dtype = _DTYPES[s.precision]
        self.boundary = _BOUNDARIES[s.boundary]
        self.boundary_value = s.boundary_value
        # {offset (index order, outermost first): coefficient}
        self.coefficients = {tuple(s.points[i].offset[: s.dims]): s.points[i].coefficient
                             for i in range(s.num_points)}
        self.backend = _BACKENDS[s.backend]
        self.tile = tuple(s.tile[: s.dims])
        self.fused_steps = s.fused_steps
        # A stencil of the one input `in` (fields None), or of fields
        # (docs/language.md): every field in declaration order (the order of
        # the C API's pointers), the coefficient fields among them, the
        # run-time parameters, the field NAME_run steps and, with time
        # levels, (previous, current).
        self.fields, self.coefficient_fields, self.params = ("in",), (), ()
        self.stepped, self.time = "in", None
        self.of_fields = fields is not None
        if fields:
            names = [fields.field_names[i].decode() for i in range(fields.num_fields)]
            self.fields = tuple(names)
            self.coefficient_fields = tuple(n for i, n in enumerate(names)
                                            if fields.field_is_coefficient[i])
            self.params = tuple(fields.param_names[i].decode() for i in range(fields.num_params))
            self.stepped = names[fields.stepped_field]
            if fields.previous_field >= 0:
                self.time = (names[fields.previous_field], self.stepped)

    def __repr__(self):
        return (f"Info(name={self.name!r}, dims={self.dims}, radius={self.radius}, "
                f"shape={self.shape!r}, precision={self.precision!r}, "
                f"boundary={self.boundary!r}, points={len(self.coefficients)}, "
                f"backend={self.backend!r}, fused_steps={self.fused_steps}"
                + (f", fields={self.fields!r}, params={self.params!r}, time={self.time!r}"
                   if self.of_fields else "") + ")")
