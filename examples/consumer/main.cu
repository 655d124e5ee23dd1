// blur-demo: blurs a random image ten times with the generated `blur`
// stencil and prints the mean, which a periodic blur keeps.
#include <cstdio>
#include <random>
#include <vector>

#include <cuda_fp16.h>

#include "blur.h"

int main() {
  const int ny = 512, nx = 768;
  std::vector<__half> image(static_cast<size_t>(ny) * nx);
  std::mt19937 random(42);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  double mean = 0;
  for (__half &v : image) {
    v = __float2half(uniform(random));
    mean += __half2float(v);
  }
  __half *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, image.size() * sizeof(__half)) != cudaSuccess ||
      cudaMalloc(&b, image.size() * sizeof(__half)) != cudaSuccess) {
    std::fprintf(stderr, "blur-demo: no GPU memory\n");
    return 1;
  }
  cudaMemcpy(a, image.data(), image.size() * sizeof(__half), cudaMemcpyHostToDevice);
  cudaError_t status = blur_run(a, b, ny, nx, 10, nullptr);
  cudaMemcpy(image.data(), a, image.size() * sizeof(__half), cudaMemcpyDeviceToHost);
  double after = 0;
  for (__half v : image) {
    after += __half2float(v);
  }
  std::printf("blur_run: %s; mean before %.4f, after %.4f\n", cudaGetErrorString(status),
              mean / image.size(), after / image.size());
  cudaFree(a);
  cudaFree(b);
  return status == cudaSuccess ? 0 : 1;
}
