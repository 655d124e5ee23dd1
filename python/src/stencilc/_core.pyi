"""stencilc's native core (python/src/core.cpp): calls a generated
stencil's NAME_step or NAME_run through its address, and describes a DLPack
array. tests/test_types.py checks these against the compiled module."""

# NAME_step(in, out, sizes..., stream) and NAME_run(a, b, sizes..., steps,
# stream) at address `fn`: pointers and the stream as integers, sizes in
# index order; each returns the cudaError_t.
def step1(fn: int, inp: int, out: int, n0: int, stream: int, /) -> int: ...
def step2(fn: int, inp: int, out: int, n0: int, n1: int, stream: int, /) -> int: ...
def step3(fn: int, inp: int, out: int, n0: int, n1: int, n2: int, stream: int, /) -> int: ...
def run1(fn: int, a: int, b: int, n0: int, steps: int, stream: int, /) -> int: ...
def run2(fn: int, a: int, b: int, n0: int, n1: int, steps: int, stream: int, /) -> int: ...
def run3(fn: int, a: int, b: int, n0: int, n1: int, n2: int, steps: int, stream: int,
         /) -> int: ...

# (data pointer, DLPack type code, bits, lanes, shape, strides in elements,
# DLPack device type, device id) of an object with __dlpack__ (or the
# buffer protocol); TypeError for anything else.
def describe(array: object) -> tuple[int, int, int, int, tuple[int, ...], tuple[int, ...], int,
                                     int]: ...

DEVICE_CPU: int
DEVICE_CUDA: int
DEVICE_CUDA_MANAGED: int
