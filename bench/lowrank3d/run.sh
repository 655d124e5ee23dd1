#!/usr/bin/env bash
# On the GPU machine, in the folder bench/lowrank3d/gen.sh wrote: builds
# everything with nvcc for sm_90 on every core, then (1) the benchmark
# alone on the GPU (NAME_run of 100 steps at 512^3: the form one step a
# launch, fused 2 and 3 steps a pass, and the direct form), (2) the
# conformance programs of the fused form, (3) compute-sanitizer memcheck,
# racecheck and initcheck on small grids of one of them. Prints a compact
# summary; the logs go to logs/ and, as logs.tgz, into $OUT where that is
# set. Exit 1 on any failure.
# Usage: OUT=$OUT ./run.sh   (CHECK_SECONDS: the most a conformance program
# may take, default 240; SANITIZE_KIND: see (3); NVCC_FLAGS, default -std=c++17 -O3 -arch=sm_90;
# BUILD_ONLY=1 stops after the build)
set -uo pipefail
cd "$(dirname "$0")" || exit 1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
jobs=$(nproc)
seconds=${CHECK_SECONDS:-240}
mkdir -p obj bin logs
status=0
flags="${NVCC_FLAGS:--std=c++17 -O3 -arch=sm_90} -I include/runtime -I include/support"
libs="lib/libstencilc_testing.a lib/libstencilc_runtime.a"
echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"

# Build: every generated stencil an object; then the drivers, each linked
# with the objects of the stencils its list includes. What a former call
# built (BUILD_ONLY=1, the folder not carried again) is kept.
start=$SECONDS
objects=()
for unit in src/*.cu; do
  [[ $unit == src/check-* || $unit == src/bench.cu || $unit == *main.cu ]] || objects+=("$unit")
done
export flags libs
# shellcheck disable=SC2016 # the inner sh expands them
printf '%s\n' "${objects[@]}" | xargs -P "$jobs" -I{} sh -c \
  'o=obj/$(basename {} .cu).o; test -e $o || nvcc $flags -c {} -o $o 2>logs/build-$(basename {} .cu).log' ||
  { echo "[FAIL] build of the stencils"; tail -20 logs/build-*.log; exit 1; }
# shellcheck disable=SC2016
printf '%s\n' src/check-*.cu src/bench.cu | xargs -P "$jobs" -I{} sh -c '
  unit=$(basename {} .cu)
  objs=$(sed -n "s|^#include \"\(.*\)\.h\"$|obj/\1.o|p" {} | tr "\n" " ")
  test -e bin/$unit || nvcc $flags -o bin/$unit {} $objs $libs 2>logs/build-$unit.log' ||
  { echo "[FAIL] build of the drivers"; tail -20 logs/build-*.log; exit 1; }
echo "built in $((SECONDS - start)) s"
[[ -n ${BUILD_ONLY:-} ]] && exit 0

# (1) The benchmark: NAME_step and NAME_run of 100 steps at 512^3 (median
# of 5 after a warm-up, checked bit for bit against 100 NAME_step calls),
# the copy bandwidth measured at the start of the same run.
./bin/bench --no-naive >logs/bench.txt 2>&1 || status=1
grep -E "^(copy|device|timing)" logs/bench.txt
printf '%-15s %9s %9s %9s %9s %7s\n' "NAME_run" "off (T)" "form T 1" "T 2" "T 3" "best/off"
rate() { grep -E "^ +$1 " logs/bench.txt | sed -E 's/.*run of [0-9]+: +([0-9.]+).*/\1/'; }
for kind in box3d27p_fp64 box3d27p_fp32 heat27_fp64 box3d125p_fp64; do
  off=$(rate "${kind}_off")
  t=$(grep -E "^ +${kind}_off " logs/bench.txt | sed -E 's/.*\(T ([0-9]+),.*/\1/')
  best=$(printf '%s\n' "$(rate "${kind}_t1")" "$(rate "${kind}_t2")" "$(rate "${kind}_t3")" |
    sort -g | tail -1)
  printf '%-15s %9s %9s %9s %9s %7s\n' "$kind" "$off ($t)" "$(rate "${kind}_t1")" \
    "$(rate "${kind}_t2")" "$(rate "${kind}_t3")" \
    "$(awk -v a="$best" -v b="$off" 'BEGIN { if (b > 0) printf "%.2f", a / b }')"
done
grep -E "DIFFERS|FAIL" logs/bench.txt && status=1
echo "lowrank=auto takes:"; sed 's/^/  /' src/auto | cut -c1-160

# (2) Conformance of the fused form: the harness's sizes up to 2 million
# points (tiny, odd, 37 x 41 x 129; 512^3 is the benchmark's) at step
# counts 0, 1, T - 1, T, T + 1, 3T + 2 and 100, T from the plan; NAME_run
# bit for bit as many NAME_step calls, both against the float64 reference.
for exe in bin/check-*; do
  kind=${exe#bin/check-}
  t=$(sed -nE 's/^  run +([0-9]+) steps fused.*/\1/p' src/"${kind}"_fixed.plan)
  steps=$(printf '%s\n' 0 1 $((t - 1)) "$t" $((t + 1)) $((3 * t + 2)) 100 | sort -nu | paste -sd,)
  timeout "$seconds" "$exe" --steps "$steps" --max-points 2000000 \
    >"logs/$(basename "$exe").log" 2>&1 &
done
wait
for log in logs/check-*.log; do
  pass=$(grep -c '^\[PASS\]' "$log")
  fail=$(grep -c '^\[FAIL\]' "$log")
  echo "$(basename "$log" .log): $(tail -1 "$log" | cut -c1-60) ($pass passed, $fail failed)"
  grep -q "RESULT: PASS" "$log" || { status=1; grep "^\[FAIL\]" "$log" | head -5; }
done

# (3) compute-sanitizer on the smallest grids of one kind's fused form
# (SANITIZE_KIND, default the fp32 box; two boundaries; steps 1 to 5 take a
# pass of T 2, a remainder pass and both).
for tool in memcheck racecheck initcheck; do
  exe=check-${SANITIZE_KIND:-box3d27p_fp32}
  if timeout 200 compute-sanitizer --tool "$tool" --error-exitcode 3 "bin/$exe" \
    --max-points 25000 --steps 1,2,3,5 >"logs/$tool-$exe.log" 2>&1; then
    echo "[PASS] $tool $exe: $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "logs/$tool-$exe.log" | head -1)"
  else
    echo "[FAIL] $tool $exe"; tail -15 "logs/$tool-$exe.log"; status=1
  fi
done
[[ -n ${OUT:-} ]] && tar czf "$OUT/logs.tgz" logs
echo "status $status"
exit $status
