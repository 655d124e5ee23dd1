#!/usr/bin/env bash
# Lays out bench/variants/fused3d-fp64-rows2.list in OUT (gen.sh) with the
# variants its comment names, made by params.sh from its plan.
# Usage: bench/variants/fused3d-fp64-rows2.sh OUT   (STENCILC as gen.sh's)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fused3d-fp64-rows2.sh OUT}
bash "$here/gen.sh" "$here/fused3d-fp64-rows2.list" "$out"
bash "$here/params.sh" "$out" auto star3d7p_fp64 r2 kRows=2
bash "$here/params.sh" "$out" auto star3d7p_fp64 r2w64 kRows=2 kWidth=64 kHeight=32
