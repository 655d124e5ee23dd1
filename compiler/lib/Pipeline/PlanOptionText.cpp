//===- PlanOptionText.cpp - --plan-option values as text -------------------===//
//
// The --plan-option names and ranges as the driver's help and errors word
// them, and the check of one "name=value": shared by the stencilc driver
// and the Python package's in-process pipeline (python/src/pipeline.cpp).
//
//===----------------------------------------------------------------------===//
#include "stencilc/Pipeline.h"

#include <fmt/format.h>

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

namespace stencilc {

namespace {

/// The words --plan-option lowrank takes, and what each asks for.
constexpr std::pair<std::string_view, LowRankRequest> LowRankWords[] = {
    {"auto", LowRankRequest::Auto},
    {"on", LowRankRequest::On},
    {"off", LowRankRequest::Off},
};

/// The words --plan-option arith takes.
constexpr std::pair<std::string_view, ArithRequest> ArithWords[] = {
    {"widened", ArithRequest::Widened},
    {"packed", ArithRequest::Packed},
};

/// Sets `field` to the value of the word `valueText` in `words`, or says
/// which words the option `name` takes.
template <class Value, size_t N>
std::optional<std::string> applyWord(llvm::StringRef name, llvm::StringRef valueText,
                                     const std::pair<std::string_view, Value> (&words)[N],
                                     Value &field) {
  const auto *word =
      llvm::find_if(words, [&](const auto &w) { return llvm::StringRef(w.first) == valueText; });
  if (word == std::end(words)) {
    std::vector<std::string_view> names;
    for (const auto &w : words) {
      names.push_back(w.first);
    }
    return fmt::format("--plan-option {} must be {}, not '{}'", name.str(), joinList(names, " or "),
                       valueText.str());
  }
  field = word->second;
  return std::nullopt;
}

} // namespace

std::string planOptionNames(std::string_view lastJoin, std::optional<BackendKind> backend) {
  std::vector<std::string_view> names;
  for (const PlanOptionInfo &o : PlanOptionTable) {
    if (!backend || o.appliesTo(*backend)) {
      names.push_back(o.name);
    }
  }
  if (!backend || *backend == BackendKind::Simt) {
    names.push_back(LowRankOptionName);
    names.push_back(ArithOptionName);
  }
  return joinList(names, lastJoin);
}

std::string lowRankOptionHelp() {
  return fmt::format("  {:<12} simt: a 2D or 3D stencil as a sum of separable terms (1D passes "
                     "along x, then along y, then along z) where that takes fewer operations; "
                     "auto (the default: where it also keeps the accuracy), on or off",
                     LowRankOptionName);
}

std::string arithOptionHelp() {
  return fmt::format("  {:<12} simt: the arithmetic of a 2D fp16 or bf16 stencil: widened (the "
                     "default: fp32 FMAs, one rounding on store) or packed (half2 / bfloat162 "
                     "FMAs on two columns at once, every operation rounded to 16 bits; opt-in, "
                     "less accurate)",
                     ArithOptionName);
}

std::string planOptionRange(const PlanOptionInfo &o) {
  return (o.powerOfTwo ? "a power of two" : "an integer") +
         fmt::format(" from {} to {}", o.min, o.max) +
         (o.multipleOf > 1 ? fmt::format(" and a multiple of {}", o.multipleOf) : std::string());
}

std::optional<std::string> applyPlanOption(llvm::StringRef option, BackendOptions &options) {
  auto [name, valueText] = option.split('=');
  const bool lowRank = name == llvm::StringRef(LowRankOptionName);
  if (lowRank || name == llvm::StringRef(ArithOptionName)) {
    std::optional<std::string> error =
        lowRank ? applyWord(name, valueText, LowRankWords, options.plan.lowRank)
                : applyWord(name, valueText, ArithWords, options.plan.arith);
    if (!error && !llvm::is_contained(options.planOptionsGiven, name)) {
      options.planOptionsGiven.push_back(name.str());
    }
    return error;
  }
  const PlanOptionInfo *knob = findPlanOption(name);
  if (!knob) {
    return fmt::format("unknown --plan-option '{}'; expected {}", name.str(),
                       planOptionNames(" or ", std::nullopt));
  }
  int value = 0;
  if (valueText.getAsInteger(10, value) || value < knob->min || value > knob->max ||
      value % knob->multipleOf != 0 || (knob->powerOfTwo && !llvm::isPowerOf2_32(value))) {
    return fmt::format("--plan-option {} must be {}, not '{}'", name.str(), planOptionRange(*knob),
                       valueText.str());
  }
  options.plan.*knob->field = value;
  if (!llvm::is_contained(options.planOptionsGiven, name)) {
    options.planOptionsGiven.push_back(name.str());
  }
  return std::nullopt;
}

} // namespace stencilc
