#!/usr/bin/env bash
# Writes, where stencilc is (no GPU, no heavy compiling here), the package
# the GPU check of the 3D low-rank form's fused passes runs from
# (bench/lowrank3d/run.sh builds and runs it on the GPU machine; README.md
# beside this says what it checks). Four kinds: box3d27p fp64 and fp32, the
# heat step on the 27-point Laplacian (heat27) fp64 and box3d125p fp64.
#   OUT/src/NAME.cu, NAME.h, NAME.plan  generated with --arch=sm_90:
#       KIND_BOUNDARY  the form (--backend=simt, lowrank=on) as planned, its
#           NAME_run fusing steps (gen.sh stops where a plan does not use
#           the form or does not fuse), at two boundaries a kind
#       KIND_t1, KIND_t2, KIND_t3  the benchmark's form at the fixed
#           boundary with fuse=1 (the step kernel's form, one step a launch),
#           2 and 3 (fused3d.cuh's form; box3d125p to 2; gen.sh stops where a
#           plan lowers T)
#       KIND_off  the direct form as a user gets it with lowrank=off
#           (default backend and T)
#   OUT/src/check-KIND.cu  the conformance driver
#       (test/GPU/harness/stencil_test_main.cu) over one kind's two boundaries
#   OUT/src/bench.cu  the benchmark driver (bench/stencil_bench_main.cu)
#       over every variant of every kind
#   OUT/src/auto  which form and T the default plan (lowrank=auto) takes
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

# expect NAME PATTERN WHAT: stops unless NAME's plan has a line matching
# PATTERN.
expect() {
  grep -qE "$2" "$out/src/$1.plan" || {
    echo "$1: $3" >&2
    exit 1
  }
}

# list UNIT DRIVER HEADERS...: the driver's translation unit over the
# headers, its includes relative (the package is built elsewhere).
list() {
  local unit=$1 driver=$2
  shift 2
  python3 "$root/test/GPU/harness/stencil_list.py" --main "$out/src/$driver" "$@" |
    sed "s|#include \"$out/src/|#include \"|" >"$out/src/$unit"
}

# KIND:BOUNDARY:BOUNDARY:MOST, each of the fused boundaries at least once;
# MOST the largest T benchmarked (box3d125p's T 3 spills: 254 registers and
# 440 bytes of spills a thread, ptxas for sm_90).
kinds=("box3d27p_fp64:fixed:periodic:3" "box3d27p_fp32:fixed:constant 0.25:3"
  "heat27_fp64:fixed:periodic:3" "box3d125p_fp64:fixed:constant 0.25:2")
: >"$out/src/auto"
bench=()
for entry in "${kinds[@]}"; do
  IFS=: read -r kind first second most <<<"$entry"
  headers=()
  for boundary in "$first" "$second"; do
    name=${kind}_${boundary%% *}
    # fuse=2: the fused form, which auto takes at radius 1 in fp64 and fp32
    # (box3d125p, radius 2, measured faster one step a launch: checked as asked)
    stencil "$name" "$suite/$kind.stencil" "$boundary" --backend=simt --plan-option=lowrank=on \
      --plan-option=fuse=2
    expect "$name" "lowrank    used" "no low-rank form"
    expect "$name" "steps fused a pass" "NAME_run does not fuse the form"
    headers+=("$out/src/$name.h")
  done
  list "check-$kind.cu" stencil_test_main.cu "${headers[@]}"
  for t in $(seq 1 "$most"); do
    stencil "${kind}_t$t" "$suite/$kind.stencil" fixed --backend=simt \
      --plan-option=lowrank=on --plan-option=fuse="$t"
    expect "${kind}_t$t" "lowrank    used" "no low-rank form"
    expect "${kind}_t$t" "$([[ $t == 1 ]] && echo "one launch a step" ||
      echo "^  run        $t steps fused")" "not T $t"
    bench+=("$out/src/${kind}_t$t.h")
  done
  stencil "${kind}_off" "$suite/$kind.stencil" fixed --plan-option=lowrank=off
  bench+=("$out/src/${kind}_off.h")
  plan=$("$stencilc" --arch=sm_90 --emit=plan "$suite/$kind.stencil")
  form=$(grep "^  lowrank" <<<"$plan" | cut -c14-60)
  run=$(grep "^  run" <<<"$plan" | cut -c14-)
  echo "$kind auto: ${form}...; ${run%% (*}" >>"$out/src/auto"
done
list bench.cu stencil_bench_main.cu "${bench[@]}"
du -sh "$out"
