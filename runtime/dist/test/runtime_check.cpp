// runtime_check.cpp - the distributed runtime itself (runtime/dist/src:
// the plan, its passes, the overlap, scatter and gather) run on the CPU,
// over the host transport, with the CUDA runtime stood in for by
// cuda_shim.cpp and the stencil's NAME_run, NAME_pass and NAME_pass_range
// by the float64 reference (docs/distributed.md, "Tests"). Under mpirun,
// every case scatters a random grid from rank 0 into NaN-poisoned local
// arrays, runs stencilc_dist_run, gathers, and compares bit for bit with
// the single-domain reference: 1D, 2D and 3D, stars and boxes of radius 1 and
// 2, every boundary, T = 1 and 2, a stencil with NAME_pass_range, with
// NAME_pass only and with NAME_run only, overlap on and off, one exchange a
// pass and the default, on MPI_Dims_create's grid and on slabs, for a
// number of steps with a remainder. Where the shim cannot run something
// (a race between streams, a kernel), the GPU checks do: this check is of
// the runtime's schedule, offsets and copies. Prints one line per failure
// and exits 1 if any.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <mpi.h>

#include "check_stencils.h"
#include "stencilc/device/host.cuh"
#include "stencilc/dist/dist.h"

using namespace stencilc;

namespace {

/// The stencil the host functions below apply (one case at a time).
const stencilc_stencil_info *current = nullptr;
/// Cases whose blocks cannot hold their halo (refused at create time).
int refused = 0;

Extents extentsOfSizes(const int *sizes) {
  const long long n[3] = {sizes[0], current->dims > 1 ? sizes[1] : 1,
                          current->dims > 2 ? sizes[2] : 1};
  return extentsOf(current->dims, n);
}

/// NAME_run: the result in a, b scratch (left poisoned, as a kernel might
/// leave it anything).
cudaError_t hostRun(void *a, void *b, const int *sizes, int steps, cudaStream_t) {
  const Extents e = extentsOfSizes(sizes);
  referencePassRange(*current, e, static_cast<const double *>(a), static_cast<double *>(a), 0,
                     sizes[0], steps);
  std::fill(static_cast<double *>(b), static_cast<double *>(b) + e.points(), std::nan(""));
  return cudaSuccess;
}

/// Whether point i of a grid `e` is on the ring of width r at the edge of
/// any of its axes.
bool onRing(const Extents &e, std::size_t i, long long r) {
  const long long x = static_cast<long long>(i) % e.nx();
  const long long y = static_cast<long long>(i) / e.nx() % e.ny();
  const long long z = static_cast<long long>(i) / (e.nx() * e.ny());
  const auto near = [r](long long v, long long n) { return v < r || v >= n - r; };
  return near(x, e.nx()) || (e.dims > 1 && near(y, e.ny())) || (e.dims > 2 && near(z, e.nz()));
}

/// NAME_pass_range: 1 to T steps, outermost indices [first, first + count)
/// of out stored, nothing else of it written. The one-step form (T = 1)
/// leaves a fixed ring of out as it was, as the generated one does (its
/// header asks the caller for in's ring there): those points keep out's
/// values, so a runtime that did not give out the ring reads them.
cudaError_t hostPassRange(const void *in, void *out, const int *sizes, int first, int count,
                          int steps, cudaStream_t) {
  if (steps < 1 || steps > current->fused_steps || !device::validRange(first, count, sizes[0])) {
    return cudaErrorInvalidValue;
  }
  const Extents e = extentsOfSizes(sizes);
  double *const to = static_cast<double *>(out);
  const std::vector<double> before(to, to + e.points());
  referencePassRange(*current, e, static_cast<const double *>(in), to, first, count, steps);
  if (current->boundary == STENCILC_BOUNDARY_FIXED && current->fused_steps <= 1) {
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (onRing(e, i, current->radius)) {
        to[i] = before[i];
      }
    }
  }
  return cudaSuccess;
}

/// NAME_pass: the whole grid, the ring included (in's).
cudaError_t hostPass(const void *in, void *out, const int *sizes, int steps, cudaStream_t) {
  if (steps < 1 || steps > current->fused_steps) {
    return cudaErrorInvalidValue;
  }
  referencePassRange(*current, extentsOfSizes(sizes), static_cast<const double *>(in),
                     static_cast<double *>(out), 0, sizes[0], steps);
  return cudaSuccess;
}

enum class Form { PassRange, PassOnly, RunOnly };

struct Case {
  int dims, radius;
  stencilc_shape shape;
  stencilc_boundary boundary;
  int fused; // T
  Form form;
  bool overlap, slabs;
  int every; // STENCILC_DIST_PASSES_PER_EXCHANGE, 0: the default
};

std::string describe(const Case &c) {
  static const char *const forms[] = {"pass_range", "pass", "run"};
  return std::to_string(c.dims) + "D " + shapeName(c.shape) + " r" + std::to_string(c.radius) +
         " " + boundaryName(c.boundary) + " T=" + std::to_string(c.fused) + " " +
         forms[static_cast<int>(c.form)] + (c.overlap ? " overlap" : "") +
         (c.slabs ? " slabs" : " auto-grid") +
         " k=" + (c.every ? std::to_string(c.every) : std::string("default"));
}

/// Runs one case; false (rank 0 says why) on a refusal or a mismatch.
bool check(const Case &c, MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const CheckStencil checked("runtime_check", c.dims, c.radius, c.shape, c.boundary, c.fused);
  const stencilc_stencil_info &info = checked.info;
  current = &info;

  stencilc_dist_stencil stencil = {};
  stencil.info = &info;
  stencil.run = hostRun;
  stencil.element_size = sizeof(double);
  stencil.pass = c.form == Form::RunOnly ? nullptr : hostPass;
  stencil.pass_range = c.form == Form::PassRange ? hostPassRange : nullptr;
  const int global[3] = {c.dims == 3 ? 26 : c.dims == 2 ? 45 : 61, c.dims == 3 ? 19 : 37, 13};
  int grid[3] = {0, 0, 0};
  if (c.slabs) {
    grid[0] = ranks;
    grid[1] = grid[2] = 1;
  }
  if (c.every) {
    setenv("STENCILC_DIST_PASSES_PER_EXCHANGE", std::to_string(c.every).c_str(), 1);
  } else {
    unsetenv("STENCILC_DIST_PASSES_PER_EXCHANGE");
  }
  stencilc_dist_plan plan = nullptr;
  const stencilc_dist_status created = stencilc_dist_create(&stencil, comm, global, grid, &plan);
  if (created == STENCILC_DIST_CANNOT_SPLIT) {
    ++refused; // blocks thinner than this case's halo: nothing to check
    return true;
  }
  if (created != STENCILC_DIST_SUCCESS) {
    if (rank == 0)
      std::printf("FAIL %s: create: %s\n", describe(c).c_str(), stencilc_dist_last_error());
    return false;
  }
  stencilc_dist_set_overlap(plan, c.overlap ? 1 : 0);
  int local[3] = {1, 1, 1};
  stencilc_dist_local_extent(plan, local, nullptr, nullptr, nullptr);
  const std::size_t localPoints =
      static_cast<std::size_t>(local[0]) * local[1] * (c.dims == 3 ? local[2] : 1);
  std::vector<double> a(localPoints, std::nan("")), b(localPoints, std::nan(""));

  const long long n[3] = {global[0], global[1], c.dims == 3 ? global[2] : 1};
  const Extents whole = extentsOf(c.dims, n);
  const std::vector<double> grid0 =
      randomGrid(whole.points(), 777u + static_cast<unsigned>(c.boundary) * 13u);
  std::vector<double> single;
  const int steps = 2 * c.fused * (c.every ? c.every : 2) + 1; // a remainder where T or k > 1
  if (rank == 0) {
    single = grid0;
    referenceRun(info, whole, single, steps);
  }
  bool ok = stencilc_dist_scatter(plan, grid0.data(), a.data()) == STENCILC_DIST_SUCCESS &&
            stencilc_dist_run(plan, a.data(), b.data(), steps, nullptr) == STENCILC_DIST_SUCCESS;
  std::vector<double> gathered(rank == 0 ? grid0.size() : 0, std::nan(""));
  ok = ok && stencilc_dist_gather(plan, a.data(), gathered.data()) == STENCILC_DIST_SUCCESS;
  if (!ok && rank == 0)
    std::printf("FAIL %s: %s\n", describe(c).c_str(), stencilc_dist_last_error());
  if (ok && rank == 0) {
    const std::size_t bad = bitsDiffer(single, gathered);
    if (bad) {
      std::printf("FAIL %s on %d ranks: %zu of %zu points differ\n", describe(c).c_str(), ranks,
                  bad, single.size());
      ok = false;
    }
  }
  stencilc_dist_destroy(plan);
  MPI_Bcast(&ok, 1, MPI_CXX_BOOL, 0, comm);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  setenv("STENCILC_DIST_TRANSPORT", "host", 1); // the one transport without a GPU
  return runMpiCheck(argc, argv, [](int rank, int, int &cases, int &failures) {
    // One GPU a rank: on a machine of two (the shim's), rank r (all ranks
    // share this machine) takes device r % 2, and it becomes the current one.
    setenv("STENCILC_SHIM_DEVICES", "2", 1);
    int device = -1, current = -1;
    ++cases;
    if (stencilc_dist_use_local_device(MPI_COMM_WORLD, &device) != STENCILC_DIST_SUCCESS ||
        cudaGetDevice(&current) != cudaSuccess || device != rank % 2 || current != device) {
      std::printf("FAIL rank %d: stencilc_dist_use_local_device chose %d (current %d)\n", rank,
                  device, current);
      ++failures;
    }
    unsetenv("STENCILC_SHIM_DEVICES");
    forEveryStencil(
        [&](int dims, stencilc_shape shape, stencilc_boundary b, int fused, int radius) {
          for (Form form : {Form::PassRange, Form::PassOnly, Form::RunOnly})
            for (bool overlap : {false, true})
              for (bool slabs : {false, true})
                for (int every : {0, 1}) {
                  ++cases;
                  failures += !check({dims, radius, shape, b, fused, form, overlap, slabs, every},
                                     MPI_COMM_WORLD);
                }
        });
    return " (" + std::to_string(refused) + " refused as too thin)";
  });
}
