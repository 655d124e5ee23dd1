//===- SimtFusionND.cpp - The geometry of the 1D and 3D fused kernels ------===//
//
// The numbers of runtime/include/stencilc/device/fused1d.cuh (a segment of
// points in shared memory per block) and fused3d.cuh (3.5D blocking: a
// window of rows and columns per block, streamed along z, a ring of planes
// per level in shared memory) for T steps of a stencil: the measured
// geometry of its kind where there is one (SimtFusion.cpp's table), else the
// rule's, widened until the redundant halo leaves points to store.
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtFusion.h"

namespace stencilc {

namespace {

/// The rule's 3D rows of a thread's piece: 4 for radius 1 (measured best
/// for fp64), 1 beyond, where the register window grows as r^3.
int ruleRows(int radius) { return radius == 1 ? 4 : 1; }

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

/// The window, chunk and batch of a 3D block (k.halo set).
void geometry3D(int r, int bytes, int steps, const MeasuredFusion *m, FusedKernel &k) {
  const int vec = 16 / bytes;
  k.width = m ? m->width : 64;
  k.height = m ? m->height : 32;
  k.threads = m ? m->threads : 256;
  k.batch = m ? m->batch : 1;
  k.chunkRows = m ? m->chunk : 64;
  k.rows = m ? m->rows : ruleRows(r);
  k.haloY = steps * r;
  while (k.storedColumns() < vec) {
    k.width *= 2;
  }
  while (k.storedRows() < k.rows) {
    k.height *= 2; // stays whole pieces of `rows`
  }
  // A ring of batch + 2r planes of the window per level 0 .. T - 1.
  k.sharedBytes = steps * (k.batch + 2 * r) * k.width * k.height * bytes;
  // Level t computes the window but its outermost r rows and columns, on the
  // block's planes and the (T - t) r on either side that later levels read.
  const double plane = double(k.width - 2 * r) * (k.height - 2 * r);
  double computed = 0.0;
  for (int t = 1; t <= steps; ++t) {
    computed += (k.chunkRows + 2.0 * (steps - t) * r) * plane;
  }
  const double useful = double(steps) * k.chunkRows * k.storedColumns() * k.storedRows();
  k.redundantShare = 1.0 - useful / computed;
}

} // namespace

FusedKernel fusedGeometryND(const StencilSpec &spec, int steps, const MeasuredFusion *m) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const int vec = 16 / bytes;
  FusedKernel k;
  k.accessBytes = 16;
  k.halo = (steps * spec.radius + vec - 1) / vec * vec;
  if (spec.dims == 1) {
    geometry1D(spec.radius, bytes, m, k);
  } else {
    geometry3D(spec.radius, bytes, steps, m, k);
  }
  return k;
}

} // namespace stencilc
