// exchange.cpp - the halo exchange over MPI on host memory.
#include "stencilc/dist/exchange.h"

#include <climits>
#include <cstring>

namespace stencilc::dist {

void localExtents(const Decomposition &d, long long extents[MaxDims]) {
  for (int a = 0; a < MaxDims; ++a) {
    extents[a] = a < d.layout().dims ? d.local(a) : 1;
  }
}

namespace {

/// Calls row(arrayOffset, boxOffset, bytes) for every contiguous row of
/// `box` (offsets in bytes).
template <typename Row>
void forEachRow(const long long extents[MaxDims], const Box &box, std::size_t elementSize,
                Row row) {
  const std::size_t bytes = static_cast<std::size_t>(box.size[2]) * elementSize;
  std::size_t packed = 0;
  for (long long z = 0; z < box.size[0]; ++z) {
    for (long long y = 0; y < box.size[1]; ++y) {
      const long long index =
          ((box.lo[0] + z) * extents[1] + box.lo[1] + y) * extents[2] + box.lo[2];
      row(static_cast<std::size_t>(index) * elementSize, packed, bytes);
      packed += bytes;
    }
  }
}

} // namespace

void packHost(const void *array, const long long extents[MaxDims], const Box &box,
              std::size_t elementSize, void *buffer) {
  const char *from = static_cast<const char *>(array);
  char *to = static_cast<char *>(buffer);
  forEachRow(extents, box, elementSize, [&](std::size_t at, std::size_t packed, std::size_t n) {
    std::memcpy(to + packed, from + at, n);
  });
}

void unpackHost(const void *buffer, const long long extents[MaxDims], const Box &box,
                std::size_t elementSize, void *array) {
  const char *from = static_cast<const char *>(buffer);
  char *to = static_cast<char *>(array);
  forEachRow(extents, box, elementSize, [&](std::size_t at, std::size_t packed, std::size_t n) {
    std::memcpy(to + at, from + packed, n);
  });
}

int exchangePhase(MPI_Comm comm, const Phase &phase, void *const *sendBuffers,
                  void *const *recvBuffers, std::size_t elementSize) {
  const std::size_t count = phase.messages.size();
  std::vector<MPI_Request> requests(2 * count, MPI_REQUEST_NULL);
  for (std::size_t i = 0; i < count; ++i) {
    const Message &m = phase.messages[i];
    const std::size_t bytes = static_cast<std::size_t>(m.recv.count()) * elementSize;
    if (bytes > INT_MAX) {
      return MPI_ERR_COUNT;
    }
    if (int rc = MPI_Irecv(recvBuffers[i], static_cast<int>(bytes), MPI_BYTE, m.peer, m.recvTag,
                           comm, &requests[i]);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    const Message &m = phase.messages[i];
    const std::size_t bytes = static_cast<std::size_t>(m.send.count()) * elementSize;
    if (int rc = MPI_Isend(sendBuffers[i], static_cast<int>(bytes), MPI_BYTE, m.peer, m.sendTag,
                           comm, &requests[count + i]);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  return MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

int exchangeHost(MPI_Comm comm, const Decomposition &d, const std::vector<Phase> &schedule,
                 void *array, std::size_t elementSize, std::vector<char> &scratch) {
  long long extents[MaxDims];
  localExtents(d, extents);
  for (const Phase &phase : schedule) {
    std::size_t total = 0;
    for (const Message &m : phase.messages) {
      total += 2 * static_cast<std::size_t>(m.send.count()) * elementSize;
    }
    scratch.resize(total);
    std::vector<void *> sends, recvs;
    std::size_t at = 0;
    for (const Message &m : phase.messages) {
      const std::size_t bytes = static_cast<std::size_t>(m.send.count()) * elementSize;
      sends.push_back(scratch.data() + at);
      recvs.push_back(scratch.data() + at + bytes);
      packHost(array, extents, m.send, elementSize, sends.back());
      at += 2 * bytes;
    }
    if (int rc = exchangePhase(comm, phase, sends.data(), recvs.data(), elementSize);
        rc != MPI_SUCCESS) {
      return rc;
    }
    for (std::size_t i = 0; i < phase.messages.size(); ++i) {
      unpackHost(recvs[i], extents, phase.messages[i].recv, elementSize, array);
    }
  }
  return MPI_SUCCESS;
}

} // namespace stencilc::dist
