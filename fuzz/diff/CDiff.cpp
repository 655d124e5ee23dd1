//===- CDiff.cpp - The C front end against the C program, nest by nest ----===//
//
// See CDiff.h. The C compiler builds the harness while stencilc-cfront
// translates (two processes at once); a nest that stencilc-cfront refuses
// is left out and the other nests are translated again (without the
// harness, which stencilc-cfront need not parse), until it accepts them.
//
//===----------------------------------------------------------------------===//
#include "CDiff.h"

#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include "CCompare.h"
#include "CNest.h"

namespace stencilc::fuzzdiff {
namespace {

/// Seconds any one program may take: a hang of stencilc-cfront is a finding.
constexpr unsigned ProgramSeconds = 300;

std::string readText(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

void writeText(const std::string &path, const std::string &text) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  os << text;
}

/// Runs `argv` with stdout and stderr into files; the exit status, or -1
/// (could not start) or -2 (crashed, or killed after ProgramSeconds).
int runProgram(const std::vector<std::string> &argv, const std::string &out,
               const std::string &err) {
  // LLVM opens a redirect without O_TRUNC: an older, longer file would
  // leave its tail behind the new output.
  llvm::sys::fs::remove(out);
  llvm::sys::fs::remove(err);
  std::vector<llvm::StringRef> args(argv.begin(), argv.end());
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(out),
                                                llvm::StringRef(err)};
  return llvm::sys::ExecuteAndWait(argv[0], args, std::nullopt, redirects, ProgramSeconds);
}

/// The `// nest NAME` marker at or above each line (1-based), "" before any.
/// The `// nest NAME` marker at or above each line (0-based), "" before
/// any, HarnessOwner from the `// harness` marker on.
const char *const HarnessOwner = "#harness";
std::vector<std::string> nestOfLines(const std::vector<std::string> &lines) {
  std::vector<std::string> owner(lines.size());
  std::string current;
  for (size_t l = 0; l < lines.size(); ++l) {
    if (lines[l].rfind("// nest ", 0) == 0) {
      current = lines[l].substr(8);
    } else if (lines[l] == "// harness") {
      current = HarnessOwner;
    }
    owner[l] = current;
  }
  return owner;
}

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream is(text);
  for (std::string line; std::getline(is, line);) {
    lines.push_back(line);
  }
  return lines;
}

/// stencilc-cfront's located errors, by nest: the first message of each.
std::map<std::string, std::string> refusalsIn(const std::string &messages,
                                              const std::vector<std::string> &owner,
                                              std::string &unplaced) {
  static const std::regex located(R"(^[^:\n]*:(\d+):\d+: error: (.*)$)");
  std::map<std::string, std::string> refusals;
  for (const std::string &line : splitLines(messages)) {
    std::smatch m;
    if (!std::regex_match(line, m, located)) {
      continue;
    }
    size_t at = std::stoul(m[1].str());
    std::string nest = at < owner.size() ? owner[at] : "";
    if (nest.empty() || nest == HarnessOwner) {
      unplaced = line;
    } else {
      refusals.emplace(nest, m[2].str());
    }
  }
  return refusals;
}

/// Translates `lines` (written to work/xlate.c), setting aside refused nests
/// until the rest translates; the translation, or "" with `failure` set.
std::string translate(const std::vector<std::string> &lines, const Tools &tools,
                      std::map<std::string, std::string> &refused, std::string &failure) {
  const std::string source = tools.workDir + "/xlate.c", out = tools.workDir + "/xlate.stencil",
                    err = tools.workDir + "/xlate.err";
  const std::vector<std::string> owner = nestOfLines(lines);
  for (int round = 0; round < 8; ++round) {
    // The nests not yet refused, without the harness: each round parses
    // only what may still translate. keptOwner[L] owns line L (1-based).
    std::string text;
    std::vector<std::string> keptOwner = {""};
    bool marked = false;
    for (size_t l = 0; l < lines.size(); ++l) {
      if (owner[l] != HarnessOwner && !refused.count(owner[l])) {
        text += lines[l] + "\n";
        keptOwner.push_back(owner[l]);
        marked |= lines[l].rfind("#pragma stencil", 0) == 0;
      }
    }
    if (!marked) { // every nest refused: nothing to translate
      return "";
    }
    writeText(source, text);
    int status =
        runProgram({tools.cfront, source, "--", "-ferror-limit=0", "-I", tools.workDir}, out, err);
    if (status == 0) {
      return readText(out);
    }
    std::string unplaced;
    std::map<std::string, std::string> found = refusalsIn(readText(err), keptOwner, unplaced);
    if (status < 0 || found.empty() || !unplaced.empty()) {
      failure = "stencilc-cfront exited with " + std::to_string(status) + ": " +
                (unplaced.empty() ? readText(err).substr(0, 2000) : unplaced);
      return "";
    }
    refused.insert(found.begin(), found.end());
  }
  failure = "stencilc-cfront still refuses after 8 rounds";
  return "";
}

} // namespace

const char *verdictName(Verdict verdict) {
  static const char *const names[] = {"agrees", "refused by stencilc-cfront",
                                      "refused by the .stencil front end", "DISAGREES"};
  return names[static_cast<int>(verdict)];
}

BatchResult checkFile(const std::string &path, const Tools &tools) {
  BatchResult result;
  const std::string binary = tools.workDir + "/harness", ccErr = tools.workDir + "/cc.err";
  writeText(tools.workDir + "/stencilc_fuzz_harness.h", harnessHeader());
  // -O0 without unwind tables or stack protection: codegen is most of the
  // compile's time, and these take a sixth of it.
  std::vector<llvm::StringRef> ccArgs = {tools.cc,
                                         "-std=c11",
                                         "-O0",
                                         "-fno-asynchronous-unwind-tables",
                                         "-fno-unwind-tables",
                                         "-fno-stack-protector",
                                         "-w",
                                         "-I",
                                         tools.workDir,
                                         "-o",
                                         binary,
                                         path};
  std::optional<llvm::StringRef> ccRedirects[] = {llvm::StringRef(""), llvm::StringRef(ccErr),
                                                  llvm::StringRef(ccErr)};
  llvm::sys::fs::remove(ccErr);
  llvm::sys::ProcessInfo cc = llvm::sys::ExecuteNoWait(tools.cc, ccArgs, std::nullopt, ccRedirects);
  std::map<std::string, std::string> refused;
  std::string translation = translate(splitLines(readText(path)), tools, refused, result.failure);
  llvm::sys::ProcessInfo done = llvm::sys::Wait(cc, std::nullopt);
  if (!result.failure.empty()) {
    return result;
  }
  if (done.ReturnCode != 0) {
    result.failure = "the C compiler failed on the harness: " + readText(ccErr).substr(0, 2000);
    return result;
  }
  const std::string dumpPath = tools.workDir + "/dump.txt";
  int status = runProgram({binary}, dumpPath, tools.workDir + "/harness.err");
  std::vector<DumpedNest> dumped;
  if (status != 0 || !parseDump(readText(dumpPath), dumped)) {
    result.failure = "the harness failed (status " + std::to_string(status) + ")";
    return result;
  }
  Translation specs = parseTranslation(translation);
  for (const DumpedNest &nest : dumped) {
    NestResult r;
    r.name = nest.name;
    if (auto it = refused.find(nest.name); it != refused.end()) {
      r.verdict = Verdict::RefusedCFront;
      r.refusal = it->second;
    } else {
      compareNest(nest, specs, r);
    }
    result.nests.push_back(r);
  }
  return result;
}

} // namespace stencilc::fuzzdiff
