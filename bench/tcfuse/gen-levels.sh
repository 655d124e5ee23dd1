#!/usr/bin/env bash
# Way B of the tensor-fusion experiment (issue 19, item 4): T repeated steps
# inside a tile (tiled_levels.cuh), in two halves.
#   Here (with stencilc):  bench/tcfuse/gen-levels.sh gen OUTDIR
#     star2d5p and box2d9p in fp16, bf16, tf32 and fp64 on tensor cores
#     under fixed, periodic and constant 0.25, each with a wrapper that
#     instantiates way B from the generated slice GEMMs: variant o (one block
#     a tile, no prefetch) for T = 2, 3, 4 (fixed: 16-bit 4, 6, 8, 12, else 2,
#     4), and for fixed also n (persistent, no prefetch) and p (persistent,
#     prefetch), T = 8 (16-bit) or 4; the same stencils (fixed) on CUDA
#     cores and composed (way A, fuse=4, fp64 fuse=3) for the speed table;
#     levels.h.
#     It copies this checkout's runtime/ and test/support/ to OUTDIR/tree.
#   There (nvcc, no LLVM):  bench/tcfuse/gen-levels.sh build OUTDIR
#     compiles OUTDIR/levels_bench for sm_90.
set -euo pipefail
mode=$1 out=$(realpath -m "$2")
if [[ $mode == gen ]]; then
  root=$(cd "$(dirname "$0")/../.." && pwd)
  stencilc=${STENCILC:-$root/build/bin/stencilc}
  rm -rf "$out" && mkdir -p "$out/gen" "$out/stencils" "$out/tree/test"
  cp "$root"/bench/tcfuse/{levels_bench.cu,tiled_levels.cuh,gen-levels.sh,build-objects.sh} "$root/bench/median_ms.h" "$out/"
  cp -r "$root/runtime" "$out/tree/" && cp -r "$root/test/support" "$out/tree/test/"
  checks=() speeds=() others=()
  make() { # name source backend boundary option
    sed -e "s/^stencil [a-z0-9_]* {/stencil $1 {/" -e "s/^  boundary fixed;/  boundary $4;/" \
      "$root/examples/suite/$2.stencil" >"$out/stencils/$1.stencil"
    "$stencilc" --arch=sm_90 --backend="$3" ${5:+--plan-option "$5"} "$out/stencils/$1.stencil" \
      -o "$out/gen/$1.cu"
  }
  # The wrapper: the generated file (compiled through it only), and its
  # slice GEMMs as way B reads them.
  wrap() { # name
    local name=$1 src=$out/gen/$1.cu
    mv "$src" "$src.inc"
    {
      echo "#include \"$name.cu.inc\""
      echo "#include \"tiled_levels.cuh\""
      echo "namespace stencilc_gen_$name {"
      echo "struct LevelGemms {"
      echo "  static __device__ __forceinline__ const auto *table() { return kParams; }"
      echo "  template <class B> static __device__ __forceinline__ auto load(const Element *params, int lane) {"
      grep -E '^ *const auto param[0-9]+ = Block::inRegisters' "$src.inc" | sed -e 's/ *\/\/.*//'
      echo "    return [=](typename B::FragmentC (&acc)[B::kNBlocks], const Element *window, const typename B::Tile &tile) {"
      grep -E '^ *Block::gemm(Row|Vertical)\(' "$src.inc"
      echo "    };"
      echo "  }"
      echo "};"
      echo "} // namespace stencilc_gen_$name"
    } | sed -e 's/Block::\(rowParams\|verticalParams\)</B::template \1</g' -e 's/Block::/B::/g' \
      >"$out/gen/${name}_levels.cu"
  }
  # Way B of a wrapped stencil for each T: NAME_levels_<VARIANT><T>.
  instantiate() { # name NR NC MIN_BLOCKS PREFETCH PERSISTENT VARIANT T...
    local name=$1 nr=$2 nc=$3 mb=$4 pf=$5 pe=$6 suffix=_$7 e
    shift 7
    e=$(grep -o 'const [a-z_0-9]* *\* *in,' "$out/gen/$name.h" | head -1 | sed 's/const \([a-z_0-9]*\).*/\1/')
    for t in "$@"; do
      local f=${name}_levels$suffix$t
      {
        echo "extern \"C\" cudaError_t $f($e *a, $e *b, int ny, int nx, int steps, cudaStream_t stream) {"
        echo "  using namespace stencilc_gen_$name;"
        echo "  using LG = stencilc::device::levels::Geometry<Geometry, $t, $nr, $nc, $mb, $pf, $pe>;"
        echo "  return stencilc::device::levels::run<LG, LevelGemms>(a, b, ny, nx, steps, ${name}_step, stream);"
        echo "}"
      } >>"$out/gen/${name}_levels.cu"
      echo "extern \"C\" cudaError_t $f($e *a, $e *b, int ny, int nx, int steps, cudaStream_t stream);" >>"$out/levels_decls.h"
      checks+=("$name,$suffix$t")
    done
  }
  # The same, timed too (a fixed stencil).
  variant() { # name NR NC MIN_BLOCKS PREFETCH PERSISTENT VARIANT T...
    instantiate "$@"
    local kind=${1%_fixed} v=$7
    shift 7
    for t in "$@"; do speeds+=("$kind,_$v$t"); done
  }
  : >"$out/levels_decls.h"
  for s in star2d5p box2d9p; do
    for p in fp16 bf16 tf32 fp64; do
      case $p in fp16 | bf16) nr=8 nc=4 ;; tf32) nr=6 nc=3 ;; fp64) nr=4 nc=8 ;; esac # 2 blocks an SM
      for b in fixed periodic "constant 0.25"; do
        n=${s}_${p}_${b%% *}
        make "$n" "${s}_$p" tensor "$b" ""
        wrap "$n"
        if [[ $b != fixed ]]; then
          instantiate "$n" $nr $nc 1 false false o 2 3 4
        elif [[ $p == fp16 || $p == bf16 ]]; then
          variant "$n" $nr $nc 1 false false o 4 6 8 12 # one block a tile, no prefetch
          variant "$n" $nr $nc 1 false true n 8         # persistent, no prefetch
          variant "$n" $nr $nc 2 true true p 8          # persistent, prefetch (2 blocks an SM)
        else
          variant "$n" $nr $nc 1 false false o 2 4
          variant "$n" $nr $nc 1 false true n 4
          variant "$n" $nr $nc 2 true true p 4
        fi
      done
      t=4
      [[ $p == fp64 ]] && t=3
      make "${s}_${p}_simt" "${s}_$p" simt fixed ""
      make "${s}_${p}_cf" "${s}_$p" tensor fixed "fuse=$t"
      others+=("${s}_${p}")
    done
  done
  {
    for h in "$out"/gen/*.h; do echo "#include \"$(basename "$h")\""; done
    echo "#include \"levels_decls.h\""
    echo "#define LEVELS_CHECKS(X) $(printf 'X(%s) ' "${checks[@]}")"
    echo "#define LEVELS_SPEEDS(X) $(printf 'X(%s) ' "${speeds[@]}")"
    echo "#define LEVELS_KINDS(X) $(printf 'X(%s) ' "${others[@]}")"
  } >"$out/levels.h"
  exit 0
fi
"$out/build-objects.sh" "$out/tree" "$out" levels_bench.cu levels_bench
