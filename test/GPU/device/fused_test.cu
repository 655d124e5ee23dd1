// fused_test.cu - stencilc/device/fused.cuh on the GPU: `steps` steps of a
// 2D stencil as passes of T fused steps (fused::run) against a CPU
// reference that does the same single steps with the same arithmetic
// (std::fma in the order of the stencil's terms, in float for fp16 and
// fp32, double for fp64, rounded to the element type every step), bit for
// bit at every point:
//  - star 5-point (r 1), box 9-point (r 1), star 9-point (r 2) and star
//    13-point (r 3) in fp32, fp64 and fp16; star 5 and box 9 in bf16;
//    in fp32 a stencil whose sideways terms are at dy 1 only and one with
//    none (where fused.cuh shares the side columns, SidesOf); box 25-point (r 2) in fp32
//    and box 49-point (r 3) in fp32 and fp64; fixed, constant 0.75 and
//    periodic boundaries;
//  - grids 1x1 (not fixed), 3x3 (not fixed at r 2), 17x19, 200x256 and
//    64x1024 (rows of whole 16-byte vectors: the vector loads, and warps
//    of the interior path), 1000x1337;
//  - T 2 and 4 (one warp per block on the narrowest strip, batches of 3
//    rows, chunks of 16 rows: two chunks at 17x19, several strips and
//    chunks from 200x256 on), steps 1, T - 1, T, T + 1, 3T + 2 and 100
//    (100 from 17x19 up);
//  - T 3 with two warps per block on strips twice as wide, batches of one
//    row and chunks of 7 rows, steps 2, 3, 4 and 14.
// The scratch buffer b is NaN before each run; the result must be in a.
// Also run's argument checks. --max-points N skips the grids of more
// than N points (for compute-sanitizer).
//
// With --bench: the timing mode of fused_bench.cu.
#include <cstdlib>
#include <cstring>

#include "fused_check.h"

namespace fused_check {
#define FUSED_CHECK_DECLARE(E, St)                                                                 \
  extern template void checkAllBoundaries<E, fused_test::St>(Tally &);
FUSED_CHECK_CASES(FUSED_CHECK_DECLARE)
#undef FUSED_CHECK_DECLARE
} // namespace fused_check

// Where fused.cuh shares a window row's side columns (SidesOf): at the one
// row offset that reads them (a star: 0; SkewSides: 1), nowhere (Column5),
// or as each row enters its window (a box).
namespace {
template <class St>
using SidesOfStencil = stencilc::device::fused::SidesOf<stencilc::device::fused::Geometry<
    fused_test::Params<float, stencilc::device::FixedBoundary, St, 2>>>;
static_assert(SidesOfStencil<fused_test::Star9>::kAtUse &&
              SidesOfStencil<fused_test::Star9>::kDy == 0);
static_assert(SidesOfStencil<fused_test::SkewSides>::kAtUse &&
              SidesOfStencil<fused_test::SkewSides>::kDy == 1);
static_assert(SidesOfStencil<fused_test::Column5>::kDy ==
              SidesOfStencil<fused_test::Column5>::kNoRow);
static_assert(!SidesOfStencil<fused_test::Box9>::kAtUse);
// A plan's kSidesAtEntry (a measured choice) keeps a star's at entry.
struct Star9AtEntry
    : fused_test::Params<float, stencilc::device::FixedBoundary, fused_test::Star9, 2> {
  static constexpr bool kSidesAtEntry = true;
};
static_assert(
    !stencilc::device::fused::SidesOf<stencilc::device::fused::Geometry<Star9AtEntry>>::kAtUse);
} // namespace

int main(int argc, char **argv) {
  stencilc::device_test::skipWithoutDevice();
  if (argc > 1 && std::strcmp(argv[1], "--bench") == 0) {
    return fused_test::bench();
  }
  if (argc > 2 && std::strcmp(argv[1], "--max-points") == 0) {
    fused_check::maxPoints = std::atoll(argv[2]);
  }
  stencilc::device_test::Tally tally;
  fused_check::checkArguments(tally);
#define FUSED_CHECK_RUN(E, St) fused_check::checkAllBoundaries<E, fused_test::St>(tally);
  FUSED_CHECK_CASES(FUSED_CHECK_RUN)
#undef FUSED_CHECK_RUN
  return tally.finish("fused");
}
