//===- Backend.cpp - The registry of backends, and their names -------------===//
#include "Backends/Common/Backend.h"

#include <array>
#include <iterator>

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

namespace stencilc {

namespace {

/// A row of Backends.def.
struct BackendRow {
  std::string_view keyword, adjective, units;
};
constexpr BackendRow Backends[] = {
#define STENCILC_BACKEND(Enumerator, Keyword, CEnumerator, Adjective, Units)                       \
  {Keyword, Adjective, Units},
#include "stencilc/Backends.def"
};

const BackendRow &row(BackendKind kind) { return Backends[static_cast<int>(kind)]; }

/// The registered backends by kind (registerBackend); a backend registers
/// itself before any stencil is planned, so reads need no lock.
std::array<const Backend *, std::size(AllBackends)> &registry() {
  static std::array<const Backend *, std::size(AllBackends)> backends{};
  return backends;
}

} // namespace

std::string_view keyword(BackendKind b) { return row(b).keyword; }
std::string_view kernelsAdjective(BackendKind b) { return row(b).adjective; }
std::string_view unitsName(BackendKind b) { return row(b).units; }

void registerBackend(const Backend &backend) {
  registry()[static_cast<int>(backend.kind())] = &backend;
}

const Backend &backendFor(BackendKind kind) {
  if (const Backend *backend = registry()[static_cast<int>(kind)]) {
    return *backend;
  }
  // A bug in stencilc (a backend not initialized), never a user error.
  llvm::report_fatal_error(llvm::Twine("the ") + keyword(kind) + " backend is not registered");
}

} // namespace stencilc
