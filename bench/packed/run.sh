#!/usr/bin/env bash
# On the GPU machine, in the folder bench/packed/gen.sh wrote (carried
# there): builds the programs (nvcc -arch=sm_90, JOBS in parallel, default
# 16), runs the benchmark and error measurement first (nothing else on the
# GPU), then the conformance programs of the packed form in parallel (each
# a log, at most CHECK_SECONDS each, against its packed bound), then
# compute-sanitizer memcheck on one small case, and counts the HFMA2
# instructions of two kernels (cuobjdump). Prints a summary; the logs go to
# LOGS (default logs), and as logs.tgz into $OUT where that is set. Exit 1
# on any failure. Usage: OUT=$OUT ./run.sh   (BUILD_ONLY=1 stops after the
# build; what a former call built is kept, not built again)
set -uo pipefail
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
logs=${LOGS:-logs}
seconds=${CHECK_SECONDS:-120}
jobs=${JOBS:-16}
mkdir -p "$logs"
status=0
echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
flags="-std=c++17 -O3 -arch=sm_90 -I include"
libs="lib/libstencilc_testing.a lib/libstencilc_runtime.a"
export flags libs
start=$SECONDS
{
  while read -r name; do
    echo "test -e check-$name || nvcc $flags -o check-$name check-$name.cu $name.cu $libs"
  done <checks.txt
  for f in *_widened.cu *_fp32.cu; do echo "test -e ${f%.cu}.o || nvcc $flags -c -o ${f%.cu}.o $f"; done
  for f in $(grep -o '[a-z0-9_]*_packed\b' bench-list.h | sort -u); do
    [[ $f == *_periodic ]] || echo "test -e $f.o || nvcc $flags -c -o $f.o $f.cu"
  done
} | xargs -P "$jobs" -I{} bash -c '{} >>'"$logs"'/build.log 2>&1 || echo "build failed: {}"'
packed=$(grep -o '[a-z0-9_]*_packed\b' bench-list.h | sort -u | sed 's/$/.o/')
test -e packed-bench || nvcc $flags -I . -include bench-list.h -o packed-bench packed_bench.cu $packed \
  *_widened.o *_fp32.o $libs >>"$logs/build.log" 2>&1 || { echo "build failed: packed-bench"; status=1; }
echo "built in $((SECONDS - start)) s"
[[ -n ${BUILD_ONLY:-} ]] && exit $status
./packed-bench 2>&1 | tee "$logs/bench.txt" || status=1
while read -r name; do
  timeout "$seconds" ./"check-$name" --tolerance "$(cat "tolerance-$name")" >"$logs/check-$name.log" 2>&1 &
done <checks.txt
wait
while read -r name; do
  log=$logs/check-$name.log
  echo "check-$name (step bound $(cat "tolerance-$name")): $(tail -1 "$log") ($(grep -c '^\[PASS\]' "$log") passed, $(grep -c '^\[FAIL\]' "$log") failed)"
  grep -q "RESULT: PASS" "$log" || { status=1; grep "^\[FAIL\]" "$log" | head -6; }
done <checks.txt
grep -h "run 100 " "$logs"/check-*.log | head -8
exe=check-star2d5p_fp16_packed
if timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 ./"$exe" --max-points 20000 \
  --tolerance "$(cat tolerance-star2d5p_fp16_packed)" >"$logs/memcheck.log" 2>&1; then
  echo "[PASS] memcheck $exe: $(grep -E "ERROR SUMMARY" "$logs/memcheck.log")"
else
  echo "[FAIL] memcheck $exe"; tail -15 "$logs/memcheck.log"; status=1
fi
for name in star2d5p_fp16_packed box2d9p_bf16_packed; do
  echo "SASS of $name: $(cuobjdump -sass check-$name 2>/dev/null | grep -c HFMA2) HFMA2," \
    "$(cuobjdump -sass check-$name 2>/dev/null | grep -cE '\bFFMA\b') FFMA"
done
echo "total $((SECONDS - start)) s"
[[ -n ${OUT:-} ]] && tar czf "$OUT/logs.tgz" "$logs"
exit $status
