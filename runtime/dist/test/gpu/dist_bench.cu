// dist_bench.cu - the exchange overhead of the distributed runtime
// (docs/distributed.md, "Performance"): star3d7p_fp64 on an N^3 grid over
// the ranks of mpirun (all sharing one GPU, or one GPU each), timed with CUDA
// events after a warm-up, the median of REPS runs of STEPS steps, the slowest
// rank's time each run:
//   local    every rank runs star3d7p_fp64_run on its ghost-extended local
//            array at once, with no exchange: the compute of the passes;
//   overlap  stencilc_dist_run with the interior overlapping the exchange;
//   plain    stencilc_dist_run, exchange then run;
// plus, on rank 0 alone, the single-GPU run of the whole grid and the
// device-to-device copy bandwidth. Usage: mpirun -np N dist_bench [N STEPS REPS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <mpi.h>

#include "dist_gpu_test.h"
#include "star3d7p_fp64.h"

namespace {

using dist_gpu_test::fillRandom;
using dist_gpu_test::timeIt;

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 20;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 7;
  const int global[3] = {n, n, n};
  const std::size_t points = std::size_t(n) * n * n;

  // Rank 0 alone: the copy bandwidth and the single-GPU run.
  double copyGBs = 0, singleMs = 0;
  {
    double *a = nullptr, *b = nullptr;
    if (rank == 0) {
      CUDA_OK(cudaMalloc(&a, points * sizeof(double)));
      CUDA_OK(cudaMalloc(&b, points * sizeof(double)));
      fillRandom<<<1024, 256>>>(a, points, 1);
      fillRandom<<<1024, 256>>>(b, points, 2);
    }
    const double copyMs = timeIt(reps, rank == 0, [&] {
      CUDA_OK(cudaMemcpyAsync(b, a, points * sizeof(double), cudaMemcpyDeviceToDevice, nullptr));
    });
    copyGBs = 2.0 * points * sizeof(double) / (copyMs * 1e-3) / 1e9;
    singleMs =
        timeIt(reps, rank == 0, [&] { CUDA_OK(star3d7p_fp64_run(a, b, n, n, n, steps, nullptr)); });
    if (rank == 0) {
      CUDA_OK(cudaFree(a));
      CUDA_OK(cudaFree(b));
    }
  }

  stencilc_dist_plan plan = nullptr;
  const int slabs[3] = {ranks, 1, 1};
  if (star3d7p_fp64_dist_create(MPI_COMM_WORLD, global, slabs, &plan) != STENCILC_DIST_SUCCESS) {
    std::fprintf(stderr, "rank %d: %s\n", rank, stencilc_dist_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int local[3];
  star3d7p_fp64_dist_local_extent(plan, local, nullptr, nullptr, nullptr);
  const std::size_t localPoints = std::size_t(local[0]) * local[1] * local[2];
  double *a = nullptr, *b = nullptr;
  CUDA_OK(cudaMalloc(&a, localPoints * sizeof(double)));
  CUDA_OK(cudaMalloc(&b, localPoints * sizeof(double)));
  fillRandom<<<1024, 256>>>(a, localPoints, 3 + rank);
  fillRandom<<<1024, 256>>>(b, localPoints, 97 + rank);
  CUDA_OK(cudaDeviceSynchronize());

  const double localMs = timeIt(reps, true, [&] {
    CUDA_OK(star3d7p_fp64_run(a, b, local[0], local[1], local[2], steps, nullptr));
  });
  double distMs[2];
  for (int overlap = 0; overlap < 2; ++overlap) {
    stencilc_dist_set_overlap(plan, overlap);
    distMs[overlap] = timeIt(reps, true, [&] {
      if (star3d7p_fp64_dist_run(plan, a, b, steps, nullptr) != STENCILC_DIST_SUCCESS) {
        std::fprintf(stderr, "rank %d: %s\n", rank, stencilc_dist_last_error());
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    });
  }
  if (rank == 0) {
    int device = 0;
    cudaDeviceProp prop;
    CUDA_OK(cudaGetDevice(&device));
    CUDA_OK(cudaGetDeviceProperties(&prop, device));
    const double perPass = 1.0 / steps; // T = 1: one pass a step
    std::printf("device %s; %d ranks (slabs), %d^3 fp64 star3d7p, %d steps (T = %d), median of "
                "%d, transport %s\n",
                prop.name, ranks, n, steps, star3d7p_fp64_info.fused_steps, reps,
                stencilc_dist_transport(plan));
    std::printf("copy bandwidth (rank 0 alone)     %8.1f GB/s\n", copyGBs);
    std::printf("single GPU, whole grid (rank 0)   %8.3f ms/pass  %6.1f GStencil/s\n",
                singleMs * perPass, points * double(steps) / (singleMs * 1e-3) / 1e9);
    std::printf("local runs only, no exchange      %8.3f ms/pass\n", localMs * perPass);
    std::printf("dist_run without overlap          %8.3f ms/pass  overhead %+6.1f %%\n",
                distMs[0] * perPass, 100.0 * (distMs[0] - localMs) / localMs);
    std::printf("dist_run with overlap             %8.3f ms/pass  overhead %+6.1f %%\n",
                distMs[1] * perPass, 100.0 * (distMs[1] - localMs) / localMs);
  }
  star3d7p_fp64_dist_destroy(plan);
  CUDA_OK(cudaFree(a));
  CUDA_OK(cudaFree(b));
  MPI_Finalize();
  return 0;
}
