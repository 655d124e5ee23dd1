//===- Backend.h - What every backend offers, and where to find it -*- C++ -*-===//
//
// A backend is a library (compiler/lib/Backends/<Name>/) behind this one
// interface: it plans a stencil or says why it cannot, prints its plans,
// writes their CUDA, and runs them on the CPU as its kernels would. The
// backends of Backends.def register themselves here
// (initialize<Name>Backend(), which the pipeline calls for every entry of
// the table: LLVM's TargetRegistry, in small); the code shared by all of
// them (the file frame, the host API, the header, the plan printer's frame)
// finds a plan's backend with backendFor(). No backend includes another,
// and nothing in Common includes a backend.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/Spec.h"

namespace llvm {
class raw_ostream;
}

namespace stencilc {

class CodeWriter;
struct FieldsNames;
struct GridND;

/// The generated header's words on a plan that depend on its backend.
struct HeaderNotes {
  /// The outputs one block computes, in index order (the stencil's
  /// dimensions only).
  std::vector<int> tile;
  /// Sentences on the extents past which NAME_step is refused (each
  /// starting "\n* Also for"), or empty.
  std::string limits;
  /// Where NAME_run fuses steps: sentences on its passes (and their own
  /// extent limits).
  std::string fusedRun;
  /// A stencil of fields: sentences on extents past which NAME_run alone is
  /// refused (its ring copy's launch), or empty; and how its kernels cover
  /// the grid, in one phrase.
  std::string runLimits;
  std::string fieldsKernels;
};

class Backend {
public:
  virtual ~Backend() = default;

  virtual BackendKind kind() const = 0;

  /// Planning. Each returns the plan (its `choice` saying why, in one line)
  /// or why this backend cannot take the stencil, in one phrase fit for
  /// "cannot use the tensor-core backend for stencil 's': <reason>".
  /// A stencil of one input field with constant coefficients.
  virtual PlanOrRefusal plan(const StencilSpec &spec, const PlanOptions &options) const = 0;
  /// A stencil of fields (spec.hasFields()).
  virtual PlanOrRefusal planFields(const StencilSpec &spec, const PlanOptions &options) const = 0;
  /// Whether its plan of `spec` reads the --plan-option `option` (a value
  /// given for one it does not read is worth a warning).
  virtual bool takesOption(const StencilSpec &spec, const PlanOptionInfo &option) const = 0;
  /// Which --plan-options its plan of a stencil of fields reads, as a
  /// sentence for that warning.
  virtual std::string optionsText(const StencilSpec &spec) const = 0;

  /// Printing. --emit=plan's lines after the frame every plan shares
  /// (Common/PlanPrinter.cpp), and the lines of a schedule that fuses steps
  /// (Schedule::fusedSteps > 1).
  virtual void printPlanBody(const Plan &plan, llvm::raw_ostream &os) const = 0;
  virtual void printFusedSchedule(const Plan &plan, llvm::raw_ostream &os) const = 0;
  /// The plan in one paragraph, for the .cu file's header comment.
  virtual std::string summarizePlan(const Plan &plan) const = 0;

  /// Code generation, into the .cu file. The line of the file's header
  /// comment that says what the kernels of `plans` (this backend's, at least
  /// one) need of the GPU, and the template section of the file's includes
  /// (holes {header} and {extra_includes}). A file's first backend in
  /// Backends.def's order that has plans in it writes both.
  virtual std::string requirementLine(const std::vector<const Plan *> &plans) const = 0;
  virtual std::string_view fileIncludes() const = 0;
  /// Everything of one stencil of one field: its kernel's namespace, then
  /// the C entry points (Common's writeEntryPoints).
  virtual void writeStencil(CodeWriter &w, const Plan &plan) const = 0;
  /// A stencil of fields: its kernels' namespace, which defines the
  /// `launch` and `copyRing` the shared entry points of
  /// Common/FieldsHostApi.cpp call.
  virtual void writeFieldsKernels(CodeWriter &w, const Plan &plan,
                                  const FieldsNames &names) const = 0;
  /// Whether NAME_pass_range can store a range of rows or planes where the
  /// plan does not fuse steps (its step kernel takes a range).
  virtual bool stepKernelTakesRange() const = 0;

  /// What the generated header says of a plan that depends on its kernels.
  virtual HeaderNotes headerNotes(const Plan &plan) const = 0;

  /// Verification (verifyPlan): appends to `problems` each promise of this
  /// backend's planners that its plan `plan`, planned with `options`,
  /// breaks (the kernel's geometry; the schedule's where it is this
  /// backend's own), as PromiseChecker words them.
  virtual void verify(const Plan &plan, const PlanOptions &options,
                      std::vector<std::string> &problems) const = 0;

  /// Emulation: NAME_run of `steps` steps of a stencil of one field on
  /// `grid` (element-type values), on the CPU as the kernels compute it,
  /// bit for bit where the kernels use explicit FMAs.
  virtual void emulateRun(const Plan &plan, GridND &grid, int steps) const = 0;
  /// One NAME_step of a stencil of fields: `fields` in declaration order
  /// (a coefficient field included), the parameters' values in order, into
  /// `out` (the points the step does not write keep their value).
  virtual void emulateFieldsStep(const Plan &plan, const std::vector<GridND> &fields,
                                 const std::vector<double> &params, GridND &out) const = 0;
};

/// Makes `backend` the one backendFor(backend.kind()) returns; its
/// initialize function calls this (once is enough; again is harmless).
void registerBackend(const Backend &backend);

/// The backend of a kind. Needs: that backend registered (a missing one is
/// a bug in stencilc, reported as a fatal error, never a user's mistake).
const Backend &backendFor(BackendKind kind);
inline const Backend &backendFor(const Plan &plan) { return backendFor(plan.backend()); }

/// In builds with assertions (no NDEBUG): stops stencilc with an internal
/// error (llvm::report_fatal_error) that names every promise verifyPlan
/// finds `plan` breaks, never going on with a plan its planners did not
/// mean. Without assertions, nothing.
void assertPlanVerifies(const Plan &plan, const PlanOptions &options);

/// `planned`, its plan (if any) through assertPlanVerifies: what a
/// backend's planning entries return.
inline PlanOrRefusal verified(PlanOrRefusal planned, const PlanOptions &options) {
  if (planned) {
    assertPlanVerifies(*planned, options);
  }
  return planned;
}

} // namespace stencilc
