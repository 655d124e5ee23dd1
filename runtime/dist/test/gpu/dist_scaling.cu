// dist_scaling.cu - the scaling run over several GPUs (docs/distributed.md,
// "Scaling"): one rank a GPU (its rank on the machine modulo the GPUs), the
// suite's 3D stencils star3d7p and box3d27p in fp64 and fp32.
//
//   mpirun -np N dist_scaling check N STEPS
//       every stencil: a random N^3 grid scattered from rank 0, STEPS steps of
//       NAME_dist_run, gathered, and compared bit for bit with rank 0's
//       single-GPU NAME_run of the same grid; "PASS"/"FAIL" lines
//   mpirun -np N dist_scaling weak STENCIL PER STEPS REPS
//       a grid of PER^3 points a rank (slabs along z: N*PER x PER x PER)
//   mpirun -np N dist_scaling strong STENCIL N STEPS REPS
//       an N^3 grid whatever the rank count
//
// weak and strong time STEPS steps of NAME_dist_run as the plan is created
// (what = default-overlap or default-plain, the runtime's choice), then with
// the overlap and without it, and every rank's local runs alone (the
// compute of the passes, no exchange; on one rank, the single-GPU NAME_run
// of the whole grid), with CUDA events after a warm-up: the median of REPS
// runs, each the slowest rank's time. They print one CSV line each:
//   mode,stencil,ranks,nz,ny,nx,steps,fused,transport,what,ms,gstencil_per_s
// (GStencil/s counts every global point x every step).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <mpi.h>

#include "box3d27p_fp32.h"
#include "box3d27p_fp64.h"
#include "dist_gpu_test.h"
#include "star3d7p_fp32.h"
#include "star3d7p_fp64.h"

namespace {

/// One stencil, its element type erased: what the modes need of it.
struct Stencil {
  const char *name;
  const stencilc_stencil_info *info;
  std::size_t bytes; // of an element
  stencilc_dist_status (*create)(MPI_Comm, const int *, const int *, stencilc_dist_plan *);
  cudaError_t (*run)(void *, void *, const int *, int, cudaStream_t);
};

#define ENTRY(N, T) {#N, &N##_info, sizeof(T), N##_dist_create, N##_dist_run_sizes}
const Stencil stencils[] = {ENTRY(star3d7p_fp64, double), ENTRY(star3d7p_fp32, float),
                            ENTRY(box3d27p_fp64, double), ENTRY(box3d27p_fp32, float)};

const Stencil *find(const char *name) {
  for (const Stencil &s : stencils)
    if (!std::strcmp(s.name, name))
      return &s;
  return nullptr;
}

using dist_gpu_test::fillRandom;
using dist_gpu_test::timeIt;

void fill(void *x, std::size_t n, std::size_t bytes, unsigned long long seed) {
  if (bytes == sizeof(double))
    fillRandom<<<1024, 256>>>(static_cast<double *>(x), n, seed);
  else
    fillRandom<<<1024, 256>>>(static_cast<float *>(x), n, seed);
  CUDA_OK(cudaGetLastError());
}

/// A plan of `s` over the ranks and this rank's two local arrays of its
/// extent (ghosts included); freed with the object.
struct Local {
  stencilc_dist_plan plan = nullptr;
  int extent[3] = {0, 0, 0};
  std::size_t points = 0;
  void *a = nullptr, *b = nullptr;

  Local(const Stencil &s, const int *global, const int *grid, int rank) {
    if (s.create(MPI_COMM_WORLD, global, grid, &plan) != STENCILC_DIST_SUCCESS) {
      std::fprintf(stderr, "rank %d: %s: %s\n", rank, s.name, stencilc_dist_last_error());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    stencilc_dist_local_extent(plan, extent, nullptr, nullptr, nullptr);
    points = std::size_t(extent[0]) * extent[1] * extent[2];
    CUDA_OK(cudaMalloc(&a, points * s.bytes));
    CUDA_OK(cudaMalloc(&b, points * s.bytes));
  }
  ~Local() {
    stencilc_dist_destroy(plan);
    CUDA_OK(cudaFree(a));
    CUDA_OK(cudaFree(b));
  }
  Local(const Local &) = delete;
  Local &operator=(const Local &) = delete;
};

/// check: every stencil, bit for bit against rank 0's single-GPU run.
int check(int n, int steps, int rank, int ranks) {
  const int global[3] = {n, n, n};
  const std::size_t points = std::size_t(n) * n * n;
  int failures = 0;
  for (const Stencil &s : stencils) {
    std::vector<char> init, gathered, single;
    if (rank == 0) { // the input, and the single-GPU result
      init.resize(points * s.bytes);
      gathered.resize(points * s.bytes);
      single.resize(points * s.bytes);
      void *a = nullptr, *b = nullptr;
      CUDA_OK(cudaMalloc(&a, points * s.bytes));
      CUDA_OK(cudaMalloc(&b, points * s.bytes));
      fill(a, points, s.bytes, 12345);
      CUDA_OK(cudaMemcpy(b, a, points * s.bytes, cudaMemcpyDeviceToDevice));
      CUDA_OK(cudaMemcpy(init.data(), a, points * s.bytes, cudaMemcpyDeviceToHost));
      CUDA_OK(s.run(a, b, global, steps, nullptr));
      CUDA_OK(cudaDeviceSynchronize());
      CUDA_OK(cudaMemcpy(single.data(), a, points * s.bytes, cudaMemcpyDeviceToHost)); // the result

      CUDA_OK(cudaFree(a));
      CUDA_OK(cudaFree(b));
    }
    Local l(s, global, nullptr, rank);
    CUDA_OK(cudaMemset(l.a, 0xff, l.points * s.bytes)); // NaN: ghosts must come from the exchange
    CUDA_OK(cudaMemset(l.b, 0xff, l.points * s.bytes));
    bool ok = stencilc_dist_scatter(l.plan, init.data(), l.a) == STENCILC_DIST_SUCCESS;
    ok = ok && stencilc_dist_run(l.plan, l.a, l.b, steps, nullptr) == STENCILC_DIST_SUCCESS;
    CUDA_OK(cudaDeviceSynchronize());
    ok = ok && stencilc_dist_gather(l.plan, l.a, gathered.data()) == STENCILC_DIST_SUCCESS;
    if (!ok)
      std::printf("FAIL %s rank %d: %s\n", s.name, rank, stencilc_dist_last_error());
    if (rank == 0) {
      const bool same = ok && std::memcmp(gathered.data(), single.data(), single.size()) == 0;
      std::size_t differ = 0;
      for (std::size_t i = 0; ok && i < single.size(); i += s.bytes)
        differ += std::memcmp(&gathered[i], &single[i], s.bytes) != 0;
      std::printf("%s check %s %d ranks %d^3 %d steps (T %d) transport %s: %zu of %zu points "
                  "differ\n",
                  same ? "PASS" : "FAIL", s.name, ranks, n, steps, s.info->fused_steps,
                  stencilc_dist_transport(l.plan), differ, points);
      failures += !same;
    }
  }
  return failures;
}

/// weak and strong: the timings of one stencil on `global`.
void timing(const char *mode, const Stencil &s, const int *global, int steps, int reps, int rank,
            int ranks) {
  const int slabs[3] = {ranks, 1, 1};
  Local l(s, global, slabs, rank);
  fill(l.a, l.points, s.bytes, 3 + rank);
  fill(l.b, l.points, s.bytes, 97 + rank);
  CUDA_OK(cudaDeviceSynchronize());
  const double points = double(global[0]) * global[1] * global[2];
  auto report = [&](const char *what, double ms) {
    if (rank == 0)
      std::printf("%s,%s,%d,%d,%d,%d,%d,%d,%s,%s,%.4f,%.2f\n", mode, s.name, ranks, global[0],
                  global[1], global[2], steps, s.info->fused_steps, stencilc_dist_transport(l.plan),
                  what, ms, points * steps / (ms * 1e-3) / 1e9);
  };
  report("local-only",
         timeIt(reps, true, [&] { CUDA_OK(s.run(l.a, l.b, l.extent, steps, nullptr)); }));
  const auto distRun = [&] {
    if (stencilc_dist_run(l.plan, l.a, l.b, steps, nullptr) != STENCILC_DIST_SUCCESS) {
      std::fprintf(stderr, "rank %d: %s\n", rank, stencilc_dist_last_error());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  };
  // The default first (the plan as created), then each setting.
  report(stencilc_dist_overlaps(l.plan) ? "default-overlap" : "default-plain",
         timeIt(reps, true, distRun));
  for (int overlap = 0; overlap < 2; ++overlap) {
    stencilc_dist_set_overlap(l.plan, overlap);
    report(overlap ? "dist-overlap" : "dist-plain", timeIt(reps, true, distRun));
  }
}

int usage() {
  std::fprintf(stderr, "usage: dist_scaling check N STEPS | weak STENCIL PER STEPS REPS | strong "
                       "STENCIL N STEPS REPS\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  int rank = 0, ranks = 1;
  dist_gpu_test::initRanks(&argc, &argv, rank, ranks);
  int status = 0;
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "check" && argc == 4) {
    status = check(std::atoi(argv[2]), std::atoi(argv[3]), rank, ranks) ? 1 : 0;
  } else if ((mode == "weak" || mode == "strong") && argc == 6 && find(argv[2])) {
    const int n = std::atoi(argv[3]);
    const int global[3] = {mode == "weak" ? n * ranks : n, n, n};
    timing(mode.c_str(), *find(argv[2]), global, std::atoi(argv[4]), std::atoi(argv[5]), rank,
           ranks);
  } else {
    status = rank == 0 ? usage() : 2;
  }
  MPI_Finalize();
  return status;
}
