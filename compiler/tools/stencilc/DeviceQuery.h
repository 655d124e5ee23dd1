//===- DeviceQuery.h - The GPU in this machine, for the default --arch -*- C++ -*-===//
//
// Without --arch, stencilc plans for the GPU the CUDA driver reports. The
// driver library is loaded at run time, so stencilc neither links CUDA nor
// needs it to start.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

#include "stencilc/Target.h"

namespace stencilc::driver {

/// The environment variable that, set and not empty, keeps stencilc from
/// asking the CUDA driver (the tests set it, so that what they check does
/// not depend on the machine's GPU).
inline constexpr const char *NoDeviceQueryVariable = "STENCILC_NO_DEVICE_QUERY";

/// The architecture planned for without --arch, and why (for -v).
struct DefaultArch {
  Arch arch;
  std::string why;
};

/// The newest architecture of Targets.def that CUDA device 0 (the first in
/// CUDA_VISIBLE_DEVICES order) runs, or sm_80 where there is no driver, no
/// device, a device older than every architecture, or the query is off.
DefaultArch defaultArch();

} // namespace stencilc::driver
