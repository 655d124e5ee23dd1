//===- Target.cpp - The GPU architectures stencilc plans for ---------------===//
#include "stencilc/Target.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "stencilc/Spec.h"

namespace stencilc {

std::string archNames(std::string_view lastJoin) {
  std::vector<std::string_view> names;
  for (const ArchInfo &a : Archs) {
    names.push_back(a.name);
  }
  return joinList(names, lastJoin);
}

std::optional<Arch> newestArchFor(int sm) {
  std::optional<Arch> newest;
  for (const ArchInfo &a : Archs) {
    if (a.sm <= sm && (!newest || a.sm > info(*newest).sm)) {
      newest = a.arch;
    }
  }
  return newest;
}

namespace {

/// What an --arch list holds, for the messages about a bad one.
std::string listOf() { return "a comma-separated list of " + archNames(" and ") + ", each once"; }

} // namespace

std::variant<std::vector<Arch>, std::string> parseArchList(std::string_view list) {
  std::vector<Arch> archs;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = std::min(list.find(',', begin), list.size());
    const std::string_view entry = list.substr(begin, comma - begin);
    if (entry.empty()) {
      return fmt::format("--arch '{}' has an empty entry; expected {}", list, listOf());
    }
    const std::optional<Arch> arch = parseArch(entry);
    if (!arch) {
      return fmt::format("unknown --arch '{}'; expected {}", entry, archNames(" or "));
    }
    for (Arch seen : archs) {
      if (seen == *arch) {
        return fmt::format("--arch names {} twice; expected {}", entry, listOf());
      }
      if (info(seen).sm == info(*arch).sm) {
        return fmt::format("--arch names {} and {}, both of compute capability {}.{}: a library "
                           "holds one plan per compute capability; expected {}",
                           keyword(seen), entry, info(seen).sm / 10, info(seen).sm % 10, listOf());
      }
    }
    archs.push_back(*arch);
    if (comma == list.size()) {
      break;
    }
    begin = comma + 1;
  }
  std::sort(archs.begin(), archs.end());
  return archs;
}

} // namespace stencilc
