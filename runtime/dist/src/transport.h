// transport.h - how one exchange phase moves the halos between ranks: NCCL
// point-to-point, CUDA IPC, a CUDA-aware MPI, or MPI through pinned host
// buffers (docs/distributed.md, "Transports").
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime.h>
#include <mpi.h>

#include "profile.h"
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

/// How the plan moves message i's halo out of the local array (or a band)
/// into a contiguous device buffer of the transport's choosing, and the
/// received one back; both enqueue copies on the stream they are given.
/// inPlace, where given, names the halo's own address where its points are
/// one contiguous run of the array (slabs: whole planes), or nullptr: the
/// transport then sends from it or receives into it with no copy.
struct HaloCopies {
  std::function<cudaError_t(std::size_t i, void *to, cudaStream_t)> pack;
  std::function<cudaError_t(std::size_t i, const void *from, cudaStream_t)> unpack;
  std::function<void *(std::size_t i, bool send)> inPlace;
};

class Transport {
public:
  virtual ~Transport() = default;
  virtual const char *name() const = 0;
  /// One exchange of `phase`: packs every message (copies.pack), moves it to
  /// its peer, and unpacks what the peer sent (copies.unpack), all ordered
  /// on `stream`: the halos are read after the work enqueued on `stream`
  /// so far, and the received ones are in place for the work enqueued
  /// after it.
  virtual Failure exchange(const Phase &phase, const HaloCopies &copies, std::size_t elementSize,
                           cudaStream_t stream) = 0;
  /// Whether overlapping the interior with the exchange gains time by
  /// default: it costs two halos of planes of redundant work a side, which
  /// only a slow exchange repays (docs/distributed.md, "Overlap").
  virtual bool overlapPays() const { return true; }
  /// The passes one exchange serves by default (STENCILC_DIST_PASSES_PER_EXCHANGE
  /// overrides it): two halve the exchanges for a halo twice as wide.
  virtual int passesPerExchange() const { return 2; }
  /// Where the exchange marks its steps when the plan is profiled.
  void setProfile(Profile *profile) { profile_ = profile; }

protected:
  void mark(const char *label, cudaStream_t stream) {
    if (profile_) {
      profile_->mark(label, stream);
    }
  }

private:
  Profile *profile_ = nullptr;
};

/// A transport that moves messages between send and receive buffers of its
/// own (one pair per message of each axis's phase, allocated at its first
/// exchange): the halos are packed into the send buffers, moved, and
/// unpacked from the receive buffers.
class StagedTransport : public Transport {
public:
  ~StagedTransport() override;
  Failure exchange(const Phase &phase, const HaloCopies &copies, std::size_t elementSize,
                   cudaStream_t stream) final;

protected:
  /// Sends sends[i] to the peer of message i and receives recvs[i]. The
  /// sends hold their data once the work enqueued on `stream` so far is
  /// done; the received data must be ready for work enqueued afterwards.
  virtual Failure move(const Phase &phase, void *const *sends, void *const *recvs,
                       std::size_t elementSize, cudaStream_t stream) = 0;

private:
  std::map<std::pair<int, std::size_t>, std::pair<void *, void *>> buffers_; // (axis, message)
};

/// The transport `choice` names ("nccl", "cuda-ipc", "cuda-mpi", "host", or
/// "auto" / empty for the first that works here, in that order). Collective
/// over `comm`: every rank gets the same kind.
Failure makeTransport(const std::string &choice, MPI_Comm comm,
                      std::unique_ptr<Transport> &transport);

/// CUDA IPC between the ranks of one machine (transport_ipc.cpp); refused
/// where the ranks span machines or the driver does not export memory and
/// events.
Failure makeIpc(MPI_Comm comm, std::unique_ptr<Transport> &transport);

} // namespace stencilc::dist
