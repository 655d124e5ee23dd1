//===- FieldsHostApi.cpp - The entry points and header of a stencil of fields -===//
//
// Writes what a stencil of fields has whichever backend runs it
// (Common/templates/fields_host.cu.tpl and fields.h.tpl): the coefficients
// folded from the parameters on every call, NAME_step and NAME_run around
// the kernels' namespace its backend writes (Backend::writeFieldsKernels),
// and its part of the header.
//
//===----------------------------------------------------------------------===//
#include <fmt/format.h>

#include "Backends/Common/Backend.h"
#include "Backends/Common/CodeGen.h"
#include "Backends/Common/EmitterParts.h"
#include "Backends/Common/PlanText.h"

namespace stencilc {

namespace {

std::string_view hostSection(std::string_view name) {
  return templateSection("fields_host.cu.tpl", name);
}

/// "u[i-1, j]" for messages and comments, with the stencil's index names
/// (i, j, k where it has none: a weights table, a C translation).
std::string readText(const StencilSpec &spec, int field, const Offset &offset) {
  static const char *const Names[3] = {"i", "j", "k"};
  const bool named = static_cast<int>(spec.indexNames.size()) == spec.dims;
  std::string text = spec.fields[field].name + "[";
  for (int a = 0; a < spec.dims; ++a) {
    text += fmt::format("{}{}", a ? ", " : "", named ? spec.indexNames[a] : Names[a]);
    if (offset.d[a] != 0) {
      text += fmt::format("{:+}", offset.d[a]);
    }
  }
  return text + "]";
}

/// A term's coefficient as written in comments and in NAME_coefficients.
std::string coefficientText(const StencilSpec &spec, const FieldTerm &t) {
  return t.paramCoefficient ? t.paramCoefficient->cText(spec.params)
                            : numberLiteral(t.coefficient, false);
}

} // namespace

std::string fieldTermText(const StencilSpec &spec, const FieldTerm &t) {
  std::string text = coefficientText(spec, t);
  if (t.coefficientField >= 0) {
    text += " * " + readText(spec, t.coefficientField, t.coefficientOffset);
  }
  return text + " * " + readText(spec, t.field, t.offset);
}

std::string joinWith(const std::vector<std::string> &items, std::string_view separator) {
  std::string text;
  for (const std::string &item : items) {
    text += (text.empty() ? "" : std::string(separator)) + item;
  }
  return text;
}

std::array<int, 3> zyxOffset(const StencilSpec &spec, const Offset &o) {
  switch (spec.dims) {
  case 1:
    return {0, 0, o.d[0]};
  case 2:
    return {0, o.d[0], o.d[1]};
  default:
    return {o.d[0], o.d[1], o.d[2]};
  }
}

std::array<int, 3> fixedRingZyx(const StencilSpec &spec) {
  const int r = spec.ring();
  return {spec.dims == 3 ? r : 0, spec.dims >= 2 ? r : 0, r};
}

namespace {

/// NAME_run's lists of points, in their order, where the stencil takes
/// them: the names of their three parameters and the values' type (the
/// sources' amplitudes doubles, the receivers' records elements).
struct RunPointList {
  PointListNames names;
  std::string valuesType;
};
std::vector<RunPointList> runPointLists(const StencilSpec &spec, std::string_view element) {
  std::vector<RunPointList> lists;
  if (spec.injectsSources) {
    lists.push_back({SourceListNames, "const double"});
  }
  if (spec.recordsReceivers) {
    lists.push_back({ReceiverListNames, std::string(element)});
  }
  return lists;
}

FieldsNames fieldsNames(const StencilSpec &spec, std::string_view element) {
  FieldsNames n;
  const bool timeLevels = spec.previousField >= 0;
  n.stepped = spec.fields[spec.steppedField].name;
  n.previous = timeLevels ? spec.fields[spec.previousField].name : std::string();
  std::vector<std::string> constParams, runParams, list, runList, nulls, overlaps, written;
  for (std::size_t f = 0; f < spec.fields.size(); ++f) {
    const std::string &name = spec.fields[f].name;
    const bool isWritten =
        static_cast<int>(f) == spec.steppedField || static_cast<int>(f) == spec.previousField;
    constParams.push_back(fmt::format("const {}* {}", element, name));
    runParams.push_back(fmt::format("{}{}* {}", isWritten ? "" : "const ", element, name));
    list.push_back(name);
    runList.push_back(static_cast<int>(f) == spec.steppedField
                          ? (timeLevels ? "stencilc_current" : "stencilc_from")
                      : static_cast<int>(f) == spec.previousField ? "stencilc_previous"
                                                                  : name);
    nulls.push_back(name + " == nullptr");
    overlaps.push_back(fmt::format("stencilc::device::overlaps(out, {}, stencilc_bytes)", name));
    if (isWritten) {
      written.push_back(name);
    }
  }
  written.push_back("scratch");
  std::vector<std::string> runOverlaps;
  for (std::size_t w = 0; w < written.size(); ++w) {
    for (std::size_t f = 0; f < spec.fields.size(); ++f) {
      const std::string &name = spec.fields[f].name;
      // Each unordered pair once: a written buffer against every other
      // pointer, written ones only against those after them.
      const auto later = std::find(written.begin(), written.end(), name);
      if (name == written[w] || (later != written.end() && later < written.begin() + w)) {
        continue;
      }
      runOverlaps.push_back(
          fmt::format("stencilc::device::overlaps({}, {}, stencilc_bytes)", written[w], name));
    }
  }
  for (std::size_t w = 0; w + 1 < written.size(); ++w) {
    runOverlaps.push_back(
        fmt::format("stencilc::device::overlaps({}, scratch, stencilc_bytes)", written[w]));
  }
  n.fieldParamsConst = joinWith(constParams, ", ");
  n.fieldParamsRun = joinWith(runParams, ", ");
  n.fieldList = joinWith(list, ", ");
  n.runFieldList = joinWith(runList, ", ");
  n.nullChecks = joinWith(nulls, " || ");
  n.overlapChecks = joinWith(overlaps, " ||\n");
  n.runOverlapChecks = joinWith(runOverlaps, " ||\n");
  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    const std::string &p = spec.params[i];
    n.paramParams += ", double " + p;
    n.paramParamsFirst += "double " + p + ", ";
    n.paramArgs += ", " + p;
    n.paramArgsFirst += p + ", ";
    n.runParamParams += spec.isPerStep(i) ? ", const double* " + p : ", double " + p;
  }
  for (const RunPointList &list : runPointLists(spec, element)) {
    n.runParamParams += fmt::format(", const int* {}, int {}, {}* {}", list.names.points,
                                    list.names.count, list.valuesType, list.names.values);
  }
  return n;
}

/// The parameters NAME_run passes to the launch of step `step` (from 0): a
/// per-step one's value of that step, `stencilc_amp[step]`.
std::string runParamArgs(const StencilSpec &spec, std::string_view step) {
  std::string args;
  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    args += spec.isPerStep(i) ? fmt::format(", stencilc_per_step_{}[{}]", spec.params[i], step)
                              : ", " + spec.params[i];
  }
  return args;
}

/// NAME_run's checks and copies of its per-step parameters' values
/// (stencilc/device/per_step.cuh), before anything is launched; empty
/// without any.
std::string perStepSetup(const StencilSpec &spec) {
  std::vector<std::string> setup;
  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    if (spec.isPerStep(i)) {
      setup.push_back(
          CodeWriter::filled(hostSection("per_step_values"), fmt::arg("param", spec.params[i])));
    }
  }
  return joinWith(setup, "\n");
}

/// NAME_run's checks of its point lists before anything is launched, and,
/// after each step's launch, what it does with the level that step wrote:
/// its sources added (`source u;`, sources.cuh), then the receivers' values
/// gathered into that step's row of the records (`record u;`,
/// receivers.cuh); empty without either.
struct PointListParts {
  std::string check, afterStep;
};

PointListParts pointListParts(const StencilSpec &spec, std::string_view step,
                              std::string_view gridZ, std::string_view gridY) {
  const bool timeLevels = spec.previousField >= 0;
  // A point on the fixed ring is invalid (issue 36).
  const std::array<int, 3> r = fixedRingZyx(spec);
  const std::string ring = fmt::format("{}, {}, {}", r[0], r[1], r[2]);
  // Step `step` writes stencilc_to, or, with time levels, the level after
  // the current one.
  const std::string_view level =
      timeLevels ? "stencilc_level[(stencilc_step + 1) % 3]" : "stencilc_to";
  const auto filled = [&](std::string_view section) {
    return CodeWriter::filled(hostSection(section), fmt::arg("dims", spec.dims),
                              fmt::arg("grid_z", gridZ), fmt::arg("grid_y", gridY),
                              fmt::arg("ring", ring), fmt::arg("level", level),
                              fmt::arg("row", step));
  };
  PointListParts parts;
  if (spec.injectsSources) {
    parts.check += filled("sources_check");
    parts.afterStep.append("\n").append(filled("inject_step"));
  }
  if (spec.recordsReceivers) {
    parts.check += filled("receivers_check");
    parts.afterStep.append("\n").append(filled("record_step"));
  }
  return parts;
}

std::string sizeProduct(int dims) {
  return dims == 1 ? "static_cast<size_t>(nx)"
         : dims == 2
             ? "static_cast<size_t>(ny) * static_cast<size_t>(nx)"
             : "static_cast<size_t>(nz) * static_cast<size_t>(ny) * static_cast<size_t>(nx)";
}

std::string sizeTooSmall(int dims) {
  return dims == 1   ? "nx < kMinSize"
         : dims == 2 ? "ny < kMinSize || nx < kMinSize"
                     : "nz < kMinSize || ny < kMinSize || nx < kMinSize";
}

} // namespace

void writeFieldsTerms(CodeWriter &w, const StencilSpec &spec) {
  for (const FieldTerm &t : spec.fieldTerms) {
    w.line("//     {}", fieldTermText(spec, t));
  }
}

namespace {

/// NAME_run's parameters' names, in order, to pass them on.
std::string runArgNames(const StencilSpec &spec, const FieldsNames &n) {
  static const char *const Sizes[3] = {"nx", "ny, nx", "nz, ny, nx"};
  std::string names = n.fieldList + ", scratch, " + Sizes[spec.dims - 1];
  for (const std::string &p : spec.params) {
    names += ", " + p;
  }
  for (const RunPointList &list : runPointLists(spec, "")) {
    names += fmt::format(", {}, {}, {}", list.names.points, list.names.count, list.names.values);
  }
  return names + ", steps, stream";
}

/// NAME_run's call of its fused passes where the grid is large enough
/// (section fused_dispatch); empty for a plan that does not fuse.
std::string fusedDispatch(const Plan &plan, const FieldsNames &n) {
  if (plan.schedule.fusedSteps <= 1) {
    return {};
  }
  const StencilSpec &spec = plan.spec;
  const long long least = plan.schedule.fused.minGridPoints;
  const std::string where =
      least > 0 ? fmt::format("from {} grid points on; below, one step a launch\n// measured "
                              "faster (the plan's `bytes` line says so)",
                              least)
                : std::string("on every grid");
  return CodeWriter::filled(hostSection("fused_dispatch"), fmt::arg("name", spec.name),
                            fmt::arg("namespace", stencilNamespace(plan)),
                            fmt::arg("fused_steps", plan.schedule.fusedSteps),
                            fmt::arg("where", where),
                            fmt::arg("grid_z", spec.dims == 3 ? "nz" : "1"),
                            fmt::arg("grid_y", spec.dims >= 2 ? "ny" : "1"),
                            fmt::arg("run_arg_names", runArgNames(spec, n)));
}

/// NAME_run's fused passes (section run_fused): one call of
/// fields::runFields with a function giving each step's arguments.
void writeFusedRun(CodeWriter &w, const Plan &plan, const FieldsNames &n,
                   const std::string &runArgs, const std::string &runSetup) {
  const StencilSpec &spec = plan.spec;
  const bool timeLevels = spec.previousField >= 0;
  w.fillWith(hostSection("run_fused"), fmt::arg("name", spec.name),
             fmt::arg("namespace", stencilNamespace(plan)),
             fmt::arg("element", elementTypeName(spec.precision)),
             fmt::arg("field_params_run", n.fieldParamsRun),
             fmt::arg("size_params", sizeParameters(spec.dims)),
             fmt::arg("run_param_params", n.runParamParams), fmt::arg("run_setup", runSetup),
             fmt::arg("current_param", timeLevels ? "stencilc_current" : "stencilc_from"),
             fmt::arg("previous_param", timeLevels ? "stencilc_previous" : "/* no time levels */"),
             fmt::arg("step_shift", timeLevels ? " + 1" : ""),
             fmt::arg("run_field_list", n.runFieldList), fmt::arg("run_param_args", runArgs),
             fmt::arg("fused_steps", plan.schedule.fusedSteps), fmt::arg("stepped", n.stepped),
             fmt::arg("previous_or_null", timeLevels ? n.previous : "nullptr"),
             fmt::arg("grid_z", spec.dims == 3 ? "nz" : "1"),
             fmt::arg("grid_y", spec.dims >= 2 ? "ny" : "1"),
             fmt::arg("sources",
                      spec.injectsSources ? "stencilc_sources" : "stencilc::device::SourceList{}"),
             fmt::arg("receivers", spec.recordsReceivers ? "receivers, receiver_count, records"
                                                         : "nullptr, 0, nullptr"));
  w.line();
}

} // namespace

void writeFieldsStencil(CodeWriter &w, const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  const std::string element(elementTypeName(spec.precision));
  const std::string ns = stencilNamespace(plan);
  const bool fixed = spec.boundary == BoundaryKind::Fixed;
  const FieldsNames n = fieldsNames(spec, element);
  std::vector<std::string> coefficients;
  for (std::size_t i = 0; i < spec.fieldTerms.size(); ++i) {
    coefficients.push_back(
        fmt::format("  stencilc_k[{}] = {};", i, coefficientText(spec, spec.fieldTerms[i])));
  }
  w.fillWith(hostSection("coefficients"), fmt::arg("name", spec.name),
             fmt::arg("param_params_first", n.paramParamsFirst),
             fmt::arg("coefficient_lines", joinWith(coefficients, "\n")));
  w.line();
  const int dims = spec.dims;
  backendFor(plan).writeFieldsKernels(w, plan, n);
  w.line();
  const std::string gridZ = dims == 3 ? "nz" : "1", gridY = dims >= 2 ? "ny" : "1";
  // Step s of NAME_run (from 0) is stencilc_step, or stencilc_step - 1 where
  // time levels count steps from 1.
  const bool timeLevels = spec.previousField >= 0;
  const std::string_view step = timeLevels ? "stencilc_step - 1" : "stencilc_step";
  const std::string runArgs = runParamArgs(spec, step);
  const PointListParts pointLists = pointListParts(spec, step, gridZ, gridY);
  // What NAME_run checks and prepares before its first launch.
  const std::string runSetup = pointLists.check + perStepSetup(spec);
  std::string runNullChecks = n.nullChecks;
  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    runNullChecks += spec.isPerStep(i) ? " || " + spec.params[i] + " == nullptr" : "";
  }
  const auto common = [&](std::string_view section, const std::string &ringCopy) {
    w.fillWith(
        hostSection(section), fmt::arg("name", spec.name), fmt::arg("namespace", ns),
        fmt::arg("element", element), fmt::arg("field_params_const", n.fieldParamsConst),
        fmt::arg("field_params_run", n.fieldParamsRun),
        fmt::arg("size_params", sizeParameters(dims)), fmt::arg("param_params", n.paramParams),
        fmt::arg("run_param_params", n.runParamParams), fmt::arg("run_param_args", runArgs),
        fmt::arg("run_setup", runSetup), fmt::arg("size_product", sizeProduct(dims)),
        fmt::arg("null_checks", n.nullChecks), fmt::arg("run_null_checks", runNullChecks),
        fmt::arg("size_too_small", sizeTooSmall(dims)), fmt::arg("overlap_checks", n.overlapChecks),
        fmt::arg("run_overlap_checks", n.runOverlapChecks), fmt::arg("field_list", n.fieldList),
        fmt::arg("run_field_list", n.runFieldList), fmt::arg("param_args", n.paramArgs),
        fmt::arg("grid_z", gridZ), fmt::arg("grid_y", gridY), fmt::arg("stepped", n.stepped),
        fmt::arg("previous", n.previous), fmt::arg("ring_copy", ringCopy),
        fmt::arg("after_step", pointLists.afterStep),
        fmt::arg("fused_dispatch", fusedDispatch(plan, n)));
    w.line();
  };
  common("step", "");
  std::string ringCopy;
  if (fixed) {
    ringCopy = CodeWriter::filled(
        hostSection(timeLevels ? "ring_copy_fixed_time" : "ring_copy_fixed"),
        fmt::arg("stepped", n.stepped), fmt::arg("previous", n.previous), fmt::arg("grid_z", gridZ),
        fmt::arg("grid_y", gridY), fmt::arg("namespace", ns));
  }
  // A fused plan keeps the loop of one step a launch for small grids.
  if (plan.schedule.fusedSteps > 1) {
    w.fillWith(hostSection("run_fused_declaration"), fmt::arg("name", spec.name),
               fmt::arg("element", element), fmt::arg("field_params_run", n.fieldParamsRun),
               fmt::arg("size_params", sizeParameters(dims)),
               fmt::arg("run_param_params", n.runParamParams));
    w.line();
  }
  common(timeLevels ? "run_time" : "run", ringCopy);
  if (plan.schedule.fusedSteps > 1) {
    writeFusedRun(w, plan, n, runArgs, runSetup);
  }
}

namespace {

/// The header's words on NAME_run's per-step parameters, after the rest of
/// its comment; empty without any.
std::string perStepNote(const StencilSpec &spec) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    if (spec.isPerStep(i)) {
      names.push_back(spec.params[i]);
    }
  }
  if (names.empty()) {
    return {};
  }
  const std::string list = joinWith(names, ", "), first = names.front();
  return fmt::format("\n* {} {} per step: a pointer to `steps` doubles, {}[s] the value during\n"
                     "* step s (from 0), as {}_step takes it; a null pointer is invalid. Host\n"
                     "* memory is read during the call. Device or managed memory\n"
                     "* (cudaPointerGetAttributes tells which) is first copied to the host after\n"
                     "* the work already on stream: the call waits for that work (a\n"
                     "* synchronisation), since the host folds each step's coefficients.",
                     list, names.size() == 1 ? "is" : "are each", first, spec.name);
}

/// The header's words on NAME_run's receivers (`record u;`), after the rest
/// of its comment; empty without.
std::string receiversNote(const Plan &plan, std::string_view element) {
  const StencilSpec &spec = plan.spec;
  if (!spec.recordsReceivers) {
    return {};
  }
  static const char *const Points[3] = {"x", "(y, x) pairs", "(z, y, x) triples"};
  const bool timeLevels = spec.previousField >= 0;
  // Issue 36: a point on the fixed ring is refused like one outside the grid.
  const std::string ringNote =
      spec.boundary != BoundaryKind::Fixed
          ? std::string()
          : fmt::format("* A point on the fixed ring (of width {}, which a step never writes) is\n"
                        "* invalid the same way: its records would only repeat the kept value.\n",
                        spec.radius);
  return fmt::format(
      "\n* Receivers (record {stepped}): receivers holds receiver_count points, {points}, an int "
      "each,\n* in index order as the sizes; records holds steps x receiver_count {element}s.\n"
      "* After step s (from 0) records[s * receiver_count + k] is {stepped}'s value at\n"
      "* point k{level}, bit for bit what {name}_step leaves there.\n"
      "* Both in device memory (or managed, or pinned host memory); a receiver\n"
      "* may repeat. receiver_count 0 records nothing and takes null pointers;\n"
      "* receiver_count < 0, or null pointers beside a positive count, is\n"
      "* invalid. A point outside the grid: where the host can read the points\n"
      "* (managed or pinned memory) the call returns cudaErrorInvalidValue,\n"
      "* launching nothing; in device memory it is not read by the host (no\n"
      "* synchronisation), and that receiver's records are NaN.\n{ring}"
      "* Pageable host memory is invalid. records must not overlap a field or\n"
      "* scratch. {launches}",
      fmt::arg("stepped", spec.fields[spec.steppedField].name),
      fmt::arg("points", Points[spec.dims - 1]), fmt::arg("element", element),
      fmt::arg("level", timeLevels ? " (the new level)" : ""), fmt::arg("name", spec.name),
      fmt::arg("ring", ringNote),
      fmt::arg("launches",
               plan.schedule.fusedSteps > 1
                   ? "Each fused pass's receivers are one more launch on stream,\n"
                     "* after the pass's: a warp a receiver computes its value at each step\n"
                     "* of the pass from the pass's inputs."
                   : "Each step's gather is one more launch on stream, after the\n"
                     "* step's."));
}

/// The header's words on NAME_run's point sources (`source u;`), after the
/// rest of its comment; empty without.
std::string sourcesNote(const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  if (!spec.injectsSources) {
    return {};
  }
  static const char *const Points[3] = {"x", "(y, x) pairs", "(z, y, x) triples"};
  const std::string ringNote =
      spec.boundary == BoundaryKind::Fixed
          ? fmt::format(", or on the fixed ring (of width {})", spec.radius)
          : std::string();
  return fmt::format(
      "\n* Sources (source {stepped}): sources holds source_count points, {points}, an int\n"
      "* each, in index order as the sizes; amplitudes holds steps x source_count\n"
      "* doubles. Step s (from 0) adds amplitudes[s * source_count + k] to the level\n"
      "* it writes at point k, after its terms: the amplitude rounded once to the\n"
      "* arithmetic type, added, the sum rounded to the element type; sources at\n"
      "* one point add in the list's order. Both in device memory (or managed, or\n"
      "* pinned host memory; pageable host memory is invalid). source_count 0 adds\n"
      "* nothing and takes null pointers; source_count < 0, or null pointers beside\n"
      "* a positive count, is invalid. The host reads every point (copying device\n"
      "* or managed memory after the work already on stream: a synchronisation a\n"
      "* call); a point outside the grid{ring} returns\n"
      "* cudaErrorInvalidValue, launching nothing. amplitudes must hold steps rows:\n"
      "* the call cannot see its length. {launches}",
      fmt::arg("stepped", spec.fields[spec.steppedField].name),
      fmt::arg("points", Points[spec.dims - 1]), fmt::arg("ring", ringNote),
      fmt::arg("launches", plan.schedule.fusedSteps > 1
                               ? "A fused pass adds its steps' sources where it\n"
                                 "* computes each level; one step a launch, one more small "
                                 "launch a step."
                               : "Each step's sources are one more small launch on\n"
                                 "* stream, after the step's."));
}

/// `NAME_param_is_per_step`, 1 for each per-step parameter, where there is
/// one. A separate array, not a member of stencilc_fields_info, keeps every
/// other header as it was (a struct initializer one member short would warn
/// under -Wextra).
std::string perStepArray(const StencilSpec &spec) {
  if (!spec.hasPerStepParams()) {
    return {};
  }
  std::vector<std::string> flags;
  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    flags.push_back(spec.isPerStep(i) ? "1" : "0");
  }
  return fmt::format("/* Whether each parameter (in {}_param_names' order) is per step. */\n"
                     "static const int {}_param_is_per_step[{}] = {{{}}};",
                     spec.name, spec.name, flags.size(), joinWith(flags, ", "));
}

/// The header's list of the terms, a comment line each.
std::string termsComment(const StencilSpec &spec) {
  std::string terms = " * out is the sum of its terms, each a coefficient (first) times reads:\n";
  for (std::size_t i = 0; i < spec.fieldTerms.size(); ++i) {
    terms += fmt::format(" *   term {}: {}\n", i, fieldTermText(spec, spec.fieldTerms[i]));
  }
  return terms;
}

/// The header's words on fusion: "NAME_run fuses 4 steps a pass", "not
/// fused".
std::string fusedText(const Plan &plan) {
  return plan.schedule.fusedSteps > 1
             ? fmt::format("{}_run fuses {} steps a pass", plan.spec.name, plan.schedule.fusedSteps)
             : std::string("not fused");
}

} // namespace

void writeFieldsHeader(CodeWriter &w, const Plan &plan, const HeaderFacts &facts) {
  const StencilSpec &spec = plan.spec;
  const std::string element(elementTypeName(spec.precision));
  const FieldsNames n = fieldsNames(spec, element);
  const bool timeLevels = spec.previousField >= 0;
  const bool fixed = spec.boundary == BoundaryKind::Fixed;
  std::vector<std::string> fields;
  for (const FieldDecl &f : spec.fields) {
    fields.push_back(f.name + (f.role == FieldRole::Coefficient ? " (coefficient)" : ""));
  }
  const std::string terms = termsComment(spec);
  const std::string runWhat =
      timeLevels
          ? fmt::format(" in time: the levels rotate through {}, {} and scratch, and\n"
                        " * afterwards {} holds the newest level and {} the one before it, as if\n"
                        " * each step had been taken in place.",
                        n.previous, n.stepped, n.stepped, n.previous)
          : fmt::format(": out of each step is the next {}; the result is left in\n"
                        " * {}, the other fields are read only.",
                        n.stepped, n.stepped);
  std::string written =
      timeLevels ? n.previous + ", " + n.stepped + ", scratch" : n.stepped + ", scratch";
  const std::string runNote =
      fixed ? (timeLevels ? fmt::format(" With boundary fixed, scratch and {} first take the "
                                        "ring of {}.",
                                        n.previous, n.stepped)
                          : fmt::format(" With boundary fixed, scratch first takes the ring "
                                        "of {}.",
                                        n.stepped))
            : std::string();
  const HeaderNotes notes = backendFor(plan).headerNotes(plan);
  const std::string ringLimit = notes.runLimits;
  std::vector<std::string> names, roles, params, table;
  for (const FieldDecl &f : spec.fields) {
    names.push_back("\"" + f.name + "\"");
    roles.push_back(f.role == FieldRole::Coefficient ? "1" : "0");
  }
  for (const std::string &p : spec.params) {
    params.push_back("\"" + p + "\"");
  }
  for (const FieldTerm &t : spec.fieldTerms) {
    table.push_back(fmt::format("  {{{}, {{{}, {}, {}}}, {}, {{{}, {}, {}}}}}", t.field,
                                t.offset.d[0], t.offset.d[1], t.offset.d[2], t.coefficientField,
                                t.coefficientOffset.d[0], t.coefficientOffset.d[1],
                                t.coefficientOffset.d[2]));
  }
  const std::string paramArray =
      params.empty() ? std::string()
                     : fmt::format("static const char *const {}_param_names[{}] = {{{}}};",
                                   spec.name, params.size(), joinWith(params, ", "));
  w.fillWith(
      templateSection("fields.h.tpl", "api"), fmt::arg("name", spec.name),
      fmt::arg("field_count", spec.fields.size()), fmt::arg("field_names", joinWith(names, ", ")),
      fmt::arg("field_roles", joinWith(roles, ", ")), fmt::arg("param_names_array", paramArray),
      fmt::arg("param_count", params.size()),
      fmt::arg("param_names_ref", params.empty() ? std::string("0") : spec.name + "_param_names"),
      fmt::arg("term_table", joinWith(table, ",\n")), fmt::arg("stepped_field", spec.steppedField),
      fmt::arg("previous_field", spec.previousField), fmt::arg("description", facts.description),
      fmt::arg("field_text", joinWith(fields, ", ")), fmt::arg("term_text", terms),
      fmt::arg("backend_text", fmt::format("{}, {}", keyword(plan.backend()), notes.fieldsKernels)),
      fmt::arg("backend_enum", facts.backendEnum), fmt::arg("term_count", spec.fieldTerms.size()),
      fmt::arg("param_params_first", n.paramParamsFirst), fmt::arg("extent_text", facts.extentText),
      fmt::arg("boundary_note", facts.boundaryNote), fmt::arg("min_size", spec.smallestExtent()),
      fmt::arg("limit_note", facts.limitNote), fmt::arg("field_params_const", n.fieldParamsConst),
      fmt::arg("element", element), fmt::arg("size_params", sizeParameters(spec.dims)),
      fmt::arg("param_params", n.paramParams), fmt::arg("run_what", runWhat),
      fmt::arg("written", written),
      fmt::arg("run_note", runNote + ringLimit + perStepNote(spec) + sourcesNote(plan) +
                               receiversNote(plan, element)),
      fmt::arg("run_param_params", n.runParamParams),
      fmt::arg("per_step_array", perStepArray(spec)),
      fmt::arg("field_params_run", n.fieldParamsRun), fmt::arg("dims", spec.dims),
      fmt::arg("radius", spec.radius), fmt::arg("shape", facts.shapeEnum),
      fmt::arg("precision", facts.precisionEnum), fmt::arg("boundary", facts.boundaryEnum),
      fmt::arg("boundary_value", numberLiteral(spec.boundaryValue, false)),
      fmt::arg("tile", facts.tile), fmt::arg("fused_steps", plan.schedule.fusedSteps),
      fmt::arg("fused_text", fusedText(plan)));
}

} // namespace stencilc
