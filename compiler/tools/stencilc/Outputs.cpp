//===- Outputs.cpp - Where stencilc writes, and writing it ----------------===//
//
// The output paths that -o, --header and -MD/-MF name, checked before the
// input is read; the outputs written whole or not at all; the depfile.
//
//===----------------------------------------------------------------------===//
#include "Outputs.h"

#include <tuple>
#include <vector>

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "stencilc/PrintableText.h"

namespace stencilc::driver {

/// Whether two output paths name one file: the same path once made absolute
/// and free of `.` and `..`, or the same existing file (links).
static bool sameFile(llvm::StringRef a, llvm::StringRef b) {
  auto normal = [](llvm::StringRef path) {
    llvm::SmallString<256> full(path);
    llvm::sys::fs::make_absolute(full);
    llvm::sys::path::remove_dots(full, /*remove_dot_dot=*/true);
    return std::string(full);
  };
  bool equivalent = false;
  return normal(a) == normal(b) || (!llvm::sys::fs::equivalent(a, b, equivalent) && equivalent);
}

/// True for an existing path that is no regular file and no directory (a
/// device such as /dev/null, a FIFO, a socket, or a link to one): an
/// output there is written straight into it, never renamed over it.
static bool isSpecialFile(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status)) {
    return false;
  }
  return status.type() != llvm::sys::fs::file_type::regular_file &&
         status.type() != llvm::sys::fs::file_type::directory_file;
}

/// The file a regular output is renamed over: the path itself, or, for a
/// symbolic link, the file it names (the link stays a link).
static std::string renameTarget(llvm::StringRef path) {
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

/// Why a header's file name cannot follow `#include "` in the .cu, or
/// nothing when it can.
static std::optional<std::string> unspellableInInclude(llvm::StringRef name) {
  for (char c : name) {
    if (c == '"' || c == '\\' || isControlByte(c)) {
      return "it holds '" + printableText(llvm::StringRef(&c, 1)) + "'";
    }
  }
  return std::nullopt;
}

/// Why -o, --header and --emit cannot go together, or nothing when they can
/// (before any path is made up).
static std::optional<std::string> requestProblem(const OutputRequest &request) {
  const std::string &outputFile = request.outputFile;
  if (request.emitting && !outputFile.empty() && outputFile != "-") {
    return "--emit prints to standard output and writes no file; drop -o '" + outputFile +
           "', or drop --emit to write it";
  }
  if (request.headerFile == "-") {
    return "--header needs a file name (the .cu includes the header by it); "
           "--emit=header prints the header on stdout";
  }
  if (request.inputFile == "-" && outputFile.empty() && !request.emitting) {
    return "the input is standard input, which names no output: name it with -o FILE.cu "
           "(or -o - for standard output)";
  }
  return std::nullopt;
}

/// The files a run writes, each with the option that names it.
static std::vector<std::pair<std::string, const char *>> writtenFiles(const OutputPaths &out) {
  std::vector<std::pair<std::string, const char *>> files;
  for (const auto &[writes, path, option] :
       {std::tuple(out.writesCuda, out.cudaPath, "-o"),
        std::tuple(out.writesHeader, out.headerPath, "--header"),
        std::tuple(out.writesDepfile, out.depfilePath, "-MF")}) {
    if (writes) {
      files.emplace_back(path, option);
    }
  }
  return files;
}

/// Why the output paths cannot be written: one is a directory or the input,
/// or two outputs are one file; nothing when they can.
static std::optional<std::string> pathsProblem(const OutputPaths &out,
                                               const std::string &inputFile) {
  for (const auto &[path, option] : writtenFiles(out)) {
    llvm::StringRef name = llvm::sys::path::filename(path);
    if (llvm::sys::fs::is_directory(path) || name.empty() || name == "." || name == ".." ||
        llvm::sys::path::is_separator(path.back())) {
      return "the output '" + path + "' is a directory; name a file with " + option + ", as in " +
             option + " DIR/NAME";
    }
    if (inputFile != "-" && sameFile(inputFile, path)) {
      return "the output '" + path + "' is the input file; name another with " + option;
    }
  }
  if (out.writesCuda && sameFile(out.cudaPath, out.headerPath)) {
    return "the CUDA source and the header would both be '" + out.headerPath +
           "'; name the source with -o FILE.cu, or the header with --header";
  }
  if (out.writesDepfile &&
      (sameFile(out.depfilePath, out.headerPath) || sameFile(out.depfilePath, out.cudaPath))) {
    return "the depfile would be '" + out.depfilePath +
           "', an output itself; name it "
           "with -MF FILE.d";
  }
  return std::nullopt;
}

std::optional<std::string> overwritesInput(const OutputPaths &out,
                                           llvm::ArrayRef<std::string> inputs) {
  for (const auto &[path, option] : writtenFiles(out)) {
    for (const std::string &input : inputs) {
      if (sameFile(input, path)) {
        return "the output '" + path + "' would replace '" + input +
               "', which the input reads; name another with " + option;
      }
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
std::optional<OutputPaths> planOutputs(const OutputRequest &request, llvm::raw_ostream &errs) {
  const std::string &inputFile = request.inputFile;
  const std::string &outputFile = request.outputFile;
  const std::string &headerFile = request.headerFile;
  auto refuse = [&](const llvm::Twine &message) {
    errs << "stencilc: error: " << printableText(message.str()) << "\n";
    return std::nullopt;
  };
  const bool toStdout = outputFile == "-";
  if (std::optional<std::string> problem = requestProblem(request)) {
    return refuse(*problem);
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
  out.writesCuda = !request.emitting && !toStdout;
  out.writesHeader = !request.emitting && (!toStream || !headerFile.empty());
  out.writesDepfile = !request.emitting && (request.writeDepfile || !request.depfileName.empty());
  if (out.writesDepfile) {
    if (!out.writesCuda && !out.writesHeader) {
      return refuse("-MD needs an output file to name in the depfile: add -o FILE.cu, or "
                    "--header FILE.h");
    }
    out.depfilePath = request.depfileName;
    if (out.depfilePath.empty()) {
      llvm::SmallString<256> path(out.writesCuda && !toStream ? out.cudaPath : out.headerPath);
      llvm::sys::path::replace_extension(path, ".d");
      out.depfilePath = std::string(path);
    }
  }
  if (std::optional<std::string> problem = pathsProblem(out, inputFile)) {
    return refuse(*problem);
  }
  // The .cu includes the header by its file name, between quotes.
  const std::string include = llvm::sys::path::filename(out.headerPath).str();
  if (request.writesInclude) {
    if (std::optional<std::string> why = unspellableInInclude(include)) {
      return refuse("the header's name '" + include + "' cannot be written in the .cu's " +
                    "#include \"...\" line: " + *why + "; name the header with --header");
    }
  }
  return out;
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

} // namespace stencilc::driver
