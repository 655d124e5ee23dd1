// fused3d_bench.cu - the timing mode of gpu-test-device-fused3d (--bench):
// the cases of fused3d_bench.h (star3d7p and box3d27p at 512^3, 100 steps,
// fixed boundary; fp64, fp32 and fp16; T 1 and several T and geometries),
// each printed as GStencil/s (512^3 x 100 / time) beside T x the copy
// roofline measured in the same run (copy GB/s / (2 x element bytes)) and
// whether it equals T 1 bit for bit; the exit status is 1 where one does
// not.
#include <cstdio>

#include "fused3d_bench.h"

int fused_nd_test::bench3d() {
  using namespace fused3d_bench;
  const double copy = copyGBs(static_cast<long long>(kN) * kN * kN * 8);
  bool same = benchCases<double, Star7>(copy);
  same &= benchCases<float, Star7>(copy);
  same &= benchCases<double, Box27>(copy);
  same &= benchCases<float, Box27>(copy);
  same &= benchCases<__half, Star7>(copy);
  same &= benchCases<__half, Box27>(copy);
  std::printf("bench3d: %s\n", same ? "every T and geometry equals T 1 bit for bit"
                                    : "FAIL: some T or geometry differs from T 1");
  return same ? 0 : 1;
}
