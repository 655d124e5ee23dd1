//===- TensorFields.cpp - Stencils of fields on tensor cores ---------------===//
//
// Sorts the terms of a stencil of fields into accumulator groups (one per
// field read at neighbours and coefficient field at the output point) and
// point terms, and plans the slice GEMMs once, for the single-field stencil of
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

/// Why the tensor cores cannot take the spec of fields, before any planning;
/// else the fields read at neighbours, in order of first read.
std::optional<std::string> unsupportedFields(const StencilSpec &spec,
                                             std::vector<int> &windowFields) {
  windowFields.clear();
  for (const FieldTerm &t : spec.fieldTerms) {
    if (t.coefficientField >= 0 && !t.coefficientOffset.isCentre()) {
      return fmt::format("the term '{}' has a per-neighbour varying weight (coefficient field "
                         "'{}' read off the output point), which only the CUDA cores take",
                         fieldTermText(spec, t), spec.fields[t.coefficientField].name);
    }
    if (!t.offset.isCentre() &&
        std::find(windowFields.begin(), windowFields.end(), t.field) == windowFields.end()) {
      windowFields.push_back(t.field);
    }
  }
  if (windowFields.empty()) {
    return std::string("no term reads a neighbour: the stencil is point-wise, nothing for the "
                       "tensor cores");
  }
  return std::nullopt;
}

/// The names of the fields read at neighbours: 'u', or 'u', 'v' and 'w'.
std::string windowFieldNames(const StencilSpec &spec, const std::vector<int> &windowFields) {
  std::string names;
  for (std::size_t i = 0; i < windowFields.size(); ++i) {
    names += fmt::format("{}'{}'",
                         i == 0                         ? ""
                         : i + 1 == windowFields.size() ? " and "
                                                        : ", ",
                         spec.fields[std::size_t(windowFields[i])].name);
  }
  return names;
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

/// The terms of a stencil of fields sorted for the tensor cores: the
/// accumulator groups with their terms, and every offset they read.
struct FieldGroups {
  /// The windows, each group's window and coefficient field, the point terms.
  TensorFieldsPlan fields;
  /// Per group, its terms (indices into spec.fieldTerms).
  std::vector<std::vector<int>> terms;
  /// Every offset the groups read, in order of first read: offset n is tag
  /// n + 1 of the tagged plan.
  std::vector<Offset> offsets;
};

/// The groups: the terms of each field read at neighbours by the
/// coefficient field at the output point; a group of centre terms only is
/// point terms. With several windows, every centre term is a point term:
/// the epilogue reads it as stored, where a tf32 window would round it to
/// 10 bits, so that differences of time levels (2 u - u_prev) cancel as on
/// the CUDA cores. (One window keeps its centre terms in the GEMMs.)
FieldGroups sortIntoGroups(const StencilSpec &spec, const std::vector<int> &windowFields) {
  const bool centresInEpilogue = windowFields.size() > 1;
  std::map<std::pair<int, int>, std::vector<int>> byWindowAndCoefficient;
  for (std::size_t i = 0; i < spec.fieldTerms.size(); ++i) {
    const FieldTerm &t = spec.fieldTerms[i];
    const auto window = std::find(windowFields.begin(), windowFields.end(), t.field);
    if (window != windowFields.end() && !(centresInEpilogue && t.offset.isCentre())) {
      const int w = int(window - windowFields.begin());
      byWindowAndCoefficient[{w, t.coefficientField}].push_back(int(i));
    }
  }
  FieldGroups groups;
  TensorFieldsPlan &fields = groups.fields;
  fields.gemmField = windowFields.front();
  fields.windowFields = windowFields;
  for (const auto &[key, terms] : byWindowAndCoefficient) {
    const bool reachesOut = std::any_of(terms.begin(), terms.end(), [&](int i) {
      return !spec.fieldTerms[std::size_t(i)].offset.isCentre();
    });
    if (!reachesOut) {
      continue;
    }
    fields.groupWindow.push_back(key.first);
    fields.groupCoefficientField.push_back(key.second);
    groups.terms.push_back(terms);
    for (int i : terms) {
      const Offset &o = spec.fieldTerms[std::size_t(i)].offset;
      if (std::none_of(groups.offsets.begin(), groups.offsets.end(),
                       [&](const Offset &x) { return x == o; })) {
        groups.offsets.push_back(o);
      }
    }
  }
  for (std::size_t i = 0; i < spec.fieldTerms.size(); ++i) {
    const bool inGroup = std::any_of(groups.terms.begin(), groups.terms.end(), [&](const auto &g) {
      return std::find(g.begin(), g.end(), int(i)) != g.end();
    });
    if (!inGroup) {
      fields.pointTerms.push_back(int(i));
    }
  }
  return groups;
}

/// The tagged plan of the slice GEMMs, its block narrowed so that every
/// window and every group's matrices fit the shared memory together (the
/// planner of one field sees one window and one group's matrices); or why
/// no block fits.
PlanOrRefusal planTaggedGemms(const StencilSpec &spec, const PlanOptions &options,
                              const FieldGroups &groups, const std::string &names) {
  const int windows = int(groups.fields.windowFields.size());
  PlanOptions single = options;
  single.fusedSteps = 1;
  // The fields' kernel runs TCStencil's slice GEMMs (fields_tensor.cuh):
  // the dense form, whatever auto takes for a stencil of one field.
  single.mma = MmaRequest::Dense;
  // Each window takes its share of the shared memory: the block narrows.
  const StencilSpec tags = taggedSpec(spec, groups.offsets);
  single.sharedMemoryLimit = options.sharedMemoryLimit / windows;
  PlanOrRefusal tagged = planTensor(tags, single);
  if (tagged && windows > 1) {
    // The groups' matrices too (one group's are in the tagged plan's
    // bytes): narrow the block further where they do not fit beside the
    // windows. (One window: the check below refuses, as it always did.)
    const TensorPlan &first = tagged->tensor();
    const int groupBytes = first.paramBytes;
    const int groupCount = int(groups.terms.size());
    if (windows * first.windowBytes + groupCount * groupBytes > options.sharedMemoryLimit) {
      single.sharedMemoryLimit =
          (options.sharedMemoryLimit - groupCount * groupBytes) / windows + groupBytes;
      tagged = planTensor(tags, single);
    }
  }
  if (tagged) {
    return tagged;
  }
  single.sharedMemoryLimit = options.sharedMemoryLimit;
  if (windows == 1 || !planTensor(tags, single)) {
    return tagged; // not for want of shared memory for the windows
  }
  return PlanOrRefusal::refused(fmt::format(
      "it reads {} fields at neighbours ({}): a window of each and the parameter matrices of "
      "{} accumulator groups need more than the {} bytes of shared memory a block may use, "
      "even for the narrowest block",
      windows, names, groups.terms.size(), options.sharedMemoryLimit));
}

/// Each group's term at every element of the slice GEMMs' matrices, read
/// from the element's tag (its offset; -1 for a zero), and with several
/// windows the GEMMs each group runs: a group skips those it holds only
/// zeros for (offsets only other fields read).
void mapTagsToTerms(const StencilSpec &spec, const TensorPlan &tp, FieldGroups &groups) {
  TensorFieldsPlan &fields = groups.fields;
  for (const std::vector<int> &terms : groups.terms) {
    std::vector<int> map;
    for (const SliceGemm &g : tp.gemms) {
      for (double tag : g.param.values) {
        int term = -1;
        if (tag != 0.0) {
          const Offset &at = groups.offsets[std::size_t(tag) - 1];
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
  if (fields.windowFields.size() > 1) {
    for (const std::vector<int> &map : fields.paramTerms) {
      std::vector<bool> &runs = fields.groupRunsGemm.emplace_back();
      std::size_t element = 0;
      for (const SliceGemm &g : tp.gemms) {
        const auto begin = map.begin() + std::ptrdiff_t(element);
        element += g.param.values.size();
        runs.push_back(std::any_of(begin, map.begin() + std::ptrdiff_t(element),
                                   [](int term) { return term >= 0; }));
      }
    }
  }
}

/// Why the plan cannot launch with every group's matrices: they and the
/// windows pass the shared memory a block may use, or they and the fields'
/// pointers pass the space a kernel's parameters have; or nothing.
std::optional<std::string> unfitGroups(const StencilSpec &spec, const TensorPlan &tp,
                                       const PlanOptions &options, const std::string &names) {
  const int windows = tp.windows();
  const int groups = int(tp.fields->groupCoefficientField.size());
  if (tp.sharedBytes() > options.sharedMemoryLimit) {
    return fmt::format(
        "its {} and the parameter matrices of {} accumulator groups need {} bytes of "
        "shared memory, more than the {} a block may use",
        windows == 1 ? std::string("window") : fmt::format("{} windows ({})", windows, names),
        groups, tp.sharedBytes(), options.sharedMemoryLimit);
  }
  const int argBytes =
      tp.paramBytes + 8 * int(spec.fields.size()) + 8 * int(tp.fields->pointTerms.size());
  if (argBytes > MaxKernelParamBytes) {
    return fmt::format("its launch would pass {} bytes of parameter matrices and fields, more "
                       "than the {} a kernel's parameters hold",
                       argBytes, MaxKernelParamBytes);
  }
  return std::nullopt;
}

/// The plan's matrices for parameters all 0 (what the plan text shows), its
/// schedule (one step a launch: the fused kernels do not take fields) and
/// why the tensor cores compute it as they do.
void finishFieldsPlan(Plan &plan, const PlanOptions &options, const std::string &names) {
  const StencilSpec &spec = plan.spec;
  TensorPlan &tp = plan.tensor();
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
  plan.schedule.why = "the tensor-core kernel of a stencil of fields runs one step a launch "
                      "(the CUDA-core backend fuses 2D ones)";
  plan.schedule.lowered = options.fusedSteps > 1;
  const int groups = int(tp.fields->groupCoefficientField.size());
  const int windows = tp.windows();
  plan.choice =
      fmt::format("tensor cores: {} {} mma.sync with {} accumulation, {} accumulator "
                  "group{} over field{} {}, {} point term{} in the epilogue",
                  keyword(spec.precision), tp.mma.name(), keyword(tp.mma.accumulator), groups,
                  groups == 1 ? "" : "s", windows == 1 ? "" : "s", names,
                  tp.fields->pointTerms.size(), tp.fields->pointTerms.size() == 1 ? "" : "s");
}

} // namespace

double roundFieldsParam(double coefficient, Precision p) {
  if (p == Precision::TF32) {
    return roundInputOperand(roundToStorage(coefficient, Precision::FP32), p);
  }
  return roundCoefficient(coefficient, p);
}

PlanOrRefusal planTensorFields(const StencilSpec &spec, const PlanOptions &options) {
  std::vector<int> windowFields;
  if (std::optional<std::string> reason = unsupportedFields(spec, windowFields)) {
    return PlanOrRefusal::refused(std::move(*reason));
  }
  FieldGroups groups = sortIntoGroups(spec, windowFields);
  const std::string names = windowFieldNames(spec, windowFields);
  if (groups.offsets.size() > MaxTaggedOffsets) {
    return PlanOrRefusal::refused(
        fmt::format("it reads {} offsets of {}, more than the {} a tensor-core stencil of fields "
                    "takes",
                    groups.offsets.size(), names, MaxTaggedOffsets));
  }
  PlanOrRefusal tagged = planTaggedGemms(spec, options, groups, names);
  if (!tagged) {
    return tagged;
  }
  Plan plan = *std::move(tagged);
  plan.spec = spec;
  TensorPlan &tp = plan.tensor();
  mapTagsToTerms(spec, tp, groups);
  const int groupCount = int(groups.fields.groupCoefficientField.size());
  tp.paramBytes = groupCount * tp.paramElements() * int(elementBytes(tp.mma.operand));
  tp.paramsInRegisters = groupCount * tp.paramFragmentRegisters() <= options.paramRegisterBudget;
  tp.fields = std::move(groups.fields);
  tp.minBlocks = tileMinBlocks(spec, tp, options); // the tags' plan's is not the fields' kernel's
  if (std::optional<std::string> reason = unfitGroups(spec, tp, options, names)) {
    return PlanOrRefusal::refused(std::move(*reason));
  }
  finishFieldsPlan(plan, options, names);
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
