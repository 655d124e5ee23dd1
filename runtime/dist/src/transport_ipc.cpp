// transport_ipc.cpp - the CUDA IPC transport: ranks of one machine copy the
// halos straight out of each other's device memory. Each message has an
// outbox of two device buffers (alternate exchanges use alternate ones),
// exported once with cudaIpcGetMemHandle and opened by the peer. An
// exchange copies the packed halo into this exchange's outbox, waits for
// the copy, trades a token with each peer over MPI ("my outbox is ready"),
// and copies the peer's outbox into the receive buffer on the stream. The
// token of the next exchange comes after that copy in the peer's stream, so
// an outbox is never rewritten while its last reader may still copy it.
#include <map>
#include <utility>

#include "transport.h"

namespace stencilc::dist {

namespace {

struct Outbox {
  void *mine[2] = {nullptr, nullptr};   // exported to the peer
  void *theirs[2] = {nullptr, nullptr}; // the peer's, opened here
};

class IpcTransport final : public Transport {
public:
  explicit IpcTransport(MPI_Comm comm) : comm_(comm) {}
  ~IpcTransport() override {
    for (auto &[key, box] : boxes_) {
      for (void *p : box.theirs) {
        if (p) {
          cudaIpcCloseMemHandle(p);
        }
      }
    }
    MPI_Barrier(comm_); // no rank frees an outbox another may still have open
    for (auto &[key, box] : boxes_) {
      for (void *p : box.mine) {
        cudaFree(p);
      }
    }
    if (ready_) {
      cudaEventDestroy(ready_);
    }
  }
  const char *name() const override { return "cuda-ipc"; }

  Failure exchange(const Phase &phase, void *const *sends, void *const *recvs,
                   std::size_t elementSize, cudaStream_t stream) override {
    const std::size_t count = phase.messages.size();
    if (Failure f = setUp(phase, elementSize)) {
      return f;
    }
    const int parity = static_cast<int>(exchanges_[phase.axis]++ % 2);
    for (std::size_t i = 0; i < count; ++i) {
      const Message &m = phase.messages[i];
      if (Failure f =
              cudaFailure(cudaMemcpyAsync(boxes_[{phase.axis, i}].mine[parity], sends[i],
                                          bytes(m, elementSize), cudaMemcpyDeviceToDevice, stream),
                          "halo to outbox")) {
        return f;
      }
    }
    Failure f = cudaFailure(cudaEventRecord(ready_, stream), "halo to outbox");
    f = f ? f : cudaFailure(cudaEventSynchronize(ready_), "halo to outbox");
    if (f) {
      return f;
    }
    std::vector<MPI_Request> requests(2 * count, MPI_REQUEST_NULL);
    std::vector<int> tokens(count, 0), mine(count, 1);
    for (std::size_t i = 0; i < count && !f; ++i) {
      const Message &m = phase.messages[i];
      f = mpiFailure(MPI_Irecv(&tokens[i], 1, MPI_INT, m.peer, m.recvTag, comm_, &requests[i]),
                     "halo token");
      f = f ? f
            : mpiFailure(
                  MPI_Isend(&mine[i], 1, MPI_INT, m.peer, m.sendTag, comm_, &requests[count + i]),
                  "halo token");
    }
    f = f ? f
          : mpiFailure(MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                                   MPI_STATUSES_IGNORE),
                       "halo token");
    for (std::size_t i = 0; i < count && !f; ++i) {
      f = cudaFailure(cudaMemcpyAsync(recvs[i], boxes_[{phase.axis, i}].theirs[parity],
                                      bytes(phase.messages[i], elementSize),
                                      cudaMemcpyDeviceToDevice, stream),
                      "halo from the peer's outbox");
    }
    return f;
  }

  /// Allocates, exports and opens the outboxes of a phase the first time it
  /// is exchanged (collective between the phase's neighbours).
  Failure setUp(const Phase &phase, std::size_t elementSize) {
    if (exchanges_.count(phase.axis)) {
      return {};
    }
    exchanges_[phase.axis] = 0;
    if (!ready_) {
      if (Failure f =
              cudaFailure(cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming), "IPC event")) {
        return f;
      }
    }
    const std::size_t count = phase.messages.size();
    std::vector<cudaIpcMemHandle_t> out(2 * count), in(2 * count);
    std::vector<MPI_Request> requests(2 * count, MPI_REQUEST_NULL);
    Failure f;
    for (std::size_t i = 0; i < count && !f; ++i) {
      const Message &m = phase.messages[i];
      Outbox &box = boxes_[{phase.axis, i}];
      for (int k = 0; k < 2 && !f; ++k) {
        f = cudaFailure(cudaMalloc(&box.mine[k], bytes(m, elementSize)), "IPC outbox");
        f = f ? f : cudaFailure(cudaIpcGetMemHandle(&out[2 * i + k], box.mine[k]), "IPC export");
      }
      const int handleBytes = static_cast<int>(2 * sizeof(cudaIpcMemHandle_t));
      f = f ? f
            : mpiFailure(MPI_Irecv(&in[2 * i], handleBytes, MPI_BYTE, m.peer, m.recvTag, comm_,
                                   &requests[i]),
                         "IPC handles");
      f = f ? f
            : mpiFailure(MPI_Isend(&out[2 * i], handleBytes, MPI_BYTE, m.peer, m.sendTag, comm_,
                                   &requests[count + i]),
                         "IPC handles");
    }
    f = f ? f
          : mpiFailure(MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                                   MPI_STATUSES_IGNORE),
                       "IPC handles");
    for (std::size_t i = 0; i < count && !f; ++i) {
      Outbox &box = boxes_[{phase.axis, i}];
      for (int k = 0; k < 2 && !f; ++k) {
        f = cudaFailure(
            cudaIpcOpenMemHandle(&box.theirs[k], in[2 * i + k], cudaIpcMemLazyEnablePeerAccess),
            "IPC open");
      }
    }
    return f;
  }

private:
  static std::size_t bytes(const Message &m, std::size_t elementSize) {
    return static_cast<std::size_t>(m.recv.count()) * elementSize;
  }

  MPI_Comm comm_;
  cudaEvent_t ready_ = nullptr;
  std::map<std::pair<int, std::size_t>, Outbox> boxes_; // (axis, message)
  std::map<int, long long> exchanges_;                  // per axis
};

/// Whether IPC works between all ranks: one machine, and a buffer exported
/// by each rank opens in the next one.
bool ipcWorks(MPI_Comm comm) {
  int size = 0, rank = 0, shared = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &shared);
  MPI_Comm_free(&node);
  int ok = shared == size && size > 1 ? 1 : 0, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  if (!all) {
    return false;
  }
  void *probe = nullptr, *opened = nullptr;
  cudaIpcMemHandle_t out{}, in{};
  ok = cudaMalloc(&probe, 256) == cudaSuccess && cudaIpcGetMemHandle(&out, probe) == cudaSuccess;
  MPI_Sendrecv(&out, sizeof out, MPI_BYTE, (rank + 1) % size, 99, &in, sizeof in, MPI_BYTE,
               (rank + size - 1) % size, 99, comm, MPI_STATUS_IGNORE);
  ok = ok && cudaIpcOpenMemHandle(&opened, in, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess;
  cudaGetLastError(); // a failed probe leaves no sticky error behind
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  if (opened) {
    cudaIpcCloseMemHandle(opened);
  }
  MPI_Barrier(comm);
  cudaFree(probe);
  return all == 1;
}

} // namespace

Failure makeIpc(MPI_Comm comm, std::unique_ptr<Transport> &transport) {
  if (!ipcWorks(comm)) {
    return {STENCILC_DIST_NO_TRANSPORT,
            "CUDA IPC does not work here (ranks on several machines, or the driver refuses)"};
  }
  transport = std::make_unique<IpcTransport>(comm);
  return {};
}

} // namespace stencilc::dist
