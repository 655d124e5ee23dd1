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
#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "stencilc/CFrontend.h"

namespace {

constexpr int ExitSuccess = 0;
constexpr int ExitInputError = 1;
constexpr int ExitUsage = 2;

void printHelp(llvm::raw_ostream &os) {
  os << "USAGE: stencilc-cfront <file.c|.cc|.cpp|.cxx> [-- <compiler flags>...]\n\n"
        "Prints the .stencil text of every loop nest marked '#pragma stencil'.\n"
        "Flags after '--' go to Clang (-I, -D, -std=...). Normally run by\n"
        "stencilc, which compiles the text to CUDA.\n";
}

bool isCSource(llvm::StringRef path) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  return extension == ".c" || extension == ".cc" || extension == ".cpp" || extension == ".cxx";
}

} // namespace

int main(int argc, char **argv) {
  std::string input;
  std::vector<std::string> compilerArgs;
  bool afterDashes = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (afterDashes) {
      compilerArgs.push_back(arg.str());
    } else if (arg == "--") {
      afterDashes = true;
    } else if (arg == "--help" || arg == "-help" || arg == "-h") {
      printHelp(llvm::outs());
      return ExitSuccess;
    } else if (arg == "--version") {
      llvm::outs() << "stencilc-cfront version " << STENCILC_VERSION << " (Clang "
                   << LLVM_VERSION_STRING << ")\n";
      return ExitSuccess;
    } else if (arg.starts_with("-")) {
      llvm::errs() << "stencilc-cfront: error: unknown option '" << arg
                   << "' (compiler flags go after '--')\n";
      return ExitUsage;
    } else if (!input.empty()) {
      llvm::errs() << "stencilc-cfront: error: more than one input file\n";
      return ExitUsage;
    } else {
      input = arg.str();
    }
  }
  if (input.empty()) {
    llvm::errs() << "stencilc-cfront: error: no input file (see --help)\n";
    return ExitUsage;
  }
  if (!isCSource(input)) {
    llvm::errs() << "stencilc-cfront: error: '" << input
                 << "' is not a C or C++ file (.c, .cc, .cpp, .cxx)\n";
    return ExitUsage;
  }

  stencilc::cfront::TranslateOptions options;
  options.sourcePath = input;
  options.compilerArgs = std::move(compilerArgs);
  options.resourceDir = STENCILC_CLANG_RESOURCE_DIR;
  std::vector<stencilc::cfront::TranslatedStencil> stencils;
  if (!stencilc::cfront::translateFile(options, stencils)) {
    return ExitInputError;
  }
  stencilc::cfront::printStencilText(stencils, input, llvm::outs());
  return ExitSuccess;
}
