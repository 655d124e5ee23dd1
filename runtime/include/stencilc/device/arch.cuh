// stencilc/device/arch.cuh - a .cu of several architectures' plans
// (stencilc --arch=sm_80,sm_90; docs/generated-code.md, "Several
// architectures"): which device passes compile which plan's kernels, and
// which plan a device runs.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <string>

namespace stencilc {
namespace device {

/// Whether this compilation pass compiles the kernels of the plan whose
/// traits `S` are: the kernel templates of these headers ask
/// `planCompiledHere(static_cast<const S *>(nullptr))`. Argument-dependent
/// lookup finds the overload a multi-architecture .cu declares in each
/// plan's namespace (false in the device passes of other architectures);
/// this one, for a .cu of one plan, says yes.
__host__ __device__ constexpr bool planCompiledHere(const void *) { return true; }

/// The largest device number whose plan choice a stencil keeps.
constexpr int kCachedDevices = 64;

/// A stencil's plans in a multi-architecture .cu, oldest first: their SM
/// numbers (90 for sm_90), their names, and a kernel of no work compiled in
/// the same passes, whose attributes say which architecture the code loaded
/// on a device was compiled for.
struct PlanTable {
  const char *stencil;
  int count;
  const int *sms;
  const char *const *names;
  const void *probe;
};

/// "sm_80 and sm_90": the plans' names.
inline std::string planNames(const PlanTable &plans) {
  std::string names;
  for (int i = 0; i < plans.count; ++i) {
    names += std::string(i == 0 ? "" : i + 1 == plans.count ? " and " : ", ") + plans.names[i];
  }
  return names;
}

/// The plan of `plans` the current device runs: the newest whose SM number
/// is not above the device's compute capability, nor above the architecture
/// its loaded code was compiled for (the probe's ptxVersion: code built for
/// compute_80 only holds the sm_80 plan's kernels, even on an sm_90 device).
/// -1, after a message on stderr naming the device's architecture and the
/// plans, where the device is older than every plan or holds none of this
/// code. Asked once per device: `cache[device]` holds 0 (not yet), i + 1
/// (plan i) or -1.
inline int devicePlan(const PlanTable &plans, std::atomic<int> *cache) {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    return -1; // noPlanStatus() says why
  }
  const bool cached = device >= 0 && device < kCachedDevices;
  if (const int known = cached ? cache[device].load(std::memory_order_relaxed) : 0; known != 0) {
    return known < 0 ? -1 : known - 1;
  }
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    return -1; // noPlanStatus() says why
  }
  const int sm = major * 10 + minor;
  cudaFuncAttributes probe{};
  const bool hasCode = cudaFuncGetAttributes(&probe, plans.probe) == cudaSuccess;
  (void)cudaGetLastError(); // a device without this code is answered below, not left pending
  int plan = -1;
  for (int i = 0; i < plans.count && hasCode; ++i) {
    if (plans.sms[i] <= sm && plans.sms[i] <= probe.ptxVersion) {
      plan = i;
    }
  }
  if (plan < 0) {
    std::fprintf(stderr,
                 "stencilc: %s: device %d is sm_%d (compute capability %d.%d); this library "
                 "was built for %s%s, so no kernel is launched\n",
                 plans.stencil, device, sm, major, minor, planNames(plans).c_str(),
                 hasCode ? "" : " and holds no code this device can run");
  }
  if (cached) {
    cache[device].store(plan < 0 ? -1 : plan + 1, std::memory_order_relaxed);
  }
  return plan;
}

/// What an entry point returns where devicePlan() found no plan: the
/// runtime's error where it cannot name the device (no GPU, no driver),
/// else cudaErrorNoKernelImageForDevice.
inline cudaError_t noPlanStatus() {
  int device = 0, major = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status == cudaSuccess) {
    status = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  }
  return status != cudaSuccess ? status : cudaErrorNoKernelImageForDevice;
}

} // namespace device
} // namespace stencilc
