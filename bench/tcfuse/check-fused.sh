#!/usr/bin/env bash
# The GPU check of the tensor cores' fused NAME_run (bench/tcfuse/fused_check.cu).
#   Here (with stencilc):  bench/tcfuse/check-fused.sh gen OUTDIR
#     star2d5p and box2d9p (the suite's coefficients) in fp16, bf16, tf32
#     and fp64 under every boundary on tensor cores with fuse=4 (fp64: 3);
#     some with other T (fuse=2, 6, 8) and a radius-2 star; the suite's own
#     files on tensor cores (fuse=4 or 3, and 2; 8 for 16-bit) and on CUDA
#     cores for the speed table; the list header all.h.
#     It copies this checkout's runtime/ and test/support/ to OUTDIR/tree.
#   There (nvcc, no LLVM):  bench/tcfuse/check-fused.sh build OUTDIR
#     compiles them for sm_90 into OUTDIR/fused_check.
set -euo pipefail
mode=$1 out=$(realpath -m "$2")
if [[ $mode == gen ]]; then
  root=$(cd "$(dirname "$0")/../.." && pwd)
  stencilc=${STENCILC:-$root/build/bin/stencilc}
  rm -rf "$out" && mkdir -p "$out/gen" "$out/stencils"
  cp "$root"/bench/tcfuse/{fused_check.cu,check-fused.sh,build-objects.sh} "$out/"
  mkdir -p "$out/tree/test" && cp -r "$root/runtime" "$out/tree/" &&
    cp -r "$root/test/support" "$out/tree/test/"
  checks=() speeds=()
  # name source backend boundary option
  make() {
    local name=$1 src=$2 backend=$3 boundary=$4 option=$5
    sed -e "s/^stencil [a-z0-9_]* {/stencil $name {/" \
      -e "s/^  boundary fixed;/  boundary $boundary;/" "$root/examples/suite/$src.stencil" \
      >"$out/stencils/$name.stencil"
    "$stencilc" --arch=sm_90 --backend="$backend" ${option:+--plan-option "$option"} \
      "$out/stencils/$name.stencil" -o "$out/gen/$name.cu"
  }
  for s in star2d5p box2d9p; do
    for p in fp16 bf16 tf32 fp64; do
      t=4
      [[ $p == fp64 ]] && t=3
      for b in fixed "constant 0.25" periodic clamp mirror; do
        n=${s}_${p}_${b%% *}
        make "$n" "${s}_$p" tensor "$b" "fuse=$t"
        checks+=("$n")
      done
      make "${s}_${p}_tc" "${s}_$p" tensor fixed "fuse=$t" && speeds+=("${s}_${p}_tc")
      make "${s}_${p}_tc1" "${s}_$p" tensor fixed "" && speeds+=("${s}_${p}_tc1")
      make "${s}_${p}_tc2" "${s}_$p" tensor fixed fuse=2 && speeds+=("${s}_${p}_tc2")
      make "${s}_${p}_simt" "${s}_$p" simt fixed "" && speeds+=("${s}_${p}_simt")
    done
  done
  for p in fp16 bf16; do
    for s in star2d5p box2d9p; do
      make "${s}_${p}_tc8" "${s}_$p" tensor fixed fuse=8 && speeds+=("${s}_${p}_tc8")
    done
  done
  make star2d5p_fp16_mirror8 star2d5p_fp16 tensor mirror fuse=8 && checks+=(star2d5p_fp16_mirror8)
  make box2d9p_bf16_constant6 box2d9p_bf16 tensor "constant 0.25" fuse=6 &&
    checks+=(box2d9p_bf16_constant6)
  make star2d5p_fp64_clamp4 star2d5p_fp64 tensor clamp fuse=4 && checks+=(star2d5p_fp64_clamp4)
  for b in fixed clamp periodic; do
    make "star2d9p_fp16_${b}4" star2d9p_fp16 tensor "$b" fuse=4 && checks+=("star2d9p_fp16_${b}4")
  done
  {
    for h in "$out"/gen/*.h; do echo "#include \"$(basename "$h")\""; done
    echo "#define TCFUSE_CHECKS(X) $(printf 'X(%s) ' "${checks[@]}")"
    echo "#define TCFUSE_SPEEDS(X) $(printf 'X(%s) ' "${speeds[@]}")"
  } >"$out/all.h"
  exit 0
fi
"$out/build-objects.sh" "$out/tree" "$out" fused_check.cu fused_check
