// transport.cpp - the three transports behind one interface.
#include "transport.h"

#include <algorithm>
#include <cstring>
#include <dlfcn.h>

#include "stencilc/dist/exchange.h"

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#if __has_include(<nccl.h>)
#include <nccl.h>
#define STENCILC_DIST_HAVE_NCCL_H 1
#endif

namespace stencilc::dist {

Failure cudaFailure(cudaError_t error, const char *what) {
  if (error == cudaSuccess) {
    return {};
  }
  return {STENCILC_DIST_CUDA_ERROR, std::string(what) + ": " + cudaGetErrorString(error)};
}

Failure mpiFailure(int code, const char *what) {
  if (code == MPI_SUCCESS) {
    return {};
  }
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return {STENCILC_DIST_MPI_ERROR, std::string(what) + ": " + std::string(text, length)};
}

StagedTransport::~StagedTransport() {
  for (auto &[key, pair] : buffers_) {
    cudaFree(pair.first);
    cudaFree(pair.second);
  }
}

// A halo that is one contiguous run of the array (copies.inPlace) is sent
// from, or received into, the array itself: NCCL and MPI copy it anyway,
// and the pack and unpack were two more copies and launches an exchange
// (for star3d7p fp64 on two H200s, 6 MiB each way a pass).
Failure StagedTransport::exchange(const Phase &phase, const HaloCopies &copies,
                                  std::size_t elementSize, cudaStream_t stream) {
  const std::size_t count = phase.messages.size();
  std::vector<void *> sends(count), recvs(count);
  std::vector<bool> unpack(count);
  Failure f;
  for (std::size_t i = 0; i < count && !f; ++i) {
    auto &[send, recv] = buffers_[{phase.axis, i}];
    const std::size_t bytes =
        static_cast<std::size_t>(phase.messages[i].send.count()) * elementSize;
    if (!send) {
      f = cudaFailure(cudaMalloc(&send, bytes), "halo buffers");
      f = f ? f : cudaFailure(cudaMalloc(&recv, bytes), "halo buffers");
    }
    void *const sendAt = copies.inPlace ? copies.inPlace(i, true) : nullptr;
    void *const recvAt = copies.inPlace ? copies.inPlace(i, false) : nullptr;
    sends[i] = sendAt ? sendAt : send;
    recvs[i] = recvAt ? recvAt : recv;
    unpack[i] = recvAt == nullptr;
    if (!sendAt) {
      f = f ? f : cudaFailure(copies.pack(i, send, stream), "packing a halo");
    }
  }
  mark("packed", stream);
  f = f ? f : move(phase, sends.data(), recvs.data(), elementSize, stream);
  mark("moved", stream);
  for (std::size_t i = 0; i < count && !f; ++i) {
    if (unpack[i]) {
      f = cudaFailure(copies.unpack(i, recvs[i], stream), "unpacking a halo");
    }
  }
  mark("unpacked", stream);
  return f;
}

namespace {

std::size_t messageBytes(const Message &m, std::size_t elementSize) {
  return static_cast<std::size_t>(m.recv.count()) * elementSize;
}

/// MPI on device pointers: the MPI library reads and writes GPU memory.
class CudaMpiTransport final : public StagedTransport {
public:
  explicit CudaMpiTransport(MPI_Comm comm) : comm_(comm) {}
  const char *name() const override { return "cuda-mpi"; }
  Failure move(const Phase &phase, void *const *sends, void *const *recvs, std::size_t elementSize,
               cudaStream_t stream) override {
    if (Failure f = cudaFailure(cudaStreamSynchronize(stream), "packing the halos")) {
      return f;
    }
    return mpiFailure(exchangePhase(comm_, phase, sends, recvs, elementSize), "halo exchange");
  }

private:
  MPI_Comm comm_;
};

/// MPI through pinned host buffers: always works.
class HostTransport final : public StagedTransport {
public:
  explicit HostTransport(MPI_Comm comm) : comm_(comm) {}
  ~HostTransport() override {
    if (pinned_) {
      cudaFreeHost(pinned_);
    }
  }
  const char *name() const override { return "host"; }
  Failure move(const Phase &phase, void *const *sends, void *const *recvs, std::size_t elementSize,
               cudaStream_t stream) override {
    std::size_t total = 0;
    for (const Message &m : phase.messages) {
      total += 2 * messageBytes(m, elementSize);
    }
    if (total > capacity_) {
      // Stream-ordered work may still read the old buffer (the last H2D).
      if (Failure f = cudaFailure(cudaStreamSynchronize(stream), "halo staging")) {
        return f;
      }
      if (pinned_) {
        cudaFreeHost(pinned_);
        pinned_ = nullptr;
      }
      if (Failure f = cudaFailure(cudaMallocHost(&pinned_, total), "pinned halo buffers")) {
        capacity_ = 0;
        return f;
      }
      capacity_ = total;
    }
    std::vector<void *> hostSends, hostRecvs;
    std::size_t at = 0;
    for (std::size_t i = 0; i < phase.messages.size(); ++i) {
      const std::size_t bytes = messageBytes(phase.messages[i], elementSize);
      hostSends.push_back(static_cast<char *>(pinned_) + at);
      hostRecvs.push_back(static_cast<char *>(pinned_) + at + bytes);
      at += 2 * bytes;
      if (Failure f = cudaFailure(
              cudaMemcpyAsync(hostSends[i], sends[i], bytes, cudaMemcpyDeviceToHost, stream),
              "halo to host")) {
        return f;
      }
    }
    if (Failure f = cudaFailure(cudaStreamSynchronize(stream), "halo to host")) {
      return f;
    }
    if (Failure f =
            mpiFailure(exchangePhase(comm_, phase, hostSends.data(), hostRecvs.data(), elementSize),
                       "halo exchange")) {
      return f;
    }
    for (std::size_t i = 0; i < phase.messages.size(); ++i) {
      const std::size_t bytes = messageBytes(phase.messages[i], elementSize);
      if (Failure f = cudaFailure(
              cudaMemcpyAsync(recvs[i], hostRecvs[i], bytes, cudaMemcpyHostToDevice, stream),
              "halo to device")) {
        return f;
      }
    }
    return {};
  }

private:
  MPI_Comm comm_;
  void *pinned_ = nullptr;
  std::size_t capacity_ = 0;
};

bool cudaAwareMpi() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

#ifdef STENCILC_DIST_HAVE_NCCL_H
/// NCCL loaded at run time (libnccl.so.2), so the runtime links without it.
struct NcclLibrary {
  void *handle = nullptr;
  decltype(&ncclGetUniqueId) getUniqueId = nullptr;
  decltype(&ncclCommInitRank) commInitRank = nullptr;
  decltype(&ncclCommDestroy) commDestroy = nullptr;
  decltype(&ncclGroupStart) groupStart = nullptr;
  decltype(&ncclGroupEnd) groupEnd = nullptr;
  decltype(&ncclSend) send = nullptr;
  decltype(&ncclRecv) recv = nullptr;
  decltype(&ncclGetErrorString) errorString = nullptr;

  bool load() {
    handle = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      return false;
    }
    bool ok = true;
    auto get = [&](auto &fn, const char *symbol) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, symbol));
      ok = ok && fn;
    };
    get(getUniqueId, "ncclGetUniqueId");
    get(commInitRank, "ncclCommInitRank");
    get(commDestroy, "ncclCommDestroy");
    get(groupStart, "ncclGroupStart");
    get(groupEnd, "ncclGroupEnd");
    get(send, "ncclSend");
    get(recv, "ncclRecv");
    get(errorString, "ncclGetErrorString");
    return ok;
  }
};

class NcclTransport final : public StagedTransport {
public:
  NcclTransport(const NcclLibrary &lib, ncclComm_t comm) : lib_(lib), comm_(comm) {}
  ~NcclTransport() override { lib_.commDestroy(comm_); }
  const char *name() const override { return "nccl"; }
  // One exchange a pass, with the overlap reading the bands in place: on
  // two H200s over NVLink it was the fastest or within 1 % for each of the
  // scaling run's stencils (docs/distributed.md, "Scaling over several GPUs").
  int passesPerExchange() const override { return 1; }
  Failure move(const Phase &phase, void *const *sends, void *const *recvs, std::size_t elementSize,
               cudaStream_t stream) override {
    // NCCL has no tags: between two ranks the k-th send meets the k-th
    // receive. Sends go out in tag order, so receives are posted in tag
    // order too (with two ranks along a periodic axis both messages of a
    // phase go to the same peer, and its low side receives our high one).
    const std::size_t count = phase.messages.size();
    std::vector<std::size_t> byRecvTag(count);
    for (std::size_t i = 0; i < count; ++i) {
      byRecvTag[i] = i;
    }
    std::sort(byRecvTag.begin(), byRecvTag.end(), [&](std::size_t x, std::size_t y) {
      return phase.messages[x].recvTag < phase.messages[y].recvTag;
    });
    ncclResult_t rc = lib_.groupStart();
    for (std::size_t i = 0; rc == ncclSuccess && i < count; ++i) {
      const Message &m = phase.messages[byRecvTag[i]];
      rc = lib_.recv(recvs[byRecvTag[i]], messageBytes(m, elementSize), ncclUint8, m.peer, comm_,
                     stream);
    }
    for (std::size_t i = 0; rc == ncclSuccess && i < count; ++i) {
      const Message &m = phase.messages[i];
      rc = lib_.send(sends[i], messageBytes(m, elementSize), ncclUint8, m.peer, comm_, stream);
    }
    const ncclResult_t end = lib_.groupEnd();
    rc = rc == ncclSuccess ? end : rc;
    if (rc != ncclSuccess) {
      return {STENCILC_DIST_NCCL_ERROR, std::string("halo exchange: ") + lib_.errorString(rc)};
    }
    return {};
  }

private:
  NcclLibrary lib_;
  ncclComm_t comm_;
};

/// NCCL needs one GPU per rank: true when every rank's device differs.
bool distinctDevices(MPI_Comm comm) {
  int device = 0;
  char bus[32] = {};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess) {
    return false;
  }
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<char> all(32 * static_cast<std::size_t>(size));
  MPI_Allgather(bus, 32, MPI_CHAR, all.data(), 32, MPI_CHAR, comm);
  for (int i = 0; i < size; ++i) {
    for (int j = i + 1; j < size; ++j) {
      if (std::strncmp(&all[32 * i], &all[32 * j], 32) == 0) {
        return false;
      }
    }
  }
  return true;
}

Failure makeNccl(MPI_Comm comm, std::unique_ptr<Transport> &transport) {
  NcclLibrary lib;
  int usable = lib.load() && distinctDevices(comm) ? 1 : 0, all = 0;
  MPI_Allreduce(&usable, &all, 1, MPI_INT, MPI_MIN, comm);
  if (!all) {
    return {STENCILC_DIST_NO_TRANSPORT,
            "NCCL is not usable here (libnccl.so.2 not loaded on every rank, or ranks "
            "sharing a GPU)"};
  }
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  ncclUniqueId id;
  if (rank == 0) {
    lib.getUniqueId(&id);
  }
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm);
  ncclComm_t nccl = nullptr;
  const ncclResult_t rc = lib.commInitRank(&nccl, size, id, rank);
  int ok = rc == ncclSuccess ? 1 : 0, allOk = 0;
  MPI_Allreduce(&ok, &allOk, 1, MPI_INT, MPI_MIN, comm);
  if (!allOk) {
    if (nccl) {
      lib.commDestroy(nccl);
    }
    return {STENCILC_DIST_NCCL_ERROR, std::string("ncclCommInitRank: ") + lib.errorString(rc)};
  }
  transport = std::make_unique<NcclTransport>(lib, nccl);
  return {};
}
#else
Failure makeNccl(MPI_Comm, std::unique_ptr<Transport> &) {
  return {STENCILC_DIST_NO_TRANSPORT, "the runtime was built without nccl.h"};
}
#endif

} // namespace

Failure makeTransport(const std::string &choice, MPI_Comm comm,
                      std::unique_ptr<Transport> &transport) {
  const bool automatic = choice.empty() || choice == "auto";
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (automatic && size == 1) {
    transport = std::make_unique<HostTransport>(comm); // one rank exchanges nothing
    return {};
  }
  if (automatic || choice == "nccl") {
    Failure f = makeNccl(comm, transport);
    if (!f || !automatic) {
      return f;
    }
  }
  if (automatic || choice == "cuda-ipc") {
    Failure f = makeIpc(comm, transport);
    if (!f || !automatic) {
      return f;
    }
  }
  if (automatic || choice == "cuda-mpi") {
    int aware = cudaAwareMpi() ? 1 : 0, all = 0;
    MPI_Allreduce(&aware, &all, 1, MPI_INT, MPI_MIN, comm);
    if (all) {
      transport = std::make_unique<CudaMpiTransport>(comm);
      return {};
    }
    if (!automatic) {
      return {STENCILC_DIST_NO_TRANSPORT, "the MPI library is not CUDA-aware on every rank"};
    }
  }
  if (automatic || choice == "host") {
    transport = std::make_unique<HostTransport>(comm);
    return {};
  }
  return {STENCILC_DIST_INVALID_ARGUMENT, "STENCILC_DIST_TRANSPORT is '" + choice +
                                              "'; expected nccl, cuda-ipc, cuda-mpi, host or auto"};
}

} // namespace stencilc::dist
