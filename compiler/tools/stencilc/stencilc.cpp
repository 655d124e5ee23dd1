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
#include <atomic>
#include <csignal>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include "stencilc/Diagnostics.h"
#include "stencilc/Parser.h"
#include "stencilc/Pipeline.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/PrintableText.h"
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
cl::opt<unsigned> errorLimit("error-limit",
                             cl::desc("Print at most <n> errors, then only their count (0: all)"),
                             cl::init(DiagnosticEngine::DefaultErrorLimit), cl::value_desc("n"),
                             cl::cat(category));
cl::opt<unsigned> noteLimit("note-limit",
                            cl::desc("Print at most <n> warnings and notes of their own, then "
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

/// True for an existing path that is no regular file and no directory (a
/// device such as /dev/null, a FIFO, a socket, or a link to one): an
/// output there is written straight into it, never renamed over it.
bool isSpecialFile(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status)) {
    return false;
  }
  return status.type() != llvm::sys::fs::file_type::regular_file &&
         status.type() != llvm::sys::fs::file_type::directory_file;
}

/// The file a regular output is renamed over: the path itself, or, for a
/// symbolic link, the file it names (the link stays a link).
std::string renameTarget(llvm::StringRef path) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::is_symlink_file(path) && !llvm::sys::fs::real_path(path, real)) {
    return std::string(real);
  }
  return path.str();
}

/// Writes the outputs whole or not at all: each goes to a temporary file
/// beside it first, and only when every one of them is written are they
/// renamed into place, so a path that cannot be written (a missing
/// directory, say) leaves none of the others created or changed. Only a
/// rename that fails after all were written (the directories took the
/// temporaries, so this is rare) can leave an earlier output renamed. An
/// output that is a device, FIFO or socket (isSpecialFile) is written into
/// directly, after the temporaries and before the renames. An output whose
/// file already has its contents is not renamed over (its temporary is
/// removed), so its time stamp stays.
bool writeAll(llvm::ArrayRef<Output> outputs, DiagnosticEngine &diags) {
  std::vector<llvm::sys::fs::TempFile> temps;
  std::vector<std::string> targets;
  auto fail = [&](const Output &output, std::error_code error) {
    diags.fatalWithoutLocation("cannot write '" + output.path + "': " + error.message());
    for (llvm::sys::fs::TempFile &temp : temps) {
      llvm::consumeError(temp.discard());
    }
    return false;
  };
  auto write = [&](const Output &output, llvm::raw_fd_ostream &os) {
    os << output.contents;
    os.flush();
    std::error_code error = os.error();
    os.clear_error();
    return error;
  };
  std::vector<const Output *> special;
  std::vector<const Output *> regular;
  for (const Output &output : outputs) {
    if (isSpecialFile(output.path)) {
      special.push_back(&output);
      continue;
    }
    regular.push_back(&output);
    targets.push_back(renameTarget(output.path));
    llvm::Expected<llvm::sys::fs::TempFile> temp =
        llvm::sys::fs::TempFile::create(targets.back() + ".tmp-%%%%%%");
    if (!temp) {
      return fail(output, llvm::errorToErrorCode(temp.takeError()));
    }
    temps.push_back(std::move(*temp));
    llvm::raw_fd_ostream os(temps.back().FD, /*shouldClose=*/false);
    if (std::error_code error = write(output, os)) {
      return fail(output, error);
    }
  }
  for (const Output *output : special) {
    std::error_code error;
    llvm::raw_fd_ostream os(output->path, error, llvm::sys::fs::CD_OpenExisting);
    if (error || (error = write(*output, os))) {
      return fail(*output, error);
    }
  }
  // A file that already holds exactly these bytes is left alone, time stamp
  // included, so a build sees nothing new downstream (a comment-only edit).
  auto unchanged = [](const std::string &target, const std::string &contents) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> old =
        llvm::MemoryBuffer::getFile(target, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    return old && (*old)->getBuffer() == contents;
  };
  for (size_t i = 0; i < regular.size(); ++i) {
    if (unchanged(targets[i], regular[i]->contents)) {
      llvm::consumeError(temps[i].discard());
      continue;
    }
    if (llvm::Error error = temps[i].keep(targets[i])) {
      temps.erase(temps.begin(), temps.begin() + i + 1);
      return fail(*regular[i], llvm::errorToErrorCode(std::move(error)));
    }
  }
  return true;
}

/// Where a run's artefacts go.
struct OutputPaths {
  std::string cudaPath;   ///< also names the header where --header does not
  std::string headerPath; ///< the .cu includes the header by its file name
  std::string depfilePath;
  bool writesCuda = false;
  bool writesHeader = false;
  bool writesDepfile = false;
};

/// Why a header's file name cannot follow `#include "` in the .cu, or
/// nothing when it can.
std::optional<std::string> unspellableInInclude(llvm::StringRef name) {
  for (char c : name) {
    if (c == '"' || c == '\\' || isControlByte(c)) {
      return "it holds '" + printableText(llvm::StringRef(&c, 1)) + "'";
    }
  }
  return std::nullopt;
}

/// The output paths from -o, --header and the input: -o, or the input's stem
/// in the current directory (standard input has none to offer, so -o is
/// needed to write files). `-o -` is stdout: the .cu, and a header file only
/// where --header names one (never one named "-.h"); so is `-o` naming a
/// device, FIFO or socket (isSpecialFile): no header is made up beside it.
/// Reports (on `errs`) the choices that cannot work and returns nothing for
/// them: -o FILE beside --emit (which prints), --header -, an output that is
/// a directory or the input, a header that is the .cu (`-o x.h`, --header
/// naming the -o file), a header name that an #include cannot spell, -MD
/// without an output file. Needs nothing of the input's text, so it runs
/// before the input is read, and before anything is written.
std::optional<OutputPaths> planOutputs(llvm::raw_ostream &errs) {
  auto refuse = [&](const llvm::Twine &message) {
    errs << "stencilc: error: " << printableText(message.str()) << "\n";
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
  // Standard input is "stdin" here, as it is "<stdin>" in diagnostics.
  const std::string stemName =
      (inputFile == "-" ? "stdin" : llvm::sys::path::stem(inputFile).str()) + ".cu";
  const bool toStream = toStdout || (!outputFile.empty() && isSpecialFile(outputFile));
  OutputPaths out;
  out.cudaPath = toStdout || outputFile.empty() ? stemName : std::string(outputFile);
  out.headerPath = headerFile;
  if (out.headerPath.empty()) {
    llvm::SmallString<256> path(toStream ? stemName : out.cudaPath);
    llvm::sys::path::replace_extension(path, ".h");
    out.headerPath = std::string(path);
  }
  out.writesCuda = emit == Emit::None && !toStdout;
  out.writesHeader = emit == Emit::None && (!toStream || !headerFile.empty());
  out.writesDepfile = emit == Emit::None && (writeDepfile || !depfileName.empty());
  if (out.writesDepfile) {
    if (!out.writesCuda && !out.writesHeader) {
      return refuse("-MD needs an output file to name in the depfile: add -o FILE.cu, or "
                    "--header FILE.h");
    }
    out.depfilePath = depfileName;
    if (out.depfilePath.empty()) {
      llvm::SmallString<256> path(out.writesCuda && !toStream ? out.cudaPath : out.headerPath);
      llvm::sys::path::replace_extension(path, ".d");
      out.depfilePath = std::string(path);
    }
  }
  for (const auto &[writes, path, option] :
       {std::tuple(out.writesCuda, out.cudaPath, "-o"),
        std::tuple(out.writesHeader, out.headerPath, "--header"),
        std::tuple(out.writesDepfile, out.depfilePath, "-MF")}) {
    if (!writes) {
      continue;
    }
    llvm::StringRef name = llvm::sys::path::filename(path);
    if (llvm::sys::fs::is_directory(path) || name.empty() || name == "." || name == ".." ||
        llvm::sys::path::is_separator(path.back())) {
      return refuse("the output '" + path + "' is a directory; name a file with " + option +
                    ", as in " + option + " DIR/NAME");
    }
    if (inputFile != "-" && sameFile(inputFile, path)) {
      return refuse("the output '" + path + "' is the input file; name another with " + option);
    }
  }
  if (out.writesCuda && sameFile(out.cudaPath, out.headerPath)) {
    return refuse("the CUDA source and the header would both be '" + out.headerPath +
                  "'; name the source with -o FILE.cu, or the header with --header");
  }
  if (out.writesDepfile &&
      (sameFile(out.depfilePath, out.headerPath) || sameFile(out.depfilePath, out.cudaPath))) {
    return refuse("the depfile would be '" + out.depfilePath +
                  "', an output itself; name it "
                  "with -MF FILE.d");
  }
  // The .cu includes the header by its file name, between quotes.
  const std::string include = llvm::sys::path::filename(out.headerPath).str();
  if (emit == Emit::None || emit == Emit::Cuda) {
    if (std::optional<std::string> why = unspellableInInclude(include)) {
      return refuse("the header's name '" + include + "' cannot be written in the .cu's " +
                    "#include \"...\" line: " + *why + "; name the header with --header");
    }
  }
  return out;
}

/// True for the C and C++ sources that stencilc-cfront translates.
bool isCSource(llvm::StringRef path) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  return extension == ".c" || extension == ".cc" || extension == ".cpp" || extension == ".cxx";
}

/// The input limit of --max-input-size, in bytes.
uint64_t inputLimit() { return static_cast<uint64_t>(maxInputSize) << 20; }

/// Reads a whole file (or standard input, "-") of at most inputLimit()
/// bytes into a buffer named `name`; an endless or huge input (/dev/zero, a
/// pipe that never closes) is cut off there with an error, never read until
/// memory runs out. Reports as "cannot read WHAT: ...".
std::unique_ptr<llvm::MemoryBuffer> readLimited(llvm::StringRef path, llvm::StringRef name,
                                                const llvm::Twine &what, DiagnosticEngine &diags) {
  auto refuse = [&](const llvm::Twine &why) {
    diags.fatalWithoutLocation("cannot read " + what + ": " + why);
    return nullptr;
  };
  auto tooLarge = [&]() {
    return refuse("it is larger than " + llvm::Twine(maxInputSize) +
                  " MiB, the input limit; --max-input-size=MiB raises it");
  };
  int fd = 0;
  if (path != "-") {
    if (std::error_code error = llvm::sys::fs::openFileForRead(path, fd)) {
      return refuse(error.message());
    }
  }
  auto closeFile = llvm::make_scope_exit([&] {
    if (path != "-") {
      llvm::sys::Process::SafelyCloseFileDescriptor(fd);
    }
  });
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(fd, status) &&
      status.type() == llvm::sys::fs::file_type::regular_file && status.getSize() > inputLimit()) {
    return tooLarge();
  }
  std::string text;
  constexpr size_t Chunk = size_t(1) << 16;
  while (true) {
    size_t size = text.size();
    text.resize(size + Chunk);
    llvm::Expected<size_t> read =
        llvm::sys::fs::readNativeFile(fd, llvm::MutableArrayRef<char>(&text[size], Chunk));
    if (!read) {
      return refuse(llvm::toString(read.takeError()));
    }
    text.resize(size + *read);
    if (*read == 0) {
      break;
    }
    if (text.size() > inputLimit()) {
      return tooLarge();
    }
  }
  return llvm::MemoryBuffer::getMemBufferCopy(text, name);
}

/// The process id of the running stencilc-cfront, for forwardInterrupt.
std::atomic<llvm::sys::procid_t> runningChild{0};

/// Run by LLVM's signal handler on SIGINT, SIGTERM and the like, after it
/// has removed the temporary files: stops the child, then ends stencilc by
/// SIGTERM.
void forwardInterrupt() {
  if (llvm::sys::procid_t child = runningChild.load()) {
    ::kill(child, SIGTERM);
  }
  ::signal(SIGTERM, SIG_DFL);
  ::raise(SIGTERM);
}

/// A temporary file only this user can read (mode 0600), removed when it
/// goes out of scope and on a fatal or interrupting signal.
struct PrivateTempFile {
  llvm::SmallString<128> path;
  std::error_code error;

  PrivateTempFile(llvm::StringRef prefix, llvm::StringRef suffix) {
    int fd = -1;
    // createTemporaryFile would make it readable by all (0666 less umask).
    llvm::SmallString<128> model;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, model);
    llvm::sys::path::append(model, prefix + "-%%%%%%%%." + suffix);
    error = llvm::sys::fs::createUniqueFile(model, fd, path, llvm::sys::fs::OF_None,
                                            llvm::sys::fs::owner_read | llvm::sys::fs::owner_write);
    if (!error) {
      llvm::sys::Process::SafelyCloseFileDescriptor(fd);
      llvm::sys::RemoveFileOnSignal(path);
    }
  }
  ~PrivateTempFile() {
    if (!error) {
      llvm::sys::fs::remove(path);
      llvm::sys::DontRemoveFileOnSignal(path);
    }
  }
};

/// Runs stencilc-cfront, found beside this executable, on a C/C++ file and
/// returns its .stencil translation as a buffer named "FILE (as .stencil)",
/// and in `dependencies` the files it read (the input and its #includes,
/// system headers left out). Its diagnostics are passed on to stderr;
/// returns null after any error.
std::unique_ptr<llvm::MemoryBuffer> translateCSource(const char *argv0,
                                                     llvm::ArrayRef<std::string> compilerArgs,
                                                     std::vector<std::string> &dependencies,
                                                     DiagnosticEngine &diags) {
  // Without /proc, LLVM would look for a bare argv[0] in PATH, and could
  // run a stencilc-cfront of another installation found there.
  if (!llvm::sys::fs::exists("/proc/self/exe") &&
      !llvm::StringRef(argv0).contains(llvm::sys::path::get_separator())) {
    diags.fatalWithoutLocation(
        "cannot translate '" + inputFile + "': cannot tell where this stencilc is installed (no " +
        "/proc/self/exe), so cannot find the C front end beside it; run stencilc by its path");
    return nullptr;
  }
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
  // The input is checked here so that a missing file is one message, and
  // an endless one (a FIFO, a device) never reaches Clang.
  llvm::sys::fs::file_status source;
  int fd = -1;
  if (std::error_code error = llvm::sys::fs::openFileForRead(inputFile, fd)) {
    diags.fatalWithoutLocation("cannot read '" + inputFile + "': " + error.message());
    return nullptr;
  }
  std::error_code statusError = llvm::sys::fs::status(fd, source);
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  if (statusError || source.type() != llvm::sys::fs::file_type::regular_file) {
    diags.fatalWithoutLocation("cannot read '" + inputFile + "': it is not a regular file");
    return nullptr;
  }
  if (source.getSize() > inputLimit()) {
    diags.fatalWithoutLocation("cannot read '" + inputFile + "': it is larger than " +
                               llvm::Twine(maxInputSize) +
                               " MiB, the input limit; --max-input-size=MiB raises it");
    return nullptr;
  }

  PrivateTempFile translation("stencilc-cfront", "stencil");
  PrivateTempFile errors("stencilc-cfront", "err");
  PrivateTempFile depends("stencilc-cfront", "deps");
  for (const PrivateTempFile *temp : {&translation, &errors, &depends}) {
    if (temp->error) {
      diags.fatalWithoutLocation("cannot create a temporary file: " + temp->error.message());
      return nullptr;
    }
  }
  std::vector<llvm::StringRef> args = {cfront, inputFile, "--deps", depends.path};
  if (warningsAsErrors) {
    args.push_back("--Werror");
  }
  args.push_back("--");
  if (llvm::errs().has_colors()) {
    args.push_back("-fcolor-diagnostics"); // its stderr is a file
  }
  args.insert(args.end(), compilerArgs.begin(), compilerArgs.end());
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(translation.path), llvm::StringRef(errors.path)};
  std::string failure;
  bool notStarted = false;
  llvm::sys::ProcessInfo child =
      llvm::sys::ExecuteNoWait(cfront, args, std::nullopt, redirects, 0, &failure, &notStarted);
  int status = -1;
  if (!notStarted) {
    runningChild = child.Pid;
    status = llvm::sys::Wait(child, std::nullopt, &failure).ReturnCode;
    runningChild = 0;
  }
  if (auto printed = llvm::MemoryBuffer::getFile(errors.path, /*IsText=*/true)) {
    llvm::errs() << (*printed)->getBuffer();
    if (!(*printed)->getBuffer().empty() && (status == ExitInputError || status == ExitUsage)) {
      return nullptr; // cfront has printed the diagnostics
    }
  }
  if (status != ExitSuccess) { // it did not run, crashed, or failed without a word
    std::string what = !failure.empty() ? failure : "exit status " + std::to_string(status);
    if (status == ExitInputError || status == ExitUsage) {
      what += " without a diagnostic";
    }
    diags.fatalWithoutLocation("stencilc-cfront failed on '" + inputFile + "': " + what);
    return nullptr;
  }
  if (auto list = llvm::MemoryBuffer::getFile(depends.path)) {
    llvm::SmallVector<llvm::StringRef> files;
    (*list)->getBuffer().split(files, '\0', -1, /*KeepEmpty=*/false);
    dependencies.assign(files.begin(), files.end());
  }
  return readLimited(translation.path, inputFile + " (as .stencil)",
                     "the translation of '" + inputFile + "'", diags);
}

/// The depfile for make and Ninja, `TARGET: FILE...`, each path escaped as
/// make reads it; nothing, after an error, for a path no depfile can hold.
std::optional<std::string> depfileText(llvm::StringRef target,
                                       llvm::ArrayRef<std::string> dependencies,
                                       DiagnosticEngine &diags) {
  auto escaped = [&](llvm::StringRef path) -> std::optional<std::string> {
    std::string text;
    for (char c : path) {
      if (c == '\n' || c == '\r') {
        diags.fatalWithoutLocation("cannot write the depfile: the path '" + path +
                                   "' holds a line break");
        return std::nullopt;
      }
      if (c == ' ' || c == '#') {
        text.push_back('\\');
      } else if (c == '$') {
        text.push_back('$');
      }
      text.push_back(c);
    }
    return text;
  };
  std::optional<std::string> text = escaped(target);
  if (!text) {
    return std::nullopt;
  }
  *text += ":";
  for (const std::string &dependency : dependencies) {
    std::optional<std::string> path = escaped(dependency);
    if (!path) {
      return std::nullopt;
    }
    *text += " \\\n  " + *path;
  }
  return *text + "\n";
}

/// Replaces every carriage return that does not start a CRLF with a line
/// feed, so that a file with old Mac line endings (CR only) is numbered by
/// lines like any other; returns the buffer unchanged when it has none.
std::unique_ptr<llvm::MemoryBuffer> normaliseLineEnds(std::unique_ptr<llvm::MemoryBuffer> buffer) {
  llvm::StringRef text = buffer->getBuffer();
  bool loneCR = false;
  for (size_t at = text.find('\r'); at != llvm::StringRef::npos && !loneCR;
       at = text.find('\r', at + 1)) {
    loneCR = at + 1 == text.size() || text[at + 1] != '\n';
  }
  if (!loneCR) {
    return buffer;
  }
  std::string copy = text.str();
  for (size_t i = 0; i < copy.size(); ++i) {
    if (copy[i] == '\r' && (i + 1 == copy.size() || copy[i + 1] != '\n')) {
      copy[i] = '\n';
    }
  }
  return llvm::MemoryBuffer::getMemBufferCopy(copy, buffer->getBufferIdentifier());
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
  diags.setErrorLimit(errorLimit);
  diags.setNoteLimit(noteLimit);
  llvm::sys::SetInterruptFunction(forwardInterrupt);

  if (inputFile != "-" && llvm::sys::fs::is_directory(inputFile.getValue())) {
    diags.fatalWithoutLocation("cannot read '" + inputFile +
                               "': it is a directory, not a .stencil file");
    return ExitInputError;
  }
  std::unique_ptr<llvm::MemoryBuffer> input;
  std::vector<std::string> dependencies;
  if (isCSource(inputFile)) {
    input = translateCSource(argv[0], compilerArgs, dependencies, diags);
  } else {
    // Standard input is "<stdin>" in diagnostics.
    input = readLimited(inputFile, inputFile == "-" ? "<stdin>" : inputFile.getValue(),
                        "'" + inputFile + "'", diags);
    if (inputFile != "-") {
      dependencies.push_back(inputFile);
    }
  }
  if (!input) {
    diags.finish();
    return ExitInputError;
  }
  if (emit != Emit::Stencil) { // which prints the input as it is
    input = normaliseLineEnds(std::move(input));
  }
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  int status = compile(sourceMgr, id, *outputs, dependencies, diags);
  diags.finish();
  return status;
}
