#!/usr/bin/env bash
# Builds, where stencilc and nvcc are (no GPU needed), everything the GPU
# check of the low-rank form runs (bench/lowrank/run.sh, on the GPU machine;
# carry OUT there, about 10 MiB):
#   OUT/check-NAME   the conformance harness (test/GPU/harness) on one
#                    stencil planned on CUDA cores with the low-rank form:
#                    NAME_step and NAME_run against the float64 reference at
#                    every contract size and step count (1, T-1, T, T+1,
#                    3T+2, 100), NAME_run bit for bit as many NAME_step
#                    calls (both evaluate the form in one order), NAME_pass
#   OUT/lowrank-bench  NAME_run of 100 steps at 8192^2 of each stencil in
#                    its low-rank form and direct (lowrank=off, on CUDA
#                    cores and as --backend=auto plans it)
# Usage: bench/lowrank/gen.sh [OUT]   (default .gpu/lr)
#   STENCILC (default build/bin/stencilc), BUILD (default build: its
#   runtime and test-support libraries), JOBS (default 2)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
default_out=$root/.gpu/lr
# shellcheck source=bench/gen-common.sh
source "$root/bench/gen-common.sh"

nvccFlags=(-std=c++17 -O3 -arch=sm_90 -I "$root/runtime/include" -I "$root/test/support/include"
  -I "$build/runtime/include")
libs=("$build/test-support/libstencilc_testing.a" "$build/runtime/libstencilc_runtime.a")

# The conformance programs: one stencil each, on CUDA cores.
checks=(blur7x7_fp64 blur7x7_fp32_periodic gauss5x5_fp64_constant gauss5x5_fp32 box2d9p_fp64
  box2d9p_bf16_periodic box2d25p_fp16 box2d49p_fp64_periodic ebisu_2d49pt_fp64)
for name in "${checks[@]}"; do
  base=${name%_periodic}
  base=${base%_constant}
  flags=(--backend=simt)
  # terms that cancel (EBISU's), radius 1 (auto keeps both direct)
  [[ $base == ebisu_* || $base == box2d9p_* ]] && flags+=(--plan-option=lowrank=on)
  stencil "$name" "$suite/$base.stencil" "${flags[@]}"
  grep -q "lowrank    used" "$gen/$name.plan" || { echo "$name: no low-rank form" >&2; exit 1; }
  python3 "$root/test/GPU/harness/stencil_list.py" --main "$root/test/GPU/harness/stencil_test_main.cu" \
    "$gen/$name.h" >"$gen/check-$name.cu"
done

# The benchmark's stencils: the low-rank form (CUDA cores), the direct form
# on CUDA cores and the direct form as --backend=auto plans it.
bench=(blur7x7_fp64 blur7x7_fp32 gauss5x5_fp64 gauss5x5_fp32 box2d9p_fp64 box2d25p_fp64
  box2d25p_fp32 box2d49p_fp64 box2d49p_fp32)
list=()
for base in "${bench[@]}"; do
  stencil "${base}_lr" "$suite/$base.stencil" --backend=simt --plan-option=lowrank=on
  stencil "${base}_simt" "$suite/$base.stencil" --backend=simt --plan-option=lowrank=off
  stencil "${base}_auto" "$suite/$base.stencil" --plan-option=lowrank=off
  list+=("$gen/${base}_lr.h" "$gen/${base}_simt.h" "$gen/${base}_auto.h")
done
python3 "$root/test/GPU/harness/stencil_list.py" "${list[@]}" >"$gen/bench-list.h"

export out gen
export nvccFlagsText="${nvccFlags[*]}" libsText="${libs[*]}"
objects=()
for base in "${bench[@]}"; do
  for form in lr simt auto; do
    objects+=("$gen/${base}_$form")
  done
done
printf '%s\n' "${checks[@]}" | xargs -P "$jobs" -I{} bash -c \
  'nvcc $nvccFlagsText -o "$out/check-{}" "$gen/check-{}.cu" "$gen/{}.cu" $libsText'
printf '%s\n' "${objects[@]}" | xargs -P "$jobs" -I{} bash -c 'nvcc $nvccFlagsText -c -o "{}.o" "{}.cu"'
nvcc "${nvccFlags[@]}" -I "$root/test/GPU/device" -include "$gen/bench-list.h" -o "$out/lowrank-bench" \
  "$root/bench/lowrank/lowrank_bench.cu" "${objects[@]/%/.o}" "${libs[@]}"
strip "$out"/check-* "$out/lowrank-bench"
cp "$root/bench/lowrank/run.sh" "$out/"
du -sh "$out"
