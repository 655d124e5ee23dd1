// decomp.h - the domain decomposition of the distributed runtime
// (docs/distributed.md): which block of the global grid a rank owns, its
// ghost bands, its neighbours, and the halo-exchange schedule. Plain C++17,
// no MPI and no CUDA, so it is unit-tested on its own.
//
// Axes are in index order, outermost first (z, y, x in 3D), as the
// generated API takes sizes. A rank's local array is its owned block plus a
// ghost band of width `halo` on every side that has a neighbour; an axis the
// process grid does not split (1 rank along it) has no ghosts, and the local
// run's own boundary acts at its edges, which are the global edges.
#pragma once

#include <string>
#include <vector>

namespace stencilc::dist {

constexpr int MaxDims = 3;

/// A box of the local array: `lo` and `size` per axis (the first `dims`
/// entries are used; the rest are 0 and 1).
struct Box {
  long long lo[MaxDims] = {0, 0, 0};
  long long size[MaxDims] = {1, 1, 1};

  long long count() const { return size[0] * size[1] * size[2]; }
  bool operator==(const Box &o) const;
};

/// One message of an exchange phase: this rank sends `send` to `peer`
/// (tagged `sendTag`) and receives from `peer` into `recv` (tagged
/// `recvTag`). Both boxes hold the same number of points.
struct Message {
  int peer = -1;
  int sendTag = 0;
  int recvTag = 0;
  Box send;
  Box recv;
};

/// The messages of one axis. Phases run in axis order; a phase's boxes span
/// the ghosts of the axes before it, so edges and corners arrive too.
struct Phase {
  int axis = 0;
  std::vector<Message> messages;
};

/// What a decomposition is made from.
struct Layout {
  int dims = 0;                   ///< 1, 2 or 3
  long long global[MaxDims] = {}; ///< global sizes, index order
  int grid[MaxDims] = {1, 1, 1};  ///< ranks along each axis (all > 0)
  bool periodic = false;          ///< neighbours wrap around the grid
  int halo = 0;                   ///< ghost width: radius x steps between exchanges
  int minSize = 1;                ///< smallest extent the local run accepts
};

/// `n` points over `parts` ranks, the remainder spread over the first ones:
/// where part `index` starts.
long long blockStart(long long n, int parts, int index);

/// Rank of grid coordinates (row-major over the grid, as MPI_Cart_create).
int rankOf(const Layout &layout, const int coords[MaxDims]);

class Decomposition {
public:
  /// The block of rank `rank` of the layout's grid. Returns false, with a
  /// sentence in `error`, where the grid cannot split the sizes: a rank
  /// owning fewer points along an axis than the halo, or a local array
  /// below `minSize`, or a bad layout.
  static bool create(const Layout &layout, int rank, Decomposition &out, std::string &error);

  const Layout &layout() const { return layout_; }
  int rank() const { return rank_; }
  int coord(int axis) const { return coords_[axis]; }
  /// First owned point along `axis`, in global coordinates.
  long long ownedStart(int axis) const { return start_[axis]; }
  long long owned(int axis) const { return owned_[axis]; }
  /// Ghost widths at the low and high side of `axis` (0 or the halo).
  int ghost(int axis, int side) const { return ghost_[axis][side]; }
  /// The local array's extent along `axis`: owned plus ghosts.
  long long local(int axis) const { return owned_[axis] + ghost_[axis][0] + ghost_[axis][1]; }
  long long localPoints() const;
  /// The neighbour across side `side` (0 low, 1 high) of `axis`, or -1 at a
  /// global edge that is not periodic or an axis with one rank.
  int neighbour(int axis, int side) const { return neighbour_[axis][side]; }
  /// The owned block inside the local array.
  Box ownedBox() const;
  /// The exchange: one phase per axis that has a neighbour.
  std::vector<Phase> schedule() const;
  /// True where only the outermost axis is split (slabs): the ghosts are
  /// whole planes, contiguous in memory.
  bool slabs() const;

private:
  Layout layout_;
  int rank_ = 0;
  int coords_[MaxDims] = {0, 0, 0};
  long long start_[MaxDims] = {0, 0, 0};
  long long owned_[MaxDims] = {1, 1, 1};
  int ghost_[MaxDims][2] = {};
  int neighbour_[MaxDims][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
};

/// One ranged pass (NAME_pass_range) on a view of the local array: the
/// view is the outermost indices [viewBegin, viewEnd) of the local array,
/// which the pass reads in place and treats as a grid of its own (its
/// edges are the view's), and it stores [storeBegin, storeEnd) of the view
/// (view coordinates) at the same indices of its output. Every index of
/// the local array is a plane in 3D, a row in 2D, a point in 1D.
struct RangedPass {
  long long viewBegin = 0, viewEnd = 0;
  long long storeBegin = 0, storeEnd = 0;
  bool readsGhosts = true; ///< false: the view is owned planes only (the overlap's interior)

  long long viewCount() const { return viewEnd - viewBegin; }
  long long storeCount() const { return storeEnd - storeBegin; }
};

/// The outermost indices a pass over an array of `extent` indices stores
/// so that, after `stepsAfter` more steps, [targetBegin, targetEnd) comes
/// out exact: the target widened by radius x stepsAfter each side, inside
/// the array. Exact only where the array's edge beside a widened side is
/// either the grid's own edge or at least radius x (all the steps since
/// the exchange) away from the target (docs/distributed.md, "Why the owned
/// points are exact"): the runtime's halo is that wide.
RangedPass storedRange(long long extent, long long targetBegin, long long targetEnd, int radius,
                       int stepsAfter);

/// A pass of the plain schedule (exchange, then the passes over the whole
/// local array): the pass stores what the owned block needs `stepsAfter`
/// steps later (all of it along an axis the process grid does not split).
RangedPass plainPass(const Decomposition &d, int radius, int stepsAfter);

/// The overlapped pass of slabs, one pass an exchange (docs/distributed.md,
/// "Overlap"): first the interior, on the owned planes alone, storing them
/// but for a halo of planes beside each side with a neighbour (none where
/// the owned planes are all within a halo of such a side); then a band for
/// each side with a neighbour, low side first: the halo of ghost planes and
/// twice the halo of owned planes beside them, storing the middle halo of
/// planes (the owned planes the interior left out). Needs: d.slabs() and
/// at least twice the halo of owned planes.
std::vector<RangedPass> overlapPasses(const Decomposition &d);

} // namespace stencilc::dist
