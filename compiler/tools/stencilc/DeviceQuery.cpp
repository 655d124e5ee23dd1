//===- DeviceQuery.cpp - The GPU in this machine, for the default --arch ---===//
//
// Loads libcuda.so.1 with dlopen and asks the driver API (cuInit,
// cuDeviceGetCount, cuDeviceGet, cuDeviceGetAttribute) for each device's
// compute capability. Any failure means "no GPU": the default is sm_80.
//
//===----------------------------------------------------------------------===//
#include "DeviceQuery.h"

#include <cstdlib>
#include <vector>

#include <dlfcn.h>
#include <fmt/format.h>

namespace stencilc::driver {

namespace {

// The few driver API entry points used, as cuda.h declares them (CUresult
// is an int, CUdevice an int, CUdevice_attribute an enum).
using CuInit = int (*)(unsigned);
using CuDeviceGetCount = int (*)(int *);
using CuDeviceGet = int (*)(int *, int);
using CuDeviceGetAttribute = int (*)(int *, int, int);
constexpr int AttributeMajor = 75; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int AttributeMinor = 76; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR

/// Each device's compute capability (90 for 9.0), in the driver's order;
/// empty where there is no driver or no device. `why` says which.
std::vector<int> deviceCapabilities(std::string &why) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    why = "no CUDA driver (libcuda.so.1) could be loaded";
    return {};
  }
  auto init = reinterpret_cast<CuInit>(dlsym(library, "cuInit"));
  auto count = reinterpret_cast<CuDeviceGetCount>(dlsym(library, "cuDeviceGetCount"));
  auto get = reinterpret_cast<CuDeviceGet>(dlsym(library, "cuDeviceGet"));
  auto attribute = reinterpret_cast<CuDeviceGetAttribute>(dlsym(library, "cuDeviceGetAttribute"));
  int devices = 0;
  std::vector<int> capabilities;
  if (!init || !count || !get || !attribute || init(0) != 0 || count(&devices) != 0) {
    why = "the CUDA driver reports no device";
  }
  for (int i = 0; i < devices; ++i) {
    int device = 0, major = 0, minor = 0;
    if (get(&device, i) != 0 || attribute(&major, AttributeMajor, device) != 0 ||
        attribute(&minor, AttributeMinor, device) != 0) {
      why = fmt::format("the CUDA driver cannot say what device {} is", i);
      return {};
    }
    capabilities.push_back(major * 10 + minor);
  }
  if (capabilities.empty() && why.empty()) {
    why = "the CUDA driver reports no device";
  }
  // The driver stays loaded: unloading it after cuInit is not supported.
  return capabilities;
}

} // namespace

DefaultArch defaultArch() {
  const Arch fallback = Arch::Sm80;
  if (const char *off = std::getenv(NoDeviceQueryVariable); off && *off) {
    return {fallback, fmt::format("no --arch, and {} is set: planning for {}",
                                  NoDeviceQueryVariable, keyword(fallback))};
  }
  std::string why;
  const std::vector<int> capabilities = deviceCapabilities(why);
  if (capabilities.empty()) {
    return {fallback, fmt::format("no --arch, and {}: planning for {}", why, keyword(fallback))};
  }
  const int sm = capabilities[0];
  const std::optional<Arch> arch = newestArchFor(sm);
  std::string others;
  for (int other : capabilities) {
    if (other != sm) {
      others = "; the machine's other GPUs differ, give --arch a list to plan for each";
    }
  }
  if (!arch) {
    return {fallback, fmt::format("no --arch, and GPU 0 (compute capability {}.{}) is older than "
                                  "every architecture stencilc plans for: planning for {}{}",
                                  sm / 10, sm % 10, keyword(fallback), others)};
  }
  return {*arch, fmt::format("no --arch: planning for {}, the newest architecture GPU 0 "
                             "(compute capability {}.{}) runs{}",
                             keyword(*arch), sm / 10, sm % 10, others)};
}

} // namespace stencilc::driver
