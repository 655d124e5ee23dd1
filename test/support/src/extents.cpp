// extents.cpp - grid sizes, the 3D view, and the contract's argument checks.
#include "stencilc/testing/extents.h"

#include "stencilc/device/host.cuh"

namespace stencilc {

std::string Extents::str() const {
  std::string s;
  for (int a = 0; a < dims; ++a) {
    if (a)
      s += 'x';
    s += std::to_string(n[a]);
  }
  return s;
}

Offset3 offset3(const stencilc_stencil_info &info, int k) {
  Offset3 o{{0, 0, 0}};
  for (int a = 0; a < info.dims; ++a)
    o.d[3 - info.dims + a] = info.points[k].offset[a];
  return o;
}

void ringWidth3(const stencilc_stencil_info &info, int width[3]) {
  for (int a = 0; a < 3; ++a)
    width[a] = (info.boundary == STENCILC_BOUNDARY_FIXED && a >= 3 - info.dims) ? info.radius : 0;
}

std::size_t writtenPoints(const stencilc_stencil_info &info, const Extents &e) {
  int ring[3];
  ringWidth3(info, ring);
  std::size_t count = 1;
  for (int a = 0; a < 3; ++a) {
    long long inner = e.axis3(a) - 2LL * ring[a];
    count *= inner > 0 ? static_cast<std::size_t>(inner) : 0;
  }
  return count;
}

int minimumSize(const stencilc_stencil_info &info) {
  return info.boundary == STENCILC_BOUNDARY_FIXED ? 2 * info.radius + 1 : 1;
}

cudaError_t validateArguments(const stencilc_stencil_info &info, const void *in, const void *out,
                              const Extents &e, int steps, std::size_t elementSize) {
  if (!in || !out || steps < 0 || e.dims != info.dims)
    return cudaErrorInvalidValue;
  for (int a = 0; a < e.dims; ++a)
    if (e.n[a] < minimumSize(info))
      return cudaErrorInvalidValue;
  if (device::overlaps(in, out, e.points() * elementSize))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

} // namespace stencilc
