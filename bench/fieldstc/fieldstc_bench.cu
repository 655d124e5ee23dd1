// fieldstc_bench.cu - one step of a stencil of fields on tensor cores
// (--backend=tensor) against CUDA cores (--backend=simt), in fp16, bf16,
// tf32 and fp64, with the device-to-device copy bandwidth measured in the
// same run: at 8192^2 the 2D wave equation (4 streams: u, u_prev, c2 read,
// out written), a heat step with its conductivity read at the output point
// (3 streams) and a step that reads two fields at neighbours (3 streams);
// at 512^3 the 3D wave equation, star radius 4 (4 streams). CUDA events after warm-up, the median
// of 30 launches, fresh uniform random inputs in [0.5, 1.5); the two backends' outputs are compared
// (relative L2) as a sanity check. Prints one line a case and a table last.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "fields_simt.h"
#include "fields_tc.h"
#include "median_ms.h"

namespace {

constexpr int kN = 8192;
constexpr int kWarmup = 5;
constexpr int kRepeats = 30;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));             \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

/// The median of kRepeats launches after kWarmup (bench/median_ms.h); a
/// launch returns its cudaError_t.
template <class F> double timed(F launch) {
  return stencilc::medianMs([&](int) { CHECK(launch()); }, kWarmup, kRepeats);
}

template <class T> double toDouble(T v) { return static_cast<double>(static_cast<float>(v)); }
template <> double toDouble<double>(double v) { return v; }

template <class T> T *randomDevice(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(0.5, 1.5);
  std::vector<T> h(count);
  for (T &v : h) {
    v = static_cast<T>(uniform(rng));
  }
  T *d = nullptr;
  CHECK(cudaMalloc(&d, count * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), count * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T> std::vector<double> download(const T *d, std::size_t count) {
  std::vector<T> h(count);
  CHECK(cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<double> out;
  out.reserve(count);
  for (const T &v : h) {
    out.push_back(toDouble(v));
  }
  return out;
}

/// A grid: nz x ny x nx (nz = 1 in 2D), and the ring a fixed step leaves.
struct Grid {
  int nz, ny, nx, ring;
  std::size_t count() const { return std::size_t(nz) * ny * nx; }
};

double relativeL2(const std::vector<double> &a, const std::vector<double> &b, const Grid &g) {
  double diff = 0, norm = 0;
  const int rz = g.nz == 1 ? 0 : g.ring;
  for (int z = rz; z < g.nz - rz; ++z) { // the interior: a fixed step writes it
    for (int y = g.ring; y < g.ny - g.ring; ++y) {
      for (int x = g.ring; x < g.nx - g.ring; ++x) {
        const std::size_t i = (std::size_t(z) * g.ny + y) * g.nx + x;
        diff += (a[i] - b[i]) * (a[i] - b[i]);
        norm += b[i] * b[i];
      }
    }
  }
  return std::sqrt(diff / norm);
}

struct Row {
  const char *form, *precision;
  double tcMs, simtMs, tcPct, simtPct, diff;
};
std::vector<Row> rows;
double copyGBs = 0;

/// Times one form in one precision on both backends. step(backend, fields, out)
/// launches one step; streams: fields read + written.
template <class T, class Tc, class Simt>
void runCase(const char *form, const char *precision, const Grid &grid, int fields, Tc tc,
             Simt simt) {
  const std::size_t count = grid.count();
  std::vector<T *> f;
  for (int i = 0; i < fields; ++i) {
    f.push_back(randomDevice<T>(count, 11u + 7u * unsigned(i)));
  }
  T *outTc = nullptr, *outSimt = nullptr;
  CHECK(cudaMalloc(&outTc, count * sizeof(T)));
  CHECK(cudaMalloc(&outSimt, count * sizeof(T)));
  CHECK(cudaMemset(outTc, 0, count * sizeof(T)));
  CHECK(cudaMemset(outSimt, 0, count * sizeof(T)));
  const double tcMs = timed([&] { return tc(f.data(), outTc); });
  const double simtMs = timed([&] { return simt(f.data(), outSimt); });
  CHECK(cudaDeviceSynchronize());
  const double diff = relativeL2(download(outTc, count), download(outSimt, count), grid);
  const double bytes = double(fields + 1) * count * sizeof(T);
  const double tcPct = 100.0 * bytes / (tcMs * 1e6) / copyGBs;
  const double simtPct = 100.0 * bytes / (simtMs * 1e6) / copyGBs;
  std::printf("%-8s %-5s tensor %.3f ms (%.1f %% of copy)  simt %.3f ms (%.1f %%)  "
              "rel. L2 tensor vs simt %.2e\n",
              form, precision, tcMs, tcPct, simtMs, simtPct, diff);
  rows.push_back({form, precision, tcMs, simtMs, tcPct, simtPct, diff});
  for (T *p : f) {
    CHECK(cudaFree(p));
  }
  CHECK(cudaFree(outTc));
  CHECK(cudaFree(outSimt));
}

const Grid kPlane = {1, kN, kN, 1};
const Grid kCube = {512, 512, 512, 4};

/// A 2D form of two fields (u and a second), NAME_tc_P and NAME_simt_P.
#define TWO_FIELDS(NAME, P, T)                                                                     \
  runCase<T>(                                                                                      \
      #NAME, #P, kPlane, 2,                                                                        \
      [](T *const *f, T *out) { return NAME##_tc_##P##_step(f[0], f[1], out, kN, kN, 0.1, 0); },   \
      [](T *const *f, T *out) { return NAME##_simt_##P##_step(f[0], f[1], out, kN, kN, 0.1, 0); })
#define VARHEAT(P, T) TWO_FIELDS(varheat, P, T)
#define COUPLED(P, T) TWO_FIELDS(coupled, P, T)
/// The wave equation (u, u_prev, c2): LABEL on GRID, its sizes the rest.
#define THREE_FIELDS(NAME, LABEL, GRID, P, T, ...)                                                 \
  runCase<T>(                                                                                      \
      LABEL, #P, GRID, 3,                                                                          \
      [](T *const *f, T *out) {                                                                    \
        return NAME##_tc_##P##_step(f[0], f[1], f[2], out, __VA_ARGS__, 0.1, 0);                   \
      },                                                                                           \
      [](T *const *f, T *out) {                                                                    \
        return NAME##_simt_##P##_step(f[0], f[1], f[2], out, __VA_ARGS__, 0.1, 0);                 \
      })
#define WAVE(P, T) THREE_FIELDS(wave, "wave2d", kPlane, P, T, kN, kN)
#define WAVE3D(P, T) THREE_FIELDS(wave3d, "wave3d", kCube, P, T, 512, 512, 512)

} // namespace

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  // The copy roofline: a 512 MiB device-to-device copy, bytes read + written.
  const std::size_t copyBytes = std::size_t(kN) * kN * sizeof(double);
  char *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, copyBytes));
  CHECK(cudaMalloc(&b, copyBytes));
  CHECK(cudaMemset(a, 1, copyBytes));
  const double copyMs =
      timed([&] { return cudaMemcpyAsync(b, a, copyBytes, cudaMemcpyDeviceToDevice, 0); });
  copyGBs = 2.0 * copyBytes / (copyMs * 1e6);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  std::printf("device %s; copy %.1f GB/s (512 MiB D2D, read + write)\n", prop.name, copyGBs);
  WAVE(fp16, __half);
  WAVE(bf16, __nv_bfloat16);
  WAVE(tf32, float);
  WAVE(fp64, double);
  VARHEAT(fp16, __half);
  VARHEAT(bf16, __nv_bfloat16);
  VARHEAT(tf32, float);
  VARHEAT(fp64, double);
  COUPLED(fp16, __half);
  COUPLED(bf16, __nv_bfloat16);
  COUPLED(tf32, float);
  COUPLED(fp64, double);
  WAVE3D(fp16, __half);
  WAVE3D(bf16, __nv_bfloat16);
  WAVE3D(tf32, float);
  WAVE3D(fp64, double);
  std::printf("\n| form | precision | tensor ms | tensor %% copy | simt ms | simt %% copy | "
              "tensor/simt | rel. L2 tc vs simt |\n|---|---|---|---|---|---|---|---|\n");
  for (const Row &r : rows) {
    std::printf("| %s | %s | %.3f | %.1f | %.3f | %.1f | %.2f | %.1e |\n", r.form, r.precision,
                r.tcMs, r.tcPct, r.simtMs, r.simtPct, r.simtMs / r.tcMs, r.diff);
  }
  return 0;
}
