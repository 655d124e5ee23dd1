// element.cpp - names, sizes and tolerances of the precisions.
#include "stencilc/runtime/element.h"

#include <algorithm>

namespace stencilc {

std::size_t elementBytes(stencilc_precision p) {
  switch (p) {
  case STENCILC_FP16:
  case STENCILC_BF16:
    return 2;
  case STENCILC_TF32:
  case STENCILC_FP32:
    return 4;
  case STENCILC_FP64:
    return 8;
  }
  return 0;
}

const char *precisionName(stencilc_precision p) {
  switch (p) {
  case STENCILC_FP16:
    return "fp16";
  case STENCILC_BF16:
    return "bf16";
  case STENCILC_TF32:
    return "tf32";
  case STENCILC_FP32:
    return "fp32";
  case STENCILC_FP64:
    return "fp64";
  }
  return "?";
}

const char *boundaryName(stencilc_boundary b) {
  switch (b) {
  case STENCILC_BOUNDARY_FIXED:
    return "fixed";
  case STENCILC_BOUNDARY_CONSTANT:
    return "constant";
  case STENCILC_BOUNDARY_PERIODIC:
    return "periodic";
  case STENCILC_BOUNDARY_CLAMP:
    return "clamp";
  case STENCILC_BOUNDARY_MIRROR:
    return "mirror";
  }
  return "?";
}

const char *shapeName(stencilc_shape s) { return s == STENCILC_STAR ? "star" : "box"; }

const char *backendName(stencilc_backend b) {
  return b == STENCILC_BACKEND_TENSOR ? "tensor" : "simt";
}

double tolerance(stencilc_precision p) {
  switch (p) {
  case STENCILC_FP64:
    return 1e-12;
  case STENCILC_FP32:
    return 2e-6;
  case STENCILC_TF32:
  case STENCILC_FP16:
    return 5e-3;
  case STENCILC_BF16:
    return 3e-2;
  }
  return 0.0;
}

double tolerance(const stencilc_stencil_info &info) {
  const double unitRoundoff = info.precision == STENCILC_FP64 ? 0x1p-53 : 0x1p-24;
  return std::max(tolerance(info.precision), (info.num_points + 1) * unitRoundoff);
}

} // namespace stencilc
