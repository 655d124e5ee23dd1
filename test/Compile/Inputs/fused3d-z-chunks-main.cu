// The blocks' chunks along z of a 3D fused pass (fused3d::ZChunks), checked
// on the host for many grids, ranges and plans: the chunks cover the stored
// planes in order, none empty or past kChunkZ planes; every chunk but those
// of the head and tail runs, kHead and kTail planes at most, may take the
// pass without the planes' tests (its levels compute, and it loads, only
// planes a fixed ring computes); and a periodic grid's chunks are the even
// ones. With --launch-limit: where even chunks fit a launch (65535 along
// z), so do these, up to nz = INT_MAX.
#include <cstdio>
#include <cstring>

#include <stencilc/device/fused3d.cuh>

using stencilc::device::FixedBoundary;
using stencilc::device::OuterRange;
using stencilc::device::PeriodicBoundary;
using stencilc::device::fused3d::ZChunks;

template <class B, int R, int Lag, int Chunk> struct Plan {
  using Boundary = B;
  static constexpr int kRadius = R, kLag = Lag, kChunkZ = Chunk;
};

static int failures = 0;

static void fail(const char *what, int nz, OuterRange planes, int k) {
  if (++failures <= 10) {
    std::printf("FAIL %s: nz %d, planes [%d, %d), chunk %d\n", what, nz, planes.begin, planes.end,
                k);
  }
}

/// Whether a chunk of a pass of Levels steps of plan S computes and loads
/// only planes a fixed ring of r computes (fused3d::passBlock's test).
template <class S, int Levels> static bool lean(OuterRange c, int nz) {
  constexpr int r = S::kRadius, lag = S::kLag;
  return c.begin - Levels * (r + lag) >= r && c.end - 1 + (Levels - 1) * lag < nz - r &&
         c.end - 1 + Levels * lag < nz;
}

/// Whether zc's chunks cover `planes` in order, none empty or past
/// kChunkZ planes; adds the planes of those not lean to notLean.
template <class S, int Levels>
static void cover(const ZChunks<S, Levels> &zc, OuterRange planes, int nz, long long &notLean) {
  int next = planes.begin;
  for (int k = 0; k < zc.count(); ++k) {
    const OuterRange chunk = zc.chunk(k);
    if (chunk.begin != next || chunk.end <= chunk.begin || chunk.count() > S::kChunkZ) {
      fail("not the next planes, or empty, or too many", nz, planes, k);
      return;
    }
    next = chunk.end;
    notLean += lean<S, Levels>(chunk, nz) ? 0 : chunk.count();
  }
  if (next != planes.end) {
    fail("the planes not all covered", nz, planes, zc.count());
  }
}

template <class S, int Levels> static void check(OuterRange planes, int nz) {
  constexpr int kHead = Levels * (S::kRadius + S::kLag) + S::kRadius, kTail = Levels * S::kLag;
  const ZChunks<S, Levels> zc(planes, nz);
  long long notLean = 0;
  cover(zc, planes, nz, notLean);
  if (planes.whole(nz) && notLean > kHead + kTail) {
    fail("more planes with the planes' tests than the head and tail", nz, planes,
         static_cast<int>(notLean));
  }
}

template <int R, int Lag, int Chunk, int Levels> static void checkPlan() {
  using Fixed = Plan<FixedBoundary, R, Lag, Chunk>;
  using Periodic = Plan<PeriodicBoundary, R, Lag, Chunk>;
  for (int nz = 1; nz <= 300; ++nz) {
    check<Fixed, Levels>(OuterRange{0, nz}, nz);
    for (int first = 0; first < nz; first += 7) {
      check<Fixed, Levels>(OuterRange{first, nz - (nz - first) / 3}, nz);
    }
    const ZChunks<Periodic, Levels> even(OuterRange{0, nz}, nz);
    if (even.count() != (nz + Chunk - 1) / Chunk ||
        even.chunk(0).count() != (nz < Chunk ? nz : Chunk)) {
      fail("a periodic grid's chunks not the even ones", nz, OuterRange{0, nz}, 0);
    }
  }
}

/// Grids of as many planes as even chunks may have in one launch, and a
/// few past that: ZChunks' count fits wherever even chunks fit.
template <int Chunk, int Levels> static void checkLaunchLimit() {
  using Fixed = Plan<FixedBoundary, 1, 2, Chunk>;
  const long long most = 65535LL * Chunk;
  for (long long n : {most - 1000, most - 1, most, most + 1, 2147483647LL}) {
    const int nz = static_cast<int>(n);
    const ZChunks<Fixed, Levels> zc(OuterRange{0, nz}, nz);
    const bool evenFits = (nz - 1LL) / Chunk + 1 <= 65535;
    if (evenFits && zc.count() > 65535) {
      fail("more chunks than a launch may have where even chunks fit", nz, OuterRange{0, nz},
           zc.count());
    }
    if (evenFits) {
      long long notLean = 0;
      cover(zc, OuterRange{0, nz}, nz, notLean);
    }
  }
}

int main(int argc, char **argv) {
  const bool limit = argc > 1 && std::strcmp(argv[1], "--launch-limit") == 0;
  if (limit) {
    checkLaunchLimit<96, 4>();
    checkLaunchLimit<1, 2>(); // a plane a chunk: 65535 planes at most
  } else {
    checkPlan<1, 1, 96, 4>(); // star3d7p fp32
    checkPlan<1, 1, 64, 3>(); // a pass of the remainder
    checkPlan<1, 2, 32, 2>(); // a box: kLag = planeSpan + 1
    checkPlan<4, 4, 16, 1>(); // radius 4, one step, chunks shorter than the head
    checkPlan<2, 3, 8, 8>();  // chunks much shorter than the head
  }
  if (failures != 0) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf(limit ? "ok: chunks fit a launch wherever even chunks do\n"
                    : "ok: chunks cover the planes, all but the head and tail lean\n");
  return 0;
}
