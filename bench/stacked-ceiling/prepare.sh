#!/usr/bin/env bash
# Where stencilc is: the generated composed step and a patched copy of the
# headers into OUT (README.md). Usage: bench/stacked-ceiling/prepare.sh [OUT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/.gpu/stacked-ceiling}
rm -rf "$out" && mkdir -p "$out"
"${STENCILC:-$root/build/bin/stencilc}" "$root/examples/suite/star2d5p_fp16.stencil" --arch=sm_90 \
  -o "$out/s.cu"
cp -r "$root/runtime/include" "$out/include"
python3 "$here/patch.py" "$out/include/stencilc/device/stacked.cuh"
cp "$here/ceil.cu" "$here/tma.cu" "$here/timing.h" "$here/variants.txt" "$here/run.sh" "$out/"
