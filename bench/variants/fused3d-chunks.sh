#!/usr/bin/env bash
# Lays out bench/variants/fused3d-chunks.list in OUT (gen.sh) with the
# kChunkZ variants its comment names, made by params.sh from its plans.
# Usage: bench/variants/fused3d-chunks.sh OUT   (STENCILC as gen.sh's)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: fused3d-chunks.sh OUT}
bash "$here/gen.sh" "$here/fused3d-chunks.list" "$out"
for n in 72 84 101 126 168; do
  bash "$here/params.sh" "$out" auto star3d7p_fp64 "c$n" kChunkZ=$n
done
for n in 84 101 126 168 251; do
  bash "$here/params.sh" "$out" auto box3d27p_fp64 "c$n" kChunkZ=$n
done
