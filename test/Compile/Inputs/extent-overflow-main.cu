// The host side of Compile/tensor-extents-near-int-max: calls each
// stencil of the generated header with an extent within a block of
// INT_MAX. The calls must return cudaErrorInvalidValue before any launch
// (the pointers are never touched, and no GPU is needed). Prints one line
// per call; exit status 1 if any call returned something else.
#include <climits>
#include <cstdint>
#include <cstdio>

int main() {
  // Far apart, so they never overlap: the checks before the launch pass.
  __half *in = reinterpret_cast<__half *>(std::uintptr_t{1} << 40);
  __half *out = reinterpret_cast<__half *>(std::uintptr_t{2} << 40);
  const int big = INT_MAX - 1;
  struct Call {
    const char *what;
    cudaError_t status;
  } calls[] = {
      {"line_step(nx = INT_MAX - 1)", line_step(in, out, big, nullptr)},
      {"line_run(nx = INT_MAX - 1)", line_run(in, out, big, 3, nullptr)},
      {"plane_step(ny = 1, nx = INT_MAX - 1)", plane_step(in, out, 1, big, nullptr)},
      {"plane_step(ny = INT_MAX - 1, nx = 1)", plane_step(in, out, big, 1, nullptr)},
      {"cube_step(nx = INT_MAX - 1)", cube_step(in, out, 1, 1, big, nullptr)},
      {"cube_step(nz = INT_MAX - 1)", cube_step(in, out, big, 1, 1, nullptr)},
  };
  int wrong = 0;
  for (const Call &c : calls) {
    const bool ok = c.status == cudaErrorInvalidValue;
    std::printf("%s %s -> %s\n", ok ? "ok" : "WRONG", c.what, cudaGetErrorName(c.status));
    wrong += !ok;
  }
  return wrong ? 1 : 0;
}
