#!/usr/bin/env bash
# Everything the GPU machine checks, in one command, from the repository
# root: configure without the compiler (no LLVM there), build the runtime,
# the GPU test harness, the stand-ins and every pre-generated stencil in
# build-gen/ (scripts/gen-gpu-sources.sh, run where stencilc builds; carry
# the folder), run all GPU tests, optionally compute-sanitizer, then the
# benchmark; print a short table last.
#
# Usage: scripts/gpu-check.sh [--no-tests] [--no-bench] [--sanitize TEXT] [--bench-only TEXT]
#                             [--no-naive] [--bench-shard I/N]
#   A full check may not fit one 10-minute device call: run it as two calls
#   while the machine stays warm (the build folder is kept between them):
#   `--no-bench`, then `--no-tests` (which rebuilds nothing).
#   --sanitize TEXT   compute-sanitizer memcheck and racecheck on the GPU test
#                     programs whose name contains TEXT, grids up to 100000 points
#   --bench-only TEXT benchmark only the stencils whose name contains TEXT
#   --no-naive        skip the one-point-per-thread baseline (for --tune sweeps)
#   --bench-shard I/N benchmark only the stencils k with k % N == I of each
#                     program: the suite as N calls when one does not fit 10
#                     minutes (each measures the copy roofline again;
#                     bench/summarize.py takes each CSV with --bench, and
#                     bench/plot.py takes them all, into one table and plot)
#   BUILD (default build-gpu), GEN (default build-gen), OUT (default BUILD/out),
#   GPU_TEST_JOBS (default 4: test programs run at once)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${BUILD:-build-gpu}
gen=${GEN:-build-gen}
out=${OUT:-$build/out}
jobs=${GPU_TEST_JOBS:-4}
bench=1
tests=1
sanitize=
bench_args=()
while (($#)); do
  case $1 in
  --no-bench) bench=0 ;;
  --no-tests) tests=0 ;;
  --sanitize) sanitize=$2; shift ;;
  --bench-only) bench_args+=(--only "$2"); shift ;;
  --no-naive) bench_args+=(--no-naive) ;;
  --bench-shard) bench_args+=(--shard "$2"); shift ;;
  *) echo "usage: $0 [--no-tests] [--no-bench] [--sanitize TEXT] [--bench-only TEXT] [--no-naive] [--bench-shard I/N]" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
status=0

echo "== $(date -u +%FT%TZ) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
arch=${cap:-90}

echo "== configure (compiler off, sm_$arch, generated sources from $gen)"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTENCILC_BUILD_COMPILER=OFF -DSTENCILC_BUILD_GPU_TESTS=ON \
  -DSTENCILC_CUDA_ARCHITECTURES="$arch" -DSTENCILC_GENERATED_DIR="$root/$gen" >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
grep -E "GPU tests|runtime" "$build.configure.log"

echo "== build (configure took ${SECONDS}s)"
phase=$SECONDS
# -k 0: a program that fails to build does not stop the others being built.
if ! cmake --build "$build" -j "$(nproc)" -- -k 0 >"$build.build.log" 2>&1; then
  grep -E "error|FAILED" -A3 "$build.build.log" | head -60
  status=1
fi
if grep -q "warning" "$build.build.log"; then
  echo "build warnings:"
  grep "warning" "$build.build.log" | sort -u | head -20
fi

echo "== build took $((SECONDS - phase))s"
phase=$SECONDS
if ((tests)); then
  echo "== GPU tests"
  # The broken stand-ins (label "broken") check the harness itself: each must
  # make it fail for its own reason; their FAIL lines are expected, so they
  # run apart, first (they are short).
  ctest --test-dir "$build" -L broken -j "$jobs" >"$out/harness-self-test.log" 2>&1 || status=1
  echo "harness self-test (broken stand-ins caught):" \
    "$(grep -E "tests passed" "$out/harness-self-test.log" || echo "did not run")"
  # -V keeps every case line (the summary reads them), each prefixed "N: ",
  # so they may interleave: the programs check, they time nothing, and
  # several share the GPU (one at a time took over 8 minutes on an H100).
  ctest --test-dir "$build" -LE broken -V -j "$jobs" >"$out/gpu-tests.log" 2>&1 || status=1
  grep -E "^[0-9]+: \[FAIL\]" "$out/gpu-tests.log" | head -40
  grep -E "Test +#[0-9]+:" "$out/gpu-tests.log"
  grep -E "tests passed" "$out/gpu-tests.log"
fi

if [[ -n $sanitize ]]; then
  echo "== compute-sanitizer (memcheck, racecheck; grids up to 100000 points) on *$sanitize*"
  for exe in "$build"/gpu-tests/gpu-test-*"$sanitize"*; do
    [[ -f $exe && -x $exe ]] || continue
    for tool in memcheck racecheck; do
      if compute-sanitizer --tool "$tool" --error-exitcode 3 "$exe" --max-points 100000 \
        >"$build/sanitize-$tool-$(basename "$exe").log" 2>&1; then
        echo "[PASS] $tool $(basename "$exe")"
      else
        echo "[FAIL] $tool $(basename "$exe")"
        tail -20 "$build/sanitize-$tool-$(basename "$exe").log"
        status=1
      fi
    done
  done
fi

if ((bench)); then
  echo "== benchmark (tests and sanitizer took $((SECONDS - phase))s)"
  phase=$SECONDS
  OUT=$out scripts/bench.sh "$build" -- "${bench_args[@]}" >"$build.bench-run.log" 2>&1 || status=1
  grep -E "^copy|FAIL|exited" "$build.bench-run.log"
fi

echo "== summary (${SECONDS}s in all)"
summary=()
((tests)) && summary+=(--tests "$out/gpu-tests.log")
((bench)) && summary+=(--bench "$out/bench.csv")
python3 bench/summarize.py "${summary[@]}"
echo "== $( ((status)) && echo FAIL || echo PASS ) (logs in $out)"
exit $status
