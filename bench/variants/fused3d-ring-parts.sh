#!/usr/bin/env bash
# Lays out bench/variants/fused3d-ring-parts.list in OUT (gen.sh) with the
# variants of box3d27p fp64 at T 3 its comment names, made by params.sh
# from its plans.
# Usage: bench/variants/fused3d-ring-parts.sh OUT   (STENCILC as gen.sh's)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fused3d-ring-parts.sh OUT}
bash "$here/gen.sh" "$here/fused3d-ring-parts.list" "$out"
t3=(box3d27p_fp64 kSteps=3 kHeight=32 kThreads=256)
bash "$here/params.sh" "$out" auto "${t3[0]}" t3 "${t3[@]:1}"
bash "$here/params.sh" "$out" u4 "${t3[0]}" t3u4 "${t3[@]:1}"
bash "$here/params.sh" "$out" sync "${t3[0]}" t3sync "${t3[@]:1}"
