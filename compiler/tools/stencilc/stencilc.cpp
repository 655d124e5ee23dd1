//===- stencilc.cpp - The stencilc driver ----------------------------------===//
//
// A straight list of stages, each followed by "dump if asked":
//   read file (a C/C++ file: translate it with stencilc-cfront) -> Lexer/Parser
//   (AST) -> Sema (StencilSpec) -> planning and code generation (Backend.h) ->
//   write outputs atomically.
// Exit status: 0 success, 1 an error in the input, 2 bad usage.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include "stencilc/Diagnostics.h"
#include "stencilc/Parser.h"
#include "stencilc/Pipeline.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/Sema.h"
#include "stencilc/Spec.h"
#include "stencilc/Target.h"

namespace cl = llvm::cl;
using namespace stencilc;

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
const std::string ArchHelp = "GPU architecture the kernels may use: " + archNames(" or ");
cl::opt<std::string> arch("arch", cl::desc(ArchHelp), cl::init(std::string(keyword(Arch::Sm80))),
                          cl::cat(category));
cl::opt<BackendRequest> backend(
    "backend", cl::desc("Which kernels to generate"), cl::init(BackendRequest::Auto),
    cl::values(clEnumValN(BackendRequest::Auto, "auto", "the compiler's choice per stencil"),
               clEnumValN(BackendRequest::Tensor, "tensor", "tensor-core kernels"),
               clEnumValN(BackendRequest::Simt, "simt", "CUDA-core kernels")),
    cl::cat(category));
cl::opt<bool> warningsAsErrors("Werror", cl::desc("Treat warnings as errors"), cl::cat(category));
/// The --plan-option names, those of one backend's plans or (`lastJoin`
/// before the last) all of them.
std::string planOptionNames(llvm::StringRef lastJoin, std::optional<BackendKind> backend) {
  std::vector<std::string_view> names;
  for (const PlanOptionInfo &o : PlanOptionTable) {
    if (!backend || o.appliesTo(*backend)) {
      names.push_back(o.name);
    }
  }
  return joinList(names, lastJoin);
}

/// The values a --plan-option takes: "an integer from 1 to 16".
std::string planOptionRange(const PlanOptionInfo &o) {
  return (o.powerOfTwo ? "a power of two" : "an integer") +
         fmt::format(" from {} to {}", o.min, o.max) +
         (o.multipleOf > 1 ? fmt::format(" and a multiple of {}", o.multipleOf) : std::string());
}

/// --plan-option's help: the names per backend, then a line per option.
std::string planOptionHelp() {
  std::string help = "Set a free parameter of the plans, for tuning: " +
                     planOptionNames(", ", BackendKind::Tensor) + " (tensor-core kernels); " +
                     planOptionNames(", ", BackendKind::Simt) +
                     " (CUDA-core kernels). Repeatable, or comma-separated";
  for (const PlanOptionInfo &o : PlanOptionTable) {
    help += fmt::format("\n  {:<12} {}: {}; {}", o.name,
                        o.backends == PlanOptionBackends::Both     ? "both"
                        : o.backends == PlanOptionBackends::Tensor ? "tensor"
                                                                   : "simt",
                        o.help, planOptionRange(o));
  }
  return help;
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
    auto [name, valueText] = llvm::StringRef(option).split('=');
    const PlanOptionInfo *knob = findPlanOption(name);
    if (!knob) {
      llvm::errs() << "stencilc: error: unknown --plan-option '" << name << "'; expected "
                   << planOptionNames(" or ", std::nullopt) << "\n";
      return false;
    }
    int value = 0;
    if (valueText.getAsInteger(10, value) || value < knob->min || value > knob->max ||
        value % knob->multipleOf != 0 || (knob->powerOfTwo && !llvm::isPowerOf2_32(value))) {
      llvm::errs() << "stencilc: error: --plan-option " << name << " must be "
                   << planOptionRange(*knob) << ", not '" << valueText << "'\n";
      return false;
    }
    options.plan.*knob->field = value;
    if (!llvm::is_contained(options.planOptionsGiven, name)) {
      options.planOptionsGiven.push_back(name.str());
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

/// Whether two output paths name one file: the same path once made absolute
/// and free of `.` and `..`, or the same existing file (links).
bool sameFile(llvm::StringRef a, llvm::StringRef b) {
  auto normal = [](llvm::StringRef path) {
    llvm::SmallString<256> full(path);
    llvm::sys::fs::make_absolute(full);
    llvm::sys::path::remove_dots(full, /*remove_dot_dot=*/true);
    return std::string(full);
  };
  bool equivalent = false;
  return normal(a) == normal(b) || (!llvm::sys::fs::equivalent(a, b, equivalent) && equivalent);
}

/// An output file and what it is to hold.
struct Output {
  std::string path;
  const std::string &contents;
};

/// Writes the outputs whole or not at all: each goes to a temporary file
/// beside it first, and only when every one of them is written are they
/// renamed into place, so a path that cannot be written (a missing
/// directory, say) leaves none of the others created or changed. Only a
/// rename that fails after all were written (the directories took the
/// temporaries, so this is rare) can leave an earlier output renamed.
bool writeAll(llvm::ArrayRef<Output> outputs, DiagnosticEngine &diags) {
  std::vector<llvm::sys::fs::TempFile> temps;
  auto fail = [&](const Output &output, std::error_code error) {
    diags.fatalWithoutLocation("cannot write '" + output.path + "': " + error.message());
    for (llvm::sys::fs::TempFile &temp : temps) {
      llvm::consumeError(temp.discard());
    }
    return false;
  };
  for (const Output &output : outputs) {
    llvm::Expected<llvm::sys::fs::TempFile> temp =
        llvm::sys::fs::TempFile::create(output.path + ".tmp-%%%%%%");
    if (!temp) {
      return fail(output, llvm::errorToErrorCode(temp.takeError()));
    }
    temps.push_back(std::move(*temp));
    llvm::raw_fd_ostream os(temps.back().FD, /*shouldClose=*/false);
    os << output.contents;
    os.flush();
    if (os.has_error()) {
      std::error_code error = os.error();
      os.clear_error();
      return fail(output, error);
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (llvm::Error error = temps[i].keep(outputs[i].path)) {
      temps.erase(temps.begin(), temps.begin() + i + 1);
      return fail(outputs[i], llvm::errorToErrorCode(std::move(error)));
    }
  }
  return true;
}

/// Where a run's artefacts go.
struct OutputPaths {
  std::string cudaPath;   ///< also names the header where --header does not
  std::string headerPath; ///< the .cu includes the header by its file name
  bool writesCuda = false;
  bool writesHeader = false;
};

/// The output paths from -o, --header and the input: -o, or the input's stem
/// in the current directory (standard input has none to offer, so -o is
/// needed to write files). `-o -` is stdout: the .cu, and a header file only
/// where --header names one (never one named "-.h"). Reports (on `errs`) the
/// choices that cannot work and returns nothing for them: -o FILE beside
/// --emit (which prints), --header -, an output that is the input, or a
/// header that is the .cu (`-o x.h`, --header naming the -o file). Needs
/// nothing of the input's text, so it runs before the input is read.
std::optional<OutputPaths> planOutputs(llvm::raw_ostream &errs) {
  auto refuse = [&](const llvm::Twine &message) {
    errs << "stencilc: error: " << message << "\n";
    return std::nullopt;
  };
  const bool toStdout = outputFile == "-";
  if (emit != Emit::None && !outputFile.empty() && !toStdout) {
    return refuse("--emit prints to standard output and writes no file; drop -o '" + outputFile +
                  "', or drop --emit to write it");
  }
  if (headerFile == "-") {
    return refuse("--header needs a file name (the .cu includes the header by it); "
                  "--emit=header prints the header on stdout");
  }
  if (inputFile == "-" && outputFile.empty() && emit == Emit::None) {
    return refuse("the input is standard input, which names no output: name it with -o FILE.cu "
                  "(or -o - for standard output)");
  }
  OutputPaths out;
  out.cudaPath = toStdout ? std::string() : std::string(outputFile);
  if (out.cudaPath.empty()) {
    // Standard input is "stdin" here, as it is "<stdin>" in diagnostics.
    out.cudaPath = (inputFile == "-" ? "stdin" : llvm::sys::path::stem(inputFile).str()) + ".cu";
  }
  out.headerPath = headerFile;
  if (out.headerPath.empty()) {
    llvm::SmallString<256> path(out.cudaPath);
    llvm::sys::path::replace_extension(path, ".h");
    out.headerPath = std::string(path);
  }
  out.writesCuda = emit == Emit::None && !toStdout;
  out.writesHeader = emit == Emit::None && (!toStdout || !headerFile.empty());
  for (const auto &[writes, path, option] :
       {std::tuple(out.writesCuda, out.cudaPath, "-o"),
        std::tuple(out.writesHeader, out.headerPath, "--header")}) {
    if (writes && inputFile != "-" && sameFile(inputFile, path)) {
      return refuse("the output '" + path + "' is the input file; name another with " + option);
    }
  }
  if (out.writesCuda && sameFile(out.cudaPath, out.headerPath)) {
    return refuse("the CUDA source and the header would both be '" + out.headerPath +
                  "'; name the source with -o FILE.cu, or the header with --header");
  }
  return out;
}

/// True for the C and C++ sources that stencilc-cfront translates.
bool isCSource(llvm::StringRef path) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  return extension == ".c" || extension == ".cc" || extension == ".cpp" || extension == ".cxx";
}

/// Runs stencilc-cfront, found beside this executable, on a C/C++ file and
/// returns its .stencil translation as a buffer named "FILE (as .stencil)".
/// Its diagnostics go straight to stderr; returns null after any error.
std::unique_ptr<llvm::MemoryBuffer> translateCSource(const char *argv0,
                                                     llvm::ArrayRef<std::string> compilerArgs,
                                                     DiagnosticEngine &diags) {
  static int addressInThisExecutable;
  std::string self = llvm::sys::fs::getMainExecutable(argv0, &addressInThisExecutable);
  llvm::SmallString<256> cfront(llvm::sys::path::parent_path(self));
  llvm::sys::path::append(cfront, "stencilc-cfront");
  if (!llvm::sys::fs::can_execute(cfront)) {
    diags.fatalWithoutLocation("cannot translate '" + inputFile +
                               "': the C front end is not installed (no " + cfront +
                               "); build stencilc with Clang 19 and "
                               "-DSTENCILC_BUILD_CFRONT=ON");
    return nullptr;
  }
  llvm::SmallString<256> translation;
  if (std::error_code error =
          llvm::sys::fs::createTemporaryFile("stencilc-cfront", "stencil", translation)) {
    diags.fatalWithoutLocation("cannot create a temporary file: " + error.message());
    return nullptr;
  }
  llvm::FileRemover removeTranslation(translation);
  std::vector<llvm::StringRef> args = {cfront, inputFile, "--"};
  args.insert(args.end(), compilerArgs.begin(), compilerArgs.end());
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(translation),
                                                std::nullopt};
  std::string failure;
  int status = llvm::sys::ExecuteAndWait(cfront, args, std::nullopt, redirects, 0, 0, &failure);
  if (status == ExitInputError || status == ExitUsage) {
    return nullptr; // cfront has printed the diagnostics
  }
  if (status != ExitSuccess) { // it did not run, or it crashed
    diags.fatalWithoutLocation(
        "stencilc-cfront failed on '" + inputFile +
        "': " + (failure.empty() ? "exit status " + std::to_string(status) : failure));
    return nullptr;
  }
  auto text = llvm::MemoryBuffer::getFile(translation, /*IsText=*/true);
  if (!text) {
    diags.fatalWithoutLocation("cannot read the translation of '" + inputFile +
                               "': " + text.getError().message());
    return nullptr;
  }
  return llvm::MemoryBuffer::getMemBufferCopy((*text)->getBuffer(), inputFile + " (as .stencil)");
}

/// Runs the stages on the loaded buffer; returns the exit status.
int compile(llvm::SourceMgr &sourceMgr, unsigned bufferId, const OutputPaths &outputs,
            DiagnosticEngine &diags) {
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
    for (size_t i = 0; i < specs.size(); ++i) {
      if (i) {
        llvm::outs() << "\n";
      }
      printSpec(specs[i], llvm::outs());
    }
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
  std::vector<Output> files;
  if (outputs.writesHeader) {
    files.push_back({outputs.headerPath, artefacts.header});
  }
  if (outputs.writesCuda) {
    files.push_back({outputs.cudaPath, artefacts.cuda});
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

} // namespace

int main(int argc, char **argv) {
  hideForeignOptions();
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter(printVersion);
  // Arguments after `--` are compiler flags for a C/C++ input (-I, -D, ...).
  int ownArgs = static_cast<int>(std::find(argv, argv + argc, llvm::StringRef("--")) - argv);
  std::vector<std::string> compilerArgs(argv + std::min(ownArgs + 1, argc), argv + argc);
  std::string usageErrors;
  llvm::raw_string_ostream usageStream(usageErrors);
  if (!cl::ParseCommandLineOptions(ownArgs, argv,
                                   "stencilc: compiles .stencil files, and C/C++ loop "
                                   "nests marked '#pragma stencil', to CUDA\n",
                                   &usageStream)) {
    llvm::errs() << usageErrors;
    return ExitUsage;
  }
  if (inputFile.empty()) {
    llvm::errs() << "stencilc: error: no input file (see --help)\n";
    return ExitUsage;
  }
  if (std::optional<Arch> target = parseArch(arch.getValue())) {
    planKnobs.plan.target = *target;
  } else {
    llvm::errs() << "stencilc: error: unknown --arch '" << arch << "'; expected "
                 << archNames(" or ") << "\n";
    return ExitUsage;
  }
  if (!applyPlanOptions(planKnobs)) {
    return ExitUsage;
  }

  if (ownArgs < argc && !isCSource(inputFile)) {
    llvm::errs() << "stencilc: error: arguments after '--' are compiler flags for a C "
                    "or C++ input (.c, .cc, .cpp, .cxx), not for '"
                 << inputFile << "'\n";
    return ExitUsage;
  }

  std::optional<OutputPaths> outputs = planOutputs(llvm::errs());
  if (!outputs) {
    return ExitUsage;
  }

  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diags(sourceMgr, llvm::errs());
  diags.setWarningsAsErrors(warningsAsErrors);

  if (inputFile != "-" && llvm::sys::fs::is_directory(inputFile.getValue())) {
    diags.fatalWithoutLocation("cannot read '" + inputFile +
                               "': it is a directory, not a .stencil file");
    return ExitInputError;
  }
  std::unique_ptr<llvm::MemoryBuffer> input;
  if (isCSource(inputFile)) {
    input = translateCSource(argv[0], compilerArgs, diags);
    if (!input) {
      diags.finish();
      return ExitInputError;
    }
  } else {
    auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile, /*IsText=*/true);
    if (!buffer) {
      diags.fatalWithoutLocation("cannot read '" + inputFile + "': " + buffer.getError().message());
      return ExitInputError;
    }
    input = std::move(*buffer);
  }
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  int status = compile(sourceMgr, id, *outputs, diags);
  diags.finish();
  return status;
}
