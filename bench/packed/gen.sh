#!/usr/bin/env bash
# Builds, where stencilc and nvcc are (no GPU needed), everything the GPU
# check of packed 16-bit arithmetic runs (bench/packed/run.sh, on the GPU
# machine; carry OUT there):
#   OUT/check-NAME   the conformance harness (test/GPU/harness) on one 2D
#                    fp16 or bf16 stencil with --plan-option arith=packed on
#                    CUDA cores: NAME_step and NAME_run against the float64
#                    reference within the packed bound (--tolerance, below)
#                    at every contract size (odd and tiny ones included) and
#                    step count (1, T-1, T, T+1, 3T+2, 100), NAME_run bit for
#                    bit as many NAME_step calls, NAME_pass
#   OUT/packed-bench the error after 100 and 1000 steps at 512^2 (packed and
#                    widened) and NAME_run of 100 steps at 8192^2 (packed,
#                    widened, fp32), packed_bench.cu
#   OUT/tolerance-NAME the packed bound of NAME's step: 2 gamma(n + 1) sum|c|
#                    (docs/generated-code.md, "Packed 16-bit arithmetic")
# Usage: bench/packed/gen.sh [OUT]   (default .gpu/packed)
#   STENCILC (default build/bin/stencilc), BUILD (default build), JOBS (default 2)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
default_out=$root/.gpu/packed
# shellcheck source=bench/gen-common.sh
source "$root/bench/gen-common.sh"

# The packed bound of a step, relative: 2 gamma(n + 1) sum |c| (the inputs
# lie in (0, 1), their averages about 0.5), from the plan's coefficients.
bound() {
  python3 - "$1" "$2" <<'PY'
import re, sys
plan, precision = open(sys.argv[1]).read(), sys.argv[2]
cs = [abs(float(c)) for line in plan.splitlines() if line.strip().startswith("slice dz=")
      for c in re.findall(r"\) (-?[0-9.e+-]+)", line)]
u = 2.0 ** (-11 if precision == "fp16" else -8)
k = len(cs) + 1
print(f"{2 * k * u / (1 - k * u) * sum(cs):.6g}")
PY
}

nvccFlags=(-std=c++17 -O3 -arch=sm_90 -I "$root/runtime/include" -I "$root/test/support/include"
  -I "$build/runtime/include")
libs=("$build/test-support/libstencilc_testing.a" "$build/runtime/libstencilc_runtime.a")

shapes=(star2d5p box2d9p star2d9p box2d25p)
checks=()
for shape in "${shapes[@]}"; do
  for p in fp16 bf16; do
    for b in fixed periodic; do
      name=${shape}_${p}_packed$([[ $b == periodic ]] && echo _periodic || true)
      stencil "$name" "$suite/${shape}_$p.stencil" --backend=simt --plan-option=arith=packed
      grep -q "arithmetic packed" "$gen/$name.plan" || { echo "$name: not packed" >&2; exit 1; }
      bound "$gen/$name.plan" "$p" >"$out/tolerance-$name"
      python3 "$root/test/GPU/harness/stencil_list.py" --main \
        "$root/test/GPU/harness/stencil_test_main.cu" "$gen/$name.h" >"$gen/check-$name.cu"
      checks+=("$name")
    done
  done
done

# The benchmark's stencils: packed and widened fp16/bf16, and fp32.
list=()
cases=""
for shape in "${shapes[@]}"; do
  stencil "${shape}_fp32" "$suite/${shape}_fp32.stencil" --backend=simt
  list+=("$gen/${shape}_fp32.h")
  for p in fp16 bf16; do
    [[ -f $gen/${shape}_${p}_packed.cu ]] || exit 1
    stencil "${shape}_${p}_widened" "$suite/${shape}_$p.stencil" --backend=simt
    list+=("$gen/${shape}_${p}_packed.h" "$gen/${shape}_${p}_widened.h")
    element=$([[ $p == fp16 ]] && echo __half || echo __nv_bfloat16)
    cases+=" X(${shape}_${p}_packed, ${shape}_${p}_widened, ${shape}_fp32, $element)"
  done
done
{
  python3 "$root/test/GPU/harness/stencil_list.py" "${list[@]}"
  echo "#define PACKED_CASES(X)$cases"
} >"$gen/bench-list.h"

objects=()
for shape in "${shapes[@]}"; do
  objects+=("$gen/${shape}_fp32")
  for p in fp16 bf16; do
    objects+=("$gen/${shape}_${p}_widened")
  done
done
# Sources only: the GPU machine (16 cores) compiles them (run.sh), so that
# little is compiled here and the carried folder stays small.
for name in "${checks[@]}"; do
  cp "$gen/check-$name.cu" "$gen/$name.cu" "$gen/$name.h" "$out/"
done
for o in "${objects[@]}"; do
  cp "$o.cu" "$o.h" "$out/"
done
cp "$gen/bench-list.h" "$root/bench/packed/packed_bench.cu" "$root/test/GPU/device/fused_nd_bench.h" \
  "$out/"
mkdir -p "$out/include" "$out/lib"
cp -r "$root/runtime/include/stencilc" "$root/test/support/include/stencilc" "$out/include/"
[[ -d $build/runtime/include ]] && cp -r "$build/runtime/include/." "$out/include/"
cp "${libs[@]}" "$out/lib/"
printf '%s\n' "${checks[@]}" >"$out/checks.txt"
# stencil_list.py names the headers by their paths here; there they lie
# beside the drivers.
sed -i "s|#include \"$gen/|#include \"|; s|#include \"$root/test/GPU/harness/|#include \"|" \
  "$out"/check-*.cu "$out/bench-list.h"
cp "$root/test/GPU/harness/stencil_test_main.cu" "$out/"
# One compile here: the packed kernels build for sm_90.
nvcc "${nvccFlags[@]}" -c -o "$gen/probe.o" "$gen/${checks[0]}.cu"
cp "$root/bench/packed/run.sh" "$out/"
du -sh "$out"
