//===- VerifyPlan.h - How a plan's broken promises are worded -----*- C++ -*-===//
//
// verifyPlan (stencilc/Plan.h) checks what the planners promise; each
// backend checks its own planners' promises (Backend::verify) and words them
// with a PromiseChecker, so that every broken promise reads alike: the
// planner that makes it, the promise, and the values that break it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace stencilc {

class PromiseChecker {
public:
  /// Appends to `problems`; `planner` names the planner whose promises are
  /// checked ("planSimt"); `prefix` says of which plan, where a plan holds
  /// another ("the composed pass's plan: ").
  PromiseChecker(std::vector<std::string> &problems, std::string planner, std::string prefix = {})
      : problems(problems), planner(std::move(planner)), prefix(std::move(prefix)) {}

  /// Records `promise` as broken unless `holds`, with the values that break
  /// it (formatted only then: checks run on every plan in debug builds).
  /// Returns `holds`, so that a check can guard those after it.
  template <typename... Args>
  bool require(bool holds, std::string_view promise, fmt::format_string<Args...> values,
               Args &&...args) {
    if (!holds) {
      problems.push_back(fmt::format("{}{} promises {} ({})", prefix, planner, promise,
                                     fmt::format(values, std::forward<Args>(args)...)));
    }
    return holds;
  }

  /// The same checker for another planner of the same plan.
  PromiseChecker forPlanner(std::string other) const {
    return PromiseChecker(problems, std::move(other), prefix);
  }

private:
  std::vector<std::string> &problems;
  std::string planner;
  std::string prefix;
};

} // namespace stencilc
