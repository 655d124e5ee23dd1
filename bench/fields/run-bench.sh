#!/usr/bin/env bash
# NAME_run of stencils of fields, fused against one step a launch
# (fields_run_bench.cu), at several T, in three halves:
#   bench/fields/run-bench.sh gen DIR [T...]    where stencilc builds: for the
#       planner's own T ("plan") and each T given, DIR/T/fields_run.cu (that
#       T) and DIR/T/fields_run_one.cu (fuse=1, names suffixed _one)
#   bench/fields/run-bench.sh build DIR         where nvcc is: DIR/T/bench
#   bench/fields/run-bench.sh run DIR [steps]   on the GPU: each DIR/T/bench
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=$1
out=$2
shift 2
case $mode in
gen)
  stencilc=${STENCILC:-$root/build/bin/stencilc}
  rm -rf "$out" && mkdir -p "$out"
  sed 's/^stencil \([a-z0-9_]*\) {/stencil \1_one {/' "$here/fields_run.stencil" > "$out/fields_run_one.stencil"
  for t in plan "$@"; do
    mkdir -p "$out/$t"
    option=()
    [[ $t == plan ]] || option=(--plan-option "fuse=$t")
    "$stencilc" --arch=sm_90 "${option[@]}" "$here/fields_run.stencil" -o "$out/$t/fields_run.cu"
    "$stencilc" --arch=sm_90 --plan-option fuse=1 "$out/fields_run_one.stencil" -o "$out/$t/fields_run_one.cu"
  done
  ;;
build)
  for dir in "$out"/*/; do
    nvcc -std=c++17 -O3 -arch=sm_90 -I"$root/runtime/include" -I"$dir" "$here/fields_run_bench.cu" \
      "$dir/fields_run.cu" "$dir/fields_run_one.cu" "$root/runtime/src/check.cpp" \
      "$root/runtime/src/timer.cu" -o "$dir/bench" &
  done
  wait
  ;;
run)
  for dir in "$out"/*/; do
    echo "== $(basename "$dir")"
    "$dir/bench" "${1:-1000}"
  done
  ;;
*)
  echo "usage: $0 gen|build|run DIR ..." >&2
  exit 2
  ;;
esac
