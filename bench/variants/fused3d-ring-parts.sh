#!/usr/bin/env bash
# Lays out bench/variants/fused3d-ring-parts.list in OUT (gen.sh) with the
# variants its comment names, made by params.sh from its plans.
# Usage: bench/variants/fused3d-ring-parts.sh OUT   (STENCILC as gen.sh's)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fused3d-ring-parts.sh OUT}
bash "$here/gen.sh" "$here/fused3d-ring-parts.list" "$out"
params() { bash "$here/params.sh" "$out" "$@"; }
for name in box3d27p_fp32 ebisu_3d27pt_fp32 ebisu_3d27pt_fp64 ebisu_3d17pt_fp32 ebisu_3d17pt_fp64; do
  params split "$name" u4 +kUnrollPlanes=4
done
params auto box3d27p_fp64 u4 +kUnrollPlanes=4
t3=(kSteps=3 kHeight=32 kThreads=256)
params auto box3d27p_fp64 t3 "${t3[@]}"
params auto box3d27p_fp64 t3u4 "${t3[@]}" +kUnrollPlanes=4
params sync box3d27p_fp64 t3sync "${t3[@]}"
for name in star3d13p_fp32 ebisu_3d13pt_fp32; do
  params auto "$name" u10 +kUnrollPlanes=10
  params auto "$name" s10 +kSplitBarrier=true +kUnrollPlanes=10
done
