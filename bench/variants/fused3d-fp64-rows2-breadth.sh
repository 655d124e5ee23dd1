#!/usr/bin/env bash
# Lays out bench/variants/fused3d-fp64-rows2-breadth.list in OUT (gen.sh)
# with the variants its comment names, made by params.sh from its plans.
# Usage: bench/variants/fused3d-fp64-rows2-breadth.sh OUT   (STENCILC as gen.sh's)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fused3d-fp64-rows2-breadth.sh OUT}
bash "$here/gen.sh" "$here/fused3d-fp64-rows2-breadth.list" "$out"
w64=(kRows=2 kWidth=64 kHeight=32)
bash "$here/params.sh" "$out" auto star3d7p_fp64 w64 "${w64[@]}"
bash "$here/params.sh" "$out" auto ebisu_3d7pt_fp64 w64 "${w64[@]}"
bash "$here/params.sh" "$out" c:clamp star3d7p_fp64 cw64 "${w64[@]}"
bash "$here/params.sh" "$out" p:periodic star3d7p_fp64 pw64 "${w64[@]}"
bash "$here/params.sh" "$out" auto star3d7p_fp64 w64c64 "${w64[@]}" kChunkZ=64
bash "$here/params.sh" "$out" auto star3d7p_fp64 w64c128 "${w64[@]}" kChunkZ=128
