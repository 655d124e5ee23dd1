// heat3d-mpi: the 3D heat equation over MPI ranks (docs/distributed.md).
// Rank 0 makes a grid with a hot cube in a cool room, scatters it to the
// ranks, every rank runs its block with heat3d_dist_run, and rank 0 gathers
// the result and checks it bit for bit against the single-GPU heat3d_run of
// the whole grid. Usage: mpirun -np 4 heat3d-mpi [N STEPS]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <mpi.h>

#include "heat3d.h"

static int check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "heat3d-mpi: %s: %s\n", what, cudaGetErrorString(e));
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return 0;
}

static int check(stencilc_dist_status s, const char *what) {
  if (s != STENCILC_DIST_SUCCESS) {
    std::fprintf(stderr, "heat3d-mpi: %s: %s: %s\n", what, stencilc_dist_status_string(s),
                 stencilc_dist_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // One GPU per rank of this machine where there are several (the runtime
  // uses the current device); ranks share them where there are fewer.
  if (stencilc_dist_use_local_device(MPI_COMM_WORLD, nullptr) != STENCILC_DIST_SUCCESS) {
    std::fprintf(stderr, "heat3d-mpi: %s\n", stencilc_dist_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int n = argc > 1 ? std::atoi(argv[1]) : 192;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 100;
  const int global[3] = {n, n, n};
  const std::size_t points = std::size_t(n) * n * n, bytes = points * sizeof(double);

  // The initial grid on rank 0: 0.25 everywhere, 1.0 in a cube around the
  // centre, and a ring (kept by the fixed boundary) at 0.
  std::vector<double> grid, single;
  if (rank == 0) {
    grid.assign(points, 0.25);
    for (int z = 0; z < n; ++z)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
          const bool ring = z == 0 || y == 0 || x == 0 || z == n - 1 || y == n - 1 || x == n - 1;
          const bool hot = std::abs(2 * z - n) < n / 4 && std::abs(2 * y - n) < n / 4 &&
                           std::abs(2 * x - n) < n / 4;
          grid[(std::size_t(z) * n + y) * n + x] = ring ? 0.0 : hot ? 1.0 : 0.25;
        }
    // The single-GPU run of the whole grid, to check against.
    double *a = nullptr, *b = nullptr;
    check(cudaMalloc(&a, bytes), "cudaMalloc");
    check(cudaMalloc(&b, bytes), "cudaMalloc");
    check(cudaMemcpy(a, grid.data(), bytes, cudaMemcpyHostToDevice), "copy");
    check(heat3d_run(a, b, n, n, n, steps, nullptr), "heat3d_run");
    single.resize(points);
    check(cudaMemcpy(single.data(), a, bytes, cudaMemcpyDeviceToHost), "copy");
    check(cudaFree(a), "cudaFree");
    check(cudaFree(b), "cudaFree");
  }

  // The distributed run: a process grid of MPI_Dims_create's choice.
  stencilc_dist_plan plan = nullptr;
  check(heat3d_dist_create(MPI_COMM_WORLD, global, nullptr, &plan), "heat3d_dist_create");
  int local[3], owned[3], start[3];
  check(heat3d_dist_local_extent(plan, local, nullptr, owned, start), "local extent");
  const std::size_t localBytes = std::size_t(local[0]) * local[1] * local[2] * sizeof(double);
  double *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, localBytes), "cudaMalloc");
  check(cudaMalloc(&b, localBytes), "cudaMalloc");
  check(heat3d_dist_scatter(plan, grid.data(), a), "scatter");
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  check(heat3d_dist_run(plan, a, b, steps, nullptr), "heat3d_dist_run");
  check(cudaDeviceSynchronize(), "run");
  const double seconds = MPI_Wtime() - t0;
  std::vector<double> gathered(rank == 0 ? points : 0);
  check(heat3d_dist_gather(plan, a, gathered.data()), "gather");
  std::printf("rank %d: owns %d x %d x %d from (%d, %d, %d), local array %d x %d x %d\n", rank,
              owned[0], owned[1], owned[2], start[0], start[1], start[2], local[0], local[1],
              local[2]);

  int status = 0;
  if (rank == 0) {
    std::size_t differ = 0;
    double centre = gathered[(std::size_t(n / 2) * n + n / 2) * n + n / 2];
    for (std::size_t i = 0; i < points; ++i)
      differ += std::memcmp(&gathered[i], &single[i], sizeof(double)) != 0;
    std::printf("heat3d-mpi: %d ranks, %d^3 fp64, %d steps, transport %s: %.3f s; centre %.6f; "
                "%zu of %zu points differ from the single-GPU run: %s\n",
                ranks, n, steps, stencilc_dist_transport(plan), seconds, centre, differ, points,
                differ ? "FAIL" : "PASS");
    status = differ ? 1 : 0;
  }
  heat3d_dist_destroy(plan);
  check(cudaFree(a), "cudaFree");
  check(cudaFree(b), "cudaFree");
  MPI_Finalize();
  return status;
}
