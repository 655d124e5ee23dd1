"""Stand-ins for device arrays, for the argument checks on a machine
without a GPU: objects that describe memory through DLPack or the CUDA
Array Interface exactly as CuPy and PyTorch do, at addresses that are never
read (every check they meet fails before a launch)."""

import ctypes

import numpy as np

CPU, CUDA = 1, 2  # DLPack device types


class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _Device), ("ndim", ctypes.c_int32),
                ("dtype", _DataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_Deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class _Managed(ctypes.Structure):
    _fields_ = [("dl_tensor", _Tensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _Deleter)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_DTYPES = {"float16": (2, 16), "bfloat16": (4, 16), "float32": (2, 32), "float64": (2, 64),
           "int32": (0, 32), "int64": (0, 64)}
_ITEMSIZE = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int32": 4, "int64": 8}
_keep = []  # what live capsules point to


def _noop(_):
    pass


_NOOP = _Deleter(_noop)


class DLPackArray:
    """An array exposed only through __dlpack__ (strides in elements)."""

    def __init__(self, shape, dtype="float32", ptr=0x7F0000000000, device=(CUDA, 0),
                 strides=None):
        self.shape, self.dtype, self.ptr, self.device = tuple(shape), dtype, ptr, device
        self.strides = strides

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None, max_version=None, **kwargs):
        n = len(self.shape)
        shape = (ctypes.c_int64 * n)(*self.shape)
        strides = (ctypes.c_int64 * n)(*self.strides) if self.strides else None
        code, bits = _DTYPES[self.dtype]
        managed = _Managed()
        managed.dl_tensor = _Tensor(self.ptr, _Device(*self.device), n, _DataType(code, bits, 1),
                                    shape, strides, 0)
        managed.deleter = _NOOP
        _keep.append((managed, shape, strides))
        return _capsule_new(ctypes.addressof(managed), b"dltensor", None)


class InterfaceArray:
    """An array exposed only through __cuda_array_interface__ (v3; strides
    in bytes, None for C-contiguous)."""

    def __init__(self, shape, typestr="<f4", ptr=0x7F0000000000, strides=None, stream=None):
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": typestr, "data": (ptr, False),
            "strides": strides, "version": 3, "stream": stream}


class OnlyDLPack:
    """Another framework's array (NumPy's, PyTorch's) behind an object that
    has __dlpack__ alone."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, **kwargs):
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def nbytes(shape, dtype):
    return int(np.prod(shape)) * _ITEMSIZE[dtype]
