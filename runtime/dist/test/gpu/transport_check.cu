// transport_check.cu - one transport's halo exchange on the GPU, apart from
// the stencils (docs/distributed.md, "Tests"): under mpirun, the ranks form
// a periodic ring of slabs along z, each a local array of owned planes with
// `h` ghost planes on both sides, and exchange their halos through the
// transport STENCILC_DIST_TRANSPORT names (or `auto`), with the messages
// and tags the decomposition gives a slab (Decomposition::schedule). With
// one rank both messages go to the rank itself: the way NCCL, which takes a
// GPU per rank, runs on a machine of one GPU. Each of several exchanges
// first writes new values into the owned planes on the stream (so the
// transport's buffers are reused, and its ordering against the stream's
// work is checked), then checks every ghost plane bit for bit against the
// neighbour's owned planes, and every owned plane against what was
// written. Usage: mpirun -np N transport_check [exchanges]. Prints one line
// per rank and exits 1 if any point differs or the transport fails.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <mpi.h>

#include "dist_gpu_test.h"
#include "transport.h"

namespace {

constexpr int Owned = 9, Halo = 3, Ny = 5, Nx = 7; // odd, small: every plane a few points
constexpr long long Plane = static_cast<long long>(Ny) * Nx;

/// The value an owned point holds at exchange `round`: unique to the
/// global plane, the point and the round, exact in a double.
__host__ __device__ double valueAt(long long globalPlane, long long inPlane, int round) {
  return static_cast<double>((round * 1000003LL + globalPlane) * Plane + inPlane);
}

/// Writes round `round`'s values into the owned planes and NaN into the
/// ghost planes of the local array.
__global__ void fill(double *local, int rank, int round) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long n = (Owned + 2 * Halo) * Plane;
  if (i >= n) {
    return;
  }
  const long long z = i / Plane;
  const bool owned = z >= Halo && z < Halo + Owned;
  local[i] = owned ? valueAt(static_cast<long long>(rank) * Owned + z - Halo, i % Plane, round)
                   : __longlong_as_double(0x7ff8dead0000beefLL);
}

/// The two messages of a slab in a periodic ring of `ranks`, as
/// Decomposition::schedule makes them for axis 0.
stencilc::dist::Phase ringPhase(int rank, int ranks) {
  stencilc::dist::Phase phase;
  phase.axis = 0;
  for (int side = 0; side < 2; ++side) {
    stencilc::dist::Message m;
    m.peer = (rank + (side == 0 ? ranks - 1 : 1)) % ranks;
    m.sendTag = side;
    m.recvTag = 1 - side;
    m.send.size[0] = m.recv.size[0] = Halo;
    m.send.size[1] = m.recv.size[1] = Ny;
    m.send.size[2] = m.recv.size[2] = Nx;
    m.send.lo[0] = side == 0 ? Halo : Owned;
    m.recv.lo[0] = side == 0 ? 0 : Halo + Owned;
    phase.messages.push_back(m);
  }
  return phase;
}

} // namespace

int main(int argc, char **argv) {
  int rank = 0, ranks = 1;
  dist_gpu_test::initRanks(&argc, &argv, rank, ranks);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  const char *choice = std::getenv("STENCILC_DIST_TRANSPORT");
  std::unique_ptr<stencilc::dist::Transport> transport;
  stencilc::dist::Failure f =
      stencilc::dist::makeTransport(choice ? choice : "auto", MPI_COMM_WORLD, transport);
  if (f) {
    std::printf("rank %d: FAIL: no transport '%s': %s\n", rank, choice ? choice : "auto",
                f.message.c_str());
    MPI_Finalize();
    return 1;
  }
  const long long points = (Owned + 2 * Halo) * Plane;
  double *local = nullptr;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMalloc(&local, points * sizeof(double));
  const stencilc::dist::Phase phase = ringPhase(rank, ranks);
  const auto planeAt = [&](long long z) { return reinterpret_cast<char *>(local + z * Plane); };
  const stencilc::dist::HaloCopies copies{
      [&](std::size_t i, void *to, cudaStream_t s) {
        return cudaMemcpyAsync(to, planeAt(phase.messages[i].send.lo[0]),
                               Halo * Plane * sizeof(double), cudaMemcpyDeviceToDevice, s);
      },
      [&](std::size_t i, const void *from, cudaStream_t s) {
        return cudaMemcpyAsync(planeAt(phase.messages[i].recv.lo[0]), from,
                               Halo * Plane * sizeof(double), cudaMemcpyDeviceToDevice, s);
      }};
  long long differ = 0;
  std::vector<double> host(points);
  for (int round = 0; round < rounds && !f; ++round) {
    fill<<<static_cast<unsigned>((points + 255) / 256), 256, 0, stream>>>(local, rank, round);
    f = transport->exchange(phase, copies, sizeof(double), stream);
    if (!f) {
      f = stencilc::dist::cudaFailure(cudaMemcpyAsync(host.data(), local, points * sizeof(double),
                                                      cudaMemcpyDeviceToHost, stream),
                                      "copying back");
    }
    if (!f) {
      f = stencilc::dist::cudaFailure(cudaStreamSynchronize(stream), "the exchange");
    }
    for (long long z = 0; !f && z < Owned + 2 * Halo; ++z) {
      // The global plane this local plane holds: the ring wraps.
      const long long global = (static_cast<long long>(rank) * Owned + z - Halo +
                                static_cast<long long>(ranks) * Owned) %
                               (static_cast<long long>(ranks) * Owned);
      for (long long p = 0; p < Plane; ++p) {
        differ += host[z * Plane + p] != valueAt(global, p, round);
      }
    }
  }
  std::printf("rank %d of %d: transport %s, %d exchanges of %d ghost planes a side: %s (%lld of "
              "%lld points differ)%s%s\n",
              rank, ranks, transport->name(), rounds, Halo, !f && differ == 0 ? "PASS" : "FAIL",
              differ, static_cast<long long>(rounds) * points, f ? ": " : "", f.message.c_str());
  const int ok = !f && differ == 0 ? 1 : 0;
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  transport.reset();
  cudaFree(local);
  cudaStreamDestroy(stream);
  MPI_Finalize();
  return all ? 0 : 1;
}
