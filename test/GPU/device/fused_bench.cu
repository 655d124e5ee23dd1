// fused_bench.cu - the driver of gpu-test-device-fused's timing mode
// (--bench; fused_bench.h says what it times): the copy roofline, then
// each element type and stencil of FUSED_BENCH_CASES.
#include "fused_bench.h"

namespace fused_test {
#define FUSED_BENCH_DECLARE(E, St) extern template bool benchCases<E, St>(double);
FUSED_BENCH_CASES(FUSED_BENCH_DECLARE)
#undef FUSED_BENCH_DECLARE
} // namespace fused_test

int fused_test::bench() {
  const long long bytes = static_cast<long long>(kBenchN) * kBenchN * sizeof(double);
  stencilc::DeviceBuffer<double> from(bytes / sizeof(double)), to(bytes / sizeof(double));
  const double copyMs = medianMs(from.data(), bytes / static_cast<long long>(sizeof(double)), [&] {
    STENCILC_CHECK(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice));
  });
  const double copyGBs = 2.0 * bytes / (copyMs * 1e6);
  std::printf("copy %lld MiB device to device: %.3f ms, %.1f GB/s (read + write)\n", bytes >> 20,
              copyMs, copyGBs);
  bool same = true;
#define FUSED_BENCH_RUN(E, St) same &= benchCases<E, St>(copyGBs);
  FUSED_BENCH_CASES(FUSED_BENCH_RUN)
#undef FUSED_BENCH_RUN
  std::printf("bench: %s\n", same ? "every geometry equals its reference (T 1) bit for bit"
                                  : "FAIL: some geometry differs from its reference");
  return same ? 0 : 1;
}
