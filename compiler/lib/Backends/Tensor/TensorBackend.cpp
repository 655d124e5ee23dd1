//===- TensorBackend.cpp - The tensor-core backend behind the Backend interface ===//
//
// The tensor backend's answers to what the pipeline and the shared code
// generator ask of every backend (Common/Backend.h): its planners, its plan
// printer and emitters, its header notes and its emulators, registered by
// initializeTensorBackend().
//
//===----------------------------------------------------------------------===//
#include "Backends/Tensor/TensorBackend.h"

#include <climits>
#include <cstdint>

#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

#include "Backends/Common/Backend.h"
#include "Backends/Common/CodeGen.h"
#include "Backends/Common/EmitterParts.h"
#include "Backends/Common/PlanText.h"
#include "Backends/Tensor/TensorCodeGen.h"
#include "Backends/Tensor/TensorEmulator.h"
#include "Backends/Tensor/TensorFields.h"
#include "Backends/Tensor/TensorPlanner.h"

namespace stencilc {

namespace {

/// The extents past which NAME_step is refused: the tensor-core kernels run
/// a persistent grid but round extents up to whole blocks in int.
std::string limitNote(const Plan &plan) {
  const TensorPlan &tp = plan.tensor();
  return fmt::format("\n* Also for an extent within a block of INT_MAX (nx above {}{}).",
                     INT32_MAX - tp.blockCols(),
                     plan.spec.dims == 1
                         ? std::string()
                         : fmt::format(", ny above {}", INT32_MAX - tp.blockRows()));
}

/// NAME_run's composed passes (stencilc/device/composed.cuh), for the header.
std::string composedRunNote(const Plan &plan) {
  const Schedule &s = plan.schedule;
  const std::string passes = fmt::format(
      "\n* It runs passes of {} steps over memory (the stencil composed {} times on tensor "
      "cores,\n* and beside it the points within {} of an edge step by step)",
      s.fusedSteps, s.fusedSteps, s.fusedSteps * plan.spec.radius);
  if (!s.remainder) {
    return passes + " and single steps for the\n* remainder; the result is what as many single "
                    "steps give, up to rounding.";
  }
  return passes + fmt::format(", one such pass of {} where {} to {}\n* steps remain, and single "
                              "steps for the rest; the result is what as many\n* single steps "
                              "give, up to rounding.",
                              s.remainder->steps, s.remainder->steps, s.fusedSteps - 1);
}

/// A fixed stencil of fields' NAME_run: its ring copy puts rows of blocks
/// along y, and in 3D a plane a block along z.
std::string ringCopyLimitNote(const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  if (!spec.hasFields() || spec.boundary != BoundaryKind::Fixed || spec.dims == 1) {
    return {};
  }
  return spec.dims == 2
             ? fmt::format("\n * It returns cudaErrorInvalidValue also for ny above {} (the ring "
                           "copy's 65535\n * blocks of {} rows: CUDA's launch limit).",
                           65535LL * TensorFieldsRingRows, TensorFieldsRingRows)
             : fmt::format("\n * It returns cudaErrorInvalidValue also for ny above {} or nz "
                           "above 65535 (the ring\n * copy's 65535 blocks of {} rows, or of "
                           "planes: CUDA's launch limit).",
                           65535LL * TensorFieldsRingRows, TensorFieldsRingRows);
}

/// A 1D or 2D grid as the emulators' 2D grid (a line is one row), or back.
Grid2D asGrid2D(const GridND &grid) {
  Grid2D flat(grid.dims == 1 ? 1 : grid.n[0], grid.dims == 1 ? grid.n[0] : grid.n[1]);
  flat.values = grid.values;
  return flat;
}

class TensorBackend final : public Backend {
public:
  BackendKind kind() const override { return BackendKind::Tensor; }

  PlanOrRefusal plan(const StencilSpec &spec, const PlanOptions &options) const override {
    return verified(planTensor(spec, options), options);
  }
  PlanOrRefusal planFields(const StencilSpec &spec, const PlanOptions &options) const override {
    return verified(planTensorFields(spec, options), options);
  }
  void verify(const Plan &plan, const PlanOptions &options,
              std::vector<std::string> &problems) const override {
    verifyTensorPlan(plan, options, problems);
  }
  bool takesOption(const StencilSpec &, const PlanOptionInfo &option) const override {
    return option.appliesTo(BackendKind::Tensor);
  }

  std::string optionsText(const StencilSpec &) const override {
    return "its tensor-core kernel reads the tensor-core --plan-options";
  }

  void printPlanBody(const Plan &plan, llvm::raw_ostream &os) const override {
    printTensorPlanBody(plan, os);
  }
  // A tensor plan fuses steps only as the composed pass.
  void printFusedSchedule(const Plan &plan, llvm::raw_ostream &os) const override {
    printComposedSchedule(plan, os);
  }
  std::string summarizePlan(const Plan &plan) const override {
    const std::string kernel = summarizeTensorPlan(plan);
    return plan.schedule.composed ? kernel + "; " + summarizeComposedSchedule(plan) : kernel;
  }

  // Only the fp64 m16n8k4 MMA (planned for sm_90) needs more than sm_80.
  std::string requirementLine(const std::vector<const Plan *> &plans) const override {
    for (const Plan *plan : plans) {
      if (plan->tensor().mma.operand == Precision::FP64 && plan->tensor().mma.m == 16) {
        return "// sm_90 or newer (tensor-core MMAs through mma.sync, fp64 m16n8k4).";
      }
    }
    return "// sm_80 or newer (tensor-core MMAs through mma.sync).";
  }
  std::string_view fileIncludes() const override {
    return templateSection("tensor.cu.tpl", "file_includes");
  }
  void writeStencil(CodeWriter &w, const Plan &plan) const override { writeTensorStencil(w, plan); }
  void writeFieldsKernels(CodeWriter &w, const Plan &plan,
                          const FieldsNames &names) const override {
    writeTensorFieldsKernels(w, plan, names);
  }
  bool stepKernelTakesRange() const override { return false; }

  HeaderNotes headerNotes(const Plan &plan) const override {
    HeaderNotes notes;
    notes.tile = {plan.tensor().blockRows(), plan.tensor().blockCols()};
    notes.limits = limitNote(plan);
    if (plan.schedule.composed) {
      notes.fusedRun = composedRunNote(plan);
    }
    notes.runLimits = ringCopyLimitNote(plan);
    notes.fieldsKernels = fmt::format("tensor-core MMAs in blocks of {} x {}",
                                      plan.tensor().blockRows(), plan.tensor().blockCols());
    return notes;
  }

  void emulateRun(const Plan &plan, GridND &grid, int steps) const override {
    if (grid.dims < 3) {
      Grid2D flat = asGrid2D(grid);
      stencilc::emulateRun(plan, flat, steps);
      grid.values = std::move(flat.values);
      return;
    }
    for (int step = 0; step < steps; ++step) { // 3D: one step a launch
      GridND out = grid;
      emulateStep3D(plan, grid, out);
      grid = std::move(out);
    }
  }
  void emulateFieldsStep(const Plan &plan, const std::vector<GridND> &fields,
                         const std::vector<double> &params, GridND &out) const override {
    emulateTensorFieldsStep(plan, fields, params, out);
  }
};

} // namespace

void initializeTensorBackend() {
  static const TemplateFile templates[] = {
#include "TensorTemplates.inc"
  };
  static const TensorBackend backend;
  registerTemplates(templates);
  registerBackend(backend);
}

} // namespace stencilc
