//===- core.cpp - The stencilc package's native core ------------------------===//
//
// Two jobs, both small: call a generated stencil's NAME_step or NAME_run
// through the function pointer the Python side found in its shared library
// (cudaError_t f(const T *, T *, sizes..., cudaStream_t): all element
// pointers have one calling convention, so one signature per dimension
// serves every precision), and describe an object taken through DLPack
// (nanobind's ndarray import) as plain numbers for the argument checks.
// Nothing here links CUDA: the generated library carries its own runtime.
//
//===----------------------------------------------------------------------===//
#include <cstdint>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

namespace nb = nanobind;

namespace {

using Stream = void *;
using Step1 = int (*)(const void *, void *, int, Stream);
using Step2 = int (*)(const void *, void *, int, int, Stream);
using Step3 = int (*)(const void *, void *, int, int, int, Stream);
using Run1 = int (*)(void *, void *, int, int, Stream);
using Run2 = int (*)(void *, void *, int, int, int, Stream);
using Run3 = int (*)(void *, void *, int, int, int, int, Stream);

template <typename F> F function(std::uintptr_t address) { return reinterpret_cast<F>(address); }

void *pointer(std::uintptr_t address) { return reinterpret_cast<void *>(address); }

// NAME_step(in, out, sizes..., stream) and NAME_run(a, b, sizes..., steps,
// stream), one function per dimension so that a call passes its sizes
// without packing; sizes in index order, outermost first. Each returns the
// cudaError_t as an int.
int step1(std::uintptr_t fn, std::uintptr_t in, std::uintptr_t out, int n0, std::uintptr_t stream) {
  return function<Step1>(fn)(pointer(in), pointer(out), n0, pointer(stream));
}
int step2(std::uintptr_t fn, std::uintptr_t in, std::uintptr_t out, int n0, int n1,
          std::uintptr_t stream) {
  return function<Step2>(fn)(pointer(in), pointer(out), n0, n1, pointer(stream));
}
int step3(std::uintptr_t fn, std::uintptr_t in, std::uintptr_t out, int n0, int n1, int n2,
          std::uintptr_t stream) {
  return function<Step3>(fn)(pointer(in), pointer(out), n0, n1, n2, pointer(stream));
}
int run1(std::uintptr_t fn, std::uintptr_t a, std::uintptr_t b, int n0, int steps,
         std::uintptr_t stream) {
  return function<Run1>(fn)(pointer(a), pointer(b), n0, steps, pointer(stream));
}
int run2(std::uintptr_t fn, std::uintptr_t a, std::uintptr_t b, int n0, int n1, int steps,
         std::uintptr_t stream) {
  return function<Run2>(fn)(pointer(a), pointer(b), n0, n1, steps, pointer(stream));
}
int run3(std::uintptr_t fn, std::uintptr_t a, std::uintptr_t b, int n0, int n1, int n2, int steps,
         std::uintptr_t stream) {
  return function<Run3>(fn)(pointer(a), pointer(b), n0, n1, n2, steps, pointer(stream));
}

/// What the argument checks need of an array taken through DLPack:
/// (data pointer, dtype code, bits, lanes, shape, strides in elements,
/// device type, device id). No copy is made and nothing is converted.
nb::tuple describe(nb::ndarray<> array) {
  nb::list shape;
  nb::list strides;
  for (size_t i = 0; i < array.ndim(); ++i) {
    shape.append(array.shape(i));
    strides.append(array.stride(i));
  }
  nb::dlpack::dtype dtype = array.dtype();
  return nb::make_tuple(reinterpret_cast<std::uintptr_t>(array.data()), int(dtype.code),
                        int(dtype.bits), int(dtype.lanes), nb::tuple(shape), nb::tuple(strides),
                        array.device_type(), array.device_id());
}

} // namespace

NB_MODULE(_core, m) {
  m.doc() = "stencilc's native core: calls generated kernels, reads DLPack arrays";
  m.def("step1", &step1);
  m.def("step2", &step2);
  m.def("step3", &step3);
  m.def("run1", &run1);
  m.def("run2", &run2);
  m.def("run3", &run3);
  m.def("describe", &describe, nb::arg("array").noconvert());
  m.attr("DEVICE_CPU") = int(nb::device::cpu::value);
  m.attr("DEVICE_CUDA") = int(nb::device::cuda::value);
  m.attr("DEVICE_CUDA_MANAGED") = int(nb::device::cuda_managed::value);
}
