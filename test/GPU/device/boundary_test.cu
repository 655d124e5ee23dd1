// boundary_test.cu - stencilc/device/boundary.cuh on the GPU: every policy
// (fixed, periodic, a constant, clamp, mirror) reads every point of a grid and of a halo
// around it 4 points wide (wider than the smallest grids, so periodic
// reads wrap more than once), in 2D and 3D, for each element type, checked
// bit for bit against the rule computed on the CPU. Grids of extent 1, 3,
// 17 and 1000 along each axis in turn, the others 3, and square/cubic ones.
#include <cstdint>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "device_test.h"
#include "stencilc/device/boundary.cuh"
#include "stencilc/runtime/device_buffer.h"

namespace {

using namespace stencilc;
using device_test::Tally;

constexpr int kHalo = 4;

/// The constant of the constant boundary: exact in every element type.
struct OutsideValue {
  static constexpr float value = -1.25f;
};
struct OutsideValueDouble {
  static constexpr double value = -1.25;
};

enum class Rule { Fixed, Periodic, Constant, Clamp, Mirror };

/// out[i] = Boundary::read at point i of the grid's box widened by kHalo
/// (row-major, x fastest), of a 2D grid when nz == 0.
template <class Boundary, class Element>
__global__ void readBox(const Element *in, Element *out, int nz, int ny, int nx) {
  const long long wz = nz == 0 ? 1 : nz + 2 * kHalo, wy = ny + 2 * kHalo, wx = nx + 2 * kHalo;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       i < wz * wy * wx; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long x = i % wx - kHalo, y = i / wx % wy - kHalo;
    if (nz == 0) {
      out[i] = Boundary::read(in, y, x, ny, nx);
    } else {
      out[i] = Boundary::read(in, i / (wx * wy) - kHalo, y, x, nz, ny, nx);
    }
  }
}

/// Distinct, arbitrary bit patterns (all bits of the element vary).
template <class Element> std::vector<Element> patterned(std::size_t count) {
  std::vector<Element> values(count);
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  for (Element &v : values) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    v = device_test::fromBits<Element>(state >> 1);
  }
  return values;
}

long long wrap(long long i, int n) { return ((i % n) + n) % n; }

long long clampTo(long long i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

/// Reflects step by step (in[-1] is in[0], in[n] is in[n-1]) until inside:
/// written apart from boundary_index.h's closed form, to check it.
long long reflect(long long i, int n) {
  while (i < 0 || i >= n) {
    i = i < 0 ? -1 - i : 2LL * n - 1 - i;
  }
  return i;
}

/// Where a read lands under a rule that reads the grid outside it.
long long land(Rule rule, long long i, int n) {
  return rule == Rule::Periodic ? wrap(i, n) : rule == Rule::Clamp ? clampTo(i, n) : reflect(i, n);
}

template <class Boundary, class Element>
void checkGrid(Tally &tally, Rule rule, Element outside, int nz, int ny, int nx, const char *what) {
  const long long points = static_cast<long long>(nz == 0 ? 1 : nz) * ny * nx;
  const std::vector<Element> grid = patterned<Element>(points);
  const long long wz = nz == 0 ? 1 : nz + 2 * kHalo, wy = ny + 2 * kHalo, wx = nx + 2 * kHalo;
  DeviceBuffer<Element> in(points), out(wz * wy * wx);
  in.upload(grid);
  readBox<Boundary, Element><<<256, 256>>>(in.data(), out.data(), nz, ny, nx);
  STENCILC_CHECK_LAUNCH();
  const std::vector<Element> got = out.download();
  long long wrong = 0;
  for (long long i = 0; i < wz * wy * wx; ++i) {
    long long z = nz == 0 ? 0 : i / (wx * wy) - kHalo;
    long long y = i / wx % wy - kHalo, x = i % wx - kHalo;
    const int zExtent = nz == 0 ? 1 : nz;
    const bool inside = z >= 0 && z < zExtent && y >= 0 && y < ny && x >= 0 && x < nx;
    Element expected = outside;
    const bool folds = rule == Rule::Periodic || rule == Rule::Clamp || rule == Rule::Mirror;
    if (folds) {
      z = land(rule, z, zExtent), y = land(rule, y, ny), x = land(rule, x, nx);
    }
    if (inside || folds) {
      expected = grid[(z * ny + y) * nx + x];
    }
    wrong += Tally::sameBits(got[i], expected) ? 0 : 1;
  }
  tally.check(wrong == 0, what, wrong);
}

template <class Boundary, class Element>
void checkRule(Tally &tally, Rule rule, Element outside, const char *what) {
  for (int n : device_test::kSizes) {
    checkGrid<Boundary>(tally, rule, outside, 0, n, 3, what);
    checkGrid<Boundary>(tally, rule, outside, 0, 3, n, what);
    checkGrid<Boundary>(tally, rule, outside, 0, n, n, what);
    checkGrid<Boundary>(tally, rule, outside, n, 3, 3, what);
    checkGrid<Boundary>(tally, rule, outside, 3, n, 3, what);
    checkGrid<Boundary>(tally, rule, outside, 3, 3, n, what);
    if (n < 1000) {
      checkGrid<Boundary>(tally, rule, outside, n, n, n, what);
    }
  }
}

template <class Element, class Value> void checkElement(Tally &tally, const char *type) {
  std::printf("%s\n", type);
  checkRule<device::FixedBoundary>(tally, Rule::Fixed, Element(0.0f), "fixed");
  checkRule<device::PeriodicBoundary>(tally, Rule::Periodic, Element(0.0f), "periodic");
  checkRule<device::ClampBoundary>(tally, Rule::Clamp, Element(0.0f), "clamp");
  checkRule<device::MirrorBoundary>(tally, Rule::Mirror, Element(0.0f), "mirror");
  checkRule<device::ConstantBoundary<Value>>(tally, Rule::Constant, Element(Value::value),
                                             "constant");
}

} // namespace

int main() {
  device_test::skipWithoutDevice();
  Tally tally;
  checkElement<__half, OutsideValue>(tally, "fp16");
  checkElement<__nv_bfloat16, OutsideValue>(tally, "bf16");
  checkElement<float, OutsideValue>(tally, "fp32");
  checkElement<double, OutsideValueDouble>(tally, "fp64");
  return tally.finish("boundary");
}
