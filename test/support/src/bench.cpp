// bench.cpp - the benchmark: copy roofline, timed steps on rotating
// buffers of fresh random data, a correctness check, table and CSV output.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/runtime/timer.h"
#include "stencilc/testing/compare.h"
#include "stencilc/testing/fill.h"
#include "stencilc/testing/harness.h"
#include "stencilc/testing/reference.h"

#include "single_steps.h"

namespace stencilc {

std::string deviceDescription() {
  int device = 0;
  STENCILC_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  STENCILC_CHECK(cudaGetDeviceProperties(&prop, device));
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %d SMs, %d MB L2)", prop.name, prop.major,
                prop.minor, prop.multiProcessorCount, prop.l2CacheSize >> 20);
  return buf;
}

double measureCopyBandwidth(std::size_t bytes, int runs, bool hostGaps) {
  DeviceBuffer<unsigned char> src(bytes), dst(bytes);
  STENCILC_CHECK(cudaMemset(src.data(), 0x5A, bytes));
  cudaStream_t stream;
  STENCILC_CHECK(cudaStreamCreate(&stream));
  TimingStats t = timeMedian(
      [&](int) {
        STENCILC_CHECK(
            cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, stream));
      },
      3, runs, stream, hostGaps);
  STENCILC_CHECK(cudaStreamDestroy(stream));
  return 2.0 * static_cast<double>(bytes) / (t.medianMs * 1e6);
}

Extents benchmarkSize(int dims) {
  switch (dims) {
  case 1:
    return Extents::of1D(1 << 27);
  case 2:
    return Extents::of2D(8192, 8192);
  default:
    return Extents::of3D(512, 512, 512);
  }
}

namespace {

/// NAME_run as users run it: runSteps steps of the grid from `input`, timed
/// (median of runRepeats after one warm-up; every point x every step
/// counted), and checked first against runSteps NAME_step calls bit for
/// bit.
template <class T>
void benchRun(const StencilUnderTest &s, const Extents &e, const BenchOptions &options,
              const std::vector<T> &input, cudaStream_t stream, BenchResult &r) {
  const std::size_t n = e.points();
  r.runSteps = options.runSteps;
  r.fusedSteps = std::max(1, s.info->fused_steps);
  DeviceBuffer<T> a(n), b(n);
  a.upload(input);
  b.upload(poisoned<T>(n));
  STENCILC_CHECK(s.run(a.data(), b.data(), e, options.runSteps, stream));
  STENCILC_CHECK(cudaStreamSynchronize(stream));
  const std::vector<T> run = a.download();
  const std::vector<T> steps = singleSteps<T>(s, e, input, options.runSteps, stream);
  if (runMatchesStepsBitwise(*s.info)) {
    r.runCorrect = steps.size() == n && std::memcmp(run.data(), steps.data(), n * sizeof(T)) == 0;
  } else { // composed passes: within the run's tolerance of the single steps
    double diff = 0, norm = 0;
    for (std::size_t i = 0; i < n && steps.size() == n; ++i) {
      const double x = toDouble(run[i]), y = toDouble(steps[i]);
      diff += (x - y) * (x - y);
      norm += y * y;
    }
    r.runCorrect = steps.size() == n && norm > 0 &&
                   std::sqrt(diff / norm) <= tolerance(*s.info) * options.runSteps;
  }
  const TimingStats t = timeMedian(
      [&](int) { STENCILC_CHECK(s.run(a.data(), b.data(), e, options.runSteps, stream)); }, 1,
      options.runRepeats, stream, options.hostGaps);
  r.runMedianMs = t.medianMs;
  r.runGStencils = static_cast<double>(n) * options.runSteps / (t.medianMs * 1e6);
}

template <class T>
BenchResult bench(const StencilUnderTest &s, const Extents &e, const BenchOptions &options,
                  double copyGBs) {
  const stencilc_stencil_info &info = *s.info;
  BenchResult r;
  r.name = info.name;
  r.precision = precisionName(info.precision);
  r.backend = s.implementation == "naive" ? "naive" : backendName(info.backend);
  r.implementation = s.implementation;
  r.size = e.str();

  const std::size_t n = e.points();
  int device = 0;
  STENCILC_CHECK(cudaGetDevice(&device));
  int l2 = 0;
  STENCILC_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  // Enough pairs that the inputs together are at least 4x the L2.
  const std::size_t pairBytes = 2 * n * sizeof(T);
  int buffers =
      std::max<int>(options.minBuffers, static_cast<int>((4.0 * l2 + pairBytes - 1) / pairBytes));
  buffers = std::min(buffers, 64);
  std::size_t freeBytes = 0, totalBytes = 0;
  STENCILC_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  while (buffers > 1 && pairBytes * buffers > freeBytes * 8 / 10)
    --buffers;

  std::vector<DeviceBuffer<T>> in, out;
  const std::vector<T> poison = poisoned<T>(n);
  std::vector<T> firstInput;
  for (int b = 0; b < buffers; ++b) {
    std::vector<T> host = randomUniform<T>(n, freshSeed());
    in.emplace_back(n);
    out.emplace_back(n);
    in.back().upload(host);
    if (b == 0)
      out.back().upload(poison); // the checked pair: poisoned per element
    else
      STENCILC_CHECK(cudaMemset(out.back().data(), 0xFF, out.back().bytes())); // NaN in every type
    if (b == 0)
      firstInput = std::move(host);
  }
  cudaStream_t stream;
  STENCILC_CHECK(cudaStreamCreate(&stream));

  // Correctness of one step on the first pair, before any timing.
  STENCILC_CHECK(s.step(in[0].data(), out[0].data(), e, stream));
  STENCILC_CHECK(cudaStreamSynchronize(stream));
  {
    const std::vector<T> result = out[0].download();
    const std::vector<double> inD = toDoubles(firstInput);
    std::vector<double> ref(n, 0.0);
    referenceStep(info, e, inD.data(), ref.data());
    const Comparison c = compareWithReference<T>(info, e, result, ref, &poison, &poison);
    r.relativeL2 = c.relativeL2;
    r.correct = c.passes(tolerance(info));
  }

  const TimingStats t = timeMedian(
      [&](int i) {
        const int b = i % buffers;
        STENCILC_CHECK(s.step(in[b].data(), out[b].data(), e, stream));
      },
      options.warmup, options.runs, stream, options.hostGaps);
  if (options.runSteps > 0) {
    benchRun<T>(s, e, options, firstInput, stream, r);
  }
  STENCILC_CHECK(cudaStreamDestroy(stream));

  const double written = static_cast<double>(writtenPoints(info, e));
  const double bytes = (static_cast<double>(n) + written) * sizeof(T);
  r.medianMs = t.medianMs;
  r.gstencils = written / (t.medianMs * 1e6);
  r.gbytes = bytes / (t.medianMs * 1e6);
  r.copyPercent = copyGBs > 0 ? 100.0 * r.gbytes / copyGBs : 0;
  return r;
}

} // namespace

BenchResult benchmarkStencil(const StencilUnderTest &s, const Extents &e,
                             const BenchOptions &options, double copyGBs) {
  switch (s.info->precision) {
  case STENCILC_FP16:
    return bench<__half>(s, e, options, copyGBs);
  case STENCILC_BF16:
    return bench<__nv_bfloat16>(s, e, options, copyGBs);
  case STENCILC_TF32:
  case STENCILC_FP32:
    return bench<float>(s, e, options, copyGBs);
  case STENCILC_FP64:
    break;
  }
  return bench<double>(s, e, options, copyGBs);
}

void printBenchTable(const std::vector<BenchResult> &results, double copyGBs,
                     const std::string &device) {
  std::printf("\n%s; device-to-device copy %.0f GB/s (read+write)\n", device.c_str(), copyGBs);
  std::printf("%-20s %-4s %-7s %-13s %10s %10s %8s %7s %10s %-5s %2s %10s %s\n", "stencil", "prec",
              "backend", "size", "ms", "GStencil/s", "GB/s", "%copy", "relL2", "check", "T",
              "run GSt/s", "run=steps");
  for (const BenchResult &r : results)
    std::printf("%-20s %-4s %-7s %-13s %10.4f %10.1f %8.0f %6.1f%% %10.2e %-5s %2d %10.1f %s\n",
                r.name.c_str(), r.precision.c_str(), r.backend.c_str(), r.size.c_str(), r.medianMs,
                r.gstencils, r.gbytes, r.copyPercent, r.relativeL2, r.correct ? "PASS" : "FAIL",
                r.fusedSteps, r.runGStencils,
                r.runSteps == 0 ? "-"
                : r.runCorrect  ? "PASS"
                                : "FAIL");
  std::fflush(stdout);
}

void appendBenchCsv(const std::vector<BenchResult> &results, double copyGBs,
                    const std::string &device, const std::string &path) {
  const bool fresh = !std::ifstream(path).good();
  std::ofstream csv(path, std::ios::app);
  if (fresh)
    csv << "stencil,precision,backend,implementation,size,median_ms,gstencil_per_s,gb_per_s,"
           "copy_gb_per_s,percent_of_copy,relative_l2,check,device,run_steps,fused_steps,"
           "run_median_ms,run_gstencil_per_s,run_check\n";
  for (const BenchResult &r : results) {
    char line[512];
    std::snprintf(line, sizeof line,
                  "%s,%s,%s,%s,%s,%.5f,%.2f,%.1f,%.1f,%.2f,%.3e,%s,\"%s\",%d,%d,%.4f,%.2f,%s\n",
                  r.name.c_str(), r.precision.c_str(), r.backend.c_str(), r.implementation.c_str(),
                  r.size.c_str(), r.medianMs, r.gstencils, r.gbytes, copyGBs, r.copyPercent,
                  r.relativeL2, r.correct ? "PASS" : "FAIL", device.c_str(), r.runSteps,
                  r.fusedSteps, r.runMedianMs, r.runGStencils,
                  r.runSteps == 0 ? "-"
                  : r.runCorrect  ? "PASS"
                                  : "FAIL");
    csv << line;
  }
}

} // namespace stencilc
