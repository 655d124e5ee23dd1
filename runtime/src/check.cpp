// check.cpp - printing CUDA errors with their source location.
#include "stencilc/runtime/check.h"

#include <cstdio>
#include <cstdlib>

namespace stencilc {

bool checkCuda(cudaError_t status, const char *expr, const char *file, int line) {
  if (status == cudaSuccess)
    return true;
  std::fprintf(stderr, "%s:%d: CUDA error: %s (%s) in %s\n", file, line, cudaGetErrorName(status),
               cudaGetErrorString(status), expr);
  return false;
}

void checkCudaOrExit(cudaError_t status, const char *expr, const char *file, int line) {
  if (!checkCuda(status, expr, file, line))
    std::exit(1);
}

} // namespace stencilc
