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

/// The words --plan-option mma takes.
constexpr std::pair<std::string_view, MmaRequest> MmaWords[] = {
    {"auto", MmaRequest::Auto},
    {"dense", MmaRequest::Dense},
    {"sparse", MmaRequest::Sparse},
    {"stacked", MmaRequest::Stacked},
};

/// The words --plan-option scale takes.
constexpr std::pair<std::string_view, ScaleRequest> ScaleWords[] = {
    {"auto", ScaleRequest::Auto},
    {"off", ScaleRequest::Off},
};

/// The words --plan-option pairs takes.
constexpr std::pair<std::string_view, ComposeRequest> ComposeWords[] = {
    {"auto", ComposeRequest::Auto},
    {"off", ComposeRequest::Off},
    {"on", ComposeRequest::On},
};
constexpr std::pair<std::string_view, PairsRequest> PairsWords[] = {
    {"auto", PairsRequest::Auto},
    {"off", PairsRequest::Off},
};

/// The words --plan-option copy takes.
constexpr std::pair<std::string_view, CopyRequest> CopyWords[] = {
    {"auto", CopyRequest::Auto},
    {"threads", CopyRequest::Threads},
};

/// The words --plan-option barrier takes.
constexpr std::pair<std::string_view, BarrierRequest> BarrierWords[] = {
    {"auto", BarrierRequest::Auto},
    {"split", BarrierRequest::Split},
    {"sync", BarrierRequest::Sync},
};

/// The words --plan-option ring takes.
constexpr std::pair<std::string_view, RingRequest> RingWords[] = {
    {"auto", RingRequest::Auto},
    {"whole", RingRequest::Whole},
    {"rotate", RingRequest::Rotate},
};

/// The words --plan-option windows takes.
constexpr std::pair<std::string_view, WindowsRequest> WindowsWords[] = {
    {"auto", WindowsRequest::Auto},
    {"two", WindowsRequest::Two},
};

/// The words --plan-option grid takes.
constexpr std::pair<std::string_view, GridRequest> GridWords[] = {
    {"auto", GridRequest::Auto},
    {"persistent", GridRequest::Persistent},
    {"tiles", GridRequest::Tiles},
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

/// Sets the PlanOptions field `Field` to the word `value` of `Words`.
template <const auto &Words, auto Field>
std::optional<std::string> applyWordTo(llvm::StringRef name, llvm::StringRef value,
                                       PlanOptions &plan) {
  return applyWord(name, value, Words, plan.*Field);
}

/// A word option (WordPlanOption) with the setter of its PlanOptions field.
struct WordOptionEntry {
  WordPlanOption option;
  std::optional<std::string> (*apply)(llvm::StringRef name, llvm::StringRef value,
                                      PlanOptions &plan);
};

/// Every word-valued --plan-option, in --help's order.
constexpr WordOptionEntry WordOptions[] = {
    {{"lowrank", BackendKind::Simt,
      "a 2D or 3D stencil as a sum of separable terms (1D passes along x, then along y, then "
      "along z) where that takes fewer operations; auto (the default: where it also keeps the "
      "accuracy), on or off"},
     applyWordTo<LowRankWords, &PlanOptions::lowRank>},
    {{"arith", BackendKind::Simt,
      "the arithmetic of a 2D fp16 or bf16 stencil: widened (the default: fp32 FMAs, one "
      "rounding on store) or packed (half2 / bfloat162 FMAs on two columns at once, every "
      "operation rounded to 16 bits; opt-in, less accurate)"},
     applyWordTo<ArithWords, &PlanOptions::arith>},
    {{"mma", BackendKind::Tensor,
      "the MMAs of a 2D fp16 or bf16 stencil: auto (the default: stacked, measured faster at "
      "every radius, unless a block-shape option asks for dense), dense (a GEMM a stencil "
      "row), sparse (mma.sp on each band's 2:4 "
      "structure, radius 7 or less; opt-in: measured slower on an H200) or stacked (the rows "
      "stacked in K, radius 8 or less)"},
     applyWordTo<MmaWords, &PlanOptions::mma>},
    {{"copy", BackendKind::Tensor,
      "how the stacked form copies its windows into shared memory: auto (the default: one "
      "thread's copy by the tensor memory accelerator on sm_90 and later at a fixed grid, "
      "cp.async from every thread elsewhere) or threads (cp.async from every thread)"},
     applyWordTo<CopyWords, &PlanOptions::copy>},
    {{"windows", BackendKind::Tensor,
      "the stacked form's windows: auto (the default: one a stage) or two (a second, its "
      "columns 4 right of the first's, for the rows whose weights reach 4 columns or less each "
      "way, where they then take fewer MMAs; opt-in: one step 1.07-1.24x faster on an H200 in "
      "a persistent grid, 0.93-0.94x on an H100 a block a tile; fused passes 0.79-0.84x)"},
     applyWordTo<WindowsWords, &PlanOptions::windows>},
    {{"grid", BackendKind::Tensor,
      "the stacked form's grid: auto (the default: on sm_90 and later a block a block tile for "
      "a single step, measured 1.06-1.16x faster on an H100, and for the composed passes "
      "where that measured faster; a persistent grid elsewhere), persistent (the blocks that "
      "fit at once, each walking tiles while the next tile's window is copied) or tiles (a "
      "block a block tile, one window each)"},
     applyWordTo<GridWords, &PlanOptions::grid>},
    {{"scale", BackendKind::Simt,
      "the coefficients of an fp64 stencil: auto (the default: as integers times one factor "
      "1/D where they all are, the integers FMA immediates and a point's sum times 1/D, rounded "
      "once) or off (as given)"},
     applyWordTo<ScaleWords, &PlanOptions::scale>},
    {{"pairs", BackendKind::Simt,
      "the order of a 2D low-rank form of one pass of equal taps: auto (the default: its "
      "columns and rows added in pairs of an even index and the next, where the grid does not "
      "wrap) or off (one by one, as before)"},
     applyWordTo<PairsWords, &PlanOptions::pairs>},
    {{"compose", BackendKind::Simt,
      "NAME_run of a rank-1 2D stencil: auto (the default: in passes of its steps composed, "
      "two 1D passes each, where measured faster; not bit for bit as many steps), on (so "
      "wherever the planner has their geometry: fp64 of radius 3; with fuse=T, T steps a "
      "pass) or off (the fused kernel, bit for bit)"},
     applyWordTo<ComposeWords, &PlanOptions::compose>},
    {{"barrier", BackendKind::Simt,
      "how a fused 3D pass of several steps orders its planes: auto (the default: the split "
      "barrier where the target is sm_90 or later and it measured faster for the kind, else a "
      "__syncthreads a plane), split (an mbarrier a plane, arrived at after a thread's last edge "
      "rows and waited on before its next reads, wherever its rings fit; sm_90 and later, an "
      "error elsewhere) or sync (a __syncthreads a plane)"},
     applyWordTo<BarrierWords, &PlanOptions::barrier>},
    {{"ring", BackendKind::Simt,
      "how far a fused 3D pass of several steps unrolls its stream's loop: auto (the default: "
      "as rotate where that measured faster for the kind, else as whole), whole (whole rings "
      "of edge rows, so that every slot is a constant) or rotate (as few planes as the "
      "register queues need, the ring's slots in parts that rotate a round; under the split "
      "barrier a ring not rounded up)"},
     applyWordTo<RingWords, &PlanOptions::ring>},
};

const WordOptionEntry *findWordOption(llvm::StringRef name) {
  const auto *entry = llvm::find_if(WordOptions, [&](const WordOptionEntry &e) {
    return llvm::StringRef(e.option.name) == name;
  });
  return entry == std::end(WordOptions) ? nullptr : entry;
}

} // namespace

const WordPlanOption *findWordPlanOption(std::string_view name) {
  const WordOptionEntry *entry = findWordOption(name);
  return entry ? &entry->option : nullptr;
}

std::string wordPlanOptionHelp() {
  std::string lines;
  for (const WordOptionEntry &e : WordOptions) {
    lines += fmt::format("{}  {:<12} {}: {}", lines.empty() ? "" : "\n", e.option.name,
                         keyword(e.option.backend), e.option.help);
  }
  return lines;
}

std::string planOptionNames(std::string_view lastJoin, std::optional<BackendKind> backend) {
  std::vector<std::string_view> names;
  for (const PlanOptionInfo &o : PlanOptionTable) {
    if (!backend || o.appliesTo(*backend)) {
      names.push_back(o.name);
    }
  }
  for (const WordOptionEntry &e : WordOptions) {
    if (!backend || e.option.backend == *backend) {
      names.push_back(e.option.name);
    }
  }
  return joinList(names, lastJoin);
}

std::string planOptionRange(const PlanOptionInfo &o) {
  return (o.powerOfTwo ? "a power of two" : "an integer") +
         fmt::format(" from {} to {}", o.min, o.max) +
         (o.multipleOf > 1 ? fmt::format(" and a multiple of {}", o.multipleOf) : std::string());
}

std::optional<std::string> applyPlanOption(llvm::StringRef option, BackendOptions &options) {
  auto [name, valueText] = option.split('=');
  if (const WordOptionEntry *word = findWordOption(name)) {
    std::optional<std::string> error = word->apply(name, valueText, options.plan);
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
