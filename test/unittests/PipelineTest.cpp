//===- PipelineTest.cpp - Planning and code generation as the driver runs them -===//
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "Backends/Common/PlannerRuns.h"
#include "Backends/Tensor/TensorFusion.h"
#include "StencilFixtures.h"
#include "stencilc/Pipeline.h"

using namespace stencilc;
using stencilc::testing::makeStencil;

namespace {

/// Stencils the tensor cores take, one they refuse (fp32), and kinds that
/// --backend=auto settles by measurement and by rule, on either backend.
std::vector<StencilSpec> mixedStencils() {
  return {makeStencil(2, Shape::Star, 1, Precision::FP16, BoundaryKind::Fixed, 1),
          makeStencil(3, Shape::Star, 1, Precision::FP32, BoundaryKind::Fixed, 2),
          makeStencil(2, Shape::Box, 3, Precision::FP64, BoundaryKind::Periodic, 3),
          makeStencil(3, Shape::Box, 2, Precision::FP16, BoundaryKind::Constant, 4),
          makeStencil(1, Shape::Star, 4, Precision::BF16, BoundaryKind::Fixed, 5),
          makeStencil(2, Shape::Box, 2, Precision::TF32, BoundaryKind::Fixed, 6)};
}

struct Runs {
  long tensor = 0;
  long simt = 0;
  /// Plans printed for the CUDA-core backend.
  long simtPlans = 0;
};

/// Plans and generates `specs` as the driver does, counting the planners'
/// runs.
Runs generate(const std::vector<StencilSpec> &specs, BackendRequest request, Arch target) {
  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diags(sourceMgr, llvm::nulls());
  BackendOptions options;
  options.backend = request;
  options.plan.target = target;
  const long tensorBefore = plannerRuns().tensor, simtBefore = plannerRuns().simt;
  const Artefacts artefacts = generateArtefacts(specs, {}, options, diags);
  Runs runs{plannerRuns().tensor - tensorBefore, plannerRuns().simt - simtBefore, 0};
  const std::string simtLine = "\n  backend    simt (";
  for (std::size_t at = artefacts.plan.find(simtLine); at != std::string::npos;
       at = artefacts.plan.find(simtLine, at + 1)) {
    ++runs.simtPlans;
  }
  EXPECT_EQ(diags.errorCount(), 0u);
  return runs;
}

/// --backend=auto asks each planner at most once per stencil: the
/// tensor-core planner's one answer is both "can it?" and the plan, and the
/// CUDA-core plan says whether NAME_run fuses steps there (which auto
/// prefers), asked unless the tensor cores' composed passes measured faster
/// (the 16-bit star, measuredTensorRun).
TEST(Pipeline, AutoPlansEachStencilOncePerBackend) {
  const std::vector<StencilSpec> specs = mixedStencils();
  const long measured = std::count_if(specs.begin(), specs.end(), [](const StencilSpec &spec) {
    return measuredTensorRun(spec) != nullptr;
  });
  EXPECT_EQ(measured, 1);
  for (Arch target : {Arch::Sm80, Arch::Sm90}) {
    SCOPED_TRACE(keyword(target));
    const Runs runs = generate(specs, BackendRequest::Auto, target);
    EXPECT_EQ(runs.tensor, static_cast<long>(specs.size()));
    EXPECT_EQ(runs.simt, static_cast<long>(specs.size()) - measured);
    EXPECT_GT(runs.simtPlans, 0); // the fp32 stencil at least
    EXPECT_LT(runs.simtPlans, static_cast<long>(specs.size()));
  }
}

/// A requested backend is planned once per stencil; the other never.
TEST(Pipeline, RequestedBackendPlansEachStencilOnce) {
  std::vector<StencilSpec> specs = mixedStencils();
  const Runs simt = generate(specs, BackendRequest::Simt, Arch::Sm80);
  EXPECT_EQ(simt.simt, static_cast<long>(specs.size()));
  EXPECT_EQ(simt.tensor, 0);
  specs.erase(specs.begin() + 1); // the fp32 stencil, which the tensor cores refuse
  const Runs tensor = generate(specs, BackendRequest::Tensor, Arch::Sm80);
  EXPECT_EQ(tensor.tensor, static_cast<long>(specs.size()));
  EXPECT_EQ(tensor.simt, 0);
  EXPECT_EQ(tensor.simtPlans, 0);
}

} // namespace
