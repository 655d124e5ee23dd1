// blur.cpp: a 3x3 Gaussian blur of a single-channel float image, written as
// a C++ loop nest with constexpr weights. The pragma asks for fp16 kernels
// (half the memory traffic, tensor cores): stencilc generates
// blur3x3_step(const __half* in, __half* out, int ny, int nx, cudaStream_t).
//
//   stencilc examples/c/blur.cpp -o blur.cu
#include <cstddef>

namespace {

constexpr float kCorner = 1.0f / 16;
constexpr float kEdge = 2.0f / 16;
constexpr float kCentre = 4.0f / 16;

} // namespace

void blur(std::size_t height, float (*in)[1920], float (*out)[1920]) {
#pragma stencil name(blur3x3) precision(fp16)
  for (std::size_t y = 1; y < height - 1; ++y) {
    for (std::size_t x = 1; x < 1920 - 1; ++x) {
      out[y][x] = kCorner * (in[y - 1][x - 1] + in[y - 1][x + 1] + in[y + 1][x - 1] + in[y + 1][x + 1])
                + kEdge * (in[y - 1][x] + in[y][x - 1] + in[y][x + 1] + in[y + 1][x])
                + kCentre * in[y][x];
    }
  }
}
