#!/usr/bin/env bash
# Builds fused3d.cuh's GPU test program alone (no LLVM needed) on a GPU
# machine and runs, in this order: its exactness checks, its benchmark
# (--bench), and optionally compute-sanitizer memcheck and racecheck on the
# checks at small grids, and ncu on one pass. Logs go to OUT (default
# build-gpu/out); a short table is printed last.
#
# Usage: scripts/gpu-fused3d.sh [--no-tests] [--no-bench] [--sanitize] [--ncu CASE]...
#   --ncu CASE     ncu (SpeedOfLight, MemoryWorkloadAnalysis, clocks left
#                  alone) on one pass of the benchmark case whose label
#                  contains CASE (e.g. "star3d7p fp32 T=4 64x32"); repeatable
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${BUILD:-build-gpu}
out=${OUT:-$build/out}
tests=1 bench=1 sanitize=0 ncu=()
while (($#)); do
  case $1 in
  --no-tests) tests=0 ;;
  --no-bench) bench=0 ;;
  --sanitize) sanitize=1 ;;
  --ncu) ncu+=("$2"); shift ;;
  *) echo "usage: $0 [--no-tests] [--no-bench] [--sanitize] [--ncu CASE]..." >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
status=0
echo "== $(date -u +%FT%TZ) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTENCILC_BUILD_COMPILER=OFF -DSTENCILC_BUILD_GPU_TESTS=ON \
  -DSTENCILC_CUDA_ARCHITECTURES=90 >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
start=$SECONDS
if ! cmake --build "$build" --target gpu-test-device-fused3d -j "$(nproc)" >"$out/build.log" 2>&1; then
  grep -E "error" -A3 "$out/build.log" | head -60
  exit 1
fi
echo "== build took $((SECONDS - start))s"
program=$(find "$build" -name gpu-test-device-fused3d -type f | head -1)
if ((tests)); then
  "$program" >"$out/fused3d-tests.log" 2>&1 || status=1
  grep -E "first mismatch|FAIL" "$out/fused3d-tests.log" | head -20
  echo "== tests: $(tail -1 "$out/fused3d-tests.log")"
fi
if ((bench)); then
  "$program" --bench >"$out/fused3d-bench.log" 2>&1 || status=1
fi
if ((sanitize)); then
  for tool in memcheck racecheck; do
    timeout 100 compute-sanitizer --tool "$tool" --error-exitcode 3 "$program" --max-points 7000 \
      --max-steps 20 \
      >"$out/sanitize-$tool.log" 2>&1 || status=1
    echo "== compute-sanitizer $tool: $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitize-$tool.log" | tail -1) / $(tail -1 "$out/sanitize-$tool.log")"
  done
fi
for case in "${ncu[@]}"; do
  STENCILC_BENCH_ONLY=$case timeout 90 ncu --clock-control none --section SpeedOfLight \
    --section MemoryWorkloadAnalysis --kernel-name regex:passKernel --launch-skip 20 \
    --launch-count 1 "$program" --bench >>"$out/ncu.log" 2>&1
  echo "== ncu: $case"
  grep -E "^ +[A-Z].*(Throughput|Duration|Busy|Hit Rate|Bandwidth|Elapsed Cycles|SM Frequency)" \
    "$out/ncu.log" | tail -14
done
if ((bench)); then
  grep -E "^copy|^bench|FAIL" "$out/fused3d-bench.log" |
    sed -E 's/T x copy roofline/roof/; s/ +/ /g'
fi
exit $status
