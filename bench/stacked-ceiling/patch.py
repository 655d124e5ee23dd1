"""Patches a copy of stencilc/device/stacked.cuh for the experiment of
README.md: switches that leave parts of the stacked step out, and runTma."""
import sys

path = sys.argv[1]
text = open(path).read()


def insert(anchor, new, before=False):
    global text
    assert text.count(anchor) == 1, anchor
    text = text.replace(anchor, new + anchor if before else anchor + new)


insert("""                                                     Element *window) {
""", """#ifdef EXP_NOCOPY
    asm volatile("cp.async.commit_group;");
    return;
#endif
""")
insert("""                                                    int blockCol, int nx, bool wide) {
    const int lane = threadIdx.x % 32;
""", """#ifdef EXP_NOSTORE
    if (sum.x[0] != 1234.5f) return;
#endif
""")
for barrier in ("      __syncthreads(); // the window is whole for every warp\n",
                "      __syncthreads(); // every warp is done with it before it is fetched into again\n"):
    assert text.count(barrier) == 1
    text = text.replace(barrier, "#ifndef EXP_NOBAR\n" + barrier + "#endif\n")
insert("  /// Launches kernel(in, out, ny, nx) as a persistent grid", r'''#ifdef EXP_TMA
  static __device__ __forceinline__ bool tryWait(unsigned bar, unsigned parity) {
    unsigned ok;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; "
                 "selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(bar), "r"(parity) : "memory");
    return ok != 0;
  }
  static __device__ __forceinline__ void issue(const void *map, unsigned bar, Element *window,
                                               int x, int y) {
    const auto to = static_cast<unsigned>(__cvta_generic_to_shared(window));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(bar), "n"(kWindowRows * kPitch * 2) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%2, %3}], [%4];" ::"r"(to), "l"(map), "r"(x), "r"(y), "r"(bar)
                 : "memory");
  }
  static __device__ __forceinline__ void runTma(const void *map, Element *__restrict__ out,
                                                int ny, int nx, Element *windows) {
    __shared__ alignas(8) unsigned long long full[2];
    const Weights w = loadWeights(G::weights(), threadIdx.x % 32);
    constexpr int kStoreElements = kQuads ? 4 : 2;
    const bool wide = nx % kStoreElements == 0 &&
        reinterpret_cast<std::uintptr_t>(out) % (kStoreElements * sizeof(Element)) == 0;
    const int across = (nx + kBlockCols - 1) / kBlockCols;
    const int tiles = tileCount(ny, nx);
    const unsigned bar0 = static_cast<unsigned>(__cvta_generic_to_shared(&full[0]));
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar0));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar0 + 8));
      asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    auto fetch = [&](int tile, int stage) {
      const int row = tile / across;
      issue(map, bar0 + 8 * stage, windows + stage * kWindowElements,
            (tile - row * across) * kBlockCols - kHaloCols, row * kBlockRows - kRadius);
    };
    int tile = blockIdx.x;
    if (threadIdx.x == 0 && tile < tiles) fetch(tile, 0);
    for (int i = 0; tile < tiles; tile += gridDim.x, ++i) {
      const int ahead = tile + static_cast<int>(gridDim.x);
      if (threadIdx.x == 0 && ahead < tiles) fetch(ahead, (i + 1) % 2);
      while (!tryWait(bar0 + 8 * (i % 2), (i / 2) % 2)) {
      }
      const int row = tile / across;
      strip(windows + (i % 2) * kWindowElements, w, out, row * kBlockRows,
            (tile - row * across) * kBlockCols, ny, nx, wide, nullptr);
      __syncthreads();
    }
  }
#endif

''', before=True)
open(path, "w").write(text)
