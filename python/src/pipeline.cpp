//===- pipeline.cpp - stencilc's pipeline inside the Python process ---------===//
//
// The _pipeline extension: compile() hands it a .stencil text and gets back
// the generated .cu and .h, or the located diagnostics, without starting a
// process. The stages are the driver's (compiler/tools/stencilc): Parser,
// Sema, then generateArtefacts() of compiler/lib/Pipeline, with stencilc's
// exit statuses: 0, 1 for an error in the input, 2 for a bad option.
// C sources do not come here: their front end links libclang and the shared
// LLVM, which must not meet this module's static LLVMSupport in one process
// (they go through the bundled stencilc executable; docs/python.md).
//
//===----------------------------------------------------------------------===//
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "stencilc/Diagnostics.h"
#include "stencilc/Parser.h"
#include "stencilc/Pipeline.h"
#include "stencilc/Sema.h"
#include "stencilc/Target.h"

namespace nb = nanobind;
using namespace stencilc;

namespace {

constexpr int ExitInputError = 1;
constexpr int ExitUsage = 2;

/// The flags of compile()'s `options` that the in-process pipeline takes,
/// as the driver spells them.
constexpr const char *TakenFlags =
    "--plan-option=NAME=VALUE, --Werror, -w, -W<name>, -Wno-<name>, -Wno-error=<name>, -v, "
    "--error-limit=N, --note-limit=N";

struct Request {
  BackendOptions backend;
  bool werror = false;
  bool silenced = false;
  bool remarks = false;
  std::vector<std::string> warningFlags;
  unsigned errorLimit = DiagnosticEngine::DefaultErrorLimit;
  unsigned noteLimit = DiagnosticEngine::DefaultNoteLimit;
};

/// The value of `--name=value` or `-name=value` in `flag`, if it is that flag.
std::optional<llvm::StringRef> valueOf(llvm::StringRef flag, llvm::StringRef name) {
  // --name=value and -name=value alike, as LLVM's command line takes them.
  if (!flag.consume_front("--")) {
    flag.consume_front("-");
  }
  if (flag.consume_front(name) && flag.consume_front("=")) {
    return flag;
  }
  return std::nullopt;
}

/// Reads `options` into `request`; what is wrong, or nothing.
std::optional<std::string> readOptions(const std::vector<std::string> &options, Request &request) {
  for (const std::string &text : options) {
    llvm::StringRef flag(text);
    unsigned limit = 0;
    if (std::optional<llvm::StringRef> value = valueOf(flag, "plan-option")) {
      llvm::SmallVector<llvm::StringRef, 4> parts;
      value->split(parts, ',');
      for (llvm::StringRef part : parts) {
        if (std::optional<std::string> error = applyPlanOption(part, request.backend)) {
          return error;
        }
      }
    } else if (flag == "--Werror" || flag == "-Werror") {
      request.werror = true;
    } else if (flag == "-w") {
      request.silenced = true;
    } else if (flag == "-v") {
      request.remarks = true;
    } else if (std::optional<llvm::StringRef> v = valueOf(flag, "error-limit")) {
      if (v->getAsInteger(10, limit)) {
        return "--error-limit takes a number, not '" + v->str() + "'";
      }
      request.errorLimit = limit;
    } else if (std::optional<llvm::StringRef> v = valueOf(flag, "note-limit")) {
      if (v->getAsInteger(10, limit)) {
        return "--note-limit takes a number, not '" + v->str() + "'";
      }
      request.noteLimit = limit;
    } else if (flag.size() > 2 && flag.starts_with("-W")) {
      request.warningFlags.push_back(flag.drop_front(2).str());
    } else {
      return "option '" + text + "' is not one the in-process pipeline takes (it takes " +
             TakenFlags + ")";
    }
  }
  return std::nullopt;
}

/// generate(text, file, arch, backend, options, header_include) ->
/// (status, cuda, header, diagnostics): the driver's stages on `text`, whose
/// diagnostics name `file`; the .cu includes its header as `header_include`.
nb::tuple generate(const std::string &text, const std::string &file, const std::string &arch,
                   const std::string &backend, const std::vector<std::string> &options,
                   const std::string &headerInclude) {
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  auto usage = [&](const std::string &message) {
    os << "stencilc: error: " << message << "\n";
    return nb::make_tuple(ExitUsage, "", "", os.str());
  };
  Request request;
  if (std::optional<Arch> target = parseArch(arch)) {
    request.backend.plan.target = *target;
  } else {
    return usage("unknown --arch '" + arch + "'; expected " + archNames(" or "));
  }
  if (std::optional<BackendRequest> asked = parseBackendRequest(backend)) {
    request.backend.backend = *asked;
  } else {
    std::vector<std::string_view> words = {"auto"};
    for (BackendKind kind : AllBackends) {
      words.push_back(keyword(kind));
    }
    return usage("unknown --backend '" + backend + "'; expected " + joinList(words, " or "));
  }
  if (std::optional<std::string> error = readOptions(options, request)) {
    return usage(*error);
  }

  llvm::SourceMgr sourceMgr;
  DiagnosticEngine diags(sourceMgr, os);
  diags.setWarningsAsErrors(request.werror);
  diags.setWarningsSilenced(request.silenced);
  diags.setRemarksShown(request.remarks);
  for (const std::string &flag : request.warningFlags) {
    if (!diags.applyWarningFlag(flag)) {
      return usage("unknown warning '-W" + flag + "'");
    }
  }
  diags.setErrorLimit(request.errorLimit);
  diags.setNoteLimit(request.noteLimit);
  unsigned id =
      sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, file), llvm::SMLoc());
  // Under the GIL: the stages were not written to run in several threads at
  // once, and they take milliseconds.
  Artefacts artefacts;
  Parser parser(sourceMgr.getMemoryBuffer(id)->getBuffer(), diags);
  Module module = parser.parseModule();
  if (!diags.hasErrors()) {
    std::vector<StencilSpec> specs;
    std::vector<llvm::SMLoc> locs;
    for (CheckedStencil &c : checkModule(module, file, diags)) {
      specs.push_back(std::move(c.spec));
      locs.push_back(c.loc);
    }
    if (!diags.hasErrors()) {
      request.backend.inputFile = file;
      request.backend.headerInclude = headerInclude;
      artefacts = generateArtefacts(specs, locs, request.backend, diags);
    }
  }
  diags.finish();
  const int status = diags.hasErrors() ? ExitInputError : 0;
  return nb::make_tuple(status, status ? std::string() : artefacts.cuda,
                        status ? std::string() : artefacts.header, os.str());
}

} // namespace

NB_MODULE(_pipeline, m) {
  m.doc() = "stencilc's pipeline (parser, Sema, planner, emitter) in the Python process";
  m.def("generate", &generate, nb::arg("text"), nb::arg("file"), nb::arg("arch"),
        nb::arg("backend"), nb::arg("options"), nb::arg("header_include"));
  m.attr("TAKEN_FLAGS") = TakenFlags;
}
