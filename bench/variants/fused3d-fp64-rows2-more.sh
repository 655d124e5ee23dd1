#!/usr/bin/env bash
# Lays out bench/variants/fused3d-fp64-rows2-more.list in OUT (gen.sh)
# with the variants its comment names, made by params.sh from its plans.
# Usage: bench/variants/fused3d-fp64-rows2-more.sh OUT   (STENCILC as gen.sh's)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fused3d-fp64-rows2-more.sh OUT}
bash "$here/gen.sh" "$here/fused3d-fp64-rows2-more.list" "$out"
bash "$here/params.sh" "$out" auto star3d7p_fp64 c80 kChunkZ=80
bash "$here/params.sh" "$out" auto star3d7p_fp64 c112 kChunkZ=112
w64=(kRows=2 kWidth=64 kHeight=32)
bash "$here/params.sh" "$out" rot box3d27p_fp64 rot-r2 "${w64[@]}"
bash "$here/params.sh" "$out" auto box3d27p_fp64 sync-r2 "${w64[@]}" kSplitBarrier=false
