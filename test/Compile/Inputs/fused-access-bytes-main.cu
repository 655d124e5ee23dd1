// The 2D fused pass's accesses (fused::Geometry's kAccessBytes): the widest
// of 16, 8 and 4 bytes that divides a thread's columns, so that a thread of
// 3 columns loads them 4 (float) or 8 (double) bytes at a time and its halo
// is T x r exactly; and its L2 prefetch ahead of the stream
// (PrefetchRowsOf): Params::kPrefetchRows, 0 where absent. Checked at
// compile time; prints a line when built.
#include <cstdio>

#include <stencilc/device/boundary.cuh>
#include <stencilc/device/fused.cuh>

namespace fused = stencilc::device::fused;

/// A radius-2 stencil of one term, enough for the geometry.
struct Radius2 {
  static constexpr int kRadius = 2, kTerms = 1;
  template <class C> static constexpr fused::Term<C> term(int) { return {0, 2, C(1)}; }
};

template <class E, int Width, int Steps = 4> struct Params {
  using Element = E;
  using Compute = E;
  using Boundary = stencilc::device::FixedBoundary;
  using Stencil = Radius2;
  static constexpr int kSteps = Steps, kWidth = Width, kThreads = 128, kBatch = 2, kChunkY = 64;
};
template <class E, int Width> struct Prefetching : Params<E, Width> {
  static constexpr int kPrefetchRows = 2;
};

template <class P> using G = fused::Geometry<P>;

static_assert(G<Params<float, 96>>::kAccessBytes == 4 && G<Params<float, 96>>::kHalo == 8);
static_assert(G<Params<double, 96>>::kAccessBytes == 8 && G<Params<double, 96>>::kHalo == 8);
static_assert(G<Params<float, 128>>::kAccessBytes == 16 && G<Params<float, 128>>::kVec == 4);
static_assert(G<Params<float, 64>>::kAccessBytes == 8);
static_assert(G<Params<double, 64>>::kAccessBytes == 16);
static_assert(G<Params<double, 192>>::kAccessBytes == 16 && G<Params<double, 192>>::kHalo == 8);
static_assert(G<Params<double, 96, 3>>::kHalo == 6 && G<Params<double, 128, 3>>::kHalo == 6);
static_assert(G<Params<float, 96, 3>>::kHalo == 6 && G<Params<float, 128, 3>>::kHalo == 8);
static_assert(fused::PrefetchRowsOf<G<Params<float, 128>>>::value == 0);
static_assert(fused::PrefetchRowsOf<G<Prefetching<float, 128>>>::value == 2);

int main() {
  std::printf("ok: 3 columns a thread in 4- or 8-byte accesses, 2 and 4 in the widest; the "
              "prefetch 0 unless asked\n");
  return 0;
}
