// memory_test.cu - stencilc/device/memory.cuh on the GPU: runs of 1, 3, 17
// and 1000 16-byte vectors, starting at vector offsets 0, 1 and 3 of their
// buffers (16-byte aligned, not 32 or 128), are moved with every L2
// prefetch size: loadVector + storeVector from global to global, and
// copyAsync into shared memory in two commit groups (the first checked after
// waitCopies<1>, the second after waitCopies<0>), then out. The copies must
// be exact and nothing outside the run may change.
#include <cstdint>
#include <vector>

#include "device_test.h"
#include "stencilc/device/memory.cuh"
#include "stencilc/runtime/device_buffer.h"

namespace {

using namespace stencilc;
using device_test::Tally;

constexpr int kMaxVectors = 1000;

template <int PrefetchBytes> __global__ void loadStore(const uint4 *src, uint4 *dst, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    device::storeVector(dst + i, device::loadVector<PrefetchBytes>(src + i));
  }
}

/// One block: vectors [0, half) are one commit group, [half, count) the next.
/// A thread checks its own vectors of the first group after waitCopies<1>
/// (flagging a mismatch in *bad), then all land after waitCopies<0> and are
/// copied out.
template <int PrefetchBytes>
__global__ void copyThroughShared(const uint4 *src, uint4 *dst, int count, int *bad) {
  __shared__ uint4 staged[kMaxVectors];
  const int half = count / 2;
  for (int i = threadIdx.x; i < half; i += blockDim.x) {
    device::copyAsync<PrefetchBytes>(&staged[i], src + i);
  }
  device::commitCopies();
  for (int i = half + threadIdx.x; i < count; i += blockDim.x) {
    device::copyAsync<PrefetchBytes>(&staged[i], src + i);
  }
  device::commitCopies();
  device::waitCopies<1>();
  for (int i = threadIdx.x; i < half; i += blockDim.x) {
    const uint4 a = staged[i], b = src[i];
    if (a.x != b.x || a.y != b.y || a.z != b.z || a.w != b.w) {
      atomicAdd(bad, 1);
    }
  }
  device::waitCopies<0>();
  __syncthreads();
  for (int i = threadIdx.x; i < count; i += blockDim.x) {
    dst[i] = staged[i];
  }
}

std::vector<uint4> patterned(std::size_t count, unsigned seed) {
  std::vector<uint4> values(count);
  unsigned state = seed;
  for (uint4 &v : values) {
    unsigned *words[] = {&v.x, &v.y, &v.z, &v.w};
    for (unsigned *w : words) {
      state = state * 1664525u + 1013904223u;
      *w = state;
    }
  }
  return values;
}

bool sameVector(const uint4 &a, const uint4 &b) {
  return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
}

/// Moves `count` vectors from offset `from` of one buffer to offset `to` of
/// another (both kMaxVectors + 8 long) and checks the whole destination.
template <int PrefetchBytes> void checkRun(Tally &tally, int count, int from, int to, bool async) {
  const int length = kMaxVectors + 8;
  const std::vector<uint4> source = patterned(length, 1u + count + 7u * from);
  std::vector<uint4> expected = patterned(length, 99u + to);
  DeviceBuffer<uint4> src(length), dst(length);
  DeviceBuffer<int> bad(1);
  src.upload(source);
  dst.upload(expected);
  bad.upload({0});
  if (async) {
    copyThroughShared<PrefetchBytes>
        <<<1, 128>>>(src.data() + from, dst.data() + to, count, bad.data());
  } else {
    loadStore<PrefetchBytes><<<7, 64>>>(src.data() + from, dst.data() + to, count);
  }
  STENCILC_CHECK_LAUNCH();
  for (int i = 0; i < count; ++i) {
    expected[to + i] = source[from + i];
  }
  const std::vector<uint4> got = dst.download();
  long long wrong = 0;
  for (int i = 0; i < length; ++i) {
    wrong += sameVector(got[i], expected[i]) ? 0 : 1;
  }
  tally.check(wrong == 0, async ? "copyAsync run" : "loadVector/storeVector run", count);
  tally.check(bad.download()[0] == 0, "first group landed after waitCopies<1>", count);
}

template <int PrefetchBytes> void checkPrefetch(Tally &tally) {
  std::printf("L2 prefetch %d\n", PrefetchBytes);
  for (int count : device_test::kSizes) {
    for (int from : {0, 1, 3}) {
      for (int to : {0, 1, 3}) {
        checkRun<PrefetchBytes>(tally, count, from, to, false);
        checkRun<PrefetchBytes>(tally, count, from, to, true);
      }
    }
  }
}

} // namespace

int main() {
  device_test::skipWithoutDevice();
  Tally tally;
  checkPrefetch<0>(tally);
  checkPrefetch<64>(tally);
  checkPrefetch<128>(tally);
  checkPrefetch<256>(tally);
  return tally.finish("memory");
}
