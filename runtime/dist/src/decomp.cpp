// decomp.cpp - blocks, ghosts, neighbours and the exchange schedule.
#include "stencilc/dist/decomp.h"

#include <algorithm>

namespace stencilc::dist {

bool Box::operator==(const Box &o) const {
  return std::equal(lo, lo + MaxDims, o.lo) && std::equal(size, size + MaxDims, o.size);
}

long long blockStart(long long n, int parts, int index) {
  const long long base = n / parts, extra = n % parts;
  return index * base + std::min<long long>(index, extra);
}

int rankOf(const Layout &layout, const int coords[MaxDims]) {
  int rank = 0;
  for (int a = 0; a < layout.dims; ++a) {
    rank = rank * layout.grid[a] + coords[a];
  }
  return rank;
}

static std::string axisName(const Layout &layout, int axis) {
  static const char *const names[] = {"z", "y", "x"};
  return names[MaxDims - layout.dims + axis];
}

bool Decomposition::create(const Layout &layout, int rank, Decomposition &out, std::string &error) {
  if (layout.dims < 1 || layout.dims > MaxDims || layout.halo < 0 || layout.minSize < 1) {
    error = "bad layout (dims 1 to 3, halo >= 0, minimum size >= 1)";
    return false;
  }
  int ranks = 1;
  for (int a = 0; a < layout.dims; ++a) {
    if (layout.grid[a] < 1 || layout.global[a] < 1) {
      error = "every global size and process-grid entry must be positive";
      return false;
    }
    ranks *= layout.grid[a];
  }
  if (rank < 0 || rank >= ranks) {
    error = "rank " + std::to_string(rank) + " is outside the process grid of " +
            std::to_string(ranks) + " ranks";
    return false;
  }
  Decomposition d;
  d.layout_ = layout;
  d.rank_ = rank;
  int rest = rank;
  for (int a = layout.dims - 1; a >= 0; --a) {
    d.coords_[a] = rest % layout.grid[a];
    rest /= layout.grid[a];
  }
  for (int a = 0; a < layout.dims; ++a) {
    const int p = layout.grid[a], c = d.coords_[a];
    const long long n = layout.global[a];
    d.start_[a] = blockStart(n, p, c);
    d.owned_[a] = blockStart(n, p, c + 1) - d.start_[a];
    if (p == 1) {
      continue; // the whole axis is local: no ghosts, the run's boundary acts
    }
    // The thinnest block along the axis is n / p points (the remainder goes
    // to the first ones); every ghost band must come from one neighbour.
    if (n / p < std::max(layout.halo, 1)) {
      error = std::to_string(p) + " ranks along " + axisName(layout, a) + " cannot split its " +
              std::to_string(n) + " points: a block of " + std::to_string(n / p) +
              " is thinner than the halo of " + std::to_string(layout.halo) +
              " (the radius times the steps between exchanges)";
      return false;
    }
    for (int side = 0; side < 2; ++side) {
      int nc = c + (side == 0 ? -1 : 1);
      if (nc < 0 || nc >= p) {
        if (!layout.periodic) {
          continue;
        }
        nc = (nc + p) % p;
      }
      int coords[MaxDims];
      std::copy(d.coords_, d.coords_ + MaxDims, coords);
      coords[a] = nc;
      d.neighbour_[a][side] = rankOf(layout, coords);
      d.ghost_[a][side] = layout.halo;
    }
  }
  for (int a = 0; a < layout.dims; ++a) {
    if (d.local(a) < layout.minSize) {
      error = "the local array of rank " + std::to_string(rank) + " has " +
              std::to_string(d.local(a)) + " points along " + axisName(layout, a) +
              ", fewer than the stencil's minimum of " + std::to_string(layout.minSize);
      return false;
    }
  }
  out = d;
  return true;
}

long long Decomposition::localPoints() const {
  long long points = 1;
  for (int a = 0; a < layout_.dims; ++a) {
    points *= local(a);
  }
  return points;
}

Box Decomposition::ownedBox() const {
  Box box;
  for (int a = 0; a < layout_.dims; ++a) {
    box.lo[a] = ghost_[a][0];
    box.size[a] = owned_[a];
  }
  return box;
}

std::vector<Phase> Decomposition::schedule() const {
  std::vector<Phase> phases;
  const int h = layout_.halo;
  for (int a = 0; a < layout_.dims; ++a) {
    Phase phase;
    phase.axis = a;
    for (int side = 0; side < 2; ++side) {
      if (neighbour_[a][side] < 0 || h == 0) {
        continue;
      }
      // Axes before `a` span their ghosts (filled by the earlier phases:
      // edges and corners); later axes only the owned range.
      Box base = ownedBox();
      for (int e = 0; e < a; ++e) {
        base.lo[e] = 0;
        base.size[e] = local(e);
      }
      Message m;
      m.peer = neighbour_[a][side];
      m.sendTag = 2 * a + side;       // travels towards `side`
      m.recvTag = 2 * a + (1 - side); // came from the neighbour's other side
      m.send = base;
      m.recv = base;
      m.send.size[a] = m.recv.size[a] = h;
      m.send.lo[a] = side == 0 ? ghost_[a][0] : ghost_[a][0] + owned_[a] - h;
      m.recv.lo[a] = side == 0 ? 0 : ghost_[a][0] + owned_[a];
      phase.messages.push_back(m);
    }
    if (!phase.messages.empty()) {
      phases.push_back(phase);
    }
  }
  return phases;
}

bool Decomposition::slabs() const {
  for (int a = 1; a < layout_.dims; ++a) {
    if (layout_.grid[a] != 1) {
      return false;
    }
  }
  return true;
}

RangedPass storedRange(long long extent, long long targetBegin, long long targetEnd, int radius,
                       int stepsAfter) {
  const long long widen = static_cast<long long>(radius) * stepsAfter;
  RangedPass p;
  p.viewEnd = extent;
  p.storeBegin = std::max<long long>(0, targetBegin - widen);
  p.storeEnd = std::min(extent, targetEnd + widen);
  return p;
}

RangedPass plainPass(const Decomposition &d, int radius, int stepsAfter) {
  const long long first = d.ghost(0, 0);
  return storedRange(d.local(0), first, first + d.owned(0), radius, stepsAfter);
}

std::vector<RangedPass> overlapPasses(const Decomposition &d) {
  const long long h = d.layout().halo, owned = d.owned(0), local = d.local(0);
  const long long first = d.ghost(0, 0);
  const bool low = d.neighbour(0, 0) >= 0, high = d.neighbour(0, 1) >= 0;
  std::vector<RangedPass> passes;
  RangedPass interior;
  interior.viewBegin = first;
  interior.viewEnd = first + owned;
  interior.storeBegin = low ? h : 0;
  interior.storeEnd = owned - (high ? h : 0);
  interior.readsGhosts = false;
  if (interior.storeCount() > 0) {
    passes.push_back(interior);
  }
  for (int side = 0; side < 2; ++side) {
    if (!(side == 0 ? low : high)) {
      continue;
    }
    RangedPass band;
    band.viewBegin = side == 0 ? 0 : local - 3 * h;
    band.viewEnd = band.viewBegin + 3 * h;
    band.storeBegin = h;
    band.storeEnd = 2 * h;
    passes.push_back(band);
  }
  return passes;
}

} // namespace stencilc::dist
