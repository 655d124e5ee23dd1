// check.h - CUDA error checking that names the failing call and its place.
//
// STENCILC_CHECK(expr) is for programs (tests, benchmarks, examples): on an
// error it prints `file:line: CUDA error: <name> (<text>) in <expr>` and exits.
// Library code that must not exit uses checkCuda's boolean result instead.
#pragma once

#include <cuda_runtime_api.h>

namespace stencilc {

/// Prints `file:line: CUDA error ...` to stderr when `status` is not
/// cudaSuccess and returns false; returns true otherwise.
bool checkCuda(cudaError_t status, const char *expr, const char *file, int line);

/// As checkCuda, but exits the program with status 1 on an error.
void checkCudaOrExit(cudaError_t status, const char *expr, const char *file, int line);

} // namespace stencilc

#define STENCILC_CHECK(expr) ::stencilc::checkCudaOrExit((expr), #expr, __FILE__, __LINE__)

/// Checks the launch just made (cudaGetLastError), then exits on an error.
#define STENCILC_CHECK_LAUNCH()                                                                    \
  ::stencilc::checkCudaOrExit(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
