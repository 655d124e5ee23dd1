// transport.h - how one exchange phase moves packed device buffers between
// ranks: NCCL point-to-point, a CUDA-aware MPI, or MPI through pinned host
// buffers (docs/distributed.md, "Transports").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <mpi.h>

#include "stencilc/dist/decomp.h"
#include "stencilc/dist/dist.h"

namespace stencilc::dist {

/// A failure's status and sentence, or success.
struct Failure {
  stencilc_dist_status status = STENCILC_DIST_SUCCESS;
  std::string message;
  explicit operator bool() const { return status != STENCILC_DIST_SUCCESS; }
};

Failure cudaFailure(cudaError_t error, const char *what);
Failure mpiFailure(int code, const char *what);

class Transport {
public:
  virtual ~Transport() = default;
  virtual const char *name() const = 0;
  /// Sends sends[i] to the peer of message i and receives recvs[i] (device
  /// buffers of the message's points). The sends must hold their data once
  /// the work enqueued on `stream` so far is done; the received data is
  /// ready for work enqueued on `stream` afterwards.
  virtual Failure exchange(const Phase &phase, void *const *sends, void *const *recvs,
                           std::size_t elementSize, cudaStream_t stream) = 0;
};

/// The transport `choice` names ("nccl", "cuda-ipc", "cuda-mpi", "host", or
/// "auto" / empty for the first that works here, in that order). Collective
/// over `comm`: every rank gets the same kind.
Failure makeTransport(const std::string &choice, MPI_Comm comm,
                      std::unique_ptr<Transport> &transport);

/// CUDA IPC between the ranks of one machine (transport_ipc.cpp); refused
/// where the ranks span machines or the driver does not export memory.
Failure makeIpc(MPI_Comm comm, std::unique_ptr<Transport> &transport);

} // namespace stencilc::dist
