#!/usr/bin/env bash
# Compiles, on the GPU machine, what the tensor-fusion programs link: OUTDIR/gen/*.cu
# (generated) and the runtime and test support sources of ROOT, for sm_90, in
# parallel, into OUTDIR/obj; with MAIN and PROGRAM, also links OUTDIR/MAIN with
# them into OUTDIR/PROGRAM. Used by run-experiment.sh, check-fused.sh and
# gen-levels.sh.
# Usage: build-objects.sh ROOT OUTDIR [MAIN PROGRAM]
set -euo pipefail
root=$1 out=$2 main=${3:-} program=${4:-}
cd "$out"
mkdir -p obj
flags="-O3 -std=c++17 -arch=sm_90 -I$root/runtime/include -I$root/test/support/include -I$out -I$out/gen"
printf '%s\n' gen/*.cu "$root"/test/support/src/*.cpp "$root"/test/support/src/naive.cu \
  "$root"/runtime/src/*.cpp "$root"/runtime/src/*.cu |
  xargs -P "$(nproc)" -I{} sh -c "nvcc $flags -c {} -o obj/\$(echo {} | tr / _).o"
if [[ -n $main ]]; then
  nvcc $flags "$main" obj/*.o -o "$program" -lpthread
fi
