//===- TensorFields.cpp - Stencils of fields on tensor cores ---------------===//
//
// Sorts the terms of a stencil of fields into accumulator groups and point
// terms, and plans the slice GEMMs once, for the single-field stencil of
// every offset the groups read (TensorPlanner.cpp). That plan is made with
// each offset's coefficient a small integer tag (exact in every operand
// type), so the parameter matrices it builds say which offset every element
// stands for; each group then maps the offsets to its own terms.
//
//===----------------------------------------------------------------------===//
#include "Backends/Tensor/TensorFields.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "Backends/Common/EmitterParts.h"
#include "Backends/Tensor/TensorPlanner.h"

namespace stencilc {

namespace {

/// The most offsets a group may read: their tags must be exact in the
/// operand type (bf16 holds the integers up to 256 exactly).
constexpr int MaxTaggedOffsets = 256;

/// The bytes a launch passes by value besides the parameter matrices: the
/// field pointers and the point terms' coefficients, bounded by CUDA's
/// 32764 bytes of kernel parameters (CUDA 12.1, sm_70 and newer).
constexpr int MaxKernelParamBytes = 32000;

/// Why the tensor cores cannot take the spec of fields, before any planning.
std::optional<std::string> unsupportedFields(const StencilSpec &spec, int &gemmField) {
  if (spec.dims != 2) {
    return fmt::format("a {}D stencil of fields is not on tensor cores yet (2D only)", spec.dims);
  }
  gemmField = -1;
  for (const FieldTerm &t : spec.fieldTerms) {
    if (t.coefficientField >= 0 && !t.coefficientOffset.isCentre()) {
      return fmt::format("the term '{}' has a per-neighbour varying weight (coefficient field "
                         "'{}' read off the output point), which only the CUDA cores take",
                         fieldTermText(spec, t), spec.fields[t.coefficientField].name);
    }
    if (t.offset.isCentre()) {
      continue;
    }
    if (gemmField >= 0 && gemmField != t.field) {
      return fmt::format("it reads two fields at neighbours ('{}' and '{}'); the tensor cores "
                         "take one, every other field read at the output point only",
                         spec.fields[gemmField].name, spec.fields[t.field].name);
    }
    gemmField = t.field;
  }
  if (gemmField < 0) {
    return std::string("no term reads a neighbour: the stencil is point-wise, nothing for the "
                       "tensor cores");
  }
  return std::nullopt;
}

/// The single-field stencil of every offset in `offsets`, the coefficient of
/// the n-th being n + 1.
StencilSpec taggedSpec(const StencilSpec &spec, const std::vector<Offset> &offsets) {
  StencilSpec tagged = spec;
  tagged.fields.clear();
  tagged.params.clear();
  tagged.fieldTerms.clear();
  tagged.steppedField = 0;
  tagged.previousField = -1;
  tagged.terms.clear();
  tagged.radius = 1;
  tagged.shape = Shape::Star;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    tagged.terms.push_back({offsets[i], double(i + 1)});
    tagged.radius = std::max(tagged.radius, offsets[i].chebyshevNorm());
    if (offsets[i].nonZeroAxes() > 1) {
      tagged.shape = Shape::Box;
    }
  }
  std::sort(tagged.terms.begin(), tagged.terms.end(),
            [](const Term &a, const Term &b) { return a.offset.d < b.offset.d; });
  return tagged;
}

} // namespace

double roundFieldsParam(double coefficient, Precision p) {
  if (p == Precision::TF32) {
    return roundInputOperand(roundToStorage(coefficient, Precision::FP32), p);
  }
  return roundCoefficient(coefficient, p);
}

PlanOrRefusal planTensorFields(const StencilSpec &spec, const PlanOptions &options) {
  int gemmField = -1;
  if (std::optional<std::string> reason = unsupportedFields(spec, gemmField)) {
    return PlanOrRefusal::refused(std::move(*reason));
  }
  // The groups: the terms of gemmField by the coefficient field at the
  // output point; a group of centre terms only is point terms.
  std::map<int, std::vector<int>> byCoefficient;
  for (std::size_t i = 0; i < spec.fieldTerms.size(); ++i) {
    const FieldTerm &t = spec.fieldTerms[i];
    if (t.field == gemmField) {
      byCoefficient[t.coefficientField].push_back(int(i));
    }
  }
  TensorFieldsPlan fields;
  fields.gemmField = gemmField;
  std::vector<std::vector<int>> groupTerms;
  std::vector<Offset> offsets;
  for (const auto &[coefficient, terms] : byCoefficient) {
    const bool reachesOut = std::any_of(terms.begin(), terms.end(), [&](int i) {
      return !spec.fieldTerms[std::size_t(i)].offset.isCentre();
    });
    if (!reachesOut) {
      continue;
    }
    fields.groupCoefficientField.push_back(coefficient);
    groupTerms.push_back(terms);
    for (int i : terms) {
      const Offset &o = spec.fieldTerms[std::size_t(i)].offset;
      if (std::none_of(offsets.begin(), offsets.end(), [&](const Offset &x) { return x == o; })) {
        offsets.push_back(o);
      }
    }
  }
  for (std::size_t i = 0; i < spec.fieldTerms.size(); ++i) {
    const bool inGroup = std::any_of(groupTerms.begin(), groupTerms.end(), [&](const auto &g) {
      return std::find(g.begin(), g.end(), int(i)) != g.end();
    });
    if (!inGroup) {
      fields.pointTerms.push_back(int(i));
    }
  }
  if (offsets.size() > MaxTaggedOffsets) {
    return PlanOrRefusal::refused(fmt::format(
        "it reads {} offsets of '{}', more than the {} a tensor-core stencil of fields takes",
        offsets.size(), spec.fields[gemmField].name, MaxTaggedOffsets));
  }
  PlanOptions single = options;
  single.fusedSteps = 1;
  PlanOrRefusal tagged = planTensor(taggedSpec(spec, offsets), single);
  if (!tagged) {
    return tagged;
  }
  Plan plan = *std::move(tagged);
  plan.spec = spec;
  TensorPlan &tp = std::get<TensorPlan>(plan.kernel);
  // Each element's tag names its offset; each group maps the offset to its
  // own term there (or a zero).
  for (const std::vector<int> &terms : groupTerms) {
    std::vector<int> map;
    for (const SliceGemm &g : tp.gemms) {
      for (double tag : g.param.values) {
        int term = -1;
        if (tag != 0.0) {
          const Offset &at = offsets[std::size_t(tag) - 1];
          for (int i : terms) {
            if (spec.fieldTerms[std::size_t(i)].offset == at) {
              term = i;
            }
          }
        }
        map.push_back(term);
      }
    }
    fields.paramTerms.push_back(std::move(map));
  }
  const int groups = int(fields.groupCoefficientField.size());
  tp.paramBytes = groups * tp.paramElements() * int(elementBytes(tp.mma.operand));
  tp.paramsInRegisters = groups * tp.paramFragmentRegisters() <= options.paramRegisterBudget;
  tp.fields = std::move(fields);
  if (tp.sharedBytes() > options.sharedMemoryLimit) {
    return PlanOrRefusal::refused(fmt::format(
        "its window and the parameter matrices of {} accumulator groups need {} bytes of "
        "shared memory, more than the {} a block may use",
        groups, tp.sharedBytes(), options.sharedMemoryLimit));
  }
  const int argBytes =
      tp.paramBytes + 8 * int(spec.fields.size()) + 8 * int(tp.fields->pointTerms.size());
  if (argBytes > MaxKernelParamBytes) {
    return PlanOrRefusal::refused(
        fmt::format("its launch would pass {} bytes of parameter matrices and fields, more than "
                    "the {} a kernel's parameters hold",
                    argBytes, MaxKernelParamBytes));
  }
  const std::vector<double> zeros(spec.params.size(), 0.0);
  const std::vector<double> matrices = fieldsParamMatrices(plan, zeros);
  std::size_t next = 0;
  for (SliceGemm &g : tp.gemms) {
    for (double &v : g.param.values) {
      v = matrices[next++];
    }
  }
  plan.schedule = Schedule{};
  plan.schedule.fusedSteps = 1;
  plan.schedule.why = "a stencil of fields is not fused yet";
  plan.schedule.lowered = options.fusedSteps > 1;
  plan.choice =
      fmt::format("tensor cores: {} {} mma.sync with {} accumulation, {} accumulator "
                  "group{} over field '{}', {} point term{} in the epilogue",
                  keyword(spec.precision), tp.mma.name(), keyword(tp.mma.accumulator), groups,
                  groups == 1 ? "" : "s", spec.fields[gemmField].name, tp.fields->pointTerms.size(),
                  tp.fields->pointTerms.size() == 1 ? "" : "s");
  return plan;
}

std::vector<double> fieldsParamMatrices(const Plan &plan, const std::vector<double> &params) {
  const StencilSpec &spec = plan.spec;
  const TensorFieldsPlan &fields = *plan.tensor().fields;
  std::vector<double> k;
  for (const FieldTerm &t : spec.fieldTerms) {
    k.push_back(roundFieldsParam(t.value(params), spec.precision));
  }
  std::vector<double> matrices;
  for (const std::vector<int> &map : fields.paramTerms) {
    for (int term : map) {
      matrices.push_back(term < 0 ? 0.0 : k[std::size_t(term)]);
    }
  }
  return matrices;
}

} // namespace stencilc
