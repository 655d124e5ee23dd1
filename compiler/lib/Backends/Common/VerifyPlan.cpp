//===- VerifyPlan.cpp - What a plan breaks of its planners' promises -------===//
//
// verifyPlan checks the promises every planner makes of a plan's schedule
// and choice here, then asks the plan's backend for its planners' own
// (Backend::verify). assertPlanVerifies turns a broken promise into an
// internal error in builds with assertions.
//
//===----------------------------------------------------------------------===//
#include <string>
#include <vector>

#include <fmt/format.h>

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include "Backends/Common/Backend.h"
#include "Backends/Common/VerifyPlan.h"
#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"

namespace stencilc {

namespace {

/// What every planner promises of the schedule it plans and of the choice
/// it says, whichever the backend: the plan text and the generated code
/// print both, and NAME_run divides the steps by T.
void verifyScheduleAndChoice(const Plan &plan, const PlanOptions &options,
                             std::vector<std::string> &problems) {
  const Schedule &s = plan.schedule;
  PromiseChecker every(problems, "every planner");
  every.require(s.fusedSteps >= 1, "fusedSteps >= 1", "fusedSteps {}", s.fusedSteps);
  every.require(!s.why.empty(), "a schedule that says why T is what it is", "why is empty");
  every.require(!s.composed || plan.backend() == BackendKind::Tensor,
                "a composed pass only on a tensor-core plan", "a composed pass on a {} plan",
                keyword(plan.backend()));
  every.require(plan.choice.find('\n') == std::string::npos,
                "a choice that says why this backend in one line", "choice '{}'", plan.choice);
  if (plan.spec.hasFields()) {
    // Only the CUDA cores fuse a stencil of fields (fields_fused.cuh), and
    // never by composition; T is what fuse asked for unless lowered.
    PromiseChecker fields = every.forPlanner("every planner of a stencil of fields");
    fields.require(!s.composed && (s.fusedSteps == 1 || plan.backend() == BackendKind::Simt),
                   "fused passes of a stencil of fields on CUDA cores only, never composed",
                   "fusedSteps {} on a {} plan", s.fusedSteps, keyword(plan.backend()));
    fields.require(s.lowered == (options.fusedSteps > 1 && s.fusedSteps < options.fusedSteps),
                   "lowered exactly where fuse asked for more than the plan's T",
                   "lowered {}, fuse={}, T {}", s.lowered, options.fusedSteps, s.fusedSteps);
  }
}

} // namespace

std::vector<std::string> verifyPlan(const Plan &plan, const PlanOptions &options) {
  std::vector<std::string> problems;
  verifyScheduleAndChoice(plan, options, problems);
  backendFor(plan).verify(plan, options, problems);
  return problems;
}

void assertPlanVerifies(const Plan &plan, const PlanOptions &options) {
#ifndef NDEBUG
  const std::vector<std::string> problems = verifyPlan(plan, options);
  if (problems.empty()) {
    return;
  }
  std::string text = fmt::format("internal error: the plan of stencil '{}' breaks what its "
                                 "planners promise (a bug in stencilc):",
                                 plan.spec.name);
  for (const std::string &problem : problems) {
    text += "\n  " + problem;
  }
  llvm::report_fatal_error(llvm::Twine(text));
#else
  (void)plan;
  (void)options;
#endif
}

} // namespace stencilc
