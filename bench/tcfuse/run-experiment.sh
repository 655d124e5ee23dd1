#!/usr/bin/env bash
# The tensor-fusion experiment (issue 19, item 4), in two halves.
#   Here (with stencilc):  bench/tcfuse/run-experiment.sh gen OUTDIR
#     writes OUTDIR/gen/*.cu,*.h (compose_suite.py's stencils on tensor
#     cores, the suite's star2d5p/box2d9p on CUDA cores) and copies the
#     driver, so that OUTDIR can travel to the GPU machine.
#   There (nvcc, no LLVM):  bench/tcfuse/run-experiment.sh build OUTDIR [ARGS]
#     compiles everything for sm_90 with the runtime and the test support
#     of this checkout, and runs the driver with ARGS.
set -euo pipefail
root=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
mode=$1 out=$(realpath -m "$2")
shift 2
if [[ $mode == gen ]]; then
  stencilc=${STENCILC:-$root/build/bin/stencilc}
  rm -rf "$out" && mkdir -p "$out/gen"
  python3 "$root/bench/tcfuse/compose_suite.py" "$out/stencils"
  cp "$out/stencils/pairs.h" "$root"/bench/tcfuse/{experiment.cu,run-experiment.sh,build-objects.sh} "$root/bench/median_ms.h" "$out/"
  for f in "$out"/stencils/*.stencil; do
    "$stencilc" -w --arch=sm_90 --backend=tensor "$f" -o "$out/gen/$(basename "$f" .stencil).cu"
  done
  for p in fp16 bf16 tf32 fp32 fp64; do
    for s in star2d5p box2d9p; do
      "$stencilc" --arch=sm_90 --backend=simt "$root/examples/suite/${s}_$p.stencil" \
        -o "$out/gen/${s}_$p.cu"
    done
  done
  exit 0
fi
"$out/build-objects.sh" "$root" "$out"
cd "$out"
flags=(-O3 -std=c++17 -arch=sm_90 -I"$root/runtime/include" -I"$root/test/support/include"
  -I"$out" -I"$out/gen")
{ for h in gen/*.h; do echo "#include \"$(basename "$h")\""; done; } >all.h
nvcc "${flags[@]}" -include all.h experiment.cu obj/*.o -o experiment -lpthread
./experiment "$@"
