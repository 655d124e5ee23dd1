#!/usr/bin/env bash
# On the GPU machine, in the folder bench/lowrank/gen.sh wrote (carried
# there): the benchmark first (nothing else on the GPU), then the
# conformance programs of the low-rank form in parallel (each a log, at
# most CHECK_SECONDS each), then compute-sanitizer memcheck on two of them
# (grids up to 100000 points). Prints a summary; the logs go to LOGS
# (default logs), and as logs.tgz into $OUT where that is set. Exit 1 on
# any failure.
# Usage: run.sh [--no-bench]
set -uo pipefail
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
logs=${LOGS:-logs}
seconds=${CHECK_SECONDS:-170}
mkdir -p "$logs"
status=0
echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
if [[ ${1:-} != --no-bench ]]; then
  ./lowrank-bench 2>&1 | tee "$logs/bench.txt" || status=1
fi
for exe in check-*; do
  timeout "$seconds" ./"$exe" >"$logs/$exe.log" 2>&1 &
done
wait
for exe in check-*; do
  echo "$exe: $(tail -1 "$logs/$exe.log") ($(grep -c '^\[PASS\]' "$logs/$exe.log") cases passed," \
    "$(grep -c '^\[FAIL\]' "$logs/$exe.log") failed)"
  grep -q "RESULT: PASS" "$logs/$exe.log" || { status=1; grep "^\[FAIL\]" "$logs/$exe.log" | head -8; }
done
grep -h "run 100 " "$logs"/check-*.log | head -12
for exe in check-blur7x7_fp64 check-box2d9p_bf16_periodic; do
  if timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 ./"$exe" --max-points 100000 \
    >"$logs/memcheck-$exe.log" 2>&1; then
    echo "[PASS] memcheck $exe: $(grep -E "ERROR SUMMARY" "$logs/memcheck-$exe.log")"
  else
    echo "[FAIL] memcheck $exe"; tail -15 "$logs/memcheck-$exe.log"; status=1
  fi
done
[[ -n ${OUT:-} ]] && tar czf "$OUT/logs.tgz" "$logs"
exit $status
