//===- TunedPlans.cpp - Plan parameters the --tune sweep measured best
//------===//
#include "Backends/Common/TunedPlans.h"

#include <fmt/format.h>

#include "Backends/Common/TableNames.h"

namespace stencilc {

namespace {

using namespace table;

const TunedPlan Table[] = {
#include "TunedPlans.inc"
    // A sentinel, never matched (dims 0), so that an empty table compiles.
    {"", Star, 0, 0, FP64, Simt, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.0},
};

void setIfOpen(int &field, int tuned) {
  if (field == 0) {
    field = tuned;
  }
}

} // namespace

const TunedPlan *findTuned(llvm::ArrayRef<TunedPlan> table, const StencilSpec &spec,
                           std::string_view arch, BackendKind backend,
                           llvm::function_ref<bool(const TunedPlan &)> sameKernelOn) {
  const TunedPlan *elsewhere = nullptr;
  for (const TunedPlan &t : table) {
    if (t.shape != spec.shape || t.dims != spec.dims || t.radius != spec.radius ||
        t.precision != spec.precision || t.backend != backend) {
      continue;
    }
    if (t.arch == arch) {
      return &t;
    }
    if (!elsewhere && sameKernelOn && sameKernelOn(t)) {
      elsewhere = &t;
    }
  }
  return elsewhere;
}

llvm::ArrayRef<TunedPlan> tunedPlans() { return Table; }

void applyTuned(const TunedPlan &tuned, PlannerOptions &options) {
  setIfOpen(options.tileRowsPerBlock, tuned.tileRows);
  setIfOpen(options.tileColsPerBlock, tuned.tileCols);
  setIfOpen(options.warps, tuned.warps);
  setIfOpen(options.nBlocks, tuned.nBlocks);
  setIfOpen(options.l2Prefetch, tuned.l2Prefetch);
}

void applyTuned(const TunedPlan &tuned, SimtOptions &simt) {
  setIfOpen(simt.threads, tuned.threads);
  setIfOpen(simt.tileX, tuned.tileX);
  setIfOpen(simt.tileY, tuned.tileY);
  setIfOpen(simt.chunkZ, tuned.chunkZ);
  setIfOpen(simt.stages, tuned.stages);
  setIfOpen(simt.l2Prefetch, tuned.l2Prefetch);
}

std::string tunedChoice(const TunedPlan &tuned, std::string_view arch) {
  return fmt::format("; block from the --tune sweep{} (TunedPlans.inc: {:.0f} GStencil/s)",
                     tuned.arch == arch ? std::string()
                                        : fmt::format(" on {}, whose kernel for this stencil "
                                                      "is the same",
                                                      tuned.arch),
                     tuned.gstencils);
}

} // namespace stencilc
