// The generated composed step timed alone (an experiment: README.md).
#include "s.cu"
#include "timing.h"
#include <algorithm>
#include <cstdio>
#include <vector>
int main() {
  const int n = 8192;
  __half *a, *b;
  cudaMalloc(&a, sizeof(__half) * n * n);
  cudaMalloc(&b, sizeof(__half) * n * n);
  std::vector<__half> h(size_t(n) * n);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = __float2half(float((i * 2654435761u) % 1000) / 1000.f);
  cudaMemcpy(a, h.data(), h.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(b, h.data(), h.size() * 2, cudaMemcpyHostToDevice);
  report(VARIANT, [&](int i) {
    stencilc_gen_star2d5p_fp16::composed::launch(i % 2 ? b : a, i % 2 ? a : b, n, n, 0);
  });
}
