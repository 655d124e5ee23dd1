// dist_check.cu - the distributed runtime's GPU check (docs/distributed.md,
// "Tests"): under mpirun, ranks sharing or owning GPUs run every stencil of
// dist_check.stencil through NAME_dist_create / stencilc_dist_run, gather the
// result on rank 0 and compare it bit for bit with the single-GPU NAME_run
// of the whole grid: odd sizes, steps that are no multiple of T, the process
// grid MPI_Dims_create picks and slabs, with and without overlap, with one
// exchange a pass (STENCILC_DIST_PASSES_PER_EXCHANGE=1: with overlap, the
// bands read in place) and with the default (one every two passes, a halo
// twice as wide; with overlap, the bands copied out first). Also checks
// that a grid too thin for the ranks is refused at create time. Usage:
//   mpirun -np N dist_check [--quick]   (--quick: two stencils, for the sanitizer)
// Prints a line per case and exits 1 if any differs.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <mpi.h>

#include "dist_check.h"
#include "dist_gpu_test.h"

namespace {

struct Entry {
  const char *name;
  const stencilc_stencil_info *info;
  std::size_t element;
  stencilc_dist_status (*create)(MPI_Comm, const int *, const int *, stencilc_dist_plan *);
  cudaError_t (*runWhole)(void *, void *, const int *, int, cudaStream_t);
};

#define ENTRY(N, T) {#N, &N##_info, sizeof(T), N##_dist_create, N##_dist_run_sizes}
const Entry entries[] = {
    ENTRY(s2_fixed, double),    ENTRY(s2_constant, double), ENTRY(s2_periodic, double),
    ENTRY(s2_clamp, double),    ENTRY(s2_mirror, double),   ENTRY(b2_periodic, float),
    ENTRY(s3_fixed, double),    ENTRY(s3_periodic, double), ENTRY(s3_mirror, float),
    ENTRY(b3_constant, double), ENTRY(b3_clamp, float),
};

std::vector<char> randomGrid(const Entry &e, std::size_t points, unsigned seed) {
  std::vector<char> bytes(points * e.element);
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (std::size_t i = 0; i < points; ++i) {
    const double v = unit(random);
    if (e.element == sizeof(double)) {
      std::memcpy(&bytes[i * sizeof(double)], &v, sizeof(double));
    } else {
      const float f = static_cast<float>(v);
      std::memcpy(&bytes[i * sizeof(float)], &f, sizeof(float));
    }
  }
  return bytes;
}

/// One case; returns true where the gathered grid equals the single-GPU one.
bool runCase(const Entry &e, bool slabs, bool overlap, int every, int rank, int ranks) {
  const int dims = e.info->dims;
  const int global[3] = {dims == 2 ? 515 : 67, dims == 2 ? 259 : 45, 39};
  std::size_t points = 1;
  for (int a = 0; a < dims; ++a) {
    points *= static_cast<std::size_t>(global[a]);
  }
  const int t = e.info->fused_steps;
  const int steps = t > 1 ? 3 * t + 1 : 7;
  std::vector<char> init = randomGrid(e, points, 2026u + static_cast<unsigned>(points));

  // The single-GPU run of the whole grid, on rank 0.
  std::vector<char> expected(init.size()), gathered(init.size(), 0);
  if (rank == 0) {
    void *a = nullptr, *b = nullptr;
    CUDA_OK(cudaMalloc(&a, init.size()));
    CUDA_OK(cudaMalloc(&b, init.size()));
    CUDA_OK(cudaMemcpy(a, init.data(), init.size(), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b, init.data(), init.size(), cudaMemcpyHostToDevice));
    CUDA_OK(e.runWhole(a, b, global, steps, nullptr));
    CUDA_OK(cudaMemcpy(expected.data(), a, init.size(), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaFree(a));
    CUDA_OK(cudaFree(b));
  }

  const int slabGrid[3] = {ranks, 1, 1};
  if (every > 0) {
    setenv("STENCILC_DIST_PASSES_PER_EXCHANGE", std::to_string(every).c_str(), 1);
  } else {
    unsetenv("STENCILC_DIST_PASSES_PER_EXCHANGE"); // the default
  }
  stencilc_dist_plan plan = nullptr;
  stencilc_dist_status s = e.create(MPI_COMM_WORLD, global, slabs ? slabGrid : nullptr, &plan);
  if (s != STENCILC_DIST_SUCCESS) {
    std::printf("FAIL %s rank %d: create: %s: %s\n", e.name, rank, stencilc_dist_status_string(s),
                stencilc_dist_last_error());
    return false;
  }
  stencilc_dist_set_overlap(plan, overlap ? 1 : 0);
  int local[3] = {1, 1, 1};
  stencilc_dist_local_extent(plan, local, nullptr, nullptr, nullptr);
  std::size_t localBytes = e.element;
  for (int a = 0; a < dims; ++a) {
    localBytes *= static_cast<std::size_t>(local[a]);
  }
  void *la = nullptr, *lb = nullptr;
  CUDA_OK(cudaMalloc(&la, localBytes));
  CUDA_OK(cudaMalloc(&lb, localBytes));
  // Poison: all-ones bytes are NaN in fp32 and fp64; ghosts must come from
  // the exchange, not from what the buffers held.
  CUDA_OK(cudaMemset(la, 0xff, localBytes));
  CUDA_OK(cudaMemset(lb, 0xff, localBytes));
  bool ok = stencilc_dist_scatter(plan, init.data(), la) == STENCILC_DIST_SUCCESS;
  ok = ok && stencilc_dist_run(plan, la, lb, steps, nullptr) == STENCILC_DIST_SUCCESS;
  CUDA_OK(cudaDeviceSynchronize());
  ok = ok && stencilc_dist_gather(plan, la, gathered.data()) == STENCILC_DIST_SUCCESS;
  if (!ok) {
    std::printf("FAIL %s rank %d: %s\n", e.name, rank, stencilc_dist_last_error());
  }
  const std::string transport = stencilc_dist_transport(plan);
  stencilc_dist_destroy(plan);
  CUDA_OK(cudaFree(la));
  CUDA_OK(cudaFree(lb));
  if (rank == 0 && ok) {
    std::size_t bad = 0;
    for (std::size_t i = 0; i < points; ++i) {
      bad += std::memcmp(&expected[i * e.element], &gathered[i * e.element], e.element) != 0;
    }
    ok = bad == 0;
    std::printf(
        "%s %-12s %dD T=%d steps=%2d %-5s overlap=%d k=%s transport=%s: %zu of %zu differ\n",
        ok ? "PASS" : "FAIL", e.name, dims, t, steps, slabs ? "slabs" : "auto", overlap ? 1 : 0,
        every > 0 ? std::to_string(every).c_str() : "default", transport.c_str(), bad, points);
  }
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

/// 8 planes over more ranks than a halo of 4 allows: refused, with words.
bool refusesThinSlabs(int rank, int ranks) { // ranks > 1
  const int global[2] = {4 * ranks - 1, 64};
  const int grid[2] = {ranks, 1};
  stencilc_dist_plan plan = nullptr;
  setenv("STENCILC_DIST_PASSES_PER_EXCHANGE", "1", 1);
  const stencilc_dist_status s = s2_periodic_dist_create(MPI_COMM_WORLD, global, grid, &plan);
  if (rank == 0) {
    std::printf("%s refusal: %s: %s\n", s == STENCILC_DIST_CANNOT_SPLIT ? "PASS" : "FAIL",
                stencilc_dist_status_string(s), stencilc_dist_last_error());
  }
  stencilc_dist_destroy(plan);
  return s == STENCILC_DIST_CANNOT_SPLIT;
}

} // namespace

int main(int argc, char **argv) {
  int rank = 0, ranks = 1;
  dist_gpu_test::initRanks(&argc, &argv, rank, ranks);
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  int failures = 0, cases = 0;
  for (const Entry &e : entries) {
    if (quick && std::string(e.name) != "s2_periodic" && std::string(e.name) != "s3_fixed") {
      continue;
    }
    for (bool slabs : {false, true}) {
      for (bool overlap : {true, false}) {
        for (int every : {0, 1}) { // 0: the default
          ++cases;
          failures += !runCase(e, slabs, overlap, every, rank, ranks);
        }
      }
    }
  }
  if (ranks > 1) {
    failures += !refusesThinSlabs(rank, ranks);
  }
  if (rank == 0) {
    std::printf("%s: %d cases on %d ranks, %d failed\n", failures ? "FAIL" : "PASS", cases, ranks,
                failures);
  }
  MPI_Finalize();
  return failures ? 1 : 0;
}
