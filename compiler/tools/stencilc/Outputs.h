//===- Outputs.h - Where stencilc writes, and writing it --------*- C++ -*-===//
#pragma once

#include <optional>
#include <string>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include "stencilc/Diagnostics.h"

namespace stencilc::driver {

/// What the command line says about outputs.
struct OutputRequest {
  std::string inputFile;     ///< "-": standard input
  std::string outputFile;    ///< -o ("-": standard output)
  std::string headerFile;    ///< --header
  std::string depfileName;   ///< -MF
  bool writeDepfile = false; ///< -MD
  bool emitting = false;     ///< --emit: print one artefact, write no file
  bool writesInclude = true; ///< the .cu (and its #include of the header) is made
};

/// An output file and what it is to hold.
struct Output {
  std::string path;
  const std::string &contents;
};

/// Where a run's artefacts go.
struct OutputPaths {
  std::string cudaPath;   ///< also names the header where --header does not
  std::string headerPath; ///< the .cu includes the header by its file name
  std::string depfilePath;
  bool writesCuda = false;
  bool writesHeader = false;
  bool writesDepfile = false;
};

/// The output paths from -o, --header and the input: -o, or the input's stem
/// in the current directory (standard input has none to offer, so -o is
/// needed to write files). `-o -` is stdout: the .cu, and a header file only
/// where --header names one (never one named "-.h"); so is `-o` naming a
/// device, FIFO or socket: no header is made up beside it. Reports (on
/// `errs`) the choices that cannot work and returns nothing for them. Needs
/// nothing of the input's text, so it runs before the input is read, and
/// before anything is written.
std::optional<OutputPaths> planOutputs(const OutputRequest &request, llvm::raw_ostream &errs);

/// Why the outputs cannot be written over the files the input was read from
/// (`inputs`: the input and, for C, every file it #includes, as the depfile
/// lists them): the message naming the first output that is one of them
/// (its path, or a link to it, or another spelling of it); nothing when none
/// is.
std::optional<std::string> overwritesInput(const OutputPaths &out,
                                           llvm::ArrayRef<std::string> inputs);

/// Writes the outputs whole or not at all (each to a temporary file beside
/// it, renamed into place once all are written); false after an error.
bool writeAll(llvm::ArrayRef<Output> outputs, DiagnosticEngine &diags);

/// The depfile for make and Ninja, `TARGET: FILE...`, each path escaped as
/// make reads it; nothing, after an error, for a path no depfile can hold.
std::optional<std::string> depfileText(llvm::StringRef target,
                                       llvm::ArrayRef<std::string> dependencies,
                                       DiagnosticEngine &diags);

} // namespace stencilc::driver
