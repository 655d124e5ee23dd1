// dist.cpp - the distributed runtime's C API: the plan, the passes of
// stencilc_dist_run (with and without overlap), scatter and gather.
#include "stencilc/dist/dist.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "profile.h"
#include "stencilc/dist/decomp.h"
#include "stencilc/dist/exchange.h"
#include "transport.h"

using namespace stencilc::dist;

namespace {

thread_local std::string lastError;

stencilc_dist_status fail(const Failure &f) {
  lastError = f.message;
  return f.status;
}

stencilc_dist_status fail(stencilc_dist_status status, std::string message) {
  return fail(Failure{status, std::move(message)});
}

/// A box of a dense array of `extents` as cudaMemcpy3D sees it.
cudaPitchedPtr pitched(const void *base, const long long extents[MaxDims], std::size_t elem) {
  return make_cudaPitchedPtr(const_cast<void *>(base), extents[2] * elem, extents[2] * elem,
                             extents[1]);
}

/// Copies `box` of the array (extents) into the contiguous `buffer`, or
/// back (`toBuffer` false); any memory kinds.
cudaError_t copyBox(void *array, const long long extentsIn[MaxDims], const Box &boxIn,
                    std::size_t elem, void *buffer, bool toBuffer, cudaStream_t stream) {
  // Axes past the grid's (extent 1) move to the front, so that the last axis
  // of the copy is the grid's contiguous one (rows of x, not of one point).
  int used = MaxDims;
  while (used > 1 && extentsIn[used - 1] == 1) {
    --used;
  }
  long long extents[MaxDims] = {1, 1, 1};
  Box box;
  for (int a = 0; a < used; ++a) {
    extents[MaxDims - used + a] = extentsIn[a];
    box.lo[MaxDims - used + a] = boxIn.lo[a];
    box.size[MaxDims - used + a] = boxIn.size[a];
  }
  const long long packed[MaxDims] = {box.size[0], box.size[1], box.size[2]};
  cudaMemcpy3DParms p = {};
  const cudaPitchedPtr arrayPtr = pitched(array, extents, elem);
  const cudaPitchedPtr bufferPtr = pitched(buffer, packed, elem);
  const cudaPos arrayPos = make_cudaPos(box.lo[2] * elem, box.lo[1], box.lo[0]);
  p.srcPtr = toBuffer ? arrayPtr : bufferPtr;
  p.dstPtr = toBuffer ? bufferPtr : arrayPtr;
  (toBuffer ? p.srcPos : p.dstPos) = arrayPos;
  p.extent = make_cudaExtent(box.size[2] * elem, box.size[1], box.size[0]);
  p.kind = cudaMemcpyDefault;
  return cudaMemcpy3DAsync(&p, stream);
}

/// Where `box` of the array (extents) starts, where its points are one
/// contiguous run of it (every axis inside the first one it spans more
/// than one index of is whole), else nullptr.
void *contiguousBox(void *array, const long long extents[MaxDims], const Box &box,
                    std::size_t elem) {
  bool spansOuter = false;
  for (int a = 0; a < MaxDims; ++a) {
    if (spansOuter && (box.lo[a] != 0 || box.size[a] != extents[a])) {
      return nullptr;
    }
    spansOuter = spansOuter || box.size[a] > 1;
  }
  const long long at = (box.lo[0] * extents[1] + box.lo[1]) * extents[2] + box.lo[2];
  return static_cast<char *>(array) + static_cast<std::size_t>(at) * elem;
}

} // namespace

struct stencilc_dist_plan_s {
  stencilc_dist_stencil stencil{};
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, ranks = 1;
  Layout layout;
  Decomposition decomp;
  std::vector<Phase> schedule;
  long long extents[MaxDims] = {1, 1, 1};
  int sizes[MaxDims] = {0, 0, 0};
  std::unique_ptr<Transport> transport;
  std::unique_ptr<Profile> profile; // STENCILC_DIST_PROFILE
  int passSteps = 1;                // steps a pass: T x the passes per exchange
  int overlap = -1;                 // -1: where the transport gains by it (Transport::overlapPays)
  cudaStream_t halo = nullptr;      // high priority: the exchange and the bands
  cudaEvent_t ready = nullptr, copied = nullptr, done = nullptr;
  void *bands[2][2] = {}; // [side][a, b]: 3 halos of planes
  std::vector<void *> allocations;

  ~stencilc_dist_plan_s() {
    if (profile) {
      profile->report(stderr, "rank " + std::to_string(rank) + ", " + transport->name() +
                                  (overlaps() ? ", overlap" : ", no overlap") + ", " +
                                  std::to_string(passSteps) + " steps a pass");
    }
    for (void *p : allocations) {
      cudaFree(p);
    }
    for (cudaEvent_t e : {ready, copied, done}) {
      if (e) {
        cudaEventDestroy(e);
      }
    }
    if (halo) {
      cudaStreamDestroy(halo);
    }
    transport.reset();
    if (comm != MPI_COMM_NULL) {
      MPI_Comm_free(&comm);
    }
  }

  Failure allocate(std::size_t bytes, void *&out) {
    if (Failure f = cudaFailure(cudaMalloc(&out, bytes), "halo buffers")) {
      return f;
    }
    allocations.push_back(out);
    return {};
  }

  std::size_t plane() const {
    return static_cast<std::size_t>(extents[1] * extents[2]) * stencil.element_size;
  }
  /// Whether a pass overlaps here: slabs, and each band's input (the
  /// halo's ghosts and twice the halo of owned planes) inside this rank.
  bool overlaps() const {
    const int h = layout.halo;
    const bool wanted = overlap < 0 ? transport->overlapPays() : overlap != 0;
    return wanted && decomp.slabs() && !schedule.empty() && decomp.owned(0) >= 2 * h &&
           decomp.owned(0) >= layout.minSize && 3 * h >= layout.minSize;
  }

  void mark(const char *label, cudaStream_t stream) {
    if (profile) {
      profile->mark(label, stream);
    }
  }
  /// Whether the ranged passes leave a fixed ring of their output as it
  /// was (NAME_pass_range's one-step form, as NAME_step): then the second
  /// buffer takes the first's ring once a run (giveRing).
  bool passesKeepRing() const {
    return stencil.pass_range && stencil.info->boundary == STENCILC_BOUNDARY_FIXED &&
           stencil.info->fused_steps <= 1;
  }
  /// Set by stencilc_dist_run where passesKeepRing(); cleared by giveRing.
  bool ringPending = false;
  Failure giveRing(const char *cur, char *other, cudaStream_t stream);
  HaloCopies boxCopies(void *array, const Phase &phase) const;
  Failure exchange(void *array, cudaStream_t stream);
  Failure pass(void *a, void *b, int steps, cudaStream_t stream);
  Failure overlappedPass(void *a, void *b, int steps, cudaStream_t stream);
  Failure passesOut(char *&cur, char *&other, int steps, cudaStream_t stream);
  Failure rangedPass(const char *in, char *out, const RangedPass &p, int steps, cudaStream_t stream,
                     const char *what);
  Failure overlappedPassOut(char *&cur, char *&other, int steps, cudaStream_t stream);
  Failure overlappedRangedPass(char *&cur, char *&other, int steps, bool next, cudaStream_t stream);
  /// Whether the last overlapped ranged pass sent the next one's halos
  /// (overlappedRangedPass); false at the start of every run.
  bool exchangedAhead = false;
  Failure copyBandsBack(char *array, cudaStream_t stream);
};

/// Copies between `array` (a local array) and the transport's buffers: each
/// message's send box out of it, its receive box into it.
HaloCopies stencilc_dist_plan_s::boxCopies(void *array, const Phase &phase) const {
  const std::size_t elem = stencil.element_size;
  return {[this, array, &phase, elem](std::size_t i, void *to, cudaStream_t s) {
            return copyBox(array, extents, phase.messages[i].send, elem, to, true, s);
          },
          [this, array, &phase, elem](std::size_t i, const void *from, cudaStream_t s) {
            return copyBox(array, extents, phase.messages[i].recv, elem, const_cast<void *>(from),
                           false, s);
          },
          [this, array, &phase, elem](std::size_t i, bool send) {
            const Message &m = phase.messages[i];
            return contiguousBox(array, extents, send ? m.send : m.recv, elem);
          }};
}

/// Every phase's exchange on `array`, in order, on `stream`.
Failure stencilc_dist_plan_s::exchange(void *array, cudaStream_t stream) {
  for (const Phase &phase : schedule) {
    if (Failure f =
            transport->exchange(phase, boxCopies(array, phase), stencil.element_size, stream)) {
      return f;
    }
  }
  return {};
}

Failure stencilc_dist_plan_s::pass(void *a, void *b, int steps, cudaStream_t stream) {
  if (Failure f = exchange(a, stream)) {
    return f;
  }
  Failure f = cudaFailure(stencil.run(a, b, sizes, steps, stream), "the local run");
  mark("run", stream);
  return f;
}

/// The first ranged pass of a run whose passes keep the ring
/// (passesKeepRing) copies all of `cur` into `other` first: the ring (the
/// grid's fixed one, and the view's edges, which no pass stores) never
/// changes, so from then on every pass's output has its input's ring, as
/// NAME_run's does by the same copy. One copy a run, not a ring copy a
/// pass (which cost +15.7 % for box3d27p fp32 on an H200). After the
/// exchange where passes store ghost planes, so that theirs are the
/// neighbours'.
Failure stencilc_dist_plan_s::giveRing(const char *cur, char *other, cudaStream_t stream) {
  if (!ringPending) {
    return {};
  }
  ringPending = false;
  const std::size_t bytes = static_cast<std::size_t>(decomp.localPoints()) * stencil.element_size;
  return cudaFailure(cudaMemcpyAsync(other, cur, bytes, cudaMemcpyDeviceToDevice, stream),
                     "copying the fixed ring into the second buffer");
}

/// With NAME_pass (stencil.pass): the exchange on `cur`, then steps / T
/// passes, each from `cur` into `other`, the two swapped after each; no
/// copy of the local array. With NAME_pass_range each pass stores only
/// what the owned block needs from it (plainPass): the ghost planes less,
/// a radius of planes a step.
Failure stencilc_dist_plan_s::passesOut(char *&cur, char *&other, int steps, cudaStream_t stream) {
  if (Failure f = exchange(cur, stream)) {
    return f;
  }
  if (Failure f = giveRing(cur, other, stream)) {
    return f;
  }
  const int t = std::max(stencil.info->fused_steps, 1);
  for (int done = 0; done < steps; done += t) {
    Failure f =
        stencil.pass_range
            ? rangedPass(cur, other, plainPass(decomp, stencil.info->radius, steps - done - t), t,
                         stream, "the local pass")
            : cudaFailure(stencil.pass(cur, other, sizes, t, stream), "the local pass");
    if (f) {
      return f;
    }
    std::swap(cur, other);
  }
  mark("run", stream);
  return {};
}

/// NAME_pass_range of `steps` steps on the view `p` of `in` (its planes as
/// a grid of their own), storing p's range at the same planes of `out`.
Failure stencilc_dist_plan_s::rangedPass(const char *in, char *out, const RangedPass &p, int steps,
                                         cudaStream_t stream, const char *what) {
  const std::size_t at = static_cast<std::size_t>(p.viewBegin) * plane();
  int view[MaxDims] = {sizes[0], sizes[1], sizes[2]};
  view[0] = static_cast<int>(p.viewCount());
  return cudaFailure(stencil.pass_range(in + at, out + at, view, static_cast<int>(p.storeBegin),
                                        static_cast<int>(p.storeCount()), steps, stream),
                     what);
}

// Slabs with NAME_pass_range, one pass of T steps an exchange: the
// interior (the owned planes of `cur` as a grid of their own) runs into
// `other` at once on `stream`, storing all but a halo of planes beside each
// internal side, while the halos travel into `cur`'s ghost planes on the
// high-priority stream; then each band (the ghosts and twice the halo of
// owned planes, read in place) stores its middle halo of planes, the owned
// planes the interior left, into `other` on the high-priority stream.
// Every owned plane is stored once, straight into `other` (overlapPasses):
// nothing is copied back, and the caller's stream waits for the bands
// before the next pass.
//
// With `next` (the run's next pass takes this form too) the next pass's
// exchange goes out on the high-priority stream as soon as the bands are
// done, beside this pass's interior: what it sends, the halo of owned
// planes beside each side, is the bands' output, and what it receives,
// `other`'s ghost planes, nothing reads or writes until the next bands.
// Otherwise the exchange waited for the interior (NCCL's copies run on the
// SMs the interior held), and the bands for the exchange: the overlap was
// no faster than no overlap. The next pass's bands wait for this interior
// (`ready`), which writes the owned planes they read beside the halo.
Failure stencilc_dist_plan_s::overlappedRangedPass(char *&cur, char *&other, int steps, bool next,
                                                   cudaStream_t stream) {
  const Phase &phase = schedule[0];
  // Its passes store owned planes only: cur's ring there is right before
  // the exchange, and the exchange (after `ready`) waits for the copy.
  Failure f = giveRing(cur, other, stream);
  f = f ? f : cudaFailure(cudaEventRecord(ready, stream), "overlap events");
  f = f ? f : cudaFailure(cudaStreamWaitEvent(halo, ready, 0), "overlap events");
  if (!exchangedAhead) {
    f = f ? f : transport->exchange(phase, boxCopies(cur, phase), stencil.element_size, halo);
  }
  for (const RangedPass &p : overlapPasses(decomp)) {
    f = f ? f
          : rangedPass(cur, other, p, steps, p.readsGhosts ? halo : stream,
                       p.readsGhosts ? "a band pass" : "the interior pass");
  }
  mark("interior", stream);
  mark("bands", halo);
  f = f ? f : cudaFailure(cudaEventRecord(done, halo), "overlap events");
  f = f ? f : cudaFailure(cudaStreamWaitEvent(stream, done, 0), "overlap events");
  mark("done", stream);
  exchangedAhead = next && !f;
  if (exchangedAhead) {
    f = transport->exchange(phase, boxCopies(other, phase), stencil.element_size, halo);
    mark("exchanged ahead", halo);
  }
  if (!f) {
    std::swap(cur, other);
  }
  return f;
}

// Slabs with NAME_pass, one pass of T steps an exchange: the owned planes
// run from `cur` into `other` at once on `stream` (exact but for a halo of
// planes at each internal side), while the halos travel into `cur`'s ghost
// planes on the high-priority stream; then each band (the ghosts and twice
// the halo of owned planes, read in place: no pass writes `cur`) runs into
// its own buffer, and its exact middle halo of planes is copied over the
// interior's inexact one once the interior is done.
Failure stencilc_dist_plan_s::overlappedPassOut(char *&cur, char *&other, int steps,
                                                cudaStream_t stream) {
  const std::size_t pl = plane();
  const long long h = layout.halo, local0 = extents[0];
  const Phase &phase = schedule[0];
  Failure f = cudaFailure(cudaEventRecord(ready, stream), "overlap events");
  f = f ? f : cudaFailure(cudaStreamWaitEvent(halo, ready, 0), "overlap events");
  f = f ? f : transport->exchange(phase, boxCopies(cur, phase), stencil.element_size, halo);
  int inner[MaxDims] = {sizes[0], sizes[1], sizes[2]};
  inner[0] = static_cast<int>(decomp.owned(0));
  const long long first = decomp.ghost(0, 0);
  f = f ? f
        : cudaFailure(stencil.pass(cur + first * pl, other + first * pl, inner, steps, stream),
                      "the interior pass");
  mark("interior", stream);
  int bandSizes[MaxDims] = {sizes[0], sizes[1], sizes[2]};
  bandSizes[0] = static_cast<int>(3 * h);
  for (int side = 0; side < 2 && !f; ++side) {
    if (decomp.neighbour(0, side) < 0) {
      continue;
    }
    // The band is local planes [0, 3h) low or [L - 3h, L) high; its middle
    // planes [h, 2h) are local planes [h, 2h) low and [L - 2h, L - h) high.
    const long long from = side == 0 ? 0 : local0 - 3 * h;
    f = cudaFailure(stencil.pass(cur + from * pl, bands[side][0], bandSizes, steps, halo),
                    "a band pass");
  }
  mark("bands", halo);
  f = f ? f : copyBandsBack(other, stream);
  if (!f) {
    std::swap(cur, other);
  }
  return f;
}

// Slabs: the owned planes run at once on `stream` (exact but for a halo of
// planes at each internal side) while the halos travel on the high-priority
// stream; then each band (ghosts plus twice the halo of owned planes, copied
// out before the interior run overwrote them) runs on its own, and its exact
// middle halo of planes is copied over the interior's inexact one.
Failure stencilc_dist_plan_s::overlappedPass(void *a, void *b, int steps, cudaStream_t stream) {
  const std::size_t elem = stencil.element_size, pl = plane();
  const long long h = layout.halo, local0 = extents[0];
  char *base = static_cast<char *>(a);
  const Phase &phase = schedule[0];
  const int sideOf[2] = {phase.messages[0].recv.lo[0] == 0 ? 0 : 1,
                         phase.messages.size() > 1 ? 1 : -1};
  std::vector<char *> sendPtrs, recvPtrs;
  Failure f = cudaFailure(cudaEventRecord(ready, stream), "overlap events");
  f = f ? f : cudaFailure(cudaStreamWaitEvent(halo, ready, 0), "overlap events");
  for (std::size_t i = 0; !f && i < phase.messages.size(); ++i) {
    const int side = sideOf[i];
    char *band = static_cast<char *>(bands[side][0]);
    // Band planes [0, 3h) are local planes [0, 3h) low or [L - 3h, L) high;
    // the owned part is its planes [h, 3h) low and [0, 2h) high.
    const long long from = side == 0 ? h : local0 - 3 * h;
    f = cudaFailure(cudaMemcpyAsync(band + (side == 0 ? h : 0) * pl, base + from * pl, 2 * h * pl,
                                    cudaMemcpyDeviceToDevice, halo),
                    "copying a band");
    sendPtrs.push_back(band + h * pl);
    recvPtrs.push_back(band + (side == 0 ? 0 : 2 * h) * pl);
  }
  mark("band-copied", halo);
  f = f ? f : cudaFailure(cudaEventRecord(copied, halo), "overlap events");
  f = f ? f : cudaFailure(cudaStreamWaitEvent(stream, copied, 0), "overlap events");
  if (f) {
    return f;
  }
  int inner[MaxDims] = {sizes[0], sizes[1], sizes[2]};
  inner[0] = static_cast<int>(decomp.owned(0));
  const long long first = decomp.ghost(0, 0);
  f = cudaFailure(
      stencil.run(base + first * pl, static_cast<char *>(b) + first * pl, inner, steps, stream),
      "the interior run");
  mark("interior", stream);
  const HaloCopies copies{
      [&](std::size_t i, void *to, cudaStream_t s) {
        return cudaMemcpyAsync(to, sendPtrs[i], h * pl, cudaMemcpyDeviceToDevice, s);
      },
      [&](std::size_t i, const void *from, cudaStream_t s) {
        return cudaMemcpyAsync(recvPtrs[i], from, h * pl, cudaMemcpyDeviceToDevice, s);
      },
      // Both are whole planes of the bands: sent from and received into them.
      [&](std::size_t i, bool send) -> void * { return send ? sendPtrs[i] : recvPtrs[i]; }};
  f = f ? f : transport->exchange(phase, copies, elem, halo);
  for (std::size_t i = 0; !f && i < phase.messages.size(); ++i) {
    const int side = sideOf[i];
    int bandSizes[MaxDims] = {sizes[0], sizes[1], sizes[2]};
    bandSizes[0] = static_cast<int>(3 * h);
    f = cudaFailure(stencil.run(bands[side][0], bands[side][1], bandSizes, steps, halo),
                    "a band run");
  }
  mark("bands", halo);
  return f ? f : copyBandsBack(base, stream);
}

/// Copies each band's exact middle halo of planes (bands[side][0] planes
/// [h, 2h)) over the interior's inexact planes of `array` (local planes
/// [h, 2h) low, [L - 2h, L - h) high) on `stream`, after the interior
/// enqueued there and after the bands (enqueued on the high-priority
/// stream; they end long before the interior).
Failure stencilc_dist_plan_s::copyBandsBack(char *array, cudaStream_t stream) {
  const std::size_t pl = plane();
  const long long h = layout.halo, local0 = extents[0];
  Failure f = cudaFailure(cudaEventRecord(done, halo), "overlap events");
  f = f ? f : cudaFailure(cudaStreamWaitEvent(stream, done, 0), "overlap events");
  for (int side = 0; side < 2 && !f; ++side) {
    if (decomp.neighbour(0, side) < 0) {
      continue;
    }
    const long long to = side == 0 ? h : local0 - 2 * h;
    f = cudaFailure(cudaMemcpyAsync(array + to * pl, static_cast<char *>(bands[side][0]) + h * pl,
                                    h * pl, cudaMemcpyDeviceToDevice, stream),
                    "copying a band back");
  }
  mark("done", stream);
  return f;
}

namespace {

/// Moves `bytes` between two ranks in messages of at most 1 GiB (MPI counts
/// are int).
int sendBytes(const void *data, std::size_t bytes, int peer, MPI_Comm comm) {
  constexpr std::size_t Chunk = std::size_t(1) << 30;
  for (std::size_t at = 0; at < bytes; at += Chunk) {
    const int n = static_cast<int>(std::min(Chunk, bytes - at));
    if (int rc = MPI_Send(static_cast<const char *>(data) + at, n, MPI_BYTE, peer, 0, comm);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  return MPI_SUCCESS;
}

int recvBytes(void *data, std::size_t bytes, int peer, MPI_Comm comm) {
  constexpr std::size_t Chunk = std::size_t(1) << 30;
  for (std::size_t at = 0; at < bytes; at += Chunk) {
    const int n = static_cast<int>(std::min(Chunk, bytes - at));
    if (int rc =
            MPI_Recv(static_cast<char *>(data) + at, n, MPI_BYTE, peer, 0, comm, MPI_STATUS_IGNORE);
        rc != MPI_SUCCESS) {
      return rc;
    }
  }
  return MPI_SUCCESS;
}

/// Scatter (`toRanks`) or gather of the owned blocks through rank 0's
/// host array `global`.
stencilc_dist_status moveBlocks(stencilc_dist_plan plan, void *global, void *local, bool toRanks) {
  if (!plan || !local || (plan->rank == 0 && !global)) {
    return fail(STENCILC_DIST_INVALID_ARGUMENT, "null plan, local array or (on rank 0) global "
                                                "array");
  }
  const std::size_t elem = plan->stencil.element_size;
  const Box mine = plan->decomp.ownedBox();
  std::vector<char> buffer(static_cast<std::size_t>(mine.count()) * elem);
  Failure f;
  if (plan->rank != 0) {
    if (!toRanks) {
      f = cudaFailure(copyBox(local, plan->extents, mine, elem, buffer.data(), true, nullptr),
                      "gather");
      f = f ? f : cudaFailure(cudaDeviceSynchronize(), "gather");
    }
    f = f ? f
          : mpiFailure(toRanks ? recvBytes(buffer.data(), buffer.size(), 0, plan->comm)
                               : sendBytes(buffer.data(), buffer.size(), 0, plan->comm),
                       toRanks ? "scatter" : "gather");
    if (!f && toRanks) {
      f = cudaFailure(copyBox(local, plan->extents, mine, elem, buffer.data(), false, nullptr),
                      "scatter");
      f = f ? f : cudaFailure(cudaDeviceSynchronize(), "scatter");
    }
    return f ? fail(f) : STENCILC_DIST_SUCCESS;
  }
  long long globalExtents[MaxDims] = {1, 1, 1};
  std::copy(plan->layout.global, plan->layout.global + plan->layout.dims, globalExtents);
  for (int r = 0; !f && r < plan->ranks; ++r) {
    Decomposition d;
    std::string error;
    Decomposition::create(plan->layout, r, d, error); // succeeded on rank r
    Box box = d.ownedBox();
    for (int a = 0; a < plan->layout.dims; ++a) {
      box.lo[a] = d.ownedStart(a);
    }
    buffer.resize(static_cast<std::size_t>(box.count()) * elem);
    if (toRanks) {
      packHost(global, globalExtents, box, elem, buffer.data());
    }
    if (r == 0) {
      f = cudaFailure(copyBox(local, plan->extents, mine, elem, buffer.data(), !toRanks, nullptr),
                      toRanks ? "scatter" : "gather");
      f = f ? f : cudaFailure(cudaDeviceSynchronize(), toRanks ? "scatter" : "gather");
    } else {
      f = mpiFailure(toRanks ? sendBytes(buffer.data(), buffer.size(), r, plan->comm)
                             : recvBytes(buffer.data(), buffer.size(), r, plan->comm),
                     toRanks ? "scatter" : "gather");
    }
    if (!f && !toRanks) {
      unpackHost(buffer.data(), globalExtents, box, elem, global);
    }
  }
  return f ? fail(f) : STENCILC_DIST_SUCCESS;
}

/// The global sizes and the process grid (`grid`'s zeros chosen by
/// MPI_Dims_create) into `l`; a failure for sizes below one or a grid that
/// cannot fill the `ranks` (MPI_Dims_create would abort on it).
Failure setProcessGrid(Layout &l, const int *global, const int *grid, int ranks) {
  int dimsGrid[MaxDims] = {0, 0, 0};
  for (int a = 0; a < l.dims; ++a) {
    l.global[a] = global[a];
    dimsGrid[a] = grid ? grid[a] : 0;
    if (global[a] < 1 || dimsGrid[a] < 0) {
      return Failure{STENCILC_DIST_INVALID_ARGUMENT, "global sizes must be positive and the "
                                                     "process grid's entries zero or positive"};
    }
  }
  long long given = 1;
  bool free = false;
  for (int a = 0; a < l.dims; ++a) {
    given *= dimsGrid[a] ? dimsGrid[a] : 1;
    free = free || dimsGrid[a] == 0;
  }
  if (free ? ranks % given != 0 : given != ranks) {
    return Failure{STENCILC_DIST_INVALID_ARGUMENT, "the process grid does not multiply to the " +
                                                       std::to_string(ranks) +
                                                       " ranks of the communicator"};
  }
  MPI_Dims_create(ranks, l.dims, dimsGrid);
  std::copy(dimsGrid, dimsGrid + l.dims, l.grid);
  return {};
}

/// Splits the grid into this rank's block, with a halo for `every` passes
/// of the fused steps a pass takes, or for one where a block is too thin
/// for that (unless `every` was chosen). One exchange serves `every`
/// passes, with a halo that much wider (the ghosts are computed
/// redundantly); two by default: the fewest exchanges for the fewest
/// redundant planes, measured best on one H100 with and without MPS
/// (docs/distributed.md, "Exchange overhead"). (Without NAME_pass,
/// NAME_run, which leaves its result in `a`, then never copies the local
/// array back from `b`.) Every rank learns whether every rank could take
/// its block (a local array below the minimum size is one rank's problem),
/// so all return alike.
Failure decompose(stencilc_dist_plan_s &p, const stencilc_stencil_info &info, int every,
                  bool chosen) {
  Layout &l = p.layout;
  std::string error;
  int created = 0, all = 0;
  for (int tryEvery : {every, 1}) {
    p.passSteps = std::max(info.fused_steps, 1) * tryEvery;
    l.halo = info.radius * p.passSteps;
    created = Decomposition::create(l, p.rank, p.decomp, error) ? 1 : 0;
    if (Failure f = mpiFailure(MPI_Allreduce(&created, &all, 1, MPI_INT, MPI_MIN, p.comm),
                               "MPI_Allreduce")) {
      return f;
    }
    if (all || chosen) {
      break;
    }
  }
  if (!all) {
    return Failure{STENCILC_DIST_CANNOT_SPLIT,
                   created ? "another rank's block cannot be split off (see its message)" : error};
  }
  p.schedule = p.decomp.schedule();
  localExtents(p.decomp, p.extents);
  for (int a = 0; a < l.dims; ++a) {
    p.sizes[a] = static_cast<int>(p.decomp.local(a));
  }
  return {};
}

/// The halo stream (of the greatest priority, so exchanges overtake the
/// interior's kernels), the events that order it against the run's stream,
/// the profile, and for slabs the bands the overlap copies back.
Failure createHaloResources(stencilc_dist_plan_s &p) {
  int least = 0, greatest = 0;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  Failure f = cudaFailure(cudaStreamCreateWithPriority(&p.halo, cudaStreamNonBlocking, greatest),
                          "halo stream");
  for (cudaEvent_t *e : {&p.ready, &p.copied, &p.done}) {
    f = f ? f : cudaFailure(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "events");
  }
  p.profile = Profile::fromEnvironment();
  p.transport->setProfile(p.profile.get());
  if (p.decomp.slabs()) {
    for (int side = 0; side < 2; ++side) {
      for (int k = 0; k < 2 && p.decomp.neighbour(0, side) >= 0; ++k) {
        f = f ? f
              : p.allocate(3 * static_cast<std::size_t>(p.layout.halo) * p.plane(),
                           p.bands[side][k]);
      }
    }
  }
  return f;
}

} // namespace

extern "C" {

stencilc_dist_status stencilc_dist_create(const stencilc_dist_stencil *stencil, MPI_Comm comm,
                                          const int *global, const int *grid,
                                          stencilc_dist_plan *plan) {
  if (!stencil || !stencil->info || !stencil->run || !global || !plan ||
      stencil->element_size == 0 || stencil->info->dims < 1 || stencil->info->dims > MaxDims) {
    return fail(STENCILC_DIST_INVALID_ARGUMENT, "null stencil, run function, sizes or plan");
  }
  *plan = nullptr;
  const stencilc_stencil_info &info = *stencil->info;
  auto p = std::make_unique<stencilc_dist_plan_s>();
  p->stencil = *stencil;
  // STENCILC_DIST_PASS_RANGE=0: no NAME_pass_range, so every pass stores
  // the whole local array and the overlap copies its bands back (the forms
  // before it, kept to measure against).
  if (const char *range = std::getenv("STENCILC_DIST_PASS_RANGE");
      range && !std::strcmp(range, "0")) {
    p->stencil.pass_range = nullptr;
  }
  if (Failure f = mpiFailure(MPI_Comm_dup(comm, &p->comm), "MPI_Comm_dup")) {
    return fail(f);
  }
  // MPI errors on the plan's communicator come back as codes, never abort.
  MPI_Comm_set_errhandler(p->comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank(p->comm, &p->rank);
  MPI_Comm_size(p->comm, &p->ranks);
  Layout &l = p->layout;
  l.dims = info.dims;
  if (Failure f = setProcessGrid(l, global, grid, p->ranks)) {
    return fail(f);
  }
  l.periodic = info.boundary == STENCILC_BOUNDARY_PERIODIC;
  l.minSize = info.boundary == STENCILC_BOUNDARY_FIXED ? 2 * info.radius + 1 : 1;
  const char *choice = std::getenv("STENCILC_DIST_TRANSPORT");
  if (Failure f = makeTransport(choice ? choice : "", p->comm, p->transport)) {
    return fail(f);
  }
  // Passes per exchange: the transport's measured default unless chosen
  // (decompose says why).
  const char *everyText = std::getenv("STENCILC_DIST_PASSES_PER_EXCHANGE");
  const bool chosen = everyText && *everyText;
  const int every = chosen ? std::atoi(everyText) : p->transport->passesPerExchange();
  if (every < 1 || every > 64) {
    return fail(STENCILC_DIST_INVALID_ARGUMENT,
                std::string("STENCILC_DIST_PASSES_PER_EXCHANGE is '") + everyText +
                    "'; expected a whole number from 1 to 64");
  }
  if (Failure f = decompose(*p, info, every, chosen)) {
    return fail(f);
  }
  if (Failure f = createHaloResources(*p)) {
    return fail(f);
  }
  *plan = p.release();
  return STENCILC_DIST_SUCCESS;
}

stencilc_dist_status stencilc_dist_local_extent(stencilc_dist_plan plan, int *local,
                                                int *owned_offset, int *owned, int *global_start) {
  if (!plan) {
    return fail(STENCILC_DIST_INVALID_ARGUMENT, "null plan");
  }
  const Decomposition &d = plan->decomp;
  for (int a = 0; a < plan->layout.dims; ++a) {
    if (local) {
      local[a] = static_cast<int>(d.local(a));
    }
    if (owned_offset) {
      owned_offset[a] = d.ghost(a, 0);
    }
    if (owned) {
      owned[a] = static_cast<int>(d.owned(a));
    }
    if (global_start) {
      global_start[a] = static_cast<int>(d.ownedStart(a));
    }
  }
  return STENCILC_DIST_SUCCESS;
}

stencilc_dist_status stencilc_dist_use_local_device(MPI_Comm comm, int *device) {
  MPI_Comm node = MPI_COMM_NULL;
  int localRank = 0;
  Failure f = mpiFailure(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
                         "splitting the ranks by machine");
  f = f ? f : mpiFailure(MPI_Comm_rank(node, &localRank), "the rank on this machine");
  if (node != MPI_COMM_NULL) {
    MPI_Comm_free(&node);
  }
  int devices = 0;
  f = f ? f : cudaFailure(cudaGetDeviceCount(&devices), "counting the devices");
  if (!f && devices < 1) {
    f = cudaFailure(cudaErrorNoDevice, "counting the devices");
  }
  f = f ? f : cudaFailure(cudaSetDevice(localRank % std::max(devices, 1)), "choosing the device");
  if (f) {
    return fail(f);
  }
  if (device) {
    *device = localRank % devices;
  }
  return STENCILC_DIST_SUCCESS;
}

stencilc_dist_status stencilc_dist_run(stencilc_dist_plan plan, void *a, void *b, int steps,
                                       cudaStream_t stream) {
  if (!plan || !a || !b || a == b || steps < 0) {
    return fail(STENCILC_DIST_INVALID_ARGUMENT, "null plan or buffer, a == b, or steps < 0");
  }
  const bool overlap = plan->overlaps();
  const int t = std::max(plan->stencil.info->fused_steps, 1);
  plan->ringPending = plan->passesKeepRing();
  plan->exchangedAhead = false;
  // The passes of T steps with one exchange each that overlap it, in place.
  const auto rangedOverlap = [&](int k) {
    return overlap && plan->stencil.pass && plan->stencil.pass_range && k == t;
  };
  // The state is in `cur`: NAME_pass leaves it in the other buffer, NAME_run
  // (a remainder of fewer than T steps, or no NAME_pass) in the one it had.
  char *cur = static_cast<char *>(a), *other = static_cast<char *>(b);
  for (int done = 0; done < steps;) {
    const int k = std::min(plan->passSteps, steps - done);
    if (plan->profile) {
      plan->profile->beginPass(stream);
    }
    const bool passes = plan->stencil.pass && k % t == 0;
    const bool onePass = overlap && passes && k == t;
    const bool next = rangedOverlap(std::min(plan->passSteps, steps - done - k));
    Failure f = rangedOverlap(k) ? plan->overlappedRangedPass(cur, other, k, next, stream)
                : onePass        ? plan->overlappedPassOut(cur, other, k, stream)
                : overlap        ? plan->overlappedPass(cur, other, k, stream)
                : passes         ? plan->passesOut(cur, other, k, stream)
                                 : plan->pass(cur, other, k, stream);
    if (f) {
      return fail(f);
    }
    done += k;
  }
  if (cur != a) { // the result is left in a
    const std::size_t bytes =
        static_cast<std::size_t>(plan->decomp.localPoints()) * plan->stencil.element_size;
    if (Failure f = cudaFailure(cudaMemcpyAsync(a, cur, bytes, cudaMemcpyDeviceToDevice, stream),
                                "copying the result into a")) {
      return fail(f);
    }
  }
  return STENCILC_DIST_SUCCESS;
}

stencilc_dist_status stencilc_dist_scatter(stencilc_dist_plan plan, const void *global,
                                           void *local) {
  return moveBlocks(plan, const_cast<void *>(global), local, true);
}

stencilc_dist_status stencilc_dist_gather(stencilc_dist_plan plan, const void *local,
                                          void *global) {
  return moveBlocks(plan, global, const_cast<void *>(local), false);
}

void stencilc_dist_set_overlap(stencilc_dist_plan plan, int overlap) {
  if (plan) {
    plan->overlap = overlap != 0 ? 1 : 0;
  }
}

int stencilc_dist_overlaps(stencilc_dist_plan plan) { return plan && plan->overlaps() ? 1 : 0; }

const char *stencilc_dist_transport(stencilc_dist_plan plan) {
  return plan ? plan->transport->name() : "";
}

void stencilc_dist_destroy(stencilc_dist_plan plan) { delete plan; }

const char *stencilc_dist_status_string(stencilc_dist_status status) {
  switch (status) {
  case STENCILC_DIST_SUCCESS:
    return "success";
  case STENCILC_DIST_INVALID_ARGUMENT:
    return "invalid argument";
  case STENCILC_DIST_CANNOT_SPLIT:
    return "the process grid cannot split the grid";
  case STENCILC_DIST_MPI_ERROR:
    return "MPI error";
  case STENCILC_DIST_CUDA_ERROR:
    return "CUDA error";
  case STENCILC_DIST_NCCL_ERROR:
    return "NCCL error";
  case STENCILC_DIST_NO_TRANSPORT:
    return "the transport asked for is not available";
  }
  return "unknown status";
}

const char *stencilc_dist_last_error(void) { return lastError.c_str(); }

} // extern "C"
