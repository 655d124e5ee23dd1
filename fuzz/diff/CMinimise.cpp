//===- CMinimise.cpp - Shrinking a disagreeing nest -------------------------===//
//
// Greedy: try each simplification of the nest (a term fewer, a coefficient
// of 1, an unweighted term, an offset of 0, a plain sum, an array, size or
// scalar no longer used), keep it where the nest still disagrees in the
// same class, and start again until none applies. Every simplification
// keeps the C program defined: reads only move inwards, and loops and
// extents stay as they were.
//
//===----------------------------------------------------------------------===//
#include "CMinimise.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include "llvm/Support/raw_ostream.h"

namespace stencilc::fuzzdiff {
namespace {

void forEachRead(CNest &nest, const std::function<void(ArrayRead &)> &fn) {
  for (CTerm &t : nest.terms) {
    fn(t.read);
    if (t.weighted) {
      fn(t.weight);
    }
  }
}

/// Whether `word` appears in `text` as a whole identifier.
bool mentions(const std::string &text, const std::string &word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    auto isIdent = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    bool before = at > 0 && isIdent(text[at - 1]);
    bool after = at + word.size() < text.size() && isIdent(text[at + word.size()]);
    if (!before && !after) {
      return true;
    }
  }
  return false;
}

/// The nest without the arrays, sizes, scalars and constants nothing uses.
CNest pruned(CNest nest) {
  std::vector<int> remap(nest.arrays.size(), -1);
  remap[0] = 0;
  forEachRead(nest, [&](ArrayRead &r) { remap[r.array] = 0; });
  std::vector<CArray> arrays;
  for (size_t a = 0; a < nest.arrays.size(); ++a) {
    if (remap[a] == 0) {
      remap[a] = static_cast<int>(arrays.size());
      arrays.push_back(nest.arrays[a]);
    }
  }
  nest.arrays = arrays;
  forEachRead(nest, [&](ArrayRead &r) { r.array = remap[r.array]; });
  std::string used = renderNest(nest);
  std::string body = used.substr(used.find(") {"));
  std::erase_if(nest.params, [&](const ScalarParam &p) { return !mentions(body, p.name); });
  std::erase_if(nest.constants, [&](const std::string &c) {
    std::string name = c.substr(20, c.find(' ', 20) - 20); // "static const double NAME = ..."
    return !mentions(body, name);
  });
  std::string types;
  for (const CArray &a : nest.arrays) {
    types += a.extentText[0] + " " + a.extentText[1] + " " + a.extentText[2] + " ";
  }
  std::erase_if(nest.sizes, [&](const SizeVar &s) {
    return !mentions(body, s.name) && !mentions(types, s.name);
  });
  return nest;
}

std::vector<CNest> simplifications(const CNest &nest) {
  std::vector<CNest> out;
  out.push_back(pruned(nest));
  for (size_t t = 0; t < nest.terms.size(); ++t) {
    CNest fewer = nest;
    if (nest.terms.size() > 1) {
      fewer.terms.erase(fewer.terms.begin() + t);
      out.push_back(pruned(fewer));
    }
    auto variant = [&](auto change) {
      CNest c = nest;
      change(c.terms[t]);
      out.push_back(c);
    };
    const CTerm &term = nest.terms[t];
    if (term.coefficient != "1") {
      variant([](CTerm &x) { x.coefficient = "1"; });
    }
    if (term.weighted) {
      variant([](CTerm &x) { x.weighted = false; });
    }
    if (term.negated) {
      variant([](CTerm &x) { x.negated = false; });
    }
    for (int d = 0; d < nest.dims; ++d) {
      if (term.read.offset[d] != 0) {
        variant([d](CTerm &x) { x.read.offset[d] = 0; });
      }
      if (term.weighted && term.weight.offset[d] != 0) {
        variant([d](CTerm &x) { x.weight.offset[d] = 0; });
      }
    }
  }
  if (nest.grouping != Grouping::Sum) {
    CNest plain = nest;
    plain.grouping = Grouping::Sum;
    out.push_back(plain);
  }
  return out;
}

} // namespace

bool disagreesAlone(const CNest &nest, const Tools &tools, uint64_t seed, NestResult *result) {
  std::string path = tools.workDir + "/minimise.c";
  {
    std::error_code error;
    llvm::raw_fd_ostream os(path, error);
    os << renderBatch({nest}, seed);
  }
  BatchResult checked = checkFile(path, tools);
  if (!checked.failure.empty() || checked.nests.size() != 1) {
    return false;
  }
  if (result) {
    *result = checked.nests[0];
  }
  return checked.nests[0].verdict == Verdict::Disagrees;
}

CNest minimiseNest(const CNest &nest, const Tools &tools, uint64_t seed) {
  const std::string cls = knownClass(nest);
  CNest best = nest;
  size_t bestSize = renderNest(best).size();
  for (bool changed = true; changed;) {
    changed = false;
    for (const CNest &candidate : simplifications(best)) {
      size_t size = renderNest(candidate).size();
      if (size < bestSize && knownClass(candidate) == cls &&
          disagreesAlone(candidate, tools, seed, nullptr)) {
        best = candidate;
        bestSize = size;
        changed = true;
        break;
      }
    }
  }
  return best;
}

} // namespace stencilc::fuzzdiff
