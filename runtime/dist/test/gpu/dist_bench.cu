// dist_bench.cu - the exchange overhead of the distributed runtime
// (docs/distributed.md, "Performance"): star3d7p_fp64 on an N^3 grid split
// in slabs over the ranks of mpirun (all sharing one GPU, or one GPU each),
// timed with CUDA events after a warm-up, the median of REPS runs of STEPS
// steps, the slowest rank's time each run:
//   local     every rank runs star3d7p_fp64_run on its ghost-extended local
//             array (one exchange a pass of T steps) at once, with no
//             exchange: the compute of the passes (one call of STEPS
//             steps; and, for comparison, one call of T steps a pass,
//             which copies the result back from b when T steps are one
//             pass of NAME_run: what the plan avoids with k even);
//   k, overlap  stencilc_dist_run with one exchange every k passes
//             (STENCILC_DIST_PASSES_PER_EXCHANGE = k, a halo k times wider)
//             with and without the interior overlapping the exchange;
//   default   stencilc_dist_run as a plan comes: k and overlap unset;
// plus, on rank 0 alone, the single-GPU run of the whole grid and the
// device-to-device copy bandwidth. The overhead of a variant is
// (its time - local) / local: the exchange, the packing, the waits and
// the redundant work of wider halos, as a fraction of the pass's compute.
// Every variant is a plan of its own, so that STENCILC_DIST_PROFILE prints
// one profile each. Usage: mpirun -np N dist_bench [N STEPS REPS KMAX]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <mpi.h>

#include "dist_gpu_test.h"
#include "star3d7p_fp64.h"

namespace {

using dist_gpu_test::fillRandom;
using dist_gpu_test::timeIt;

/// A slab plan with one exchange every `every` passes (0: the default),
/// and this rank's two local arrays, randomly filled.
struct Variant {
  stencilc_dist_plan plan = nullptr;
  int local[3] = {0, 0, 0};
  double *a = nullptr, *b = nullptr;

  Variant(int every, const int *global, const int *slabs, int rank) {
    if (every > 0) {
      setenv("STENCILC_DIST_PASSES_PER_EXCHANGE", std::to_string(every).c_str(), 1);
    } else {
      unsetenv("STENCILC_DIST_PASSES_PER_EXCHANGE");
    }
    if (star3d7p_fp64_dist_create(MPI_COMM_WORLD, global, slabs, &plan) != STENCILC_DIST_SUCCESS) {
      std::fprintf(stderr, "rank %d: %s\n", rank, stencilc_dist_last_error());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    star3d7p_fp64_dist_local_extent(plan, local, nullptr, nullptr, nullptr);
    const std::size_t points = std::size_t(local[0]) * local[1] * local[2];
    CUDA_OK(cudaMalloc(&a, points * sizeof(double)));
    CUDA_OK(cudaMalloc(&b, points * sizeof(double)));
    fillRandom<<<1024, 256>>>(a, points, 3 + rank + 10 * every);
    fillRandom<<<1024, 256>>>(b, points, 97 + rank + 10 * every);
    CUDA_OK(cudaDeviceSynchronize());
  }
  ~Variant() {
    star3d7p_fp64_dist_destroy(plan);
    CUDA_OK(cudaFree(a));
    CUDA_OK(cudaFree(b));
  }
};

/// Rank 0 alone: the device-to-device copy bandwidth (GB/s) and the
/// single-GPU run of the whole grid (ms), the yardsticks of the table.
struct SingleGpu {
  double copyGBs = 0, singleMs = 0;
};

SingleGpu timeSingleGpu(int rank, int n, int steps, int reps) {
  const std::size_t points = std::size_t(n) * n * n;
  SingleGpu result;
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
  result.copyGBs = 2.0 * points * sizeof(double) / (copyMs * 1e-3) / 1e9;
  result.singleMs =
      timeIt(reps, rank == 0, [&] { CUDA_OK(star3d7p_fp64_run(a, b, n, n, n, steps, nullptr)); });
  if (rank == 0) {
    CUDA_OK(cudaFree(a));
    CUDA_OK(cudaFree(b));
  }
  return result;
}

/// What rank 0 prints: the device and the run, the yardsticks, then a row
/// per variant.
struct Table {
  int ranks, n, steps, t, reps;
  std::string transport;
  SingleGpu single;
  double localMs, localCallsMs;
  std::vector<std::string> rows;
};

void printTable(const Table &r) {
  const double passes = double(r.steps) / r.t;
  const std::size_t points = std::size_t(r.n) * r.n * r.n;
  int device = 0;
  cudaDeviceProp prop;
  CUDA_OK(cudaGetDevice(&device));
  CUDA_OK(cudaGetDeviceProperties(&prop, device));
  std::printf("device %s; %d ranks (slabs), %d^3 fp64 star3d7p, %d steps (T = %d), median of "
              "%d, transport %s\n",
              prop.name, r.ranks, r.n, r.steps, r.t, r.reps, r.transport.c_str());
  std::printf("copy bandwidth (rank 0 alone)     %8.1f GB/s\n", r.single.copyGBs);
  std::printf("single GPU, whole grid (rank 0)   %8.3f ms/pass  %6.1f GStencil/s\n",
              r.single.singleMs / passes,
              points * double(r.steps) / (r.single.singleMs * 1e-3) / 1e9);
  std::printf("local runs only (k=1), no exchange %7.3f ms/pass\n", r.localMs / passes);
  std::printf("local runs, one call a pass        %7.3f ms/pass  %+7.1f %%\n",
              r.localCallsMs / passes, 100.0 * (r.localCallsMs - r.localMs) / r.localMs);
  for (const std::string &row : r.rows) {
    std::printf("%s\n", row.c_str());
  }
}

} // namespace

int main(int argc, char **argv) {
  int rank = 0, ranks = 1;
  dist_gpu_test::initRanks(&argc, &argv, rank, ranks);
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 72;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 7;
  const int kmax = argc > 4 ? std::atoi(argv[4]) : 3;
  const int global[3] = {n, n, n};
  const int slabs[3] = {ranks, 1, 1};
  const int t = std::max(star3d7p_fp64_info.fused_steps, 1);
  const double passes = double(steps) / t;
  const SingleGpu single = timeSingleGpu(rank, n, steps, reps);

  double localMs = 0, localCallsMs = 0;
  std::vector<std::string> rows;
  std::string transport;
  for (int every = 1; every <= kmax + 1; ++every) {
    for (int overlap = 0; overlap < (every > kmax ? 1 : 2); ++overlap) {
      Variant v(every > kmax ? 0 : every, global, slabs, rank); // last: the default
      transport = stencilc_dist_transport(v.plan);
      if (every == 1 && overlap == 0) {
        localMs = timeIt(reps, true, [&] {
          CUDA_OK(star3d7p_fp64_run(v.a, v.b, v.local[0], v.local[1], v.local[2], steps, nullptr));
        });
        localCallsMs = timeIt(reps, true, [&] {
          for (int done = 0; done < steps; done += t) {
            CUDA_OK(star3d7p_fp64_run(v.a, v.b, v.local[0], v.local[1], v.local[2],
                                      std::min(t, steps - done), nullptr));
          }
        });
      }
      if (every <= kmax) {
        stencilc_dist_set_overlap(v.plan, overlap);
      }
      const double ms = timeIt(reps, true, [&] {
        if (star3d7p_fp64_dist_run(v.plan, v.a, v.b, steps, nullptr) != STENCILC_DIST_SUCCESS) {
          std::fprintf(stderr, "rank %d: %s\n", rank, stencilc_dist_last_error());
          MPI_Abort(MPI_COMM_WORLD, 1);
        }
      });
      char row[160];
      const std::string what =
          every > kmax ? "default    "
                       : "k=" + std::to_string(every) + (overlap ? " overlap   " : " no overlap");
      std::snprintf(row, sizeof row, "%s local %3d planes  %8.3f ms/pass  overhead %+7.1f %%",
                    what.c_str(), v.local[0], ms / passes, 100.0 * (ms - localMs) / localMs);
      rows.push_back(row);
    }
  }
  if (rank == 0) {
    printTable({ranks, n, steps, t, reps, transport, single, localMs, localCallsMs, rows});
  }
  MPI_Finalize();
  return 0;
}
