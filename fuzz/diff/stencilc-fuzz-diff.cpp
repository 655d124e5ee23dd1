//===- stencilc-fuzz-diff.cpp - Differential fuzzers of the two front ends ===//
//
//   stencilc-fuzz-diff cfront [--seconds N] [--batches N] [--batch-size N]
//                             [--seed S] [--findings DIR] [--minimise-limit N]
//   stencilc-fuzz-diff check FILE.c...
//   stencilc-fuzz-diff generate [--seed S] [--batch-size N]
//   stencilc-fuzz-diff harness
//   stencilc-fuzz-diff fields [--seconds N] [--count N] [--seed S] [--findings DIR]
//   stencilc-fuzz-diff fields-generate [--seed S] [--count N]
//   common: [--cc CC] [--cfront PATH] [--work DIR]
//
// `cfront` generates loop nests and holds stencilc's C front end to the C
// program (CDiff.h); `check` checks C files written by it (a finding's lit
// test); `generate` prints one batch (`fields-generate` stencils), and
// `harness` the header of helpers a batch includes; `fields` holds the .stencil
// front end to an interpretation of the text of its own (FieldsDiff.h). Exit status 1 on any
// disagreement; docs/robustness.md has the details and the runs.
//
//===----------------------------------------------------------------------===//
#include <cstdlib>
#include <string>
#include <vector>

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include "CFuzz.h"
#include "FieldsDiff.h"
#include "FieldsStencil.h"

using namespace stencilc::fuzzdiff;

namespace {

struct Arguments {
  std::string command;
  std::vector<std::string> files;
  CFuzzOptions c;
  FieldsOptions fields;
  bool ok = true;
};

bool parseNumber(const std::string &text, double &value) {
  char *end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0' && value >= 0;
}

/// One `--name VALUE` option into `args`; false where it is unknown.
bool parseOption(const std::string &name, const std::string &value, Arguments &args) {
  double number = 0;
  bool numeric = parseNumber(value, number);
  if (name == "--cc" || name == "--cfront" || name == "--work" || name == "--findings") {
    std::string &slot = name == "--cc"       ? args.c.tools.cc
                        : name == "--cfront" ? args.c.tools.cfront
                        : name == "--work"   ? args.c.tools.workDir
                                             : args.c.findingsDir;
    slot = value;
    args.fields.findingsDir = args.c.findingsDir;
    return true;
  }
  if (!numeric) {
    return false;
  }
  if (name == "--seconds") {
    args.c.seconds = args.fields.seconds = number;
  } else if (name == "--batches") {
    args.c.batches = static_cast<uint64_t>(number);
  } else if (name == "--batch-size") {
    args.c.batchSize = static_cast<int>(number);
  } else if (name == "--seed") {
    args.c.seed = args.fields.seed = static_cast<uint64_t>(number);
  } else if (name == "--minimise-limit") {
    args.c.minimiseLimit = static_cast<int>(number);
  } else if (name == "--count") {
    args.fields.count = static_cast<uint64_t>(number);
  } else {
    return false;
  }
  return true;
}

Arguments parseArguments(int argc, char **argv) {
  Arguments args;
  args.command = argc > 1 ? argv[1] : "";
  for (int a = 2; a < argc; ++a) {
    std::string word = argv[a];
    if (word.rfind("--", 0) != 0) {
      args.files.push_back(word);
    } else if (a + 1 >= argc || !parseOption(word, argv[a + 1], args)) {
      llvm::errs() << "stencilc-fuzz-diff: bad option '" << word << "'\n";
      args.ok = false;
    } else {
      ++a;
    }
  }
  return args;
}

/// Fills in the programs and the work directory the user left out: clang
/// (clang-19 first), stencilc-cfront beside this program, a fresh temporary
/// directory (removed at the end: `ownWork`).
bool completeTools(const char *argv0, Tools &tools, bool &ownWork) {
  if (tools.cc.empty()) {
    for (const char *name : {"clang-19", "clang", "cc"}) {
      if (auto found = llvm::sys::findProgramByName(name)) {
        tools.cc = *found;
        break;
      }
    }
  }
  if (tools.cfront.empty()) {
    std::string self =
        llvm::sys::fs::getMainExecutable(argv0, reinterpret_cast<void *>(&parseNumber));
    tools.cfront = (llvm::sys::path::parent_path(self) + "/stencilc-cfront").str();
  }
  if (tools.workDir.empty()) {
    llvm::SmallString<128> dir;
    if (llvm::sys::fs::createUniqueDirectory("stencilc-fuzz-diff", dir)) {
      return false;
    }
    tools.workDir = dir.str().str();
    ownWork = true;
  }
  return !tools.cc.empty();
}

int checkFiles(const Arguments &args) {
  int status = 0;
  for (const std::string &file : args.files) {
    BatchResult result = checkFile(file, args.c.tools);
    if (!result.failure.empty()) {
      llvm::outs() << file << ": could not be checked: " << result.failure << "\n";
      status = 1;
    }
    for (const NestResult &nest : result.nests) {
      llvm::outs() << file << ": " << nest.name << ": " << verdictName(nest.verdict);
      if (!nest.refusal.empty()) {
        llvm::outs() << " (" << nest.refusal << ")";
      }
      if (!nest.detail.empty()) {
        llvm::outs() << ": " << nest.detail;
      }
      llvm::outs() << "\n";
      status |= nest.verdict == Verdict::Disagrees ? 1 : 0;
    }
  }
  return status;
}

int runCommand(const Arguments &args) {
  if (args.command == "check") {
    return checkFiles(args);
  }
  if (args.command == "generate") {
    std::mt19937_64 rng(args.c.seed);
    std::vector<CNest> nests;
    for (int n = 0; n < args.c.batchSize; ++n) {
      nests.push_back(generateNest(rng, "f" + std::to_string(n), args.c.generator));
    }
    llvm::outs() << renderBatch(nests, args.c.seed);
    return 0;
  }
  if (args.command == "cfront") {
    CFuzzCounts counts;
    int status = runCFuzz(args.c, counts);
    printCounts(args.c, counts, llvm::outs());
    return status;
  }
  if (args.command == "harness") {
    llvm::outs() << harnessHeader();
    return 0;
  }
  if (args.command == "fields-generate") {
    for (uint64_t n = 0; n < std::min<uint64_t>(args.fields.count, 1000000); ++n) {
      llvm::outs() << fieldsText(generateFieldsStencil(args.fields.seed + n)) << "\n";
    }
    return 0;
  }
  FieldsCounts counts;
  int status = runFieldsFuzz(args.fields, counts);
  printFieldsCounts(args.fields, counts, llvm::outs());
  return status;
}

} // namespace

int main(int argc, char **argv) {
  Arguments args = parseArguments(argc, argv);
  static const std::vector<std::string> commands = {"cfront",  "check",  "generate",
                                                    "harness", "fields", "fields-generate"};
  if (!args.ok || std::find(commands.begin(), commands.end(), args.command) == commands.end()) {
    llvm::errs() << "usage: stencilc-fuzz-diff cfront|check|generate|fields [options] "
                    "(see the file's header or docs/robustness.md)\n";
    return 2;
  }
  bool ownWork = false;
  if (args.command.rfind("fields", 0) != 0 && !completeTools(argv[0], args.c.tools, ownWork)) {
    llvm::errs() << "stencilc-fuzz-diff: no C compiler, or no work directory\n";
    return 2;
  }
  int status = runCommand(args);
  if (ownWork) {
    llvm::sys::fs::remove_directories(args.c.tools.workDir);
  }
  return status;
}
