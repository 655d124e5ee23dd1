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
insert("  /// Launches kernel(in, out, ny, nx) as a persistent grid", r'''#if defined(EXP_TMA) || defined(EXP_TMA3)
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
  // What the walks with TMA windows share: the weights, the stores' width,
  // the tiles; a tile's copy (thread 0) and its strip.
  struct TmaTiles {
    Weights w;
    bool wide;
    int across, tiles;
    __device__ __forceinline__ TmaTiles(const Element *out, int ny, int nx)
        : w(loadWeights(G::weights(), threadIdx.x % 32)),
          wide(nx % (kQuads ? 4 : 2) == 0 &&
               reinterpret_cast<std::uintptr_t>(out) % ((kQuads ? 4 : 2) * sizeof(Element)) == 0),
          across((nx + kBlockCols - 1) / kBlockCols), tiles(tileCount(ny, nx)) {}
    __device__ __forceinline__ void fetch(const void *map, unsigned bar, Element *window,
                                          int tile) const {
      const int row = tile / across;
      issue(map, bar, window, (tile - row * across) * kBlockCols - kHaloCols,
            row * kBlockRows - kRadius);
    }
    __device__ __forceinline__ void compute(const Element *window, Element *out, int tile, int ny,
                                            int nx) const {
      const int row = tile / across;
      strip(window, w, out, row * kBlockRows, (tile - row * across) * kBlockCols, ny, nx, wide,
            nullptr);
    }
  };
  static __device__ __forceinline__ void runTma(const void *map, Element *__restrict__ out,
                                                int ny, int nx, Element *windows) {
    __shared__ alignas(8) unsigned long long full[2];
    const TmaTiles t(out, ny, nx);
    const unsigned bar0 = static_cast<unsigned>(__cvta_generic_to_shared(&full[0]));
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar0));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar0 + 8));
      asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    int tile = blockIdx.x;
    if (threadIdx.x == 0 && tile < t.tiles) t.fetch(map, bar0, windows, tile);
    for (int i = 0; tile < t.tiles; tile += gridDim.x, ++i) {
      const int ahead = tile + static_cast<int>(gridDim.x), next = (i + 1) % 2;
      if (threadIdx.x == 0 && ahead < t.tiles)
        t.fetch(map, bar0 + 8 * next, windows + next * kWindowElements, ahead);
      while (!tryWait(bar0 + 8 * (i % 2), (i / 2) % 2)) {
      }
      t.compute(windows + (i % 2) * kWindowElements, out, tile, ny, nx);
      __syncthreads();
    }
  }
#endif
#ifdef EXP_TMA3
  // Three windows; each warp releases the one it computed from (an "empty"
  // mbarrier of kWarps arrivals), and thread 0 refills it with the tile 2
  // ahead once all have: no barrier of the whole block a tile.
  static __device__ __forceinline__ void runTma3(const void *map, Element *__restrict__ out,
                                                 int ny, int nx, Element *windows) {
    __shared__ alignas(8) unsigned long long full[3], empty[3];
    const TmaTiles t(out, ny, nx);
    const unsigned f0 = static_cast<unsigned>(__cvta_generic_to_shared(&full[0]));
    const unsigned e0 = static_cast<unsigned>(__cvta_generic_to_shared(&empty[0]));
    if (threadIdx.x == 0) {
      for (int s = 0; s < 3; ++s) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(f0 + 8 * s));
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(e0 + 8 * s), "n"(kWarps));
      }
      asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    auto fetch = [&](int tile, int stage) {
      t.fetch(map, f0 + 8 * stage, windows + stage * kWindowElements, tile);
    };
    int tile = blockIdx.x;
    if (threadIdx.x == 0) {
      if (tile < t.tiles) fetch(tile, 0);
      if (tile + static_cast<int>(gridDim.x) < t.tiles) fetch(tile + gridDim.x, 1);
    }
    for (int i = 0; tile < t.tiles; tile += gridDim.x, ++i) {
      const int stage = i % 3;
      while (!tryWait(f0 + 8 * stage, (i / 3) % 2)) {
      }
      t.compute(windows + stage * kWindowElements, out, tile, ny, nx);
      __syncwarp();
      if (threadIdx.x % 32 == 0) {
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(e0 + 8 * stage) : "memory");
      }
      const int ahead = tile + 2 * static_cast<int>(gridDim.x);
      if (threadIdx.x == 0 && ahead < t.tiles) {
        const int next = (i + 2) % 3; // tile i - 1's window
        if (i >= 1) {
          while (!tryWait(e0 + 8 * next, ((i - 1) / 3) % 2)) {
          }
        }
        fetch(ahead, next);
      }
    }
  }
#endif

''', before=True)
open(path, "w").write(text)
