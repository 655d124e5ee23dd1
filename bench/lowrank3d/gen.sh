#!/usr/bin/env bash
# Writes, where stencilc is (no GPU, no heavy compiling here), the package
# the GPU check of the 3D low-rank form runs from (bench/lowrank3d/run.sh
# builds and runs it on the GPU machine; README.md beside this says what
# it checks):
#   OUT/src/NAME.cu, NAME.h, NAME.plan  generated with --arch=sm_90:
#       BASE_PREC_BOUNDARY  the low-rank form (--backend=simt,
#           lowrank=on) of box3d27p, lap27 and box3d125p in fp64 and fp32
#           at every boundary (gen.sh stops where a plan does not use it)
#       BASE_PREC_lr, BASE_PREC_off  the benchmark's pair at the fixed
#           boundary: the form (CUDA cores, lowrank=on) and the direct form
#           as a user gets it with lowrank=off (default backend)
#   OUT/src/check-BASE_PREC.cu  the conformance driver
#       (test/GPU/harness/stencil_test_main.cu) over one stencil's six
#       boundaries
#   OUT/src/bench.cu  the benchmark driver (bench/stencil_bench_main.cu)
#       over every pair
#   OUT/src/auto  which form --plan-option lowrank=auto takes for each
#   OUT/include, OUT/lib  the runtime and test-support headers and the two
#       host libraries they link with (built here by CMake)
#   OUT/run.sh
# Usage: bench/lowrank3d/gen.sh [OUT]   (default .gpu/lr3d)
#   STENCILC (default build/bin/stencilc), BUILD (default build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/.gpu/lr3d}
stencilc=${STENCILC:-$root/build/bin/stencilc}
build=${BUILD:-$root/build}
suite=$root/examples/suite
rm -rf "$out"
mkdir -p "$out/src" "$out/include/runtime" "$out/include/support" "$out/lib"
cmake --build "$build" --target stencilc_runtime stencilc_testing >/dev/null
cp -r "$root/runtime/include/." "$out/include/runtime/"
cp -r "$root/test/support/include/." "$out/include/support/"
cp "$build/runtime/libstencilc_runtime.a" "$build/test-support/libstencilc_testing.a" "$out/lib/"
cp "$root/bench/stencil_bench_main.cu" "$root/bench/bench_options.h" \
  "$root/test/GPU/harness/stencil_test_main.cu" "$out/src/"
cp "$root/bench/lowrank3d/run.sh" "$out/"

# stencil NAME SOURCE BOUNDARY [stencilc flags...]: SOURCE renamed NAME, its
# boundary BOUNDARY, generated with the flags.
stencil() {
  local name=$1 source=$2 boundary=$3
  shift 3
  sed -E "s/^stencil [A-Za-z0-9_]+ /stencil $name /; s/boundary fixed;/boundary $boundary;/" \
    "$source" >"$out/src/$name.stencil"
  "$stencilc" --arch=sm_90 "$@" "$out/src/$name.stencil" -o "$out/src/$name.cu"
  "$stencilc" --arch=sm_90 "$@" --emit=plan "$out/src/$name.stencil" >"$out/src/$name.plan"
}

# list UNIT DRIVER HEADERS...: the driver's translation unit over the
# headers, its includes relative (the package is built elsewhere).
list() {
  local unit=$1 driver=$2
  shift 2
  python3 "$root/test/GPU/harness/stencil_list.py" --main "$out/src/$driver" "$@" |
    sed "s|#include \"$out/src/|#include \"|" >"$out/src/$unit"
}

boundaries=(fixed "constant 0.25" periodic clamp mirror reflect)
: >"$out/src/auto"
for base in box3d27p lap27 box3d125p; do
  for prec in fp64 fp32; do
    headers=()
    for boundary in "${boundaries[@]}"; do
      name=${base}_${prec}_${boundary%% *}
      stencil "$name" "$suite/${base}_$prec.stencil" "$boundary" --backend=simt \
        --plan-option=lowrank=on
      grep -q "lowrank    used" "$out/src/$name.plan" || {
        echo "$name: no low-rank form" >&2
        exit 1
      }
      headers+=("$out/src/$name.h")
    done
    list "check-${base}_$prec.cu" stencil_test_main.cu "${headers[@]}"
    stencil "${base}_${prec}_lr" "$suite/${base}_$prec.stencil" fixed --backend=simt \
      --plan-option=lowrank=on
    stencil "${base}_${prec}_off" "$suite/${base}_$prec.stencil" fixed --plan-option=lowrank=off
    bench+=("$out/src/${base}_${prec}_lr.h" "$out/src/${base}_${prec}_off.h")
    form=$("$stencilc" --arch=sm_90 --emit=plan "$suite/${base}_$prec.stencil" | grep "^  lowrank")
    echo "${base}_$prec auto: ${form#  lowrank    }" >>"$out/src/auto"
  done
done
list bench.cu stencil_bench_main.cu "${bench[@]}"
du -sh "$out"
