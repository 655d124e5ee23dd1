// rotation_bench.cu - one variant of one generated 2D stencil's fused
// NAME_run for the rotation experiment (run.sh): fused::run of 100 steps
// at 8192^2 on the stencil's own FusedParams with kMaxPhases = PHASES,
// built against the runtime's fused.cuh (which carries the window rows
// and ignores kMaxPhases) or against rotation.patch's (which rotates them
// where PHASES allows). Prints GStencil/s and a hash of the result from a
// fixed input, which run.sh compares between the variants.
#include <cstdio>
#include <type_traits>
#include <vector>

#include "fused_nd_bench.h" // test/GPU/device: fillRandom, medianMs

#include STENCIL // the generated NAME.simt.cu: namespace stencilc_gen_NAME

#define ROTATION_CAT(a, b) a##b
#define ROTATION_NS(name) ROTATION_CAT(stencilc_gen_, name)
#define ROTATION_TEXT2(x) #x
#define ROTATION_TEXT(x) ROTATION_TEXT2(x)

namespace {

constexpr int kN = 8192;
constexpr int kSteps = 100;

struct Params : ROTATION_NS(NAME)::FusedParams {
  static constexpr int kMaxPhases = PHASES;
};
using S = stencilc::device::fused::Geometry<Params>;
using E = S::Element;

/// S::kPhases and S::kCycle, 1 and 0 for the runtime's header (which has
/// neither: it carries the rows).
template <class G, class = void> struct Rotation {
  static constexpr int kPhases = 1, kCycle = 0;
};
template <class G> struct Rotation<G, std::void_t<decltype(G::kPhases)>> {
  static constexpr int kPhases = G::kPhases, kCycle = G::kCycle;
};

/// FNV-1a over the bytes of the grid.
unsigned long long hashOf(const E *grid, long long count) {
  std::vector<unsigned char> bytes(count * sizeof(E));
  STENCILC_CHECK(cudaMemcpy(bytes.data(), grid, bytes.size(), cudaMemcpyDeviceToHost));
  unsigned long long h = 1469598103934665603ull;
  for (unsigned char b : bytes) {
    h = (h ^ b) * 1099511628211ull;
  }
  return h;
}

} // namespace

int main() {
  const long long count = static_cast<long long>(kN) * kN;
  stencilc::DeviceBuffer<E> a(count), b(count);
  const auto run = [&] {
    STENCILC_CHECK(stencilc::device::fused::run<S>(a.data(), b.data(), kN, kN, kSteps, nullptr));
  };
  const double ms = fused_nd_bench::medianMs(a.data(), count, run);
  fused_nd_bench::fillRandom<E><<<1024, 256>>>(a.data(), count, 99u);
  STENCILC_CHECK_LAUNCH();
  run();
  std::printf(
      "%-18s %-8s max phases %d, phases %d (cycle %d): %8.3f ms %7.1f GStencil/s hash %016llx\n",
      ROTATION_TEXT(NAME), VARIANT, PHASES, Rotation<S>::kPhases, Rotation<S>::kCycle, ms,
      static_cast<double>(count) * kSteps / (ms * 1e6), hashOf(a.data(), count));
  return 0;
}
