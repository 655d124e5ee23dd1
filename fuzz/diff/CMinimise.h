//===- CMinimise.h - Shrinking a disagreeing nest ------------------*- C++ -*-===//
#pragma once

#include <cstdint>

#include "CDiff.h"
#include "CNest.h"

namespace stencilc::fuzzdiff {

/// Checks the nest alone (a batch of one, inputs from `seed`): true where
/// stencilc accepts it and its translation disagrees with C; the nest's
/// result in `result` where given.
bool disagreesAlone(const CNest &nest, const Tools &tools, uint64_t seed, NestResult *result);

/// The smallest nest the greedy simplifications reach that still disagrees
/// and is of the same knownClass.
CNest minimiseNest(const CNest &nest, const Tools &tools, uint64_t seed);

} // namespace stencilc::fuzzdiff
