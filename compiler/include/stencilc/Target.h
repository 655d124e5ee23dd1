//===- Target.h - The GPU architectures stencilc plans for ------*- C++ -*-===//
//
// One enumerator per line of Targets.def, and the table of what the planners
// need to know about each: its name, its SM number, the shared memory a block
// can opt in to and the MMA shapes it has.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace stencilc {

enum class Arch {
#define STENCILC_TARGET(Enumerator, Name, Sm, OptInSharedKiB, Fp64M16) Enumerator,
#include "stencilc/Targets.def"
};

struct ArchInfo {
  Arch arch;
  /// "sm_80": what --arch takes.
  std::string_view name;
  /// 80 for sm_80.
  int sm;
  /// The most shared memory a block can opt in to (dynamic shared memory).
  int maxDynamicSharedBytes;
  /// Whether mma.sync has the fp64 m16n8k4 shape (otherwise fp64 is m8n8k4).
  bool hasFp64M16n8k4;
};

/// Every architecture, oldest first, indexed by its enumerator.
inline constexpr ArchInfo Archs[] = {
#define STENCILC_TARGET(Enumerator, Name, Sm, OptInSharedKiB, Fp64M16)                             \
  {Arch::Enumerator, Name, Sm, (OptInSharedKiB) * 1024, Fp64M16},
#include "stencilc/Targets.def"
};

constexpr const ArchInfo &info(Arch a) { return Archs[static_cast<int>(a)]; }

/// "sm_80" and friends.
constexpr std::string_view keyword(Arch a) { return info(a).name; }

/// The architecture of a name; nothing for a name not in Targets.def.
constexpr std::optional<Arch> parseArch(std::string_view name) {
  for (const ArchInfo &a : Archs) {
    if (a.name == name) {
      return a.arch;
    }
  }
  return std::nullopt;
}

/// The architecture whose plans a device of compute capability `sm` (90 for
/// 9.0) runs best: the newest of Targets.def whose SM number is not above
/// it, and of two with one number the plain one (sm_90, not sm_90a: an `a`
/// target's code runs on that GPU only, so nvcc must be asked for it).
/// Nothing for a device older than every architecture.
std::optional<Arch> newestArchFor(int sm);

/// The architectures of an --arch list ("sm_80,sm_90"), oldest first
/// whatever the order given; or what is wrong with it: an unknown or empty
/// entry, an entry given twice, or two of one compute capability (a
/// library holds one plan per compute capability).
std::variant<std::vector<Arch>, std::string> parseArchList(std::string_view list);

/// The names of every architecture, joined by ", " and by `lastJoin` before
/// the last: "sm_80, sm_86, sm_89 or sm_90".
std::string archNames(std::string_view lastJoin);

} // namespace stencilc
