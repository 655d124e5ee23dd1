// cpu_check.cpp - the CPU transport check (docs/distributed.md, "Tests"):
// under mpirun, every rank holds its block plus ghosts in host memory, the
// exchange (exchange.h) fills the ghosts once a pass of T steps, and the
// float64 reference runs the pass on the local array. The owned blocks,
// gathered on rank 0, must equal the single-domain reference bit for bit,
// for every boundary, star and box, 1D, 2D and 3D, T = 1 and T > 1, on the
// process grid MPI_Dims_create picks, on slabs and on a split of the
// fastest axis; and with one exchange every two passes (a halo of 2rT, as
// the runtime's default plan) where the blocks are thick enough. Each pass
// of T steps stores only what the runtime's passes store (decomp.h
// plainPass, and on slabs with one exchange a pass also the overlap's
// interior and bands, overlapPasses), the rest of its output poisoned, so
// the ranges NAME_pass_range is given are checked here too. Prints one
// line per failure and exits 1 if any.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <mpi.h>

#include "check_stencils.h"
#include "stencilc/dist/decomp.h"
#include "stencilc/dist/exchange.h"
#include "stencilc/testing/reference.h"

using namespace stencilc;
using namespace stencilc::dist;

namespace {

struct Case {
  int dims, radius;
  stencilc_shape shape;
  stencilc_boundary boundary;
  int fused; // T
  std::string grid;
  int every = 1;        // passes per exchange (the halo is radius x T x every)
  bool overlap = false; // the overlapped pass (slabs, every = 1)
};

std::string describe(const Case &c, int ranks) {
  return std::to_string(ranks) + " ranks, " + std::to_string(c.dims) + "D " + shapeName(c.shape) +
         " r" + std::to_string(c.radius) + " " + boundaryName(c.boundary) +
         " T=" + std::to_string(c.fused) + " k=" + std::to_string(c.every) + " grid " + c.grid +
         (c.overlap ? " overlap" : "");
}

/// One ranged pass of `steps` steps as NAME_pass_range makes it: the view
/// of `from` (outermost indices, each ext[1] x ext[2] points) as a grid of
/// its own, its stored range written into the same indices of `to`.
void rangedPass(const stencilc_stencil_info &info, const long long ext[3], const RangedPass &p,
                const std::vector<double> &from, std::vector<double> &to, int steps) {
  const long long inner = ext[1] * ext[2];
  const long long viewExt[3] = {p.viewCount(), ext[1], ext[2]};
  referencePassRange(info, extentsOf(info.dims, viewExt), from.data() + p.viewBegin * inner,
                     to.data() + p.viewBegin * inner, p.storeBegin, p.storeCount(), steps);
}

/// The layout of a case: odd sizes (the axes past the grid's have extent
/// 1), the process grid MPI_Dims_create picks, or slabs, or a split of the
/// fastest axis; a halo of radius x T x every.
Layout caseLayout(const Case &c, int ranks, const long long sizes[3]) {
  Layout l;
  l.dims = c.dims;
  for (int a = 0; a < c.dims; ++a)
    l.global[a] = sizes[a];
  int grid[3] = {0, 0, 0};
  if (c.grid == "slabs")
    grid[0] = ranks;
  for (int a = 1; a < c.dims && c.grid == "slabs"; ++a)
    grid[a] = 1;
  for (int a = 0; a + 1 < c.dims && c.grid == "fastest"; ++a)
    grid[a] = 1;
  if (c.grid == "fastest")
    grid[c.dims - 1] = ranks;
  MPI_Dims_create(ranks, c.dims, grid);
  std::copy(grid, grid + 3, l.grid);
  l.periodic = c.boundary == STENCILC_BOUNDARY_PERIODIC;
  l.halo = c.radius * c.fused * c.every;
  l.minSize = c.boundary == STENCILC_BOUNDARY_FIXED ? 2 * c.radius + 1 : 1;
  return l;
}

/// Runs `steps` steps on this rank's local array as the runtime does: an
/// exchange every T x every steps, then passes of T steps storing their
/// ranges only (the rest poisoned), or a remainder on the whole array;
/// false when an exchange fails.
bool runLocally(const Case &c, const stencilc_stencil_info &info, const Decomposition &d,
                MPI_Comm comm, std::vector<double> &local, int steps) {
  long long ext[3];
  localExtents(d, ext);
  const int pass = c.fused * c.every;
  Extents le = extentsOf(c.dims, ext);
  const std::vector<Phase> schedule = d.schedule();
  std::vector<char> scratch;
  std::vector<double> other(local.size());
  for (int done = 0; done < steps;) {
    const int k = std::min(pass, steps - done);
    if (exchangeHost(comm, d, schedule, local.data(), sizeof(double), scratch) != MPI_SUCCESS)
      return false;
    done += k;
    if (k % c.fused != 0) { // a remainder: NAME_run on the whole local array
      referenceRun(info, le, local, k);
      continue;
    }
    // Passes of T steps from one buffer into the other, storing their
    // ranges only (the rest poisoned).
    for (int stepsAfter = k - c.fused; stepsAfter >= 0; stepsAfter -= c.fused) {
      std::fill(other.begin(), other.end(), std::nan(""));
      const std::vector<RangedPass> passes =
          c.overlap ? overlapPasses(d)
                    : std::vector<RangedPass>{plainPass(d, c.radius, stepsAfter)};
      for (const RangedPass &p : passes)
        rangedPass(info, ext, p, local, other, c.fused);
      local.swap(other);
    }
  }
  return true;
}

/// On rank 0: every rank's owned block (this rank's is `block`) placed in
/// the global grid, for comparing with the single-domain result.
std::vector<double> gatherBlocks(const Layout &l, int ranks, const long long sizes[3],
                                 std::size_t points, const std::vector<double> &block,
                                 MPI_Comm comm) {
  std::vector<double> gathered(points, std::nan(""));
  std::string error;
  for (int r = 0; r < ranks; ++r) {
    Decomposition dr;
    Decomposition::create(l, r, dr, error);
    Box box = dr.ownedBox();
    for (int a = 0; a < l.dims; ++a)
      box.lo[a] = dr.ownedStart(a);
    std::vector<double> theirs(static_cast<std::size_t>(box.count()));
    if (r == 0)
      theirs = block;
    else
      MPI_Recv(theirs.data(), static_cast<int>(theirs.size()), MPI_DOUBLE, r, 7, comm,
               MPI_STATUS_IGNORE);
    unpackHost(theirs.data(), sizes, box, sizeof(double), gathered.data());
  }
  return gathered;
}

/// Runs one case; returns false (rank 0 prints why) on a mismatch.
bool check(const Case &c, MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const CheckStencil stencil("check", c.dims, c.radius, c.shape, c.boundary, c.fused);
  const stencilc_stencil_info &info = stencil.info;

  // Odd sizes; the axes past the grid's have extent 1.
  const long long sizes[3] = {c.dims == 1   ? 37
                              : c.dims == 2 ? 31
                                            : 17,
                              c.dims == 1   ? 1
                              : c.dims == 2 ? 29
                                            : 15,
                              c.dims == 3 ? 13 : 1};
  const Layout l = caseLayout(c, ranks, sizes);
  Decomposition d;
  std::string error;
  if (!Decomposition::create(l, rank, d, error)) {
    if (rank == 0)
      std::printf("FAIL %s: refused: %s\n", describe(c, ranks).c_str(), error.c_str());
    return false;
  }

  // The initial grid, the same on every rank; the single-domain result.
  Extents global = extentsOf(c.dims, sizes);
  const std::vector<double> init =
      randomGrid(global.points(), 12345u + static_cast<unsigned>(c.boundary) * 7u);
  const int pass = c.fused * c.every;
  const int steps = 2 * pass + 1; // a remainder pass when T x every > 1
  std::vector<double> single = init;
  if (rank == 0)
    referenceRun(info, global, single, steps);

  // This rank's local array: the owned block from the initial grid, the
  // ghosts poisoned (the exchange must fill every one that matters).
  long long ext[3];
  localExtents(d, ext);
  std::vector<double> local(static_cast<std::size_t>(d.localPoints()), std::nan(""));
  Box owned = d.ownedBox(), from = owned;
  for (int a = 0; a < c.dims; ++a)
    from.lo[a] = d.ownedStart(a);
  std::vector<double> block(static_cast<std::size_t>(owned.count()));
  packHost(init.data(), sizes, from, sizeof(double), block.data());
  unpackHost(block.data(), ext, owned, sizeof(double), local.data());
  if (!runLocally(c, info, d, comm, local, steps))
    return false;

  // Gather the owned blocks on rank 0 and compare bit for bit.
  packHost(local.data(), ext, owned, sizeof(double), block.data());
  bool ok = true;
  if (rank != 0) {
    MPI_Send(block.data(), static_cast<int>(block.size()), MPI_DOUBLE, 0, 7, comm);
  } else {
    const std::vector<double> gathered = gatherBlocks(l, ranks, sizes, init.size(), block, comm);
    const std::size_t bad = bitsDiffer(single, gathered);
    if (bad) {
      std::printf("FAIL %s (process grid %dx%dx%d): %zu of %zu points differ\n",
                  describe(c, ranks).c_str(), l.grid[0], l.grid[1], l.grid[2], bad, single.size());
      ok = false;
    }
  }
  MPI_Bcast(&ok, 1, MPI_CXX_BOOL, 0, comm);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  return runMpiCheck(argc, argv, [](int, int ranks, int &cases, int &failures) {
    forEveryStencil([&](int dims, stencilc_shape shape, stencilc_boundary b, int fused,
                        int radius) {
      for (const char *grid : {"auto", "slabs", "fastest"}) {
        if (radius * fused > 2 && dims == 3 && std::string(grid) != "slabs")
          continue; // 3D blocks of 7 or 8 points: halos of up to 4 fit slabs only
        if (dims == 1 && std::string(grid) != "auto")
          continue; // one axis: every grid is the same
        ++cases;
        failures += !check({dims, radius, shape, b, fused, grid}, MPI_COMM_WORLD);
        // Two passes an exchange, on slabs (1D: the one grid) whose
        // thinnest block (37, 31 or 17 planes over the ranks) holds a halo
        // of 2rT.
        const int planes = dims == 1 ? 37 : dims == 2 ? 31 : 17;
        if ((std::string(grid) == "slabs" || dims == 1) && 2 * radius * fused <= planes / ranks) {
          ++cases;
          failures += !check({dims, radius, shape, b, fused, grid, 2}, MPI_COMM_WORLD);
        }
        // The overlapped pass, on slabs whose blocks hold twice the halo
        // and whose bands reach the minimum size.
        const int h = radius * fused, least = b == STENCILC_BOUNDARY_FIXED ? 2 * radius + 1 : 1;
        if ((std::string(grid) == "slabs" || dims == 1) && ranks > 1 && 2 * h <= planes / ranks &&
            3 * h >= least && planes / ranks >= least) {
          ++cases;
          failures += !check({dims, radius, shape, b, fused, grid, 1, true}, MPI_COMM_WORLD);
        }
      }
    });
    return std::string();
  });
}
