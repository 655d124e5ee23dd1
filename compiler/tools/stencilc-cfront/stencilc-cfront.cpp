//===- stencilc-cfront.cpp - C/C++ loop nests to .stencil text -------------===//
//
//   stencilc-cfront FILE.c [-- COMPILER FLAGS...]
//
// Prints the .stencil translation of every `#pragma stencil` loop nest of
// FILE on stdout; diagnostics go to stderr. The stencilc driver runs this
// tool for .c/.cc/.cpp/.cxx inputs (it cannot link Clang itself: see
// CFrontend.h). Exit status: 0 success, 1 an error in the input, 2 bad usage.
//
//===----------------------------------------------------------------------===//
#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "stencilc/CFrontend.h"
#include "stencilc/PrintableText.h"

namespace {

constexpr int ExitSuccess = 0;
constexpr int ExitInputError = 1;
constexpr int ExitUsage = 2;

void printHelp(llvm::raw_ostream &os) {
  os << "USAGE: stencilc-cfront [--Werror] [--deps <file>] [--locations <file>]\n"
        "                       <file.c|.cc|.cpp|.cxx>\n"
        "                       [-- <compiler flags>...]\n\n"
        "Prints the .stencil text of every loop nest marked '#pragma stencil'.\n"
        "Flags after '--' go to Clang (-I, -D, -std=...). --Werror makes warnings\n"
        "errors; --deps writes the files read (the source and its #includes), each\n"
        "ended by a NUL byte; --locations writes, for each line of the text that\n"
        "comes from the source, its line number, then the file, line and column\n"
        "in the source it comes from, each field ended by a NUL byte. Normally run\n"
        "by stencilc, which compiles the text to CUDA and reports through these\n"
        "locations.\n";
}

bool isCSource(llvm::StringRef path) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  return extension == ".c" || extension == ".cc" || extension == ".cpp" || extension == ".cxx";
}

/// Writes `contents` to `path` (nothing where `path` is empty); false after
/// reporting an error.
bool writeFile(const std::string &path, const std::string &contents) {
  if (path.empty()) {
    return true;
  }
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  os << contents;
  os.close();
  if (error || os.has_error()) {
    llvm::errs() << "stencilc-cfront: error: cannot write '" << path
                 << "': " << (error ? error : os.error()).message() << "\n";
    os.clear_error();
    return false;
  }
  return true;
}

/// The command line: the input, the files to write beside the text, and
/// Clang's flags (after `--`).
struct Arguments {
  std::string input;
  std::string depsFile;
  std::string locationsFile;
  bool warningsAsErrors = false;
  std::vector<std::string> compilerArgs;
};

/// Reads the command line into `args`; an exit status where the run ends
/// here (--help, --version, a usage error, reported), nothing otherwise.
std::optional<int> parseArguments(int argc, char **argv, Arguments &args) {
  bool afterDashes = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (afterDashes) {
      args.compilerArgs.push_back(arg.str());
    } else if (arg == "--") {
      afterDashes = true;
    } else if (arg == "--help" || arg == "-help" || arg == "-h") {
      printHelp(llvm::outs());
      return ExitSuccess;
    } else if (arg == "--version") {
      llvm::outs() << "stencilc-cfront version " << STENCILC_VERSION << " (Clang "
                   << LLVM_VERSION_STRING << ")\n";
      return ExitSuccess;
    } else if (arg == "--Werror") {
      args.warningsAsErrors = true;
    } else if (arg == "--deps" || arg == "--locations") {
      if (i + 1 == argc) {
        llvm::errs() << "stencilc-cfront: error: " << arg << " needs a file name\n";
        return ExitUsage;
      }
      (arg == "--deps" ? args.depsFile : args.locationsFile) = argv[++i];
    } else if (arg.starts_with("-")) {
      llvm::errs() << "stencilc-cfront: error: unknown option '" << arg
                   << "' (compiler flags go after '--')\n";
      return ExitUsage;
    } else if (!args.input.empty()) {
      llvm::errs() << "stencilc-cfront: error: more than one input file\n";
      return ExitUsage;
    } else {
      args.input = arg.str();
    }
  }
  if (args.input.empty()) {
    llvm::errs() << "stencilc-cfront: error: no input file (see --help)\n";
    return ExitUsage;
  }
  if (!isCSource(args.input)) {
    llvm::errs() << "stencilc-cfront: error: '" << args.input
                 << "' is not a C or C++ file (.c, .cc, .cpp, .cxx)\n";
    return ExitUsage;
  }
  return std::nullopt;
}

/// The --locations records: for each line of the text that comes from the
/// source, its number, then the file, line and column there, each field
/// ended by a NUL byte (stencilc's readLineOrigins reads them).
std::string locationRecords(const std::vector<stencilc::cfront::SourcePoint> &origins) {
  std::string locations;
  for (size_t line = 0; line < origins.size(); ++line) {
    if (!origins[line].file.empty()) {
      locations += std::to_string(line + 1) + '\0' + origins[line].file + '\0' +
                   std::to_string(origins[line].line) + '\0' +
                   std::to_string(origins[line].column) + '\0';
    }
  }
  return locations;
}

} // namespace

int main(int argc, char **argv) {
  Arguments args;
  if (std::optional<int> status = parseArguments(argc, argv, args)) {
    return *status;
  }
  const std::string &input = args.input;

  // One message for a file that cannot be read, not three of Clang's driver.
  if (auto file = llvm::MemoryBuffer::getFile(input); !file) {
    llvm::errs() << "stencilc-cfront: error: cannot read '" << stencilc::printableText(input)
                 << "': " << file.getError().message() << "\n";
    return ExitInputError;
  }

  stencilc::cfront::TranslateOptions options;
  options.sourcePath = input;
  options.compilerArgs = std::move(args.compilerArgs);
  options.resourceDir = STENCILC_CLANG_RESOURCE_DIR;
  options.warningsAsErrors = args.warningsAsErrors;
  std::vector<std::string> dependencies;
  if (!args.depsFile.empty()) {
    options.dependencies = &dependencies;
  }
  std::vector<stencilc::cfront::TranslatedStencil> stencils;
  if (!stencilc::cfront::translateFile(options, stencils)) {
    return ExitInputError;
  }
  std::string text;
  llvm::raw_string_ostream textStream(text);
  std::vector<stencilc::cfront::SourcePoint> origins;
  stencilc::cfront::printStencilText(stencils, input, textStream, &origins);
  std::string deps;
  for (const std::string &file : dependencies) {
    deps += file + '\0';
  }
  if (!writeFile(args.depsFile, deps) || !writeFile(args.locationsFile, locationRecords(origins))) {
    return ExitInputError;
  }
  llvm::outs() << text;
  return ExitSuccess;
}
