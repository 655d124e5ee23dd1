#!/usr/bin/env bash
# Writes the benchmark's generated code into OUTDIR (where stencilc builds):
# fields.stencil.in as fields_tc.stencil (--backend=tensor) and
# fields_simt.stencil (--backend=simt), each compiled to .cu and .h, and
# builds fieldstc_bench for sm_90 there when nvcc is found.
#   bench/fieldstc/gen.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$1
stencilc=${STENCILC:-$root/build/bin/stencilc}
mkdir -p "$out"
for backend in tc simt; do
  sed "s/NAME/$backend/g" "$here/fields.stencil.in" > "$out/fields_$backend.stencil"
  flag=$([[ $backend == tc ]] && echo tensor || echo simt)
  "$stencilc" --backend="$flag" "$out/fields_$backend.stencil" -o "$out/fields_$backend.cu"
done
cp "$here/fieldstc_bench.cu" "$root/bench/median_ms.h" "$out/"
if command -v nvcc > /dev/null; then
  nvcc -std=c++17 -O3 -arch=sm_90 -I"$root/runtime/include" -I"$out" "$out/fieldstc_bench.cu" \
    "$out/fields_tc.cu" "$out/fields_simt.cu" "$root/runtime/src/check.cpp" -o "$out/fieldstc_bench"
fi
