//===- stencilc.cpp - The stencilc driver ----------------------------------===//
//
// A straight list of stages, each followed by "dump if asked":
//   read file (a C/C++ file: translate it with stencilc-cfront) -> Lexer/Parser
//   (AST) -> Sema (StencilSpec) -> planning and code generation (Pipeline.h) ->
//   write outputs atomically.
// Exit status: 0 success, 1 an error in the input, 2 bad usage. CInput.cpp
// reads the input (a C file through stencilc-cfront); Outputs.cpp decides
// where the outputs go and writes them.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include "stencilc/Diagnostics.h"
#include "stencilc/LowRank.h"
#include "stencilc/Parser.h"
#include "stencilc/Pipeline.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/PrintableText.h"
#include "stencilc/Sema.h"
#include "stencilc/Spec.h"
#include "stencilc/Target.h"

#include "CInput.h"
#include "DeviceQuery.h"
#include "Outputs.h"

namespace cl = llvm::cl;
using namespace stencilc;
using namespace stencilc::driver;

namespace {

enum class Emit { None, Stencil, AST, Spec, Plan, Cuda, Header };

constexpr int ExitSuccess = 0;
constexpr int ExitInputError = 1;
constexpr int ExitUsage = 2;

cl::OptionCategory category("stencilc options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.stencil>"), cl::cat(category));
cl::opt<std::string> outputFile("o",
                                cl::desc("Write the CUDA source to <file> "
                                         "and the header beside it ('-': the "
                                         "source on stdout, and the header only "
                                         "where --header names it)"),
                                cl::value_desc("file.cu"), cl::cat(category));
cl::opt<std::string> headerFile("header",
                                cl::desc("Write the header to <file> instead "
                                         "of beside the -o output"),
                                cl::value_desc("file.h"), cl::cat(category));
cl::opt<Emit>
    emit("emit", cl::desc("Print one artefact to stdout"), cl::init(Emit::None),
         cl::values(clEnumValN(Emit::Stencil, "stencil",
                               "the .stencil text (for C/C++ input: its translation)"),
                    clEnumValN(Emit::AST, "ast", "the syntax tree, as parsed"),
                    clEnumValN(Emit::Spec, "spec", "the checked StencilSpec"),
                    clEnumValN(Emit::Plan, "plan", "the decomposition chosen by the planner"),
                    clEnumValN(Emit::Cuda, "cuda", "the generated CUDA source"),
                    clEnumValN(Emit::Header, "header", "the generated header")),
         cl::cat(category));
const std::string ArchHelp =
    "GPU architectures to plan for, " + archNames(" or ") +
    ": one, or a comma-separated list, whose .cu holds a plan for each and runs the newest one "
    "the GPU it runs on can. Default: the newest one GPU 0 runs, as the CUDA driver reports it; "
    "sm_80 where there is no GPU or " +
    NoDeviceQueryVariable + " is set (-v says which)";
cl::opt<std::string> arch("arch", cl::desc(ArchHelp), cl::value_desc("sm_XX[,sm_YY...]"),
                          cl::cat(category));
cl::opt<BackendRequest> backend("backend", cl::desc("Which kernels to generate"),
                                cl::init(BackendRequest::Auto),
                                cl::values(clEnumValN(BackendRequest::Auto, "auto",
                                                      "the compiler's choice per stencil")),
                                cl::cat(category));
/// --backend's other values, Backends.def's backends.
const bool BackendValuesAdded = [] {
  static std::vector<std::string> helps;
  helps.reserve(std::size(AllBackends));
  for (BackendKind kind : AllBackends) {
    helps.push_back(std::string(kernelsAdjective(kind)) + " kernels");
    backend.getParser().addLiteralOption(keyword(kind), *parseBackendRequest(keyword(kind)),
                                         helps.back());
  }
  return true;
}();
cl::opt<bool> warningsAsErrors("Werror", cl::desc("Treat warnings as errors"), cl::cat(category));
cl::opt<bool> noWarnings("w", cl::desc("Show no warnings"), cl::cat(category));
cl::list<std::string> warningFlags("W", cl::Prefix, cl::value_desc("name"),
                                   cl::desc("-W<name> turns a warning on, -Wno-<name> off, "
                                            "-Wno-error=<name> keeps it a warning under "
                                            "--Werror (names: docs/diagnostics.md)"),
                                   cl::cat(category));
cl::opt<bool> verbose("v", cl::desc("Show remarks: the choices made for you (the backend, ...)"),
                      cl::cat(category));
cl::opt<unsigned> errorLimit("error-limit",
                             cl::desc("Print at most <n> errors, then only their count (0: all)"),
                             cl::init(DiagnosticEngine::DefaultErrorLimit), cl::value_desc("n"),
                             cl::cat(category));
cl::opt<unsigned> noteLimit("note-limit",
                            cl::desc("Print at most <n> warnings and remarks, then "
                                     "only their count (0: all)"),
                            cl::init(DiagnosticEngine::DefaultNoteLimit), cl::value_desc("n"),
                            cl::cat(category));
cl::opt<unsigned> maxInputSize("max-input-size",
                               cl::desc("Refuse an input (or a C input's translation) larger "
                                        "than <MiB> mebibytes"),
                               cl::init(256), cl::value_desc("MiB"), cl::cat(category));
cl::opt<bool> writeDepfile("MD",
                           cl::desc("Also write a depfile for make and Ninja: the files the "
                                    "outputs depend on (a C input's #includes too)"),
                           cl::cat(category));
cl::opt<std::string> depfileName("MF",
                                 cl::desc("Write the depfile to <file> (implies -MD; default: "
                                          "the -o file with the extension .d)"),
                                 cl::value_desc("file"), cl::cat(category));
/// Every warning's name, for the message about an unknown -W flag.
std::string warningNames() {
  std::vector<std::string_view> names;
  for (const WarningInfo &info : warningTable()) {
    names.push_back(info.name);
  }
  return joinList(names, " or ");
}

/// --plan-option's help: the names per backend, then a line per option.
std::string planOptionHelp() {
  std::string help = "Set a free parameter of the plans, for tuning: ";
  for (BackendKind kind : AllBackends) {
    help += fmt::format("{}{} ({} kernels)", kind == AllBackends[0] ? "" : "; ",
                        planOptionNames(", ", kind), kernelsAdjective(kind));
  }
  help += ". Repeatable, or comma-separated";
  for (const PlanOptionInfo &o : PlanOptionTable) {
    std::vector<std::string_view> takers;
    for (BackendKind kind : AllBackends) {
      if (o.appliesTo(kind)) {
        takers.push_back(keyword(kind));
      }
    }
    help += fmt::format("\n  {:<12} {}: {}; {}", o.name,
                        takers.size() == std::size(AllBackends) ? std::string("both")
                                                                : joinList(takers, " and "),
                        o.help, planOptionRange(o));
  }
  return help + "\n" + wordPlanOptionHelp();
}
const std::string PlanOptionHelp = planOptionHelp();

cl::list<std::string> planOptions("plan-option", cl::CommaSeparated, cl::value_desc("name=value"),
                                  cl::desc(PlanOptionHelp), cl::cat(category));

/// The plan parameters of --plan-option, checked by main().
BackendOptions planKnobs;

/// Applies every --plan-option to `options`; prints what is wrong and
/// returns false for an unknown name or a value out of range.
bool applyPlanOptions(BackendOptions &options) {
  for (const std::string &option : planOptions) {
    if (std::optional<std::string> error = applyPlanOption(option, options)) {
      llvm::errs() << "stencilc: error: " << *error << "\n";
      return false;
    }
  }
  return true;
}

/// Makes every option not in our category unknown, so that flags registered
/// by libLLVM are rejected like any other unknown flag.
void hideForeignOptions() {
  auto &options = cl::getRegisteredOptions();
  std::vector<cl::Option *> foreign;
  for (auto &entry : options) {
    cl::Option *option = entry.second;
    bool ours = false;
    for (cl::OptionCategory *c : option->Categories) {
      ours |= c == &category;
    }
    llvm::StringRef name = entry.first();
    if (!ours && name != "help" && name != "version") {
      foreign.push_back(option);
    }
  }
  for (cl::Option *option : foreign) {
    option->removeArgument();
  }
}

void printVersion(llvm::raw_ostream &os) {
  os << "stencilc version " << STENCILC_VERSION << " (LLVM " << LLVM_VERSION_STRING << ")\n";
}

/// The --emit=spec output: each stencil's spec and the low-rank structure of
/// its coefficients, a blank line between two stencils.
void printSpecs(const std::vector<StencilSpec> &specs) {
  for (size_t i = 0; i < specs.size(); ++i) {
    if (i) {
      llvm::outs() << "\n";
    }
    printSpec(specs[i], llvm::outs());
    printLowRank(specs[i], llvm::outs());
  }
}

/// Writes the files asked for (header, source, depfile: all or none), then
/// prints the artefact --emit names (or the source for `-o -`); returns the
/// exit status.
int deliver(const Artefacts &artefacts, const OutputPaths &outputs,
            llvm::ArrayRef<std::string> dependencies, DiagnosticEngine &diags) {
  std::vector<Output> files;
  if (outputs.writesHeader) {
    files.push_back({outputs.headerPath, artefacts.header});
  }
  if (outputs.writesCuda) {
    files.push_back({outputs.cudaPath, artefacts.cuda});
  }
  std::optional<std::string> depfile;
  if (outputs.writesDepfile) {
    depfile = depfileText(outputs.writesCuda ? outputs.cudaPath : outputs.headerPath, dependencies,
                          diags);
    if (!depfile) {
      return ExitInputError;
    }
    files.push_back({outputs.depfilePath, *depfile});
  }
  if (!writeAll(files, diags)) {
    return ExitInputError;
  }
  switch (outputFile == "-" && emit == Emit::None ? Emit::Cuda : emit) {
  case Emit::Plan:
    llvm::outs() << artefacts.plan;
    return ExitSuccess;
  case Emit::Cuda:
    llvm::outs() << artefacts.cuda;
    return ExitSuccess;
  case Emit::Header:
    llvm::outs() << artefacts.header;
    return ExitSuccess;
  default:
    break;
  }
  return ExitSuccess;
}

/// Runs the stages on the loaded buffer; returns the exit status.
/// `dependencies` are the files the input was made of, for the depfile.
int compile(llvm::SourceMgr &sourceMgr, unsigned bufferId, const OutputPaths &outputs,
            llvm::ArrayRef<std::string> dependencies, DiagnosticEngine &diags) {
  llvm::StringRef text = sourceMgr.getMemoryBuffer(bufferId)->getBuffer();
  if (emit == Emit::Stencil) {
    llvm::outs() << text;
    return ExitSuccess;
  }
  Parser parser(text, diags);
  Module module = parser.parseModule();
  if (diags.hasErrors()) {
    return ExitInputError;
  }
  if (emit == Emit::AST) {
    printAST(module, sourceMgr, llvm::outs());
    return ExitSuccess;
  }

  // For C input, source lines are those of the translation.
  std::string sourceName = isCSource(inputFile)
                               ? sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier().str()
                               : inputFile.getValue();
  std::vector<CheckedStencil> checked = checkModule(module, sourceName, diags);
  if (diags.hasErrors()) {
    return ExitInputError;
  }
  std::vector<StencilSpec> specs;
  std::vector<llvm::SMLoc> locs;
  for (CheckedStencil &c : checked) {
    specs.push_back(std::move(c.spec));
    locs.push_back(c.loc);
  }
  if (emit == Emit::Spec) {
    printSpecs(specs);
    return ExitSuccess;
  }

  BackendOptions options = planKnobs;
  options.backend = backend;
  options.inputFile = inputFile;
  options.headerInclude = llvm::sys::path::filename(outputs.headerPath).str();
  Artefacts artefacts = generateArtefacts(specs, locs, options, diags);
  if (diags.hasErrors()) {
    return ExitInputError;
  }
  return deliver(artefacts, outputs, dependencies, diags);
}

/// Why the architecture was chosen without --arch, for -v.
std::string defaultArchWhy;

/// The architectures to plan for: --arch's list, or the machine's GPU's
/// (DeviceQuery.cpp); false, after a message, for a bad list.
bool chooseArchs() {
  if (arch.getNumOccurrences() == 0) {
    DefaultArch chosen = defaultArch();
    planKnobs.plan.target = chosen.arch;
    defaultArchWhy = std::move(chosen.why);
    return true;
  }
  auto parsed = parseArchList(arch.getValue());
  if (const std::string *error = std::get_if<std::string>(&parsed)) {
    llvm::errs() << "stencilc: error: " << printableText(*error) << "\n";
    return false;
  }
  const std::vector<Arch> &archs = std::get<std::vector<Arch>>(parsed);
  planKnobs.plan.target = archs.back();
  if (archs.size() > 1) {
    planKnobs.targets = archs;
  }
  return true;
}

/// Parses our own arguments (those before `--`) and checks them together;
/// false, after a message, on a usage error.
bool parseCommandLine(int ownArgs, int argc, char **argv) {
  std::string usageErrors;
  llvm::raw_string_ostream usageStream(usageErrors);
  if (!cl::ParseCommandLineOptions(ownArgs, argv,
                                   "stencilc: compiles .stencil files, and C/C++ loop "
                                   "nests marked '#pragma stencil', to CUDA\n",
                                   &usageStream)) {
    llvm::errs() << usageErrors;
    return false;
  }
  if (inputFile.empty()) {
    llvm::errs() << "stencilc: error: no input file (see --help)\n";
    return false;
  }
  if (!chooseArchs()) {
    return false;
  }
  if (!applyPlanOptions(planKnobs)) {
    return false;
  }
  if (ownArgs < argc && !isCSource(inputFile)) {
    llvm::errs() << "stencilc: error: arguments after '--' are compiler flags for a C "
                    "or C++ input (.c, .cc, .cpp, .cxx), not for '"
                 << inputFile << "'\n";
    return false;
  }
  return true;
}

/// Where the outputs go (Outputs.cpp decides); nothing, after a message, on
/// a usage error.
std::optional<OutputPaths> requestedOutputs() {
  OutputRequest request;
  request.inputFile = inputFile;
  request.outputFile = outputFile;
  request.headerFile = headerFile;
  request.depfileName = depfileName;
  request.writeDepfile = writeDepfile;
  request.emitting = emit != Emit::None;
  request.writesInclude = emit == Emit::None || emit == Emit::Cuda;
  return planOutputs(request, llvm::errs());
}

/// Sets the warning flags and limits; false, after a message, for an
/// unknown -W name.
bool configureDiagnostics(DiagnosticEngine &diags) {
  diags.setWarningsAsErrors(warningsAsErrors);
  diags.setWarningsSilenced(noWarnings);
  diags.setRemarksShown(verbose);
  for (const std::string &flag : warningFlags) {
    if (!diags.applyWarningFlag(flag)) {
      llvm::errs() << "stencilc: error: unknown warning '-W" << printableText(flag)
                   << "'; expected one of " << warningNames() << "\n";
      return false;
    }
  }
  diags.setErrorLimit(errorLimit);
  diags.setNoteLimit(noteLimit);
  return true;
}

/// The input's text: a .stencil file (or standard input) as it is, a C/C++
/// file as stencilc-cfront translates it (with the lines of the C file each
/// translated line comes from); null after an error. Adds the files it was
/// made of to `dependencies`.
std::unique_ptr<llvm::MemoryBuffer> readInput(const char *argv0,
                                              const std::vector<std::string> &compilerArgs,
                                              std::vector<std::string> &dependencies,
                                              std::vector<CSourcePoint> &lineOrigins,
                                              DiagnosticEngine &diags) {
  std::unique_ptr<llvm::MemoryBuffer> input;
  if (isCSource(inputFile)) {
    CInputRequest cRequest{inputFile, compilerArgs, warningsAsErrors, noWarnings, maxInputSize};
    CTranslation translation;
    if (translateCSource(argv0, cRequest, translation, diags)) {
      input = std::move(translation.text);
      dependencies = std::move(translation.dependencies);
      lineOrigins = std::move(translation.lineOrigins);
    }
  } else {
    // Standard input is "<stdin>" in diagnostics.
    input = readLimited(inputFile, inputFile == "-" ? "<stdin>" : inputFile.getValue(),
                        "'" + inputFile + "'", maxInputSize, diags);
    if (inputFile != "-") {
      dependencies.push_back(inputFile);
    }
  }
  return input;
}

} // namespace

int main(int argc, char **argv) {
  hideForeignOptions();
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter(printVersion);
  // Arguments after `--` are compiler flags for a C/C++ input (-I, -D, ...).
  int ownArgs = static_cast<int>(std::find(argv, argv + argc, llvm::StringRef("--")) - argv);
  std::vector<std::string> compilerArgs(argv + std::min(ownArgs + 1, argc), argv + argc);
  if (!parseCommandLine(ownArgs, argc, argv)) {
    return ExitUsage;
  }
  std::optional<OutputPaths> outputs = requestedOutputs();
  if (!outputs) {
    return ExitUsage;
  }

  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diags(sourceMgr, llvm::errs());
  if (!configureDiagnostics(diags)) {
    return ExitUsage;
  }
  if (!defaultArchWhy.empty()) {
    diags.remarkWithoutLocation(defaultArchWhy);
  }
  llvm::sys::SetInterruptFunction(forwardInterrupt);

  if (inputFile != "-" && llvm::sys::fs::is_directory(inputFile.getValue())) {
    diags.fatalWithoutLocation("cannot read '" + inputFile +
                               "': it is a directory, not a .stencil file");
    return ExitInputError;
  }
  std::vector<std::string> dependencies;
  std::vector<CSourcePoint> lineOrigins;
  std::unique_ptr<llvm::MemoryBuffer> input =
      readInput(argv[0], compilerArgs, dependencies, lineOrigins, diags);
  if (!input) {
    diags.finish();
    return ExitInputError;
  }
  // The outputs must not replace what the input was made of: a C file's
  // own "heat.h" is where `stencilc heat.c` would put its header.
  if (std::optional<std::string> problem = overwritesInput(*outputs, dependencies)) {
    diags.fatalWithoutLocation(*problem);
    diags.finish();
    return ExitInputError;
  }
  if (emit != Emit::Stencil) { // which prints the input as it is
    input = normaliseLineEnds(std::move(input));
  }
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  // Diagnostics about a C input's translation point into the C file.
  pointIntoCSource(sourceMgr, id, lineOrigins, diags);
  int status = compile(sourceMgr, id, *outputs, dependencies, diags);
  diags.finish();
  return status;
}
