//===- SimtFusionND.cpp - The geometry of the 1D and 3D fused kernels ------===//
//
// The numbers of runtime/include/stencilc/device/fused1d.cuh (a segment of
// points in shared memory per block) and fused3d.cuh (3.5D blocking: a
// window of rows and columns per block, streamed along z, each thread's
// points of every level in registers, edge rows in shared memory) for T
// steps of a stencil: the measured
// geometry of its kind where there is one (SimtFusion.cpp's table), else the
// rule's, widened until the redundant halo leaves points to store.
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtFusion.h"

#include <algorithm>

namespace stencilc {

namespace {

/// The segment of a 1D block (k.halo set).
void geometry1D(int r, int bytes, const MeasuredFusion *m, FusedKernel &k) {
  const int vec = 16 / bytes;
  k.width = m ? m->width : 4096;
  k.threads = m ? m->threads : 512;
  while (k.storedColumns() < vec) {
    k.width *= 2;
  }
  k.sharedBytes = 2 * k.width * bytes;
  // Every level computes all but the segment's outermost r points.
  k.redundantShare = 1.0 - double(k.storedColumns()) / (k.width - 2 * r);
}

/// The planes a 3D pass's level reads beside its own along z, and the
/// planes it lags the level below (fused3d.cuh's kPlaneSpan and kLag): a
/// star's terms reach along x or y only at dz = 0 (span 0, lag r); a box's,
/// and any low-rank form's, at every dz (span r, lag r + 1).
struct PlaneLag {
  int span, lag;
};
PlaneLag planeLag(const StencilSpec &spec, bool lowRankForm) {
  const int r = spec.radius;
  const int span = spec.shape == Shape::Star && !lowRankForm ? 0 : r;
  return {span, span == 0 ? r : std::max(r, span + 1)};
}

/// The planes of a level's register queue, [c - r, c + lag] where the next
/// level computes plane c (fused3d.cuh's kQueue).
int queuePlanes(const StencilSpec &spec, bool lowRankForm) {
  return spec.radius + planeLag(spec, lowRankForm).lag + 1;
}

/// The window, threads, chunk and halos of a 3D block. Each thread owns
/// `cols` x `rows` points of a window row band (cols x element bytes one
/// access of 2-16 bytes, width / cols = 32 lanes a row); the rule, where
/// nothing was measured: fp64 one column, else two; radius 1: rows of 2 in
/// 16 bands (fp64: of 4, as measured best; the low-rank form's levels also
/// keep plane values, and rows of 4 at T 2 spilled at 512 threads for
/// box3d27p fp64: rows of 2, 104 registers), beyond: rows of 2r in bands
/// filling 32 rows (the rings of a wide box stay small).
void geometry3D(const StencilSpec &spec, int bytes, int steps, const MeasuredFusion *m,
                bool lowRankForm, FusedKernel &k) {
  const int r = spec.radius;
  int cols = bytes == 8 ? 1 : 2;
  k.rows = r > 1 ? 2 * r : bytes == 8 && !lowRankForm ? 4 : 2;
  k.width = 32 * cols;
  k.height = k.rows * (r == 1 ? 16 : std::max(1, 32 / k.rows));
  k.chunkRows = 64;
  if (m) {
    k.rows = m->rows;
    k.width = m->width;
    k.height = m->height;
    k.chunkRows = m->chunk;
    k.minBlocks = m->minBlocks;
    k.stagedPlanes = spec.boundary == BoundaryKind::Periodic ? 0 : m->stagedPlanes;
    cols = m->width * m->height / (m->rows * m->threads);
  }
  k.batch = 1;
  k.haloY = steps * r;
  auto haloX = [&] { return (steps * r + cols - 1) / cols * cols; };
  while (k.width - 2 * haloX() < cols && cols * bytes < 16) {
    cols *= 2; // whole lanes of a warp a row: the window widens with them
    k.width *= 2;
  }
  while (k.height - 2 * k.haloY < k.rows) {
    k.height *= 2;
  }
  k.halo = haloX();
  k.accessBytes = cols * bytes;
  k.threads = k.width / cols * (k.height / k.rows);
  k.sharedBytes = fused3DSharedBytes(spec, k, steps, lowRankForm);
  const int lag = planeLag(spec, lowRankForm).lag;
  // Every iteration computes every level on the whole window; a block's
  // chunk takes T (lag + r) iterations more than its planes.
  const double computed =
      double(steps) * (k.chunkRows + steps * (lag + r)) * double(k.width) * k.height;
  const double useful = double(steps) * k.chunkRows * k.storedColumns() * k.storedRows();
  k.redundantShare = 1.0 - useful / computed;
}

} // namespace

int fused3DSharedBytes(const StencilSpec &spec, const FusedKernel &k, int steps, bool lowRankForm) {
  const int r = spec.radius;
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const int cols = k.accessBytes / bytes;
  // Per level a ring of edge rows (r top and r bottom rows of each band of
  // threads) of kSlots planes: a star lags r planes a level and reads one
  // plane's edge rows, a box (and any low-rank form) lags r + 1 and reads
  // 2r + 1; under the split barrier a plane more, rounded up to whole
  // register queues but where the loop unrolls fewer planes than whole
  // rings (k.unrollPlanes; fused3d.cuh's kSlots).
  const auto [span, lag] = planeLag(spec, lowRankForm);
  const int queue = queuePlanes(spec, lowRankForm);
  const int slots = !k.splitBarrier      ? lag + span + 1
                    : k.unrollPlanes > 0 ? lag + span + 2
                                         : (lag + span + 2 + queue - 1) / queue * queue;
  const int pad = (r + cols - 1) / cols * cols;
  // As fused3d.cuh's sharedBytes: the rings in whole 16-byte vectors, then
  // the staged planes' slots (two more than it stages) of each thread's
  // accesses, then the split barrier's 16 bytes.
  const int rings = steps * slots * (k.height / k.rows + 2) * 2 * r * (k.width + 2 * pad) * bytes;
  return (rings + 15) / 16 * 16 + stagedPlaneBytes(k, steps) +
         (k.splitBarrier && steps > 1 ? 16 : 0);
}

int queueUnrollPlanes(const StencilSpec &spec, bool lowRankForm) {
  // Whole queues, and an even count: the input planes come two ahead.
  const int queue = queuePlanes(spec, lowRankForm);
  return queue % 2 == 0 ? queue : 2 * queue;
}

int stagedPlaneBytes(const FusedKernel &k, int steps) {
  return k.stagedPlanes > 0 && steps > 1 ? (k.stagedPlanes + 2) * k.rows * k.threads * k.accessBytes
                                         : 0;
}

FusedKernel fusedGeometryND(const StencilSpec &spec, int steps, const MeasuredFusion *m,
                            bool lowRankForm) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const int vec = 16 / bytes;
  FusedKernel k;
  if (spec.dims == 1) {
    k.accessBytes = 16;
    k.halo = (steps * spec.radius + vec - 1) / vec * vec;
    geometry1D(spec.radius, bytes, m, k);
  } else {
    geometry3D(spec, bytes, steps, m, lowRankForm, k);
  }
  return k;
}

} // namespace stencilc
