// dist_gpu_test.h - what the distributed runtime's GPU programs share
// (dist_check, dist_bench, dist_scaling, transport_check): MPI's start, a
// CUDA check that aborts the MPI job, random device fills, and timing with
// CUDA events across ranks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>
#include <mpi.h>

#include "stencilc/dist/dist.h"

#define CUDA_OK(call)                                                                              \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));             \
      MPI_Abort(MPI_COMM_WORLD, 2);                                                                \
    }                                                                                              \
  } while (0)

namespace dist_gpu_test {

/// MPI_Init, this rank and the number of ranks of MPI_COMM_WORLD, and this
/// rank's GPU (stencilc_dist_use_local_device: one a rank where the machine
/// has as many).
inline void initRanks(int *argc, char ***argv, int &rank, int &ranks) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (stencilc_dist_use_local_device(MPI_COMM_WORLD, nullptr) != STENCILC_DIST_SUCCESS) {
    std::fprintf(stderr, "rank %d: %s\n", rank, stencilc_dist_last_error());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
}

/// Values in [0, 1) from a hash of the index and a seed.
template <class T> __global__ void fillRandom(T *x, std::size_t n, unsigned long long seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    unsigned long long h = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    x[i] = static_cast<T>(static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0));
  }
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The median over `reps` of the slowest rank's event time (ms) of `work`,
/// after one warm-up; `active` false: this rank only takes part in the
/// barriers and reductions.
template <typename Work> double timeIt(int reps, bool active, Work work) {
  cudaEvent_t start, stop;
  CUDA_OK(cudaEventCreate(&start));
  CUDA_OK(cudaEventCreate(&stop));
  std::vector<double> times;
  for (int r = 0; r <= reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    float ms = 0;
    if (active) {
      CUDA_OK(cudaEventRecord(start, nullptr));
      work();
      CUDA_OK(cudaEventRecord(stop, nullptr));
      CUDA_OK(cudaEventSynchronize(stop));
      CUDA_OK(cudaEventElapsedTime(&ms, start, stop));
    }
    double mine = ms, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (r > 0) {
      times.push_back(slowest);
    }
  }
  CUDA_OK(cudaEventDestroy(start));
  CUDA_OK(cudaEventDestroy(stop));
  return median(times);
}

} // namespace dist_gpu_test
