// fields_test.cuh - the GPU conformance test of stencils of fields
// (docs/generated-code.md, "Stencils of fields"), held to a float64
// reference computed here from the header's NAME_fields_info and
// NAME_coefficients. fields_list.py writes, from a generated header, one
// `Api` struct a stencil (its entry points behind arrays of pointers, sizes
// and parameters) and a main() that runs runStencil<Api>() for each.
//
// For every size (the smallest legal one and odd ones): NAME_step on a
// poisoned output (the written points within the tolerance, the others
// untouched); NAME_run of 1, 2, 3 and 5 steps against as many reference
// steps (the fields NAME_run writes, with time levels both levels) and bit
// for bit against as many NAME_step calls; and bad arguments (a null
// pointer, out aliasing a field, out overlapping one by an element, scratch
// aliasing the stepped field, steps < 0) return cudaErrorInvalidValue and
// write nothing. A stencil that records receivers (`record u;`) also has its
// records of each run checked bit for bit against the NAME_step calls'
// values at a few points a step writes (the corners inside the fixed ring,
// the centre), and points outside the grid or on the fixed ring refused
// (managed memory) or recorded as NaN (device). A stencil with point
// sources (`source u;`) runs with three (the centre twice, a corner), a new
// amplitude every step: added to the reference, and to the level after each
// NAME_step call as the kernels add them (rounded to the arithmetic type,
// the sum to the element type), so the bit-for-bit checks hold them too;
// invalid points and lists are refused, nothing written. Every precision: fp32 and
// fp64 on CUDA cores, and fp16, bf16, tf32 and fp64 on tensor cores (--backend=tensor). One line a
// case, RESULT last.
#pragma once

#include <algorithm>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "stencilc/runtime/boundary_index.h"
#include "stencilc/runtime/stencil_info.h"

namespace fieldtest {

/// One-step relative L2 tolerances of docs/generated-code.md by precision;
/// the stencils tested are not convex (2u - u_prev, Laplacians), so four
/// times those, and `steps` times that for several steps.
inline double tolerance(const stencilc_stencil_info &info, int steps) {
  double one = 2e-6; // fp32
  switch (info.precision) {
  case STENCILC_FP64:
    one = 1e-12;
    break;
  case STENCILC_FP16:
  case STENCILC_TF32:
    one = 5e-3;
    break;
  case STENCILC_BF16:
    one = 3e-2;
    break;
  default:
    break;
  }
  return 4.0 * steps * one;
}

/// The parameters' values: fixed, small and not round.
inline std::vector<double> parameterValues(int count) {
  std::vector<double> p;
  for (int i = 0; i < count; ++i) {
    p.push_back(i == 0 ? 0.1 : 1.5 + 0.25 * i);
  }
  return p;
}

/// The parameters of step s (from 0): a per-step one (Api::perStep) takes
/// a new value every step, the others keep theirs.
template <class Api> std::vector<double> paramsAt(const std::vector<double> &params, int s) {
  std::vector<double> p = params;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (Api::perStep(static_cast<int>(i))) {
      p[i] *= 1.0 + 0.25 * (s % 8); // bounded, so that 1000 steps stay finite
    }
  }
  return p;
}

/// What NAME_run takes for `steps` steps: for each per-step parameter the
/// values of every step (paramsAt), in values[i]; nothing for the others.
template <class Api> struct RunValues {
  std::vector<std::vector<double>> columns;
  std::vector<const double *> values;
  RunValues(const std::vector<double> &params, int steps)
      : columns(params.size()), values(params.size(), nullptr) {
    for (int s = 0; s < steps; ++s) {
      const std::vector<double> p = paramsAt<Api>(params, s);
      for (std::size_t i = 0; i < p.size(); ++i) {
        columns[i].push_back(p[i]);
      }
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      values[i] = Api::perStep(static_cast<int>(i)) ? columns[i].data() : nullptr;
    }
  }
  bool any() const {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (Api::perStep(static_cast<int>(i))) {
        return true;
      }
    }
    return false;
  }
};

/// An element as a double (16-bit types through float, exactly).
template <class T> double toDouble(T v) {
  if constexpr (sizeof(T) == 2) {
    return static_cast<double>(static_cast<float>(v));
  } else {
    return static_cast<double>(v);
  }
}

struct Grid3 {
  int dims;
  long long n[3]; // index order, trailing 1s
  long long points() const { return n[0] * n[1] * n[2]; }
};

/// The step counts NAME_run is checked at: 1, 2, 3, 5, and around the
/// fused steps T of a pass (T - 1, T, T + 1, 3T + 2), and on the smaller
/// grids kLongRun (not where FIELDS_NO_LONG_RUN is set: under
/// compute-sanitizer, whose launches are slow).
constexpr int kLongRun = 1000;
inline std::vector<int> runStepCounts(const stencilc_stencil_info &info, const Grid3 &g) {
  const int t = info.fused_steps;
  std::vector<int> counts = {1, 2, 3, 5, t - 1, t, t + 1, 3 * t + 2};
  if (g.points() <= 100000 && std::getenv("FIELDS_NO_LONG_RUN") == nullptr) {
    counts.push_back(kLongRun);
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  counts.erase(counts.begin(), std::upper_bound(counts.begin(), counts.end(), 0));
  return counts;
}

/// A host grid of doubles holding element values.
using Host = std::vector<double>;

/// Whether two results are the same bits, not ==: the same NaN (a long run
/// that diverged, as the 3D wave of sources.stencil does within 1000
/// steps) is the same result.
inline bool sameBits(const Host &a, const Host &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

inline double readAt(const stencilc_stencil_info &info, const Grid3 &g, const Host &f,
                     const long long p[3], const int o[3]) {
  long long q[3];
  for (int a = 0; a < 3; ++a) {
    q[a] = p[a] + o[a];
    if (a >= g.dims) {
      continue;
    }
    if (q[a] < 0 || q[a] >= g.n[a]) {
      if (info.boundary == STENCILC_BOUNDARY_FIXED) {
        return 0.0; // reaches only ring outputs, never written
      }
      if (info.boundary == STENCILC_BOUNDARY_CONSTANT) {
        return info.boundary_value;
      }
      q[a] = stencilc_fold_index(info.boundary, q[a], g.n[a]);
    }
  }
  return f[static_cast<std::size_t>((q[0] * g.n[1] + q[1]) * g.n[2] + q[2])];
}

/// The ring a step leaves unwritten at each edge of each axis: the radius
/// for boundary fixed, else none.
inline long long fixedRing(const stencilc_stencil_info &info) {
  return info.boundary == STENCILC_BOUNDARY_FIXED ? info.radius : 0;
}

inline bool writes(const stencilc_stencil_info &info, const Grid3 &g, const long long p[3]) {
  const long long ring = fixedRing(info);
  for (int a = 0; a < g.dims; ++a) {
    if (p[a] < ring || p[a] >= g.n[a] - ring) {
      return false;
    }
  }
  return true;
}

/// One reference step in float64 into `out` (its unwritten points kept).
inline void referenceStep(const stencilc_stencil_info &info, const stencilc_fields_info &fi,
                          const std::vector<double> &k, const Grid3 &g,
                          const std::vector<const Host *> &fields, Host &out) {
  long long p[3];
  for (p[0] = 0; p[0] < g.n[0]; ++p[0]) {
    for (p[1] = 0; p[1] < g.n[1]; ++p[1]) {
      for (p[2] = 0; p[2] < g.n[2]; ++p[2]) {
        if (!writes(info, g, p)) {
          continue;
        }
        double acc = 0.0;
        for (int t = 0; t < fi.num_terms; ++t) {
          const stencilc_field_term &term = fi.terms[t];
          double c = k[t];
          if (term.coefficient_field >= 0) {
            c *= readAt(info, g, *fields[term.coefficient_field], p, term.coefficient_offset);
          }
          acc += c * readAt(info, g, *fields[term.field], p, term.offset);
        }
        out[static_cast<std::size_t>((p[0] * g.n[1] + p[1]) * g.n[2] + p[2])] = acc;
      }
    }
  }
}

inline double relativeL2(const stencilc_stencil_info &info, const Grid3 &g, const Host &result,
                         const Host &reference) {
  double diff = 0.0, norm = 0.0;
  long long p[3];
  for (p[0] = 0; p[0] < g.n[0]; ++p[0]) {
    for (p[1] = 0; p[1] < g.n[1]; ++p[1]) {
      for (p[2] = 0; p[2] < g.n[2]; ++p[2]) {
        const std::size_t i = static_cast<std::size_t>((p[0] * g.n[1] + p[1]) * g.n[2] + p[2]);
        if (writes(info, g, p)) {
          diff += (result[i] - reference[i]) * (result[i] - reference[i]);
          norm += reference[i] * reference[i];
        }
      }
    }
  }
  return norm == 0.0 ? (diff == 0.0 ? 0.0 : INFINITY) : std::sqrt(diff / norm);
}

template <class T> struct Device {
  T *p = nullptr;
  std::size_t count = 0;
  explicit Device(std::size_t n) : count(n) { cudaMalloc(&p, (n + 1) * sizeof(T)); }
  ~Device() { cudaFree(p); }
  Device(const Device &) = delete;
  void upload(const Host &h) {
    std::vector<T> t(h.begin(), h.end());
    cudaMemcpy(p, t.data(), count * sizeof(T), cudaMemcpyHostToDevice);
  }
  Host download() const {
    std::vector<T> t(count);
    cudaMemcpy(t.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost);
    Host h;
    for (const T &v : t) {
      h.push_back(toDouble(v));
    }
    return h;
  }
};

struct Counts {
  int failures = 0;
  int cases = 0;
  void check(bool ok, const char *name, const char *what, const Grid3 &g, double value = 0.0) {
    ++cases;
    failures += !ok;
    std::printf("%s %s %s %lldx%lldx%lld: %s (%.3g)\n", ok ? "PASS" : "FAIL", name, what, g.n[0],
                g.n[1], g.n[2], ok ? "ok" : "wrong", value);
  }
};

template <class T> Host randomField(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Host h(count);
  for (double &v : h) {
    v = toDouble(static_cast<T>(uniform(rng))); // an element value
  }
  return h;
}

/// Device copies of the fields `host`, freed with it.
template <class T> struct DeviceFields {
  std::vector<Device<T> *> fields;
  std::vector<T *> ptr;
  explicit DeviceFields(const std::vector<Host> &host) {
    for (const Host &h : host) {
      fields.push_back(new Device<T>(h.size()));
      fields.back()->upload(h);
      ptr.push_back(fields.back()->p);
    }
  }
  ~DeviceFields() {
    for (Device<T> *d : fields) {
      delete d;
    }
  }
  DeviceFields(const DeviceFields &) = delete;
};

/// Appends the first g.dims coordinates of p to `list`, as NAME_run's
/// receivers hold a point.
inline void appendPoint(const Grid3 &g, const long long p[3], std::vector<int> &list) {
  for (int a = 0; a < g.dims; ++a) {
    list.push_back(static_cast<int>(p[a]));
  }
}

/// The point sources of a run of `steps` (`source u;`): the centre, the
/// first point a step writes (the corner inside the fixed ring) and the
/// centre again, so that two add at one point in order (and on the largest
/// 2D and 3D grids a line of 40 more); amplitudes a new
/// value every step, bounded so that 1000 steps stay finite. In device
/// memory, as NAME_run takes them; none where the stencil has no sources.
struct RunSources {
  std::vector<int> points;
  std::vector<double> amplitudes;
  int count = 0;
  int *devicePoints = nullptr;
  double *deviceAmplitudes = nullptr;
  RunSources(bool any, const stencilc_stencil_info &info, const Grid3 &g, int steps) {
    if (!any) {
      return;
    }
    const long long r = info.boundary == STENCILC_BOUNDARY_FIXED ? info.radius : 0;
    const long long centre[3] = {g.n[0] / 2, g.n[1] / 2, g.n[2] / 2}, corner[3] = {r, r, r};
    for (const long long *p : {centre, corner, centre}) {
      appendPoint(g, p, points);
    }
    // On the largest 2D and 3D grids also a line of 40 along the centre
    // row: more than a warp (3D: a block) of a fused pass lists
    // (kWarpSources), so that one takes the whole list instead.
    for (int d = -20; d < 20 && g.dims >= 2 && g.points() > 100000; ++d) {
      long long p[3] = {centre[0], centre[1], centre[2]};
      p[g.dims - 1] += d;
      appendPoint(g, p, points);
    }
    count = static_cast<int>(points.size()) / g.dims;
    for (int s = 0; s < steps; ++s) {
      for (int k = 0; k < count; ++k) {
        const double a[3] = {0.375, -0.25, 0.125};
        amplitudes.push_back(a[k % 3] * (1 + s % 5));
      }
    }
    cudaMalloc(&devicePoints, points.size() * sizeof(int));
    cudaMemcpy(devicePoints, points.data(), points.size() * sizeof(int), cudaMemcpyHostToDevice);
    cudaMalloc(&deviceAmplitudes, (amplitudes.size() + 1) * sizeof(double));
    cudaMemcpy(deviceAmplitudes, amplitudes.data(), amplitudes.size() * sizeof(double),
               cudaMemcpyHostToDevice);
  }
  ~RunSources() {
    cudaFree(devicePoints);
    cudaFree(deviceAmplitudes);
  }
  RunSources(const RunSources &) = delete;
  /// Point k's linear index.
  std::size_t index(const Grid3 &g, int k) const {
    long long q[3] = {0, 0, 0};
    for (int a = 0; a < g.dims; ++a) {
      q[a] = points[static_cast<std::size_t>(k * g.dims + a)];
    }
    return static_cast<std::size_t>((q[0] * g.n[1] + q[1]) * g.n[2] + q[2]);
  }
};

/// v after a source of amplitude a, as the kernels add it (sources.cuh):
/// a rounded to the arithmetic type (double for fp64, else float), added,
/// the sum rounded to the element type.
template <class T> T withSource(T v, double a) {
  if constexpr (sizeof(T) == 8) {
    return v + a;
  } else {
    return static_cast<T>(static_cast<float>(toDouble(v)) + static_cast<float>(a));
  }
}

/// Step s's sources added to device grid `field`, on the host, in order.
template <class T> void addSourcesOnHost(T *field, const Grid3 &g, const RunSources &src, int s) {
  if (src.count == 0) {
    return;
  }
  std::vector<T> grid(static_cast<std::size_t>(g.points()));
  cudaMemcpy(grid.data(), field, grid.size() * sizeof(T), cudaMemcpyDeviceToHost);
  for (int k = 0; k < src.count; ++k) {
    T &v = grid[src.index(g, k)];
    v = withSource(v, src.amplitudes[static_cast<std::size_t>(s * src.count + k)]);
  }
  cudaMemcpy(field, grid.data(), grid.size() * sizeof(T), cudaMemcpyHostToDevice);
}

/// NAME_run from `host` with its per-step values copied to device memory:
/// bit for bit `expected`, NAME_run's stepped field with them in host memory.
template <class Api>
bool sameWithDeviceValues(const std::vector<Host> &host, const int *n,
                          const std::vector<double> &params, const RunValues<Api> &values,
                          int steps, const RunSources &src, const Host &expected) {
  using T = typename Api::T;
  DeviceFields<T> fields(host);
  std::vector<double *> onDevice(values.values.size(), nullptr);
  std::vector<const double *> deviceValues(values.values.size(), nullptr);
  for (std::size_t i = 0; i < onDevice.size(); ++i) {
    if (values.values[i]) {
      cudaMalloc(&onDevice[i], steps * sizeof(double));
      cudaMemcpy(onDevice[i], values.values[i], steps * sizeof(double), cudaMemcpyHostToDevice);
      deviceValues[i] = onDevice[i];
    }
  }
  Device<T> scratch(host[0].size());
  const bool ran = Api::run(fields.ptr.data(), scratch.p, n, params.data(), deviceValues.data(),
                            steps, 0, nullptr, 0, nullptr, src.devicePoints, src.count,
                            src.deviceAmplitudes) == cudaSuccess;
  cudaDeviceSynchronize();
  const bool same =
      ran && sameBits(fields.fields[Api::fieldsInfo().stepped_field]->download(), expected);
  for (double *d : onDevice) {
    cudaFree(d);
  }
  return same;
}

/// The receivers of a grid, dims ints a point in index order, each a point
/// a step writes: the first corner and the last (inside the ring of
/// boundary fixed), a point of the first written row mid-way along the
/// other axes, and the centre.
inline std::vector<int> receiverPoints(const stencilc_stencil_info &info, const Grid3 &g) {
  const long long r = fixedRing(info);
  const long long points[4][3] = {{r, r, r},
                                  {g.n[0] - 1 - r, g.n[1] - 1 - r, g.n[2] - 1 - r},
                                  {r, g.n[1] / 2, g.n[2] / 2},
                                  {g.n[0] / 2, g.n[1] / 2, g.n[2] / 2}};
  std::vector<int> list;
  for (const auto &p : points) {
    appendPoint(g, p, list);
  }
  return list;
}

/// The centre (valid), then invalid receivers: a point past the first
/// axis's end and, with boundary fixed, at each end of each axis the
/// ring's innermost point (issue 36: a step never writes the ring, so its
/// records would only repeat the kept value). The others mid-way along.
inline std::vector<int> invalidReceiverPoints(const stencilc_stencil_info &info, const Grid3 &g) {
  const long long mid[3] = {g.n[0] / 2, g.n[1] / 2, g.n[2] / 2};
  std::vector<int> list;
  appendPoint(g, mid, list);
  long long p[3] = {g.n[0], mid[1], mid[2]};
  appendPoint(g, p, list);
  const long long r = fixedRing(info);
  for (int a = 0; r > 0 && a < g.dims; ++a) {
    for (long long v : {r - 1, g.n[a] - r}) {
      std::memcpy(p, mid, sizeof p);
      p[a] = v;
      appendPoint(g, p, list);
    }
  }
  return list;
}

/// Appends the elements of device grid `field` at `points` to `records`,
/// as NAME_run's gather after a step.
template <class T>
void appendReceivers(const T *field, const Grid3 &g, const std::vector<int> &points,
                     std::vector<T> &records) {
  std::vector<T> grid(static_cast<std::size_t>(g.points()));
  cudaMemcpy(grid.data(), field, grid.size() * sizeof(T), cudaMemcpyDeviceToHost);
  for (std::size_t k = 0; k < points.size(); k += static_cast<std::size_t>(g.dims)) {
    long long q[3] = {0, 0, 0};
    for (int a = 0; a < g.dims; ++a) {
      q[a] = points[k + static_cast<std::size_t>(a)];
    }
    records.push_back(grid[static_cast<std::size_t>((q[0] * g.n[1] + q[1]) * g.n[2] + q[2])]);
  }
}

/// NAME_run from `host` recording `points` (in device memory): its records
/// bit for bit `expected` (the NAME_step calls' values there after each
/// step) and its stepped field bit for bit `result` (NAME_run's without).
template <class Api>
bool recordsMatchSteps(const std::vector<Host> &host, const Grid3 &g, const int *n,
                       const std::vector<double> &params, const RunValues<Api> &values, int steps,
                       const RunSources &src, const std::vector<int> &points,
                       const std::vector<typename Api::T> &expected, const Host &result) {
  using T = typename Api::T;
  DeviceFields<T> fields(host);
  Device<T> scratch(host[0].size());
  const int count = static_cast<int>(points.size()) / g.dims;
  int *devicePoints = nullptr;
  cudaMalloc(&devicePoints, points.size() * sizeof(int));
  cudaMemcpy(devicePoints, points.data(), points.size() * sizeof(int), cudaMemcpyHostToDevice);
  Device<T> records(static_cast<std::size_t>(steps) * static_cast<std::size_t>(count));
  records.upload(Host(records.count, 12345.0)); // poison: every record must be written
  const bool ran = Api::run(fields.ptr.data(), scratch.p, n, params.data(), values.values.data(),
                            steps, 0, devicePoints, count, records.p, src.devicePoints, src.count,
                            src.deviceAmplitudes) == cudaSuccess;
  cudaDeviceSynchronize();
  std::vector<T> got(records.count);
  cudaMemcpy(got.data(), records.p, got.size() * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(devicePoints);
  return ran && got.size() == expected.size() &&
         std::memcmp(got.data(), expected.data(), got.size() * sizeof(T)) == 0 &&
         sameBits(fields.fields[Api::fieldsInfo().stepped_field]->download(), result);
}

/// What a check of invalid points runs on: copies of the fields, scratch,
/// the values of one step, and the points (invalidReceiverPoints: the
/// valid centre first).
template <class Api> struct InvalidPointsCase {
  DeviceFields<typename Api::T> fields;
  Device<typename Api::T> scratch;
  RunValues<Api> values;
  std::vector<int> points;
  std::size_t dims, count;
  InvalidPointsCase(const std::vector<Host> &host, const Grid3 &g,
                    const std::vector<double> &params)
      : fields(host), scratch(host[0].size()), values(params, 1),
        points(invalidReceiverPoints(Api::info(), g)), dims(static_cast<std::size_t>(g.dims)),
        count(points.size() / dims) {}
};

/// Invalid receivers (invalidReceiverPoints: outside the grid, on the fixed
/// ring): in managed memory (the host reads them) each, after the valid
/// centre, has the call refused, nothing written; in device memory the
/// call runs and their records are NaN, the centre's not. Also a negative
/// count and null points beside a positive count are refused.
template <class Api>
bool invalidReceiversHandled(const std::vector<Host> &host, const Grid3 &g, const int *n,
                             const std::vector<double> &params) {
  using T = typename Api::T;
  InvalidPointsCase<Api> c(host, g, params);
  const double *const *v = c.values.values.data();
  const std::vector<int> &points = c.points;
  int *managed = nullptr, *onDevice = nullptr; // managed: a pair (centre, invalid) each
  cudaMallocManaged(&managed, 2 * (points.size() - c.dims) * sizeof(int));
  for (std::size_t k = 1; k < c.count; ++k) {
    int *pair = managed + 2 * c.dims * (k - 1);
    std::memcpy(pair, points.data(), c.dims * sizeof(int));
    std::memcpy(pair + c.dims, points.data() + c.dims * k, c.dims * sizeof(int));
  }
  cudaMalloc(&onDevice, points.size() * sizeof(int));
  cudaMemcpy(onDevice, points.data(), points.size() * sizeof(int), cudaMemcpyHostToDevice);
  Device<T> records(c.count);
  const int stepped = Api::fieldsInfo().stepped_field;
  T *const *f = c.fields.ptr.data();
  bool ok = true;
  for (std::size_t k = 1; k < c.count; ++k) {
    ok &= Api::run(f, c.scratch.p, n, params.data(), v, 1, 0, managed + 2 * c.dims * (k - 1), 2,
                   records.p) == cudaErrorInvalidValue;
  }
  ok &= Api::run(f, c.scratch.p, n, params.data(), v, 1, 0, onDevice, -1, records.p) ==
        cudaErrorInvalidValue;
  ok &= Api::run(f, c.scratch.p, n, params.data(), v, 1, 0, nullptr, 1, records.p) ==
        cudaErrorInvalidValue;
  cudaDeviceSynchronize();
  ok &= c.fields.fields[stepped]->download() == host[stepped];
  ok &= Api::run(f, c.scratch.p, n, params.data(), v, 1, 0, onDevice, static_cast<int>(c.count),
                 records.p) == cudaSuccess;
  cudaDeviceSynchronize();
  const Host got = records.download();
  ok &= !std::isnan(got[0]);
  for (std::size_t k = 1; k < c.count; ++k) {
    ok &= std::isnan(got[k]);
  }
  cudaFree(managed);
  cudaFree(onDevice);
  return ok;
}

/// Invalid sources, each refused with nothing written: a list of the
/// (valid) centre and one invalid point (invalidReceiverPoints: outside the
/// grid, on the fixed ring) in device memory, which the host reads; a
/// negative count; null points or amplitudes beside a positive count;
/// amplitudes in pageable host memory. The centre alone in managed memory
/// runs.
template <class Api>
bool invalidSourcesRefused(const std::vector<Host> &host, const Grid3 &g, const int *n,
                           const std::vector<double> &params) {
  using T = typename Api::T;
  InvalidPointsCase<Api> c(host, g, params);
  const double *const *v = c.values.values.data();
  const std::vector<int> &points = c.points;
  int *pairs = nullptr; // a pair (centre, invalid) each, in device memory
  cudaMalloc(&pairs, 2 * (points.size() - c.dims) * sizeof(int));
  for (std::size_t k = 1; k < c.count; ++k) {
    cudaMemcpy(pairs + 2 * c.dims * (k - 1), points.data(), c.dims * sizeof(int),
               cudaMemcpyHostToDevice);
    cudaMemcpy(pairs + 2 * c.dims * (k - 1) + c.dims, points.data() + c.dims * k,
               c.dims * sizeof(int), cudaMemcpyHostToDevice);
  }
  double *amplitudes = nullptr, *managedAmplitudes = nullptr;
  int *managedCentre = nullptr;
  cudaMalloc(&amplitudes, 2 * sizeof(double));
  cudaMemset(amplitudes, 0, 2 * sizeof(double));
  cudaMallocManaged(&managedAmplitudes, sizeof(double));
  cudaMallocManaged(&managedCentre, c.dims * sizeof(int));
  managedAmplitudes[0] = 0.5;
  std::memcpy(managedCentre, points.data(), c.dims * sizeof(int));
  const std::vector<double> pageable(2, 0.0);
  T *const *f = c.fields.ptr.data();
  const auto run = [&](const int *sp, int sc, const double *sa) {
    return Api::run(f, c.scratch.p, n, params.data(), v, 1, 0, nullptr, 0, nullptr, sp, sc, sa);
  };
  bool ok = true;
  for (std::size_t k = 1; k < c.count; ++k) {
    ok &= run(pairs + 2 * c.dims * (k - 1), 2, amplitudes) == cudaErrorInvalidValue;
  }
  ok &= run(pairs, -1, amplitudes) == cudaErrorInvalidValue;
  ok &= run(nullptr, 1, amplitudes) == cudaErrorInvalidValue;
  ok &= run(pairs, 1, nullptr) == cudaErrorInvalidValue;
  ok &= run(pairs, 1, pageable.data()) == cudaErrorInvalidValue;
  cudaDeviceSynchronize();
  const int stepped = Api::fieldsInfo().stepped_field;
  ok &= c.fields.fields[stepped]->download() == host[stepped];
  ok &= run(managedCentre, 1, managedAmplitudes) == cudaSuccess;
  cudaDeviceSynchronize();
  cudaFree(pairs);
  cudaFree(amplitudes);
  cudaFree(managedAmplitudes);
  cudaFree(managedCentre);
  return ok;
}

template <class Api> void runSize(const Grid3 &g, unsigned seed, Counts &counts) {
  using T = typename Api::T;
  const stencilc_stencil_info &info = Api::info();
  const stencilc_fields_info &fi = Api::fieldsInfo();
  const std::size_t count = static_cast<std::size_t>(g.points());
  const std::vector<double> params = parameterValues(fi.num_params);
  // The coefficients of parameters p, as the CUDA cores round them (to T;
  // 16-bit types compute in float).
  const auto rounded = [&fi](const std::vector<double> &p) {
    std::vector<double> k(static_cast<std::size_t>(fi.num_terms)), kRounded;
    Api::coefficients(p.data(), k.data());
    for (double c : k) {
      kRounded.push_back(sizeof(T) == 2 ? static_cast<double>(static_cast<float>(c))
                                        : static_cast<double>(static_cast<T>(c)));
    }
    return kRounded;
  };
  const std::vector<double> kRounded = rounded(params);
  const int n[3] = {static_cast<int>(g.n[0]), static_cast<int>(g.n[1]), static_cast<int>(g.n[2])};
  std::vector<Host> host;
  std::vector<Device<T> *> dev;
  std::vector<T *> ptr;
  for (int f = 0; f < fi.num_fields; ++f) {
    host.push_back(randomField<T>(count, seed + 31u * static_cast<unsigned>(f)));
    dev.push_back(new Device<T>(count));
    dev.back()->upload(host.back());
    ptr.push_back(dev.back()->p);
  }
  std::vector<const Host *> hostPtrs;
  for (const Host &h : host) {
    hostPtrs.push_back(&h);
  }
  const double poison = toDouble(static_cast<T>(12345.0)); // an element value
  // NAME_step on a poisoned output.
  {
    Device<T> out(count);
    out.upload(Host(count, poison));
    const cudaError_t status = Api::step(ptr.data(), out.p, n, params.data(), 0);
    cudaDeviceSynchronize();
    const Host result = out.download();
    Host reference(count, poison);
    referenceStep(info, fi, kRounded, g, hostPtrs, reference);
    bool ringKept = true;
    long long p[3];
    for (p[0] = 0; p[0] < g.n[0]; ++p[0]) {
      for (p[1] = 0; p[1] < g.n[1]; ++p[1]) {
        for (p[2] = 0; p[2] < g.n[2]; ++p[2]) {
          const std::size_t i = static_cast<std::size_t>((p[0] * g.n[1] + p[1]) * g.n[2] + p[2]);
          ringKept &= writes(info, g, p) || result[i] == poison;
        }
      }
    }
    const double error = relativeL2(info, g, result, reference);
    counts.check(status == cudaSuccess && error <= tolerance(info, 1) && ringKept, Api::name,
                 "step", g, error);
  }
  // NAME_run against the reference and against single steps.
  const int stepped = fi.stepped_field, previous = fi.previous_field;
  std::vector<Host> start = host; // what NAME_run starts from: u_prev takes u's ring (fixed)
  if (previous >= 0 && info.boundary == STENCILC_BOUNDARY_FIXED) {
    long long p[3];
    for (p[0] = 0; p[0] < g.n[0]; ++p[0]) {
      for (p[1] = 0; p[1] < g.n[1]; ++p[1]) {
        for (p[2] = 0; p[2] < g.n[2]; ++p[2]) {
          const std::size_t i = static_cast<std::size_t>((p[0] * g.n[1] + p[1]) * g.n[2] + p[2]);
          if (!writes(info, g, p)) {
            start[previous][i] = start[stepped][i];
          }
        }
      }
    }
  }
  for (int steps : runStepCounts(info, g)) {
    // 1000 steps are checked bit for bit against NAME_step only: the float64
    // reference of a random wave field that long says nothing.
    const bool againstReference = steps < kLongRun;
    const RunSources src(Api::sources, info, g, steps);
    std::vector<Host> level = start; // the reference, in double
    for (int s = 0; s < steps && againstReference; ++s) {
      std::vector<const Host *> in;
      for (const Host &h : level) {
        in.push_back(&h);
      }
      Host next = level[stepped]; // keeps the ring of the stepped field
      referenceStep(info, fi, rounded(paramsAt<Api>(params, s)), g, in, next);
      for (int k = 0; k < src.count; ++k) {
        next[src.index(g, k)] += src.amplitudes[static_cast<std::size_t>(s * src.count + k)];
      }
      if (previous >= 0) {
        level[previous] = level[stepped];
      }
      level[stepped] = next;
    }
    // NAME_run on copies of the fields.
    std::vector<Device<T> *> runDev;
    std::vector<T *> runPtr;
    for (int f = 0; f < fi.num_fields; ++f) {
      runDev.push_back(new Device<T>(count));
      runDev.back()->upload(host[f]);
      runPtr.push_back(runDev.back()->p);
    }
    Device<T> scratch(count);
    const RunValues<Api> values(params, steps);
    const cudaError_t status =
        Api::run(runPtr.data(), scratch.p, n, params.data(), values.values.data(), steps, 0,
                 nullptr, 0, nullptr, src.devicePoints, src.count, src.deviceAmplitudes);
    cudaDeviceSynchronize();
    const Host result = runDev[stepped]->download();
    const Host resultPrevious = previous >= 0 ? runDev[previous]->download() : Host();
    double error = relativeL2(info, g, result, level[stepped]);
    if (previous >= 0) {
      error = std::fmax(error, relativeL2(info, g, resultPrevious, level[previous]));
    }
    char what[64];
    std::snprintf(what, sizeof what, "run %d", steps);
    counts.check(status == cudaSuccess && (!againstReference || error <= tolerance(info, steps)),
                 Api::name, what, g, error);
    // The same steps through NAME_step, the levels rotated here: bit for bit.
    Device<T> a(count), b(count), c(count);
    a.upload(start[stepped]);
    b.upload(start[stepped]); // the ring of the stepped field in every buffer
    c.upload(previous >= 0 ? start[previous] : start[stepped]);
    T *current = a.p, *next = b.p, *before = c.p;
    std::vector<T *> stepPtr = ptr;
    bool launched = true;
    const std::vector<int> points = receiverPoints(info, g);
    std::vector<T> stepRecords; // the receivers' values after each NAME_step
    for (int s = 0; s < steps; ++s) {
      stepPtr[stepped] = current;
      if (previous >= 0) {
        stepPtr[previous] = before;
      }
      launched &=
          Api::step(stepPtr.data(), next, n, paramsAt<Api>(params, s).data(), 0) == cudaSuccess;
      T *oldest = before;
      before = current;
      current = next;
      next = previous >= 0 ? oldest : before;
      addSourcesOnHost(current, g, src, s);
      if (Api::records) {
        appendReceivers(current, g, points, stepRecords);
      }
    }
    cudaDeviceSynchronize();
    std::vector<T> mine(count), theirs(result.begin(), result.end());
    cudaMemcpy(mine.data(), current, count * sizeof(T), cudaMemcpyDeviceToHost);
    bool same = launched && std::memcmp(mine.data(), theirs.data(), count * sizeof(T)) == 0;
    if (previous >= 0) {
      std::vector<T> minePrevious(count),
          theirsPrevious(resultPrevious.begin(), resultPrevious.end());
      cudaMemcpy(minePrevious.data(), before, count * sizeof(T), cudaMemcpyDeviceToHost);
      same &= std::memcmp(minePrevious.data(), theirsPrevious.data(), count * sizeof(T)) == 0;
    }
    std::snprintf(what, sizeof what, "run %d = %d steps", steps, steps);
    counts.check(same, Api::name, what, g);
    if (Api::records) { // the receivers' records: the NAME_step values, bit for bit
      std::snprintf(what, sizeof what, "run %d records = %d steps", steps, steps);
      counts.check(recordsMatchSteps<Api>(host, g, n, params, values, steps, src, points,
                                          stepRecords, result),
                   Api::name, what, g);
    }
    if (values.any()) { // the per-step values in device memory: the same bits
      std::snprintf(what, sizeof what, "run %d, values on the device", steps);
      counts.check(sameWithDeviceValues<Api>(host, n, params, values, steps, src, result),
                   Api::name, what, g);
    }
    for (Device<T> *d : runDev) {
      delete d;
    }
  }
  // Bad arguments: cudaErrorInvalidValue, nothing written.
  {
    const Host before = host[stepped];
    std::vector<T *> bad = ptr;
    bad[0] = nullptr;
    Device<T> out(count);
    bool ok = Api::step(bad.data(), out.p, n, params.data(), 0) == cudaErrorInvalidValue;
    ok &= Api::step(ptr.data(), ptr[stepped], n, params.data(), 0) == cudaErrorInvalidValue;
    if (count > 1) { // an output one element into the last field overlaps it
      ok &= Api::step(ptr.data(), ptr[fi.num_fields - 1] + 1, n, params.data(), 0) ==
            cudaErrorInvalidValue;
    }
    const RunValues<Api> one(params, 1);
    const double *const *v = one.values.data();
    ok &= Api::run(ptr.data(), ptr[stepped], n, params.data(), v, 1, 0) == cudaErrorInvalidValue;
    ok &= Api::run(ptr.data(), out.p, n, params.data(), v, -1, 0) == cudaErrorInvalidValue;
    if (one.any()) { // a per-step parameter's values missing
      const std::vector<const double *> none(one.values.size(), nullptr);
      ok &=
          Api::run(ptr.data(), out.p, n, params.data(), none.data(), 1, 0) == cudaErrorInvalidValue;
    }
    cudaDeviceSynchronize();
    ok &= dev[stepped]->download() == before;
    counts.check(ok, Api::name, "bad arguments", g);
  }
  if (Api::records) {
    counts.check(invalidReceiversHandled<Api>(host, g, n, params), Api::name,
                 "receivers outside the grid or on the fixed ring", g);
  }
  if (Api::sources) {
    counts.check(invalidSourcesRefused<Api>(host, g, n, params), Api::name,
                 "invalid sources refused", g);
  }
  for (Device<T> *d : dev) {
    delete d;
  }
}

/// Every case of one stencil at its sizes: the smallest legal one, odd
/// ones, and in 3D one of aligned rows, 1, 2 or 3 dimensional.
template <class Api> void runStencil(Counts &counts) {
  const stencilc_stencil_info &info = Api::info();
  const long long m = info.boundary == STENCILC_BOUNDARY_FIXED ? 2 * info.radius + 1 : 1;
  std::vector<Grid3> sizes;
  if (info.dims == 1) {
    sizes = {{1, {m, 1, 1}}, {1, {1001, 1, 1}}, {1, {100003, 1, 1}}};
  } else if (info.dims == 2) {
    // 401 x 263: blocks of a fused pass (128 rows) with no edge in reach,
    // which take its interior path.
    sizes = {{2, {m, m, 1}}, {2, {17, 19, 1}}, {2, {203, 317, 1}}, {2, {401, 263, 1}}};
  } else {
    // 70 x 20 x 40: more planes than a plane-kernel block's (32 or 64), and rows of
    // whole 16-byte vectors in every precision (the copies' fast path);
    // 75 x 104 x 200: windows of a fused pass with no edge in reach, which
    // take its interior path, and more planes than a block streams.
    sizes = {{3, {m, m, m}},
             {3, {9, 11, 13}},
             {3, {33, 35, 69}},
             {3, {70, 20, 40}},
             {3, {75, 104, 200}}};
  }
  unsigned seed = 1;
  // FIELDS_MAX_POINTS=N: only grids of at most N points (compute-sanitizer
  // runs each launch many times slower).
  const char *most = std::getenv("FIELDS_MAX_POINTS");
  for (const Grid3 &g : sizes) {
    if (most != nullptr && g.points() > std::atoll(most)) {
      continue;
    }
    runSize<Api>(g, seed++, counts);
  }
}

} // namespace fieldtest
