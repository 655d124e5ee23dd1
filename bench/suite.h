// suite.h - the benchmark suite (issue 5) as data: each stencil's shape,
// radius and coefficients, the same as examples/suite/*.stencil.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "stencilc/runtime/stencil_info.h"

namespace stencilc::bench {

/// One suite stencil in one precision, owning the storage its info points at.
struct SuiteStencil {
  std::string name; // e.g. "box2d9p_fp16", as in the .stencil files
  std::vector<stencilc_point> points;
  stencilc_stencil_info info{};
};

/// Every suite stencil (heat1d, star1d5p, star2d5p, box2d9p, star2d9p,
/// box2d25p, star2d13p, box2d49p, star3d7p, box3d27p, star3d13p, box3d125p)
/// in every precision, boundary fixed: the centre weighs 0.5 and the other
/// points share 0.5 equally. Heap-allocated so the infos' pointers stay valid.
std::vector<std::unique_ptr<SuiteStencil>> suiteStencils();

} // namespace stencilc::bench
