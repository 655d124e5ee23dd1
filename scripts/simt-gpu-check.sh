#!/usr/bin/env bash
# The simt backend's GPU check (issue 4), in one command on the GPU machine:
# builds the runtime, the GPU test harness and the pre-generated sources of
# GEN (made where stencilc builds, carried along; see the bottom of this
# comment), runs every generated GPU conformance test, benchmarks the
# generated benchmark programs (bench/*.simt, bench/*.tensor), and runs
# compute-sanitizer memcheck and racecheck on a 1D and a 3D stencil.
# Writes logs and bench.csv under OUT; prints a short summary last.
#
#   GEN=build-gen-simt OUT=... [BENCH_ONLY=1] [SANITIZE=0] scripts/simt-gpu-check.sh
#
# GEN layout (scripts/gen-gpu-sources.sh's): test/NAME.{cu,h,list.h},
# bench/NAME.BACKEND.{cu,h,list.h}, manifest.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
gen=${GEN:-build-gen-simt}
out=${OUT:-build-gpu-simt/out}
build=build-gpu-simt
mkdir -p "$out"
# The list headers name their generated header by absolute path: rewrite
# them for this checkout's location.
while read -r base; do
  python3 test/GPU/harness/stencil_list.py "$gen/$base.h" >"$gen/$base.list.h"
done <"$gen/manifest.txt"
echo "== $(date -u +%FT%TZ) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTENCILC_BUILD_COMPILER=OFF \
  -DSTENCILC_CUDA_ARCHITECTURES=90 -DSTENCILC_GENERATED_DIR="$root/$gen" >"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
cmake --build $build -j "$(nproc)" -- -k 0 >>"$out/build.log" 2>&1 || echo "build: some targets failed"
grep -E "error|warning" "$out/build.log" | sort -u | head -20

if [[ ${BENCH_ONLY:-0} == 0 ]]; then
echo "== GPU conformance tests (generated)"
find $build/gpu-tests -maxdepth 1 -type f -executable -name "gpu-test-gen-*" | xargs -P 4 -I{} sh -c \
  'timeout 200 {} > {}.log 2>&1; echo "rc=$? $(basename {})"' | sort
for f in $build/gpu-tests/gpu-test-gen-*.log; do
  echo "### $f"; cat "$f"; done >"$out/tests.log"
grep -E "\[FAIL\]|RESULT" "$out/tests.log" | sort | uniq -c | head -40

fi

echo "== benchmark"
for exe in $build/bench/stencilc-bench-gen-*; do
  [[ -x $exe ]] || continue
  echo "== $(basename "$exe")" >>"$out/bench.log"
  timeout 200 "$exe" --runs 20 --warmup 3 --csv "$out/bench.csv" >>"$out/bench.log" 2>&1 ||
    echo "bench: $exe exited $?"
done
grep -E "^== |^copy|GStencil" "$out/bench.log"

[[ ${BENCH_ONLY:-0} == 0 && ${SANITIZE:-1} == 1 ]] || exit 0
echo "== compute-sanitizer"
for t in simt_heat1d_fp32_fixed simt_star3d7p_fp32_fixed; do
  exe=$(ls $build/gpu-tests/gpu-test-gen-test_* | grep -i "${t#simt_}" | grep -v '\.log' | head -1)
  for tool in memcheck racecheck; do
    if timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 "$exe" --max-points 200000 \
      >"$out/sanitize-$tool-$t.log" 2>&1; then echo "[PASS] $tool $t"; else
      echo "[FAIL] $tool $t rc=$?"; tail -5 "$out/sanitize-$tool-$t.log"; fi
  done
done
cat "$out"/sanitize-*.log >"$out/sanitize.log"; rm -f "$out"/sanitize-*.log
