//===- CInput.cpp - Reading the input, and C input through stencilc-cfront ===//
//
// A .stencil input is read up to the --max-input-size limit. A C or C++
// input is translated by stencilc-cfront, run beside this executable; the
// translation comes back with the files it read (for the depfile) and, per
// line of its text, the place in the C source it comes from, so that the
// diagnostics of later stages point into the C file.
//
//===----------------------------------------------------------------------===//
#include "CInput.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"

namespace stencilc::driver {

namespace {

constexpr int ExitSuccess = 0;
constexpr int ExitInputError = 1;
constexpr int ExitUsage = 2;

} // namespace

/// True for the C and C++ sources that stencilc-cfront translates.
bool isCSource(llvm::StringRef path) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  return extension == ".c" || extension == ".cc" || extension == ".cpp" || extension == ".cxx";
}

/// The input limit of --max-input-size, in bytes.
static uint64_t inputLimit(unsigned maxInputMiB) {
  return static_cast<uint64_t>(maxInputMiB) << 20;
}

/// Reads a whole file (or standard input, "-") of at most inputLimit(maxInputMiB)
/// bytes into a buffer named `name`; an endless or huge input (/dev/zero, a
/// pipe that never closes) is cut off there with an error, never read until
/// memory runs out. Reports as "cannot read WHAT: ...".
std::unique_ptr<llvm::MemoryBuffer> readLimited(llvm::StringRef path, llvm::StringRef name,
                                                const llvm::Twine &what, unsigned maxInputMiB,
                                                DiagnosticEngine &diags) {
  auto refuse = [&](const llvm::Twine &why) {
    diags.fatalWithoutLocation("cannot read " + what + ": " + why);
    return nullptr;
  };
  auto tooLarge = [&]() {
    return refuse("it is larger than " + llvm::Twine(maxInputMiB) +
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
      status.type() == llvm::sys::fs::file_type::regular_file &&
      status.getSize() > inputLimit(maxInputMiB)) {
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
    if (text.size() > inputLimit(maxInputMiB)) {
      return tooLarge();
    }
  }
  return llvm::MemoryBuffer::getMemBufferCopy(text, name);
}

/// The process id of the running stencilc-cfront, for forwardInterrupt.
static std::atomic<llvm::sys::procid_t> runningChild{0};
/// Set while stencilc-cfront is being started and its process id is not
/// known yet; and whether an interrupt came meanwhile.
static std::atomic<bool> startingChild{false};
static std::atomic<bool> interruptedWhileStarting{false};

[[noreturn]] static void endBySigterm() {
  ::signal(SIGTERM, SIG_DFL);
  ::raise(SIGTERM);
  std::_Exit(128 + SIGTERM); // not reached: SIGTERM's default action ends the process
}

/// Run by LLVM's signal handler on SIGINT, SIGTERM and the like, after it
/// has removed the temporary files: stops the child, then ends stencilc by
/// SIGTERM. While the child is being started its process id is not known
/// yet: then it only marks the interrupt, and startChild stops the child and
/// ends stencilc as soon as the id is known.
void forwardInterrupt() {
  if (llvm::sys::procid_t child = runningChild.load()) {
    ::kill(child, SIGTERM);
  } else if (startingChild.load()) {
    interruptedWhileStarting = true;
    return;
  }
  endBySigterm();
}

/// Starts the child and records its process id for forwardInterrupt, so
/// that an interrupt at any moment stops it.
static llvm::sys::ProcessInfo startChild(llvm::StringRef program,
                                         llvm::ArrayRef<llvm::StringRef> args,
                                         llvm::ArrayRef<std::optional<llvm::StringRef>> redirects,
                                         std::string &failure, bool &notStarted) {
  startingChild = true;
  llvm::sys::ProcessInfo child =
      llvm::sys::ExecuteNoWait(program, args, std::nullopt, redirects, 0, &failure, &notStarted);
  if (!notStarted) {
    runningChild = child.Pid;
  }
  startingChild = false;
  if (interruptedWhileStarting.load()) {
    if (!notStarted) {
      ::kill(child.Pid, SIGTERM);
    }
    endBySigterm();
  }
  return child;
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

/// The stencilc-cfront beside this executable; nothing, reported, where it
/// cannot be found (an installation without it, or no /proc to tell where
/// this one is).
static std::optional<std::string> findCFront(const char *argv0, const std::string &inputFile,
                                             DiagnosticEngine &diags) {
  // Without /proc, LLVM would look for a bare argv[0] in PATH, and could
  // run a stencilc-cfront of another installation found there.
  if (!llvm::sys::fs::exists("/proc/self/exe") &&
      !llvm::StringRef(argv0).contains(llvm::sys::path::get_separator())) {
    diags.fatalWithoutLocation(
        "cannot translate '" + inputFile + "': cannot tell where this stencilc is installed (no " +
        "/proc/self/exe), so cannot find the C front end beside it; run stencilc by its path");
    return std::nullopt;
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
    return std::nullopt;
  }
  return cfront.str().str();
}

/// Whether the C input is a regular file within the input limit. Checked
/// here so that a missing file is one message, and an endless one (a FIFO,
/// a device) never reaches Clang.
static bool checkCInputFile(const std::string &inputFile, unsigned maxInputMiB,
                            DiagnosticEngine &diags) {
  llvm::sys::fs::file_status source;
  int fd = -1;
  if (std::error_code error = llvm::sys::fs::openFileForRead(inputFile, fd)) {
    diags.fatalWithoutLocation("cannot read '" + inputFile + "': " + error.message());
    return false;
  }
  std::error_code statusError = llvm::sys::fs::status(fd, source);
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  if (statusError || source.type() != llvm::sys::fs::file_type::regular_file) {
    diags.fatalWithoutLocation("cannot read '" + inputFile + "': it is not a regular file");
    return false;
  }
  if (source.getSize() > inputLimit(maxInputMiB)) {
    diags.fatalWithoutLocation("cannot read '" + inputFile + "': it is larger than " +
                               llvm::Twine(maxInputMiB) +
                               " MiB, the input limit; --max-input-size=MiB raises it");
    return false;
  }
  return true;
}

/// Runs stencilc-cfront (`args`, its stdout to `translation`, its stderr to
/// `errors`, then passed on); false after a failure, reported unless
/// stencilc-cfront printed its own diagnostics.
static bool runCFront(llvm::StringRef cfront, llvm::ArrayRef<llvm::StringRef> args,
                      const PrivateTempFile &translation, const PrivateTempFile &errors,
                      const std::string &inputFile, DiagnosticEngine &diags) {
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(translation.path), llvm::StringRef(errors.path)};
  std::string failure;
  bool notStarted = false;
  llvm::sys::ProcessInfo child = startChild(cfront, args, redirects, failure, notStarted);
  int status = -1;
  if (!notStarted) {
    status = llvm::sys::Wait(child, std::nullopt, &failure).ReturnCode;
    runningChild = 0;
  }
  if (auto printed = llvm::MemoryBuffer::getFile(errors.path, /*IsText=*/true)) {
    llvm::errs() << (*printed)->getBuffer();
    if (!(*printed)->getBuffer().empty() && (status == ExitInputError || status == ExitUsage)) {
      return false; // cfront has printed the diagnostics
    }
  }
  if (status != ExitSuccess) { // it did not run, crashed, or failed without a word
    std::string what = !failure.empty() ? failure : "exit status " + std::to_string(status);
    if (status == ExitInputError || status == ExitUsage) {
      what += " without a diagnostic";
    }
    diags.fatalWithoutLocation("stencilc-cfront failed on '" + inputFile + "': " + what);
    return false;
  }
  return true;
}

bool translateCSource(const char *argv0, const CInputRequest &request, CTranslation &result,
                      DiagnosticEngine &diags) {
  const std::string &inputFile = request.inputFile;
  const unsigned maxInputMiB = request.maxInputMiB;
  std::optional<std::string> cfront = findCFront(argv0, inputFile, diags);
  if (!cfront || !checkCInputFile(inputFile, maxInputMiB, diags)) {
    return false;
  }

  PrivateTempFile translation("stencilc-cfront", "stencil");
  PrivateTempFile errors("stencilc-cfront", "err");
  PrivateTempFile depends("stencilc-cfront", "deps");
  PrivateTempFile locations("stencilc-cfront", "locations");
  for (const PrivateTempFile *temp : {&translation, &errors, &depends, &locations}) {
    if (temp->error) {
      diags.fatalWithoutLocation("cannot create a temporary file: " + temp->error.message());
      return false;
    }
  }
  std::vector<llvm::StringRef> args = {*cfront,      inputFile,     "--deps",
                                       depends.path, "--locations", locations.path};
  if (request.warningsAsErrors) {
    args.push_back("--Werror");
  }
  args.push_back("--");
  if (llvm::errs().has_colors()) {
    args.push_back("-fcolor-diagnostics"); // its stderr is a file
  }
  args.insert(args.end(), request.compilerArgs.begin(), request.compilerArgs.end());
  if (request.noWarnings) {
    args.push_back("-w"); // Clang's own: silences the C front end's warnings too
  }
  if (!runCFront(*cfront, args, translation, errors, inputFile, diags)) {
    return false;
  }
  if (auto list = llvm::MemoryBuffer::getFile(depends.path)) {
    llvm::SmallVector<llvm::StringRef> files;
    (*list)->getBuffer().split(files, '\0', -1, /*KeepEmpty=*/false);
    result.dependencies.assign(files.begin(), files.end());
  }
  if (auto list = llvm::MemoryBuffer::getFile(locations.path)) {
    readLineOrigins((*list)->getBuffer(), result.lineOrigins);
  }
  result.text = readLimited(translation.path, inputFile + " (as .stencil)",
                            "the translation of '" + inputFile + "'", maxInputMiB, diags);
  return result.text != nullptr;
}

void readLineOrigins(llvm::StringRef records, std::vector<CSourcePoint> &origins) {
  llvm::SmallVector<llvm::StringRef> fields;
  records.split(fields, '\0', -1, /*KeepEmpty=*/true);
  for (size_t i = 0; i + 4 <= fields.size(); i += 4) {
    unsigned line = 0;
    CSourcePoint point;
    if (fields[i].getAsInteger(10, line) || line == 0 ||
        fields[i + 2].getAsInteger(10, point.line) ||
        fields[i + 3].getAsInteger(10, point.column)) {
      continue;
    }
    point.file = fields[i + 1].str();
    if (origins.size() < line) {
      origins.resize(line);
    }
    origins[line - 1] = std::move(point);
  }
}

void pointIntoCSource(llvm::SourceMgr &sourceMgr, unsigned translationId,
                      llvm::ArrayRef<CSourcePoint> origins, DiagnosticEngine &diags) {
  std::map<std::string, unsigned> loaded; // C file -> its buffer, 0 where unreadable
  auto lineLocs = std::make_shared<std::vector<llvm::SMLoc>>(origins.size());
  for (size_t i = 0; i < origins.size(); ++i) {
    const CSourcePoint &point = origins[i];
    if (point.file.empty()) {
      continue;
    }
    auto [it, added] = loaded.try_emplace(point.file, 0);
    if (added) {
      if (auto file = llvm::MemoryBuffer::getFile(point.file, /*IsText=*/true)) {
        it->second = sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
      }
    }
    if (it->second != 0) {
      (*lineLocs)[i] = sourceMgr.FindLocForLineAndColumn(it->second, point.line, point.column);
    }
  }
  diags.setLocationMap([&sourceMgr, translationId, lineLocs](llvm::SMLoc loc) {
    if (!loc.isValid() || sourceMgr.FindBufferContainingLoc(loc) != translationId) {
      return loc;
    }
    unsigned line = sourceMgr.getLineAndColumn(loc, translationId).first;
    if (line == 0 || line > lineLocs->size() || !(*lineLocs)[line - 1].isValid()) {
      return loc;
    }
    return (*lineLocs)[line - 1];
  });
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

} // namespace stencilc::driver
