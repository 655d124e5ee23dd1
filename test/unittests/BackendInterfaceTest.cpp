//===- BackendInterfaceTest.cpp - Every backend, through Backend.h alone ---===//
//
// What the pipeline and the shared code generator rely on of every backend
// of Backends.def, asked only through the interface: the registry finds it,
// it plans or says why not, and its emulator runs NAME_run as the float64
// reference does (within the tolerance of its precision, per step) at every
// dimension and boundary rule.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include "Backends/Common/Backend.h"
#include "Backends/Common/Emulation.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::AllBoundaries;
using stencilc::testing::makeStencil;
using stencilc::testing::randomGridND;

namespace {

TEST(BackendInterface, EveryBackendOfTheTableIsRegistered) {
  for (BackendKind kind : AllBackends) {
    EXPECT_EQ(backendFor(kind).kind(), kind) << keyword(kind);
  }
}

/// NAME_run of 3 steps through Backend::emulateRun on an odd grid, against
/// the reference: every backend that plans the stencil, in 1D, 2D and 3D,
/// fp64 and fp16 (which both backends take), every boundary rule. A refusal
/// must say why.
TEST(BackendInterface, EmulatedRunsMatchTheReference) {
  const std::array<std::array<int, 3>, 3> sizes = {{{1001, 1, 1}, {37, 70, 1}, {9, 11, 13}}};
  int planned = 0;
  for (BackendKind kind : AllBackends) {
    const Backend &backend = backendFor(kind);
    for (int dims : {1, 2, 3}) {
      for (Precision precision : {Precision::FP64, Precision::FP16}) {
        for (BoundaryKind boundary : AllBoundaries) {
          const StencilSpec spec = makeStencil(dims, Shape::Star, 1, precision, boundary, 5);
          const PlanOrRefusal plan = backend.plan(spec, {});
          if (!plan) {
            EXPECT_FALSE(plan.reason().empty()) << keyword(kind) << " " << spec.name;
            continue;
          }
          ++planned;
          const std::array<int, 3> n = sizes[std::size_t(dims - 1)];
          GridND grid = randomGridND(dims, n, precision, 11);
          const GridND reference = stencilc::testing::referenceRunND(spec, grid, 3);
          backend.emulateRun(*plan, grid, 3);
          EXPECT_LE(relativeL2ErrorND(spec, grid, reference), 3 * relativeTolerance(precision))
              << keyword(kind) << " " << spec.name << " " << keyword(boundary);
        }
      }
    }
  }
  // Both backends take each of these kinds: a silent refusal would hide here.
  EXPECT_EQ(planned, int(std::size(AllBackends)) * 3 * 2 * int(std::size(AllBoundaries)));
}

} // namespace
