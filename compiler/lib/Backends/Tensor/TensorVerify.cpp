//===- TensorVerify.cpp - What a tensor-core plan breaks of its promises ---===//
//
// The tensor backend's part of verifyPlan: the promises of planTensor
// (TensorPlanner.h's "Guarantees:": fragment loads aligned to their unit,
// every window element a GEMM reads filled, shared memory within the
// limit; and that the slice GEMMs compute the stencil), of
// planTensorFields (every term in one place, the launch's parameters
// within CUDA's) and of planTensorFusion (the composed pass).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "Backends/Common/VerifyPlan.h"
#include "Backends/Tensor/TensorFields.h"
#include "Backends/Tensor/TensorFusion.h"
#include "Backends/Tensor/TensorPlanner.h"

namespace stencilc {

namespace {

int operandBytes(const TensorPlan &tp) { return static_cast<int>(elementBytes(tp.mma.operand)); }

/// The MMA, the tile and the block: a precision and radius the MMAs take,
/// tiles of whole MMAs, whole tiles a block, at most a warp a tile, and
/// halos of the radius, which every other check relies on.
void verifyTiles(const Plan &plan, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const int r = spec.radius;
  c.require(spec.precision != Precision::FP32 && r <= maxTensorRadius(spec.precision) &&
                tp.mma.operand == spec.precision,
            "a precision the MMAs take, as their operand, and a radius of at most "
            "maxTensorRadius",
            "{} with {} operands, radius {}", keyword(spec.precision), keyword(tp.mma.operand), r);
  c.require(tp.tileM == tp.mma.m && tp.nBlocks >= 1 && tp.tileN == tp.nBlocks * tp.mma.n,
            "output tiles of whole MMAs (tileM = m, tileN = nBlocks x n)",
            "tile {} x {}, {} MMAs of {} across", tp.tileM, tp.tileN, tp.nBlocks, tp.mma.name());
  const int tiles = tp.tileRowsPerBlock * tp.tileColsPerBlock;
  c.require(tp.tileRowsPerBlock >= 1 && tp.tileColsPerBlock >= 1 && tp.warps >= 1 &&
                tp.warps <= tiles,
            "a block of whole tiles and between one warp and one a tile", "{} x {} tiles, {} warps",
            tp.tileRowsPerBlock, tp.tileColsPerBlock, tp.warps);
  c.require(tp.haloRows == (spec.dims == 1 ? 0 : r) && tp.haloCols >= r &&
                tp.planes == (spec.dims == 3 ? 2 * r + 1 : 1),
            "halos of the radius and a window slab per plane read",
            "haloRows {}, haloCols {}, planes {} for a {}D stencil of radius {}", tp.haloRows,
            tp.haloCols, tp.planes, spec.dims, r);
}

/// Each slice GEMM's matrix in its operand's shape (a Vertical slice's the
/// A operand, M x K; a Row slice's the B operand, K x n), on a plane the
/// window holds: the emitter and the emulator index it so, and so do the
/// checks after this one (false: they cannot run).
bool verifySliceShapes(const TensorPlan &tp, PromiseChecker &c) {
  for (const SliceGemm &g : tp.gemms) {
    const int K = g.chunkCount * tp.mma.k;
    const bool vertical = g.kind == SliceKind::Vertical;
    const bool shaped = g.chunkCount >= 1 && g.param.rows == (vertical ? tp.tileM : K) &&
                        g.param.cols == (vertical ? K : tp.mma.n) &&
                        g.param.values.size() == std::size_t(g.param.rows) * g.param.cols;
    if (!c.require(shaped && 2 * std::abs(g.dz) < tp.planes && (!vertical || g.dy == 0),
                   "slice matrices of their operand's shape, on a plane the window holds",
                   "{}: {} x {} for {} chunks of k {}, dz {}", g.label, g.param.rows, g.param.cols,
                   g.chunkCount, tp.mma.k, g.dz)) {
      return false;
    }
  }
  return c.require(!tp.gemms.empty(), "at least one slice GEMM", "none");
}

/// planTensor's first promise: every fragment load the plan implies aligned
/// to its unit: window rows (ldmatrix) and the tiles' and MMA blocks' first
/// columns at 16 bytes, a Row slice's A fragment at its pairs (fp16, bf16),
/// the global loads at whole 16-byte vectors.
void verifyAlignment(const TensorPlan &tp, PromiseChecker &c) {
  const int bytes = operandBytes(tp);
  const std::string_view promise = "every fragment load aligned to its unit";
  c.require(tp.vectorWidth * bytes == 16, promise, "vectorWidth {} of {}-byte elements",
            tp.vectorWidth, bytes);
  c.require(tp.windowPitch * bytes % 16 == 0, promise, "window rows of pitch {} ({} bytes)",
            tp.windowPitch, tp.windowPitch * bytes);
  c.require(tp.haloCols * bytes % 16 == 0 && tp.mma.n * bytes % 16 == 0, promise,
            "tile columns start at haloCols {} and every {} columns", tp.haloCols, tp.mma.n);
  c.require(tp.loadedColBegin * bytes % 16 == 0 && tp.loadedColEnd * bytes % 16 == 0, promise,
            "loaded columns [{}, {})", tp.loadedColBegin, tp.loadedColEnd);
  const int unit = operandLoadWidth(tp.mma.operand);
  for (const SliceGemm &g : tp.gemms) {
    if (!c.require(g.kind == SliceKind::Vertical || g.firstK % unit == 0, promise,
                   "{}: K starts at column {}, the A fragment loads {} at a time", g.label,
                   g.firstK, unit)) {
      return;
    }
  }
}

/// The window's rows and columns a slice GEMM reads (of its slab, for the
/// tiles and MMA blocks of a whole block): [rowBegin, rowEnd) x [colBegin,
/// colEnd).
struct WindowReach {
  int rowBegin, rowEnd, colBegin, colEnd;
};
WindowReach reachOf(const TensorPlan &tp, const SliceGemm &g) {
  const int K = g.chunkCount * tp.mma.k;
  const int lastTileRow = tp.blockRows() - tp.tileM, lastMmaCol = tp.blockCols() - tp.mma.n;
  if (g.kind == SliceKind::Vertical) {
    return {g.firstK, lastTileRow + g.firstK + K, tp.haloCols, lastMmaCol + tp.haloCols + tp.mma.n};
  }
  const int row = tp.haloRows + g.dy;
  return {row, lastTileRow + row + tp.tileM, g.firstK, lastMmaCol + g.firstK + K};
}

/// planTensor's second promise: every window element a GEMM reads filled,
/// for the window is filled where it is loaded and zero elsewhere: every
/// read lies inside the window.
void verifyWindowReads(const TensorPlan &tp, PromiseChecker &c) {
  const std::string_view promise = "every window element a GEMM reads filled";
  c.require(tp.loadedRows <= tp.windowRows && 0 <= tp.loadedColBegin &&
                tp.loadedColBegin <= tp.loadedColEnd && tp.loadedColEnd <= tp.windowPitch &&
                tp.windowCols <= tp.windowPitch,
            promise, "rows [0, {}) and columns [{}, {}) loaded of a {} x {} window, pitch {}",
            tp.loadedRows, tp.loadedColBegin, tp.loadedColEnd, tp.windowRows, tp.windowCols,
            tp.windowPitch);
  for (const SliceGemm &g : tp.gemms) {
    const WindowReach at = reachOf(tp, g);
    if (!c.require(at.rowBegin >= 0 && at.rowEnd <= tp.windowRows && at.colBegin >= 0 &&
                       at.colEnd <= tp.windowCols,
                   promise, "{} reads rows [{}, {}), columns [{}, {}) of a {} x {} window", g.label,
                   at.rowBegin, at.rowEnd, at.colBegin, at.colEnd, tp.windowRows, tp.windowCols)) {
      return;
    }
  }
}

/// Whether element `e` of gemm `gi`'s matrix multiplies something: a
/// non-zero parameter, or (a stencil of fields, whose matrices the host
/// code fills) an element some group holds a term at.
bool live(const TensorPlan &tp, std::size_t gi, std::size_t e, std::size_t firstElement) {
  if (!tp.fields) {
    return tp.gemms[gi].param.values[e] != 0.0;
  }
  return std::any_of(tp.fields->paramTerms.begin(), tp.fields->paramTerms.end(),
                     [&](const std::vector<int> &map) {
                       return firstElement + e < map.size() && map[firstElement + e] >= 0;
                     });
}

/// What the zero fill is for: every element a non-zero parameter
/// multiplies is loaded from the input (the rest only meets zeros).
void verifyLiveReads(const TensorPlan &tp, PromiseChecker &c) {
  std::size_t first = 0;
  for (std::size_t gi = 0; gi < tp.gemms.size(); ++gi) {
    const SliceGemm &g = tp.gemms[gi];
    const WindowReach at = reachOf(tp, g);
    const bool vertical = g.kind == SliceKind::Vertical;
    for (std::size_t e = 0; e < g.param.values.size(); ++e) {
      if (!live(tp, gi, e, first)) {
        continue;
      }
      // The window row (Vertical) or column (Row) element e reads first;
      // the block's other tiles and MMA blocks read it shifted.
      const int kk = vertical ? int(e) % g.param.cols : int(e) / g.param.cols;
      const int rowBegin = vertical ? g.firstK + kk : at.rowBegin;
      const int rowEnd = vertical ? rowBegin + tp.blockRows() - tp.tileM + 1 : at.rowEnd;
      const int colBegin = vertical ? at.colBegin : g.firstK + kk;
      const int colEnd = vertical ? at.colEnd : colBegin + tp.blockCols() - tp.mma.n + 1;
      if (!c.require(rowBegin >= 0 && rowEnd <= tp.loadedRows && colBegin >= tp.loadedColBegin &&
                         colEnd <= tp.loadedColEnd,
                     "every window element a non-zero parameter multiplies loaded from the input",
                     "{} element {} reads rows [{}, {}), columns [{}, {}); loaded rows [0, {}), "
                     "columns [{}, {})",
                     g.label, e, rowBegin, rowEnd, colBegin, colEnd, tp.loadedRows,
                     tp.loadedColBegin, tp.loadedColEnd)) {
        return;
      }
    }
    first += g.param.values.size();
  }
}

/// planTensor's third promise: sharedBytes() within the limit, and it counts
/// what the kernel declares: every window, every group's matrices.
void verifySharedMemory(const TensorPlan &tp, const PlanOptions &options, PromiseChecker &c) {
  const int bytes = operandBytes(tp);
  const int groups = tp.fields ? int(tp.fields->paramTerms.size()) : 1;
  c.require(tp.windowBytes == tp.planes * tp.windowRows * tp.windowPitch * bytes &&
                tp.paramBytes == groups * tp.paramElements() * bytes + tp.sparseSliceBytes(),
            "sharedBytes() counting the whole window, every group's matrices and the sparse "
            "form's slices",
            "windowBytes {} for {} slabs of {} x {}, paramBytes {} for {} groups of {} elements",
            tp.windowBytes, tp.planes, tp.windowRows, tp.windowPitch, tp.paramBytes, groups,
            tp.paramElements());
  c.require(tp.sharedBytes() <= options.sharedMemoryLimit, "sharedBytes() within the limit",
            "{} bytes, limit {}", tp.sharedBytes(), options.sharedMemoryLimit);
}

/// The blocks a multiprocessor the tile kernel asks for: tileMinBlocks's,
/// and as many blocks' shared memory within what a multiprocessor holds (at
/// least what one block may opt in to, stackedSharedLimit).
void verifyMinBlocks(const Plan &plan, const PlanOptions &options, PromiseChecker &c) {
  const TensorPlan &tp = plan.tensor();
  c.require(tp.minBlocks == tileMinBlocks(plan.spec, tp, options) &&
                tp.minBlocks * tp.sharedBytes() <= stackedSharedLimit(options),
            "blocks a multiprocessor where tileMinBlocks asks them, their shared memory "
            "within the limit",
            "{} blocks of {} bytes, tileMinBlocks {}, limit {}", tp.minBlocks, tp.sharedBytes(),
            tileMinBlocks(plan.spec, tp, options), stackedSharedLimit(options));
}

/// The offset, in the spec's index order, that the element at `kk` along K
/// of a slice's matrix multiplies for output (m, n) of an MMA: a Vertical
/// slice's element (m, kk) reads window row firstK + kk of the output's
/// column, a Row slice's (kk, n) window column firstK + kk of its row.
Offset offsetAt(const StencilSpec &spec, const TensorPlan &tp, const SliceGemm &g, int kk, int m,
                int n) {
  const bool vertical = g.kind == SliceKind::Vertical;
  const int dy = vertical ? g.firstK + kk - m - tp.haloRows : g.dy;
  const int dx = vertical ? 0 : g.firstK + kk - tp.haloCols - n;
  Offset o;
  o.d = spec.dims == 1   ? std::array<int, 3>{dx, 0, 0}
        : spec.dims == 2 ? std::array<int, 3>{dy, dx, 0}
                         : std::array<int, 3>{g.dz, dy, dx};
  if (spec.dims == 1 && dy != 0) {
    o.d = {spec.radius + 1, 0, 0}; // a line has one row: another row is no offset of it
  }
  return o;
}

/// Calls `each(offset, gemm, element, mapElement)` for every element of
/// the slice GEMMs' matrices that reaches output (m, n): `element` indexes
/// its gemm's values, `mapElement` every gemm's in order (a stencil of
/// fields' maps).
template <typename Each>
void forEachReach(const StencilSpec &spec, const TensorPlan &tp, int m, int n, Each each) {
  std::size_t first = 0;
  for (std::size_t gi = 0; gi < tp.gemms.size(); ++gi) {
    const SliceGemm &g = tp.gemms[gi];
    const bool vertical = g.kind == SliceKind::Vertical;
    for (int kk = 0; kk < g.chunkCount * tp.mma.k; ++kk) {
      const std::size_t e =
          vertical ? std::size_t(m) * g.param.cols + kk : std::size_t(kk) * g.param.cols + n;
      each(offsetAt(spec, tp, g, kk, m, n), gi, e, first + e);
    }
    first += g.param.values.size();
  }
}

/// "(dz, dy, dx)" or fewer, in the spec's index order.
std::string offsetText(const StencilSpec &spec, const Offset &o) {
  return spec.dims == 1   ? fmt::format("({})", o.d[0])
         : spec.dims == 2 ? fmt::format("({}, {})", o.d[0], o.d[1])
                          : fmt::format("({}, {}, {})", o.d[0], o.d[1], o.d[2]);
}

/// That the slice GEMMs compute the stencil (sliceGemms: "the centre is
/// counted in exactly one slice"): for every output of an MMA, each
/// offset's coefficient rounded once to the operand type, exactly once.
void verifyStencilSum(const Plan &plan, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  std::map<Offset, std::vector<double>> expected;
  for (const Term &t : spec.terms) {
    if (const double v = roundCoefficient(t.coefficient, spec.precision); v != 0.0) {
      expected[t.offset] = {v};
    }
  }
  for (int m = 0; m < tp.tileM; ++m) {
    for (int n = 0; n < tp.mma.n; ++n) {
      std::map<Offset, std::vector<double>> got;
      forEachReach(spec, tp, m, n,
                   [&](const Offset &o, std::size_t gi, std::size_t e, std::size_t) {
                     if (const double v = tp.gemms[gi].param.values[e]; v != 0.0) {
                       got[o].push_back(v);
                     }
                   });
      if (got == expected) {
        continue;
      }
      // The first offset that differs, for the message.
      auto differs = [&](const auto &x, const auto &y) {
        for (const auto &[o, v] : x) {
          const auto it = y.find(o);
          if (it == y.end() || it->second != v) {
            return o;
          }
        }
        return Offset{};
      };
      const Offset o =
          got.size() >= expected.size() ? differs(got, expected) : differs(expected, got);
      const auto at = [&](const auto &map) {
        const auto it = map.find(o);
        return it == map.end() ? std::string("nothing")
                               : fmt::format("{}", fmt::join(it->second, " + "));
      };
      c.require(false,
                "slice GEMMs that sum to the stencil: each offset's coefficient, rounded once, "
                "once for every output",
                "output ({}, {}) of an MMA gets {} at offset {}, the stencil {}", m, n, at(got),
                offsetText(spec, o), at(expected));
      return;
    }
  }
}

/// Group g's map: at every output, each element the group's GEMMs run
/// holds a term of the group's window field and coefficient field read at
/// the offset the element multiplies, each of its terms once; the GEMMs it
/// skips hold none of its terms.
bool verifyGroupMap(const Plan &plan, std::size_t g, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const TensorFieldsPlan &f = *tp.fields;
  const std::vector<int> &map = f.paramTerms[g];
  std::size_t first = 0;
  for (std::size_t gi = 0; gi < tp.gemms.size(); ++gi) {
    const std::size_t end = first + tp.gemms[gi].param.values.size();
    if (!c.require(f.runs(g, gi) ||
                       std::all_of(map.begin() + std::ptrdiff_t(first),
                                   map.begin() + std::ptrdiff_t(end), [](int t) { return t < 0; }),
                   "a group skips only the GEMMs it holds no term in", "group {} skips {}", g,
                   tp.gemms[gi].label)) {
      return false;
    }
    first = end;
  }
  std::set<int> held(map.begin(), map.end());
  held.erase(-1);
  const int window = f.windowFields[std::size_t(f.groupWindow[g])];
  for (int m = 0; m < tp.tileM; ++m) {
    for (int n = 0; n < tp.mma.n; ++n) {
      std::map<int, int> times;
      std::string wrong;
      forEachReach(spec, tp, m, n,
                   [&](const Offset &o, std::size_t gi, std::size_t, std::size_t e) {
                     const int t = map[e];
                     if (t < 0 || !f.runs(g, gi)) {
                       return;
                     }
                     ++times[t];
                     const FieldTerm &term = spec.fieldTerms[std::size_t(t)];
                     if (wrong.empty() && (term.offset != o || term.field != window ||
                                           term.coefficientField != f.groupCoefficientField[g])) {
                       wrong = fmt::format("term {} at offset {}", t, offsetText(spec, o));
                     }
                   });
      const bool once = times.size() == held.size() &&
                        std::all_of(times.begin(), times.end(),
                                    [](const auto &entry) { return entry.second == 1; });
      if (!c.require(wrong.empty() && once,
                     "each group's matrices hold its terms at their offsets, once for every "
                     "output",
                     "group {}, output ({}, {}): {}{} of its {} terms", g, m, n,
                     wrong.empty() ? "" : wrong + "; ", times.size(), held.size())) {
        return false;
      }
    }
  }
  return true;
}

/// planTensorFields' groups: their windows and coefficient fields, every
/// element of a group's matrices a term of the group's at the offset the
/// element multiplies, once for every output, and every term computed in
/// exactly one place (a group's GEMMs or the epilogue).
void verifyFieldGroups(const Plan &plan, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const TensorFieldsPlan &f = *tp.fields;
  const std::size_t groups = f.paramTerms.size();
  const std::size_t terms = spec.fieldTerms.size();
  const bool windowsRead = !f.windowFields.empty() && f.gemmField == f.windowFields.front() &&
                           std::all_of(f.windowFields.begin(), f.windowFields.end(), [&](int w) {
                             return w >= 0 && std::size_t(w) < spec.fields.size();
                           });
  const bool shaped =
      groups >= 1 && f.groupWindow.size() == groups && f.groupCoefficientField.size() == groups &&
      (f.groupRunsGemm.empty() || f.groupRunsGemm.size() == groups) &&
      std::all_of(f.paramTerms.begin(), f.paramTerms.end(),
                  [&](const std::vector<int> &map) {
                    return map.size() == std::size_t(tp.paramElements()) &&
                           std::all_of(map.begin(), map.end(), [&](int t) {
                             return t >= -1 && (t < 0 || std::size_t(t) < terms);
                           });
                  }) &&
      std::all_of(f.groupWindow.begin(), f.groupWindow.end(),
                  [&](int w) { return w >= 0 && std::size_t(w) < f.windowFields.size(); }) &&
      std::all_of(f.groupRunsGemm.begin(), f.groupRunsGemm.end(),
                  [&](const std::vector<bool> &runs) { return runs.size() == tp.gemms.size(); });
  if (!c.require(windowsRead && shaped,
                 "accumulator groups each with a window, a coefficient field and a map of its "
                 "matrices' terms",
                 "{} groups, {} windows, {} maps of {} elements", groups, f.windowFields.size(),
                 f.paramTerms.size(), tp.paramElements())) {
    return;
  }
  std::vector<int> places(terms, 0);
  for (std::size_t g = 0; g < groups; ++g) {
    for (int t : std::set<int>(f.paramTerms[g].begin(), f.paramTerms[g].end())) {
      if (t >= 0) {
        ++places[std::size_t(t)];
      }
    }
  }
  for (int t : f.pointTerms) {
    if (t >= 0 && std::size_t(t) < terms) {
      ++places[std::size_t(t)];
    }
  }
  const auto misplaced = std::find_if(places.begin(), places.end(), [](int p) { return p != 1; });
  c.require(misplaced == places.end() && f.pointTerms.size() <= terms,
            "every term computed in exactly one place: a group's GEMMs or the epilogue",
            "term {} in {} places", misplaced - places.begin(),
            misplaced == places.end() ? 0 : *misplaced);
  for (std::size_t g = 0; g < groups; ++g) {
    if (!verifyGroupMap(plan, g, c)) {
      return;
    }
  }
}

/// planTensorFields' launch: the matrices, the fields' pointers and the
/// point terms' coefficients within a kernel's parameters.
void verifyLaunchArguments(const Plan &plan, PromiseChecker &c) {
  const TensorPlan &tp = plan.tensor();
  const int argBytes =
      tp.paramBytes + 8 * int(plan.spec.fields.size()) + 8 * int(tp.fields->pointTerms.size());
  c.require(argBytes <= MaxKernelParamBytes, "a launch's arguments within a kernel's parameters",
            "{} bytes, at most {}", argBytes, MaxKernelParamBytes);
}

/// The sparse form (tensor.cuh, gemmRowSparse) exactly where mma=sparse
/// asked and the stencil allows, and then what its kernel assumes: every
/// row slice in order, each K of 32 columns from the tile's first window
/// column, MMA blocks in pairs, whole 64-element window rows for the
/// swizzle, each lane's slices in registers only where they fit.
void verifySparse(const Plan &plan, const PlanOptions &options, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  PlanOptions paired = options; // the plan's MMA blocks, as the planner paired them
  paired.nBlocks = tp.nBlocks;
  const bool wanted = options.mma == MmaRequest::Sparse && !sparseMmaUnavailable(spec, paired);
  if (!c.require(tp.sparse == wanted,
                 "the sparse form exactly where mma=sparse asked and the "
                 "stencil allows (sparseMmaUnavailable)",
                 "sparse {}, asked {}", tp.sparse, options.mma == MmaRequest::Sparse) ||
      !tp.sparse) {
    return;
  }
  bool rowsInOrder = std::ssize(tp.gemms) == 2 * spec.radius + 1;
  for (std::size_t i = 0; rowsInOrder && i < tp.gemms.size(); ++i) {
    const SliceGemm &g = tp.gemms[i];
    rowsInOrder = g.kind == SliceKind::Row && g.dy == static_cast<int>(i) - spec.radius &&
                  g.firstK == 0 && g.chunkCount * tp.mma.k == SparseMmaK;
  }
  c.require(rowsInOrder && tp.nBlocks % 2 == 0 && tp.haloCols == tp.vectorWidth &&
                tp.windowPitch % SparseSwizzleBlock == 0,
            "the sparse form's slices: every row dy = -r..r in order, K = 32 from column 0, "
            "MMA blocks in pairs, an 8-column halo and whole 64-element window rows",
            "{} slices, n-blocks {}, halo {}, pitch {}", tp.gemms.size(), tp.nBlocks, tp.haloCols,
            tp.windowPitch);
  c.require(tp.paramsInRegisters == (tp.paramFragmentRegisters() <= options.paramRegisterBudget),
            "the sparse slices in registers exactly where they fit the budget",
            "{} registers, budget {}, in registers {}", tp.paramFragmentRegisters(),
            options.paramRegisterBudget, tp.paramsInRegisters);
}

/// Whether the half `h` of a group of `count` chunks lies in its window and
/// reaches every column its row's nonzero weights read for an MMA block's 8
/// outputs.
bool stackedHalfHoldsRow(const StencilSpec &spec, const StackedHalf &h, int count) {
  if (h.row < 0 || h.row > 2 * spec.radius || h.window < 0 || h.window > 1 || h.first < 0 ||
      h.first + count > stackedWindowChunks(spec.radius, h.window)) {
    return false;
  }
  const int begin = 8 * h.first - stackedHaloCols(spec.radius, h.window), end = begin + 8 * count;
  for (int dx = -spec.radius; dx <= spec.radius; ++dx) {
    const bool reached = begin <= dx && 7 + dx < end;
    if (!reached && stackedTap(spec, h.row, dx) != 0.0) {
      return false;
    }
  }
  return true;
}

/// The stacked form's groups: every stencil row with a nonzero weight in
/// exactly one half, each half within its window and reaching every
/// column its row reads; the shifted window exactly where a half is in it,
/// only where --plan-option windows=two asks, a strip then of
/// StackedShiftedBlocks MMA blocks; and the groups stackedGroups chose.
void verifyStackedGroups(const Plan &plan, const PlanOptions &options, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  std::vector<int> uses(std::size_t(2 * spec.radius + 1), 0);
  bool held = !tp.stackedGroups.empty(), shifted = false;
  for (const StackedGroup &g : tp.stackedGroups) {
    held = held && g.count >= 1 && g.count <= stackedWindowChunks(spec.radius, 0);
    for (int h = 0; h < (g.paired() ? 2 : 1); ++h) {
      held = held && stackedHalfHoldsRow(spec, g.half[h], g.count);
      if (g.half[h].row >= 0 && g.half[h].row <= 2 * spec.radius) {
        ++uses[std::size_t(g.half[h].row)];
      }
    }
    shifted = shifted || g.shiftedHalves() > 0;
  }
  for (int row = 0; row <= 2 * spec.radius; ++row) {
    bool weighted = false;
    for (int dx = -spec.radius; dx <= spec.radius; ++dx) {
      weighted = weighted || stackedTap(spec, row, dx) != 0.0;
    }
    held = held && uses[std::size_t(row)] <= 1 && (!weighted || uses[std::size_t(row)] == 1);
  }
  c.require(held,
            "the stacked form's groups: each row with a nonzero weight in exactly one, each "
            "half within its window and reaching every column its row's weights read",
            "{} groups", tp.stackedGroups.size());
  c.require(tp.shiftedWindow == shifted && (!shifted || options.windows == WindowsRequest::Two) &&
                tp.nBlocks == (shifted ? StackedShiftedBlocks : StackedBlocks),
            "the shifted window exactly where a group reads it, only where --plan-option "
            "windows=two asks, its strips StackedShiftedBlocks MMA blocks",
            "shifted {}, halves in window 1 {}, {} blocks", tp.shiftedWindow, shifted, tp.nBlocks);
  const auto chosen = stackedGroups(spec, options.windows == WindowsRequest::Two);
  c.require(tp.stackedGroups == chosen,
            "the stacked form's groups those stackedGroups chooses (the fewest K halves)",
            "{} groups, chosen {}", tp.stackedGroups.size(), chosen.size());
}

/// The stacked form (stencilc/device/stacked.cuh) exactly where
/// stackedMmaChosen says, and then what its kernel assumes: strips of 16
/// rows by StackedBlocks MMA blocks, one a warp, StackedWarps a block; a
/// window of the block and r rows and r rounded up to 8 columns around it, its rows an odd
/// number of 16-byte vectors apart (ldmatrix without bank conflicts), all
/// of it filled; two windows and the warps' stages (where it stages its
/// stores, only the stacked form) within the shared memory a block may use;
/// the weights of the 2r + 1 row slices in order; exactly the MMAs of zero
/// weights skipped.
void verifyStacked(const Plan &plan, const PlanOptions &options, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const bool wanted = stackedMmaChosen(spec, options);
  c.require(tp.mappedWindows == stackedWindowsMapped(spec, tp, options),
            "windows copied by the tensor memory accelerator exactly where stackedWindowsMapped "
            "says: the stacked form, sm_90 on, a fixed grid, unless copy=threads asks",
            "mapped {}, stacked {}", tp.mappedWindows, tp.stacked);
  if (!c.require(tp.stacked == wanted && !(tp.stacked && tp.sparse),
                 "the stacked form exactly where stackedMmaChosen says, never with the sparse "
                 "form",
                 "stacked {}, chosen {}, sparse {}", tp.stacked, wanted, tp.sparse) ||
      !c.require(tp.stacked || !tp.stagedStores, "stores staged only in the stacked form",
                 "staged, not stacked") ||
      !tp.stacked) {
    return;
  }
  const int r = spec.radius, bytes = operandBytes(tp);
  c.require(tp.tileM == 16 && tp.tileN == 8 * tp.nBlocks && tp.tileRowsPerBlock == StackedWarps &&
                tp.warps == StackedWarps && tp.tileColsPerBlock == 1 && tp.splitAccumulators >= 1 &&
                tp.splitAccumulators <= StackedSplit,
            "the stacked form's strips: 16 rows by MMA blocks, one a warp, "
            "StackedWarps a block, an MMA block's sums in at most StackedSplit accumulators",
            "tile {} x {}, {} blocks, {} x {} strips, {} warps, {} accumulators", tp.tileM,
            tp.tileN, tp.nBlocks, tp.tileRowsPerBlock, tp.tileColsPerBlock, tp.warps,
            tp.splitAccumulators);
  c.require(tp.haloRows == r && tp.haloCols == stackedHaloCols(r, 0) &&
                tp.windowRows == tp.blockRows() + 2 * r && tp.loadedRows == tp.windowRows &&
                tp.windowCols == tp.blockCols() + 2 * tp.haloCols && tp.loadedColBegin == 0 &&
                tp.loadedColEnd == tp.windowCols && tp.windowPitch >= tp.windowCols &&
                tp.windowPitch * bytes % 32 == 16 &&
                tp.windowBytes == (tp.windowRows * tp.windowPitch * bytes + 127) / 128 * 128,
            "the stacked form's window: the block, r rows and r rounded up to 8 columns around "
            "it, all filled, "
            "rows an odd number of 16-byte vectors apart, windows 128 bytes aligned",
            "halo {} / {}, window {} x {} (loaded {}, [{}, {})), pitch {}", tp.haloRows,
            tp.haloCols, tp.windowRows, tp.windowCols, tp.loadedRows, tp.loadedColBegin,
            tp.loadedColEnd, tp.windowPitch);
  const int stageBytes = tp.warps * 16 * TensorPlan::StagePitch * bytes;
  c.require(tp.stageBytes() == stageBytes &&
                tp.sharedBytes() == tp.stackedWindowsBytes() + (tp.stagedStores ? stageBytes : 0) &&
                tp.stackedWindowsBytes() <= (tp.stackedWindowsOptIn()
                                                 ? stackedSharedLimit(options)
                                                 : options.sharedMemoryLimit) &&
                (!tp.stagedStores || stackedStepStages(spec, tp, options)),
            "the stacked form's windows within the shared-memory limit (two; four with the "
            "shifted ones, and past radius 8, within what a block may opt in to), with its "
            "warps' "
            "stages (16 rows each) only where StackedMinBlocks blocks with them fit the dynamic "
            "shared memory a block may opt in to, and not on a periodic grid at radius 7 or 8",
            "{} bytes (stages {}), limits {} and {}", tp.sharedBytes(), tp.stageBytes(),
            options.sharedMemoryLimit, stackedSharedLimit(options));
  c.require(tp.minBlocks == stackedMinBlocks(tp),
            "the stacked form's blocks a multiprocessor (launch bounds) as stackedMinBlocks says",
            "{} blocks, stackedMinBlocks {}", tp.minBlocks, stackedMinBlocks(tp));
  verifyStackedGroups(plan, options, c);
  bool rowsInOrder = std::ssize(tp.gemms) == 2 * r + 1;
  for (std::size_t i = 0; rowsInOrder && i < tp.gemms.size(); ++i) {
    rowsInOrder = tp.gemms[i].kind == SliceKind::Row && tp.gemms[i].dy == static_cast<int>(i) - r;
  }
  c.require(rowsInOrder, "the stacked form's rows: a row slice for each dy = -r..r, in order",
            "{} slices", tp.gemms.size());
}

/// The kernel of one step (planTensor's promises; planTensorFields' where
/// it is a stencil of fields), of a plan or of a composed pass.
void verifyKernel(const Plan &plan, const PlanOptions &options, PromiseChecker &c) {
  const TensorPlan &tp = plan.tensor();
  verifyStacked(plan, options, c);
  if (tp.stacked) { // its own geometry, checked above; its weights the row slices'
    verifyStencilSum(plan, c);
    return;
  }
  verifyTiles(plan, c);
  if (!verifySliceShapes(tp, c) ||
      !c.require(tp.fields.has_value() == plan.spec.hasFields(),
                 "accumulator groups exactly for a stencil of fields", "{} for {}",
                 tp.fields ? "groups" : "no groups",
                 plan.spec.hasFields() ? "a stencil of fields" : "one field")) {
    return;
  }
  verifyAlignment(tp, c);
  verifyWindowReads(tp, c);
  if (tp.fields) {
    PromiseChecker fields = c.forPlanner("planTensorFields");
    verifyFieldGroups(plan, fields);
    verifyLaunchArguments(plan, fields);
  } else {
    verifyStencilSum(plan, c);
  }
  verifyLiveReads(tp, c);
  verifySharedMemory(tp, options, c);
  verifyMinBlocks(plan, options, c);
  verifySparse(plan, options, c);
}

/// How a stacked kernel launches (stacked.cuh's kPromotion and
/// kPersistent), a single step's or a composed pass's step's (`composed`):
/// its L2 promotion as stackedWindowPromotion says, its grid as
/// stackedPersistentGrid says for `tilesFaster`.
void verifyStackedLaunch(const TensorPlan &tp, const PlanOptions &options, bool composed,
                         bool tilesFaster, PromiseChecker &c) {
  const std::string_view kernel = composed ? "a composed pass's" : "a single step's";
  c.require(
      tp.windowPromotion == stackedWindowPromotion(tp, composed),
      fmt::format("{} mapped windows read with stackedWindowPromotion's L2 promotion", kernel),
      "{} bytes", tp.windowPromotion);
  c.require(tp.persistentGrid == stackedPersistentGrid(tp, options, tilesFaster),
            fmt::format("{} in stackedPersistentGrid's grid",
                        composed ? "a composed pass's step" : "a single step"),
            "persistent {}", tp.persistentGrid);
}

/// A composed pass's promises: of `steps` steps, planned on tensor cores
/// for the stencil composed that many times, of a radius a tile takes, its
/// stores from registers (not staged: its MMAs bind it), its two kernels
/// within the shared memory a block may use, its plan sound.
void verifyPass(const Plan &plan, const ComposedPass &pass, int steps, const PlanOptions &options,
                PromiseChecker &c, std::vector<std::string> &problems) {
  const StencilSpec &spec = plan.spec;
  const int radius = steps * spec.radius;
  const int most =
      pass.plan && pass.plan->backend() == BackendKind::Tensor && pass.plan->tensor().stacked
          ? StackedMaxRadius
          : maxTensorRadius(spec.precision);
  c.require(pass.steps == steps && spec.dims == 2 && radius <= most,
            "a composed pass only in 2D, of a radius steps x r a tile takes",
            "{} steps (expected {}), {}D, steps x r = {}, at most {}", pass.steps, steps, spec.dims,
            radius, most);
  if (!c.require(pass.plan && pass.plan->backend() == BackendKind::Tensor &&
                     pass.plan->spec.name == spec.name && pass.plan->spec.radius <= radius &&
                     pass.plan->schedule.fusedSteps == 1,
                 "a composed pass planned on tensor cores for the stencil composed steps times",
                 "{}", pass.plan ? pass.plan->spec.name : std::string("no plan"))) {
    return;
  }
  c.require(!pass.plan->tensor().stagedStores, "a composed pass's stores not staged",
            "the composed step stages its stores");
  verifyStackedLaunch(pass.plan->tensor(), options, true, composedStepInTiles(plan.spec), c);
  c.require(!pass.plan->tensor().stacked ||
                pass.plan->tensor().splitAccumulators == StackedComposedSplit,
            "a composed pass's stacked step sums in StackedComposedSplit accumulators",
            "{} accumulators", pass.plan->tensor().splitAccumulators);
  const std::optional<std::string> overflow = composedOverflow(spec, steps);
  c.require(!overflow, "a composed pass's coefficients finite as operands", "{}",
            overflow.value_or(""));
  const int composedBytes = pass.plan->tensor().unoptedSharedBytes();
  c.require(pass.band.sharedBytes == bandSharedBytes(spec, steps, pass.band.tile) &&
                pass.band.stripBytes == bandStripBytes(spec, steps, plan.target) &&
                std::max({composedBytes, pass.band.sharedBytes, pass.band.stripBytes}) <=
                    options.sharedMemoryLimit,
            "a pass's kernels within the shared memory a block may use",
            "composed {} bytes, band {} bytes in tiles and {} in strips, limit {}", composedBytes,
            pass.band.sharedBytes, pass.band.stripBytes, options.sharedMemoryLimit);
  PromiseChecker composed(problems, "planTensor", "the composed pass's plan: ");
  verifyKernel(*pass.plan, composedPassOptions(options), composed);
}

/// planTensorFusion's promises: a composed pass exactly where T > 1, only
/// for a 2D stencil (verifyPass); a remainder pass of T / 2 >= 2 steps only
/// beside a stacked composed step, stacked itself.
void verifyComposedPass(const Plan &plan, const PlanOptions &options,
                        std::vector<std::string> &problems) {
  const Schedule &s = plan.schedule;
  PromiseChecker c(problems, "planTensorFusion");
  if (!c.require(s.composed.has_value() == (s.fusedSteps > 1),
                 "fusedSteps > 1 exactly with a composed pass (the tensor cores' fused kernel)",
                 "fusedSteps {}, {}", s.fusedSteps, s.composed ? "composed" : "no composed pass") ||
      !s.composed) {
    c.require(!s.remainder, "a remainder pass only beside a composed pass", "a remainder pass");
    return;
  }
  verifyPass(plan, *s.composed, s.fusedSteps, options, c, problems);
  if (!s.remainder) {
    return;
  }
  const bool stacked = s.composed->plan && s.composed->plan->tensor().stacked &&
                       s.remainder->plan && s.remainder->plan->tensor().stacked;
  if (c.require(s.fusedSteps / 2 >= 2 && stacked && s.remainder->band.tile == s.composed->band.tile,
                "a remainder pass of T / 2 >= 2 steps, stacked beside a stacked composed step, "
                "its band in the same tiles (the code has one kBandTile)",
                "T {}, {}, band tiles {} and {}", s.fusedSteps,
                stacked ? "stacked" : "not both stacked", s.remainder->band.tile,
                s.composed->band.tile)) {
    verifyPass(plan, *s.remainder, s.fusedSteps / 2, options, c, problems);
  }
}

} // namespace

void verifyTensorPlan(const Plan &plan, const PlanOptions &options,
                      std::vector<std::string> &problems) {
  PromiseChecker c(problems, plan.spec.hasFields() ? "planTensorFields" : "planTensor");
  c.require(!plan.choice.empty(), "a choice that says why the tensor cores", "choice is empty");
  verifyKernel(plan, options, c);
  verifyStackedLaunch(plan.tensor(), options, false, true, c);
  verifyComposedPass(plan, options, problems);
}

} // namespace stencilc
