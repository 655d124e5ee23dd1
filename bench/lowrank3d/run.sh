#!/usr/bin/env bash
# On the GPU machine, in the folder bench/lowrank3d/gen.sh wrote: builds
# everything with nvcc for sm_90 on every core, then (1) the benchmark
# alone on the GPU, (2) the conformance programs, (3) compute-sanitizer
# memcheck, racecheck and initcheck on small grids of two of them. Prints a
# compact summary; the logs go to logs/ and, as logs.tgz, into $OUT where
# that is set. Exit 1 on any failure.
# Usage: OUT=$OUT ./run.sh   (CHECK_SECONDS: the most a conformance program
# may take, default 300; NVCC_FLAGS, default -std=c++17 -O3 -arch=sm_90;
# BUILD_ONLY=1 stops after the build)
set -uo pipefail
cd "$(dirname "$0")" || exit 1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
jobs=$(nproc)
seconds=${CHECK_SECONDS:-300}
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

# (1) The benchmark: NAME_step at 512^3 (and NAME_run of 100 steps), each
# pair side by side, the copy bandwidth measured at the start of the run.
./bin/bench --no-naive >logs/bench.txt 2>&1 || status=1
grep -E "copy|device" logs/bench.txt | head -3
printf '%-16s %10s %10s %7s   %s\n' stencil "lr run" "off run" "lr/off" "step GStencil/s lr, off (T of off)"
for base in box3d27p lap27 box3d125p; do
  for prec in fp64 fp32; do
    lr=$(grep -E "^ +${base}_${prec}_lr " logs/bench.txt)
    off=$(grep -E "^ +${base}_${prec}_off " logs/bench.txt)
    run() { sed -E 's/.*run of [0-9]+: +([0-9.]+).*/\1/' <<<"$1"; }
    step() { awk '{print $4}' <<<"$1"; }
    t=$(sed -E 's/.*\(T ([0-9]+),.*/\1/' <<<"$off")
    printf '%-16s %10s %10s %7s   %s, %s (T %s)\n' "${base}_$prec" "$(run "$lr")" "$(run "$off")" \
      "$(awk -v a="$(run "$lr")" -v b="$(run "$off")" 'BEGIN { if (b > 0) printf "%.2f", a / b }')" \
      "$(step "$lr")" "$(step "$off")" "$t"
  done
done
grep -E "DIFFERS|FAIL" logs/bench.txt && status=1
echo "lowrank=auto takes:"; sed 's/^/  /' src/auto | cut -c1-160

# (2) Conformance: the harness's sizes up to 2 million points (tiny, odd,
# 37 x 41 x 129; 512^3 is the benchmark's, whose NAME_run is checked against
# NAME_step there) at step counts 0, 1, 2, 5 and 100 (the form's T is 1: the
# harness alone would not run 100).
for exe in bin/check-*; do
  timeout "$seconds" "$exe" --steps 0,1,2,5,100 --max-points 2000000 \
    >"logs/$(basename "$exe").log" 2>&1 &
done
wait
for log in logs/check-*.log; do
  pass=$(grep -c '^\[PASS\]' "$log")
  fail=$(grep -c '^\[FAIL\]' "$log")
  echo "$(basename "$log" .log): $(tail -1 "$log" | cut -c1-60) ($pass passed, $fail failed)"
  grep -q "RESULT: PASS" "$log" || { status=1; grep "^\[FAIL\]" "$log" | head -5; }
done
grep -h "run 100 " logs/check-*.log | head -4

# (3) compute-sanitizer on the smallest grids: the fp32 box (a cp.async ring
# of 4 planes) and the fp64 Laplacian (planes through registers).
for exe in check-box3d27p_fp32 check-lap27_fp64; do
  for tool in memcheck racecheck initcheck; do
    if timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 3 "bin/$exe" \
      --max-points 25000 --steps 1,2 >"logs/$tool-$exe.log" 2>&1; then
      echo "[PASS] $tool $exe: $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "logs/$tool-$exe.log" | head -1)"
    else
      echo "[FAIL] $tool $exe"; tail -15 "logs/$tool-$exe.log"; status=1
    fi
  done
done
[[ -n ${OUT:-} ]] && tar czf "$OUT/logs.tgz" logs
echo "status $status"
exit $status
