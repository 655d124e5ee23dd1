// transport_ipc.cpp - the CUDA IPC transport: ranks of one machine copy the
// halos straight out of each other's device memory. Each message has an
// outbox of two device buffers (alternate exchanges use alternate ones) and
// two pairs of interprocess events, all exported once and opened by the
// peer. An exchange packs the halo straight into this exchange's outbox and
// records "filled"; trades a token with the peer over MPI, which says only
// that the record is enqueued; then makes its stream wait for the peer's
// "filled", copies the peer's outbox straight into the ghosts, and records
// "drained". Before an outbox is packed again (two exchanges later) the
// stream waits for the peer's "drained" of it. Neither host waits for its
// GPU: the passes queue up on the streams, and the GPUs order themselves.
// Why the waits see the right records is in docs/distributed.md
// ("Transports"). STENCILC_DIST_IPC_SYNC=host instead waits on the host for
// the pack before sending the token (the transport's first design; kept to
// measure against, and taken where the driver exports no events).
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>

#include "transport.h"

namespace stencilc::dist {

namespace {

struct Outbox {
  void *mine[2] = {nullptr, nullptr};                  // exported to the peer
  void *theirs[2] = {nullptr, nullptr};                // the peer's, opened here
  cudaEvent_t filled[2] = {}, drained[2] = {};         // mine, exported
  cudaEvent_t peerFilled[2] = {}, peerDrained[2] = {}; // the peer's, opened here
};

/// What one rank exports for one message.
struct Handles {
  cudaIpcMemHandle_t memory[2];
  cudaIpcEventHandle_t filled[2], drained[2];
};

constexpr unsigned IpcEventFlags = cudaEventInterprocess | cudaEventDisableTiming;

class IpcTransport final : public Transport {
public:
  IpcTransport(MPI_Comm comm, bool hostSync) : comm_(comm), hostSync_(hostSync) {}
  ~IpcTransport() override {
    for (auto &[key, box] : boxes_) {
      for (int k = 0; k < 2; ++k) {
        if (box.drained[k]) {
          cudaEventSynchronize(box.drained[k]); // this rank's reads of the peer's outbox
        }
        if (box.theirs[k]) {
          cudaIpcCloseMemHandle(box.theirs[k]);
        }
        for (cudaEvent_t e : {box.peerFilled[k], box.peerDrained[k]}) {
          if (e) {
            cudaEventDestroy(e);
          }
        }
      }
    }
    MPI_Barrier(comm_); // no rank frees an outbox another may still read
    for (auto &[key, box] : boxes_) {
      for (int k = 0; k < 2; ++k) {
        cudaFree(box.mine[k]);
        for (cudaEvent_t e : {box.filled[k], box.drained[k]}) {
          if (e) {
            cudaEventDestroy(e);
          }
        }
      }
    }
  }
  const char *name() const override { return "cuda-ipc"; }
  /// Measured on one H100 shared by 2 ranks: the exchange takes a few
  /// percent of a pass, the overlap's bands more (docs/distributed.md).
  bool overlapPays() const override { return false; }

  Failure exchange(const Phase &phase, const HaloCopies &copies, std::size_t elementSize,
                   cudaStream_t stream) override {
    const std::size_t count = phase.messages.size();
    Failure f = setUp(phase, elementSize);
    const long long n = exchanges_[phase.axis]++;
    const int parity = static_cast<int>(n % 2);
    for (std::size_t i = 0; i < count && !f; ++i) {
      Outbox &box = boxes_[{phase.axis, i}];
      if (!hostSync_ && n >= 2) {
        f = cudaFailure(cudaStreamWaitEvent(stream, box.peerDrained[parity], 0),
                        "waiting for the peer to read the outbox");
      }
      f = f ? f : cudaFailure(copies.pack(i, box.mine[parity], stream), "packing into the outbox");
      f = f ? f : cudaFailure(cudaEventRecord(box.filled[parity], stream), "outbox filled");
    }
    mark("packed", stream);
    for (std::size_t i = 0; i < count && !f && hostSync_; ++i) {
      f = cudaFailure(cudaEventSynchronize(boxes_[{phase.axis, i}].filled[parity]),
                      "outbox filled");
    }
    if (hostSync_) {
      mark("host-synced", stream);
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
    mark("token", stream);
    for (std::size_t i = 0; i < count && !f; ++i) {
      Outbox &box = boxes_[{phase.axis, i}];
      if (!hostSync_) {
        f = cudaFailure(cudaStreamWaitEvent(stream, box.peerFilled[parity], 0),
                        "waiting for the peer's outbox");
      }
      if (i + 1 == count) {
        mark("peer-filled", stream);
      }
      f = f ? f
            : cudaFailure(copies.unpack(i, box.theirs[parity], stream),
                          "halo from the peer's outbox");
      f = f ? f : cudaFailure(cudaEventRecord(box.drained[parity], stream), "outbox drained");
    }
    mark("unpacked", stream);
    return f;
  }

  /// Allocates, exports and opens the outboxes and events of a phase the
  /// first time it is exchanged (collective between the phase's neighbours).
  Failure setUp(const Phase &phase, std::size_t elementSize) {
    if (exchanges_.count(phase.axis)) {
      return {};
    }
    exchanges_[phase.axis] = 0;
    const std::size_t count = phase.messages.size();
    std::vector<Handles> out(count), in(count);
    std::vector<MPI_Request> requests(2 * count, MPI_REQUEST_NULL);
    Failure f;
    for (std::size_t i = 0; i < count && !f; ++i) {
      const Message &m = phase.messages[i];
      Outbox &box = boxes_[{phase.axis, i}];
      const std::size_t bytes = static_cast<std::size_t>(m.recv.count()) * elementSize;
      for (int k = 0; k < 2 && !f; ++k) {
        f = cudaFailure(cudaMalloc(&box.mine[k], bytes), "IPC outbox");
        f = f ? f : cudaFailure(cudaIpcGetMemHandle(&out[i].memory[k], box.mine[k]), "IPC export");
        f = f ? f
              : cudaFailure(cudaEventCreateWithFlags(&box.filled[k], IpcEventFlags), "IPC event");
        f = f ? f
              : cudaFailure(cudaEventCreateWithFlags(&box.drained[k], IpcEventFlags), "IPC event");
        f = f ? f
              : cudaFailure(cudaIpcGetEventHandle(&out[i].filled[k], box.filled[k]), "IPC event");
        f = f ? f
              : cudaFailure(cudaIpcGetEventHandle(&out[i].drained[k], box.drained[k]), "IPC event");
      }
      f = f ? f
            : mpiFailure(MPI_Irecv(&in[i], sizeof(Handles), MPI_BYTE, m.peer, m.recvTag, comm_,
                                   &requests[i]),
                         "IPC handles");
      f = f ? f
            : mpiFailure(MPI_Isend(&out[i], sizeof(Handles), MPI_BYTE, m.peer, m.sendTag, comm_,
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
            cudaIpcOpenMemHandle(&box.theirs[k], in[i].memory[k], cudaIpcMemLazyEnablePeerAccess),
            "IPC open");
        f = f ? f
              : cudaFailure(cudaIpcOpenEventHandle(&box.peerFilled[k], in[i].filled[k]),
                            "IPC event open");
        f = f ? f
              : cudaFailure(cudaIpcOpenEventHandle(&box.peerDrained[k], in[i].drained[k]),
                            "IPC event open");
      }
    }
    return f;
  }

private:
  MPI_Comm comm_;
  bool hostSync_;
  std::map<std::pair<int, std::size_t>, Outbox> boxes_; // (axis, message)
  std::map<int, long long> exchanges_;                  // per axis
};

/// Whether IPC works between all ranks: one machine, and a buffer exported
/// by each rank opens in the next one. `events`: whether interprocess
/// events do too.
bool ipcWorks(MPI_Comm comm, bool &events) {
  int size = 0, rank = 0, shared = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &shared);
  MPI_Comm_free(&node);
  int ok[2] = {shared == size && size > 1 ? 1 : 0, 1}, all[2] = {0, 0};
  MPI_Allreduce(ok, all, 1, MPI_INT, MPI_MIN, comm);
  if (!all[0]) {
    return false;
  }
  void *probe = nullptr, *opened = nullptr;
  cudaEvent_t event = nullptr, peerEvent = nullptr;
  Handles out{}, in{};
  ok[0] = cudaMalloc(&probe, 256) == cudaSuccess &&
          cudaIpcGetMemHandle(&out.memory[0], probe) == cudaSuccess;
  ok[1] = cudaEventCreateWithFlags(&event, IpcEventFlags) == cudaSuccess &&
          cudaIpcGetEventHandle(&out.filled[0], event) == cudaSuccess;
  MPI_Sendrecv(&out, sizeof out, MPI_BYTE, (rank + 1) % size, 99, &in, sizeof in, MPI_BYTE,
               (rank + size - 1) % size, 99, comm, MPI_STATUS_IGNORE);
  ok[0] = ok[0] && cudaIpcOpenMemHandle(&opened, in.memory[0], cudaIpcMemLazyEnablePeerAccess) ==
                       cudaSuccess;
  ok[1] = ok[1] && cudaIpcOpenEventHandle(&peerEvent, in.filled[0]) == cudaSuccess;
  cudaGetLastError(); // a failed probe leaves no sticky error behind
  MPI_Allreduce(ok, all, 2, MPI_INT, MPI_MIN, comm);
  if (opened) {
    cudaIpcCloseMemHandle(opened);
  }
  if (peerEvent) {
    cudaEventDestroy(peerEvent);
  }
  MPI_Barrier(comm);
  cudaFree(probe);
  if (event) {
    cudaEventDestroy(event);
  }
  events = all[1] == 1;
  return all[0] == 1;
}

} // namespace

Failure makeIpc(MPI_Comm comm, std::unique_ptr<Transport> &transport) {
  bool events = false;
  if (!ipcWorks(comm, events)) {
    return {STENCILC_DIST_NO_TRANSPORT,
            "CUDA IPC does not work here (ranks on several machines, or the driver refuses)"};
  }
  // Every rank must use the same protocol: host waits where any asks.
  const char *sync = std::getenv("STENCILC_DIST_IPC_SYNC");
  int host = (sync && std::strcmp(sync, "host") == 0) || !events ? 1 : 0, any = 0;
  MPI_Allreduce(&host, &any, 1, MPI_INT, MPI_MAX, comm);
  transport = std::make_unique<IpcTransport>(comm, any != 0);
  return {};
}

} // namespace stencilc::dist
