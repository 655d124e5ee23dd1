// tensor_map_test.cu - stencilc/device/tensor_map.cuh on the GPU (sm_90
// on): grids of 1, 3, 17 and 1000 rows by 8, 24, 136 and 1000 columns of
// 16-bit elements (the sizes as whole 16-byte vectors a row) are mapped
// with boxes of 5 x 24 and 80 x 152 (the stacked form's composed window),
// at each L2 promotion the stacked kernels take (0 and 128) and 256,
// and boxes at origins inside the grid, across each edge and wholly
// outside it are copied into shared memory, twice on one mbarrier (its
// two phases), then out: each point of a box must be the grid's where it
// lies inside and 0 outside. windowMap must refuse what the accelerator
// cannot take: rows not whole 16-byte vectors, a base not 16-byte
// aligned, a box side past 256, an L2 promotion other than 0, 128, 256.
#include <cstdint>
#include <vector>

#include "device_test.h"
#include "stencilc/device/tensor_map.cuh"
#include "stencilc/runtime/device_buffer.h"

namespace {

using namespace stencilc;
using device_test::Tally;

constexpr int kMostBoxPoints = 80 * 152;

/// The architecture this kernel was compiled for (0 on the host pass).
__global__ void compiledFor(int *arch) {
#ifdef __CUDA_ARCH__
  *arch = __CUDA_ARCH__;
#endif
}

struct Origin {
  int row, col;
};

/// Copies the boxes at `first` and then `second` of `map` (boxRows x
/// boxCols) through one shared buffer on one mbarrier, each out to its own
/// half of `out`.
__global__ void copyTwoBoxes(const __grid_constant__ CUtensorMap map, Origin first, Origin second,
                             int boxRows, int boxCols, std::uint16_t *out) {
  __shared__ alignas(128) std::uint16_t box[kMostBoxPoints];
  __shared__ alignas(8) unsigned long long barrier;
  const auto bar = static_cast<unsigned>(__cvta_generic_to_shared(&barrier));
  const auto to = static_cast<unsigned>(__cvta_generic_to_shared(box));
  const int points = boxRows * boxCols;
  if (threadIdx.x == 0) {
    device::initCopyBarrier(bar);
  }
  __syncthreads();
  const Origin origins[2] = {first, second};
  for (int phase = 0; phase < 2; ++phase) {
    if (threadIdx.x == 0) {
      device::copyBox(&map, to, origins[phase].row, origins[phase].col, bar,
                      static_cast<unsigned>(points * 2));
    }
    device::awaitCopy(bar, static_cast<unsigned>(phase));
    for (int i = threadIdx.x; i < points; i += blockDim.x) {
      out[phase * points + i] = box[i];
    }
    __syncthreads(); // every thread has read the box before the next copy
  }
}

std::vector<std::uint16_t> patterned(std::size_t count, unsigned seed) {
  std::vector<std::uint16_t> values(count);
  unsigned state = seed;
  for (std::uint16_t &v : values) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<std::uint16_t>(state >> 16 | 1u); // never 0, so a 0 means outside
  }
  return values;
}

/// The box at `at` of the ny x nx grid `grid`, 0 outside it.
std::vector<std::uint16_t> expectedBox(const std::vector<std::uint16_t> &grid, int ny, int nx,
                                       Origin at, int boxRows, int boxCols) {
  std::vector<std::uint16_t> box(static_cast<std::size_t>(boxRows) * boxCols, 0);
  for (int r = 0; r < boxRows; ++r) {
    for (int c = 0; c < boxCols; ++c) {
      const int y = at.row + r, x = at.col + c;
      if (y >= 0 && y < ny && x >= 0 && x < nx) {
        box[static_cast<std::size_t>(r) * boxCols + c] = grid[static_cast<std::size_t>(y) * nx + x];
      }
    }
  }
  return box;
}

void checkGrid(Tally &tally, int ny, int nx, int boxRows, int boxCols, int promotion) {
  const std::vector<std::uint16_t> grid =
      patterned(static_cast<std::size_t>(ny) * nx, ny + 7u * nx);
  DeviceBuffer<std::uint16_t> in(grid.size()), out(2 * kMostBoxPoints);
  in.upload(grid);
  CUtensorMap map;
  tally.check(device::windowMap(map, in.data(), ny, nx, boxRows, boxCols, promotion),
              "windowMap of a grid", nx);
  // (Columns multiples of 8: a box starts on a 16-byte boundary; one 8
  // bytes off stopped the kernel with an illegal instruction on an H100.)
  const Origin origins[] = {
      {0, 0},        {-boxRows / 2, -8},     {ny - 1, nx - 8}, {ny / 2, nx / 16 * 8},
      {-boxRows, 0}, {ny + 3, -boxCols - 8}, {1, nx}};
  for (const Origin &a : origins) {
    for (const Origin &b : {origins[0], origins[3], a}) {
      copyTwoBoxes<<<1, 256>>>(map, a, b, boxRows, boxCols, out.data());
      STENCILC_CHECK_LAUNCH();
      const std::vector<std::uint16_t> got = out.download();
      const std::size_t points = static_cast<std::size_t>(boxRows) * boxCols;
      const std::vector<std::uint16_t> wantA = expectedBox(grid, ny, nx, a, boxRows, boxCols);
      const std::vector<std::uint16_t> wantB = expectedBox(grid, ny, nx, b, boxRows, boxCols);
      long long wrong = 0;
      for (std::size_t i = 0; i < points; ++i) {
        wrong += got[i] != wantA[i];
        wrong += got[points + i] != wantB[i];
      }
      tally.check(wrong == 0, "a box copied by the accelerator, zeros outside the grid",
                  static_cast<long long>(ny) * 100000 + nx);
    }
  }
}

void checkRefusals(Tally &tally) {
  DeviceBuffer<std::uint16_t> in(4096);
  CUtensorMap map;
  tally.check(!device::windowMap(map, in.data(), 17, 17, 5, 24, 0),
              "rows not whole vectors refused");
  tally.check(!device::windowMap(map, in.data() + 1, 17, 24, 5, 24, 0),
              "an unaligned base refused");
  tally.check(!device::windowMap(map, in.data(), 17, 24, 257, 24, 0), "257 box rows refused");
  tally.check(!device::windowMap(map, in.data(), 17, 24, 5, 264, 0), "264 box columns refused");
  tally.check(!device::windowMap(map, in.data(), 17, 24, 5, 24, 64), "a 64-byte promotion refused");
}

} // namespace

int main() {
  device_test::skipWithoutDevice();
  DeviceBuffer<int> arch(1);
  arch.upload({0});
  compiledFor<<<1, 1>>>(arch.data());
  STENCILC_CHECK_LAUNCH();
  if (arch.download()[0] < 900) {
    std::printf("SKIP: the tensor memory accelerator needs sm_90 (compiled for %d)\n",
                arch.download()[0]);
    return 77;
  }
  Tally tally;
  checkRefusals(tally);
  for (int ny : device_test::kSizes) {
    for (int nx : {8, 24, 136, 1000}) {
      for (int promotion : {0, 128, 256}) {
        checkGrid(tally, ny, nx, 5, 24, promotion);
        checkGrid(tally, ny, nx, 80, 152, promotion);
      }
    }
  }
  return tally.finish("tensor_map");
}
