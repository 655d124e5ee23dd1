//===- Target.cpp - The GPU architectures stencilc plans for ---------------===//
#include "stencilc/Target.h"

#include <vector>

#include "stencilc/Spec.h"

namespace stencilc {

std::string archNames(std::string_view lastJoin) {
  std::vector<std::string_view> names;
  for (const ArchInfo &a : Archs) {
    names.push_back(a.name);
  }
  return joinList(names, lastJoin);
}

} // namespace stencilc
