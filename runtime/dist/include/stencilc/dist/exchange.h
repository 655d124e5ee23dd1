// exchange.h - the halo exchange over MPI on host memory, and the pieces the
// GPU transports share with it: packing a box of a local array into a
// contiguous buffer and back, and posting one phase's messages.
#pragma once

#include <cstddef>
#include <vector>

#include <mpi.h>

#include "stencilc/dist/decomp.h"

namespace stencilc::dist {

/// The local array's extents along the three axes (1 past `dims`).
void localExtents(const Decomposition &d, long long extents[MaxDims]);

/// Copies `box` of a dense row-major array of `extents` into `buffer`
/// (box order, last axis contiguous), or back. Host memory.
void packHost(const void *array, const long long extents[MaxDims], const Box &box,
              std::size_t elementSize, void *buffer);
void unpackHost(const void *buffer, const long long extents[MaxDims], const Box &box,
                std::size_t elementSize, void *array);

/// Posts every receive, then every send, of one phase on the given buffers
/// (message i sends sendBuffers[i] and receives into recvBuffers[i]; host
/// memory, or device memory for a CUDA-aware MPI) and waits for all of
/// them. Returns an MPI error code; MPI_ERR_COUNT for a message over
/// INT_MAX bytes.
int exchangePhase(MPI_Comm comm, const Phase &phase, void *const *sendBuffers,
                  void *const *recvBuffers, std::size_t elementSize);

/// The whole exchange on a host array: per phase, pack, exchange, unpack.
/// `scratch` is reused between calls. Returns an MPI error code.
int exchangeHost(MPI_Comm comm, const Decomposition &d, const std::vector<Phase> &schedule,
                 void *array, std::size_t elementSize, std::vector<char> &scratch);

} // namespace stencilc::dist
