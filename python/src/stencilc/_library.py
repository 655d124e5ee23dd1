"""The libraries stencils run from: a loaded Library (a shared library
compile() built, or an extension module stencilc_add_python_module()
built) with the package's helpers, and the Targets of a Module: one
Library per GPU architecture of the devices called on."""

from __future__ import annotations

import ctypes
import os
from typing import Any, Callable, Sequence

from ._arrays import View
from ._errors import CudaError
from ._info import FieldsStruct, Info, InfoStruct

_ErrorString = ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.c_int)
_PointerDevice = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
_StreamWait = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
_DeviceArch = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)


class Library:
    """Generated stencils with the package's helpers beside them (HELPERS in
    _generate.py): a shared library compile() built, or an extension module
    stencilc_add_python_module() built. `address(symbol)` gives a function's
    or table's address; `keep` is what must stay loaded while it is used."""

    entry: str | None = None  # the cache entry it was loaded from

    def __init__(self, address: Callable[[str], int], key: str, keep: object) -> None:
        self.address, self.key, self._keep = address, key, keep
        self._error_string = _ErrorString(address("stencilc_py_error_string"))
        self._pointer_device = _PointerDevice(address("stencilc_py_pointer_device"))
        self._stream_wait = _StreamWait(address("stencilc_py_stream_wait"))
        self.device_arch = _DeviceArch(address("stencilc_py_device_arch"))

    @classmethod
    def load(cls, path: str) -> Library:
        dll = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
        key = os.path.basename(os.path.dirname(path))[:16]
        def address(symbol: str) -> int:
            found = ctypes.cast(getattr(dll, symbol), ctypes.c_void_p).value
            if found is None:  # dlsym gave a null pointer: no HELPERS were built in
                raise OSError(f"{path}: {symbol} is a null pointer")
            return found

        library = cls(address, key, dll)
        library.entry = os.path.dirname(path)
        return library

    def infos(self) -> list[Info]:
        table = ctypes.cast(self.address("stencilc_py_infos"),
                            ctypes.POINTER(ctypes.POINTER(InfoStruct)))
        fields = ctypes.cast(self.address("stencilc_py_fields"),
                             ctypes.POINTER(ctypes.POINTER(FieldsStruct)))
        per_step = ctypes.cast(self.address("stencilc_py_per_step"),
                               ctypes.POINTER(ctypes.POINTER(ctypes.c_int)))
        lists = ctypes.cast(self.address("stencilc_py_lists"), ctypes.POINTER(ctypes.c_char_p))
        found: list[Info] = []
        while table[len(found)]:
            i = len(found)
            found.append(Info(table[i].contents, fields[i].contents if fields[i] else None,
                              per_step[i] if per_step[i] else None, lists[i] or b""))
        return found

    def error_string(self, code: int) -> str:
        text: bytes = self._error_string(code)
        return text.decode()

    def device_of(self, v: View, name: str) -> int:
        if v.device[1] is not None:
            return v.device[1]
        device: int = self._pointer_device(v.ptr)
        if device < 0:
            raise TypeError(f"{name}: got a pointer ({v.ptr:#x}, from {v.framework}) that is not "
                            "CUDA device memory; needs a CUDA device array")
        return device

    def check_devices(self, views: Sequence[View], names: Sequence[str]) -> int:
        """All on one device, which it returns (each view's device is then
        known)."""
        devices = [self.device_of(v, n) for v, n in zip(views, names)]
        for v, n, d in zip(views, names, devices):
            if d != devices[0]:
                raise ValueError(f"{n}: got an array on cuda:{d}; needs the device of "
                                 f"{names[0]}, cuda:{devices[0]}")
            v.device = ("cuda", d)
        return devices[0]

    def order_after(self, handle: int, views: Sequence[View]) -> None:
        """CUDA Array Interface v3: work on `handle` waits for the stream an
        array's producer named, where that is another stream."""
        for v in views:
            if v.stream is not None and v.stream != handle:
                code: int = self._stream_wait(handle, v.stream)
                if code:
                    raise CudaError(f"ordering after the producer's stream: CUDA error {code}: "
                                    f"{self.error_string(code)}", code)


def device_arch(library: Library, device: int) -> int:
    """The compute capability of CUDA device `device` (90 for 9.0), or -1."""
    number: int = library.device_arch(device)
    return number


class Targets:
    """The libraries a Module's stencils run from: the one compile() built
    (`first`) for every device, or, where compile() was given arch=None
    (`build`: compute capability -> Library), one per architecture of the
    devices the arrays are on, built at the first call there."""

    def __init__(self, first: Library, first_arch: int | None = None,
                 build: Callable[[int], Library] | None = None) -> None:
        self.first, self._build = first, build
        # {compute capability: Library}; None for a library of no known
        # architecture (an extension module's).
        self.by_arch: dict[int | None, Library] = {first_arch: first}
        self._by_device: dict[int, Library] = {}

    def for_device(self, device: int) -> Library:
        library = self._by_device.get(device)
        if library is None:
            library = self._by_device[device] = self._choose(device)
        return library

    def _choose(self, device: int) -> Library:
        if self._build is None:
            return self.first
        number = device_arch(self.first, device)
        if number < 0:  # no such device: the call reports CUDA's error
            return self.first
        library = self.by_arch.get(number)
        if library is None:
            library = self.by_arch[number] = self._build(number)
        return library
