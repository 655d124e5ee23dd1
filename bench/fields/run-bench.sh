#!/usr/bin/env bash
# NAME_run of stencils of fields, fused against one step a launch
# (fields_run_bench.cu), at several T, in three halves:
#   bench/fields/run-bench.sh gen DIR [T...]    where stencilc builds: for the
#       planner's own T ("plan") and each T given, DIR/T/NAME.cu (that T) and
#       DIR/T/NAME_one.cu (fuse=1, names suffixed _one) for each stencil,
#       and the headers fields_run.h and fields_run_one.h including theirs
#   bench/fields/run-bench.sh build DIR         where nvcc is: DIR/T/bench,
#       every stencil's .cu compiled apart, JOBS (default: the cores) at once
#   bench/fields/run-bench.sh run DIR [steps]   on the GPU: each DIR/T/bench
# BENCH=3d takes fields_run3d.stencil and fields_run3d_bench.cu (issue 36's
# 3D targets) instead of fields_run.stencil and fields_run_bench.cu.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=$1
out=$2
shift 2
set_=${BENCH:-}
case $mode in
gen)
  stencilc=${STENCILC:-$root/build/bin/stencilc}
  rm -rf "$out" && mkdir -p "$out/.stencils"
  # Each stencil in a file of its own (compiled apart, in parallel), and its
  # copy named NAME_one.
  awk -v dir="$out/.stencils" '
    /^stencil [a-z0-9_]* \{/ { name = $2; file = dir "/" name ".stencil" }
    file != "" { print > file }
    /^}/ { file = "" }' "$here/fields_run$set_.stencil"
  for f in "$out"/.stencils/*.stencil; do
    sed 's/^stencil \([a-z0-9_]*\) {/stencil \1_one {/' "$f" > "${f%.stencil}_one.stencil"
  done
  for t in plan "$@"; do
    mkdir -p "$out/$t"
    option=()
    [[ $t == plan ]] || option=(--plan-option "fuse=$t")
    for f in "$out"/.stencils/*.stencil; do
      name=$(basename "$f" .stencil)
      if [[ $name == *_one ]]; then
        "$stencilc" --arch=sm_90 --plan-option fuse=1 "$f" -o "$out/$t/$name.cu"
        echo "#include \"$name.h\"" >> "$out/$t/fields_run_one.h"
      else
        "$stencilc" --arch=sm_90 "${option[@]}" "$f" -o "$out/$t/$name.cu"
        echo "#include \"$name.h\"" >> "$out/$t/fields_run.h"
      fi
    done
  done
  ;;
build)
  flags=(-std=c++17 -O3 -arch=sm_90 -Xptxas -warn-spills -I"$root/runtime/include")
  ls "$out"/*/*.cu | xargs -P "${JOBS:-$(nproc)}" -I{} sh -c \
    'nvcc "$@" -I"$(dirname {})" -c {} -o {}.o > {}.log 2>&1 || { cat {}.log; exit 1; }' _ "${flags[@]}"
  for dir in "$out"/*/; do
    nvcc "${flags[@]}" -I"$dir" "$here/fields_run${set_}_bench.cu" "$dir"/*.cu.o \
      "$root/runtime/src/check.cpp" "$root/runtime/src/timer.cu" -o "$dir/bench" &
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
