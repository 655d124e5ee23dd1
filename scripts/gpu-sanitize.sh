#!/usr/bin/env bash
# compute-sanitizer over the generated kernels (issue 8), in one command on
# the GPU machine, from the repository root: configure without the compiler
# (no LLVM there), build the suite's benchmark programs
# (stencilc-bench-gen-tensor and -simt: every examples/suite stencil with
# each backend forced) and the GPU test programs from the pre-generated
# sources in GEN (scripts/gen-gpu-sources.sh, run where stencilc builds;
# carry the folder), then run memcheck, racecheck, initcheck and synccheck:
#
#  - suite: each benchmark program with --check (bench/stencil_bench_main.cu):
#    per stencil the argument checks, then at an odd size, at a size under
#    one tile and (3D, fused) at a size that reaches the fused pass's
#    interior (runtime's sanitizerSizes) one NAME_step into a poisoned
#    output and NAME_run of 1, 2 and T + 1 steps, each against the float64
#    reference. One process per tool and shard of --shard-size stencils, run
#    --jobs at a time; a plain run (tool "none") of each shard as well.
#  - tests: each test/GPU program (fixed, constant and periodic boundaries)
#    at its conformance sizes of at most --test-max-points points.
#
# Outputs are poisoned (every byte written) before a kernel runs, so
# initcheck sees only reads of memory nothing wrote. memcheck pads every
# allocation (--padding) so that a read just past one buffer does not land
# in the next. Prints a table (tool x program: processes, cases, failed
# cases, sanitizer errors) and the first lines of every report; writes
# OUT/summary.txt, OUT/jobs.tsv (a line per process) and OUT/logs.tgz.
# Exit status 1 on any sanitizer error, failed case, or process that did not
# finish.
#
# Usage: scripts/gpu-sanitize.sh [--dry-run] [--no-build] [--no-tests]
#          [--tools "memcheck racecheck initcheck synccheck"] [--jobs N]
#          [--shard-size N] [--test-max-points N] [--limit SECONDS] [--check-run]
#   --dry-run   print the processes it would run; build and run nothing
#   --check-run the suite processes run the benchmark programs' --check-run
#               instead of --check: NAME_run at the conformance sizes up to 2
#               million points and the step counts around the fused depth;
#               and the suite at its other boundaries (stencilc-bench-gen-bounds)
#               the same way.
#               With --tools "" --no-tests: that conformance alone, plain runs
#   --limit S   start no process after S seconds from the script's start, and
#               stop those running then (default 540: one 10-minute call)
#   BUILD (default build-san), GEN (default build-gen), OUT (default BUILD/sanitize),
#   COMPUTE_SANITIZER (default: compute-sanitizer on PATH, else in /usr/local/cuda)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
build=${BUILD:-build-san}
gen=${GEN:-build-gen}
out=${OUT:-$build/sanitize}
tools="memcheck racecheck initcheck synccheck"
jobs=$(nproc)
shard_size=6
test_max_points=40000
limit=540
dry=0
do_build=1
do_tests=1
suite_check=--check
usage="usage: $0 [--dry-run] [--no-build] [--no-tests] [--tools LIST] [--jobs N]
       [--shard-size N] [--test-max-points N] [--limit SECONDS] [--check-run]"
while (($#)); do
  case $1 in
  --dry-run) dry=1 ;;
  --no-build) do_build=0 ;;
  --no-tests) do_tests=0 ;;
  --check-run) suite_check=--check-run ;;
  --tools) tools=$2; shift ;;
  --jobs) jobs=$2; shift ;;
  --shard-size) shard_size=$2; shift ;;
  --test-max-points) test_max_points=$2; shift ;;
  --limit) limit=$2; shift ;;
  *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
logs=$out/logs
rm -rf "$logs"
mkdir -p "$logs"
exec > >(tee "$out/summary.txt") 2>&1

sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
echo "== $(date -u +%FT%TZ) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
sanitizer_help=
if [[ -x $sanitizer ]]; then
  echo "== $("$sanitizer" --version | grep -i version | tail -1) ($sanitizer)"
  sanitizer_help=$("$sanitizer" --help 2>&1)
elif ((!dry)); then
  echo "gpu-sanitize: no compute-sanitizer at $sanitizer (set COMPUTE_SANITIZER=)" >&2
  exit 2
fi
# An option this compute-sanitizer has: "OPTION VALUE", else nothing.
optional() { grep -q -- "$1" <<<"$sanitizer_help" && echo "$1 $2"; }
# --check-exit-code no: a failed case (exit status 1) is no sanitizer error.
common="--error-exitcode 3 $(optional --check-exit-code no)"
padding=$(optional --padding 65536)
if [[ ! -f $gen/manifest.txt ]]; then
  echo "gpu-sanitize: no $gen/manifest.txt (run scripts/gen-gpu-sources.sh; set GEN=)" >&2
  exit 2
fi
[[ -f $gen/stencilc-used.txt ]] && echo "== sources: $gen, $(cat "$gen/stencilc-used.txt")"

# --- build -------------------------------------------------------------------
if ((do_build && !dry)); then
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
  echo "== configure (compiler off, sm_${cap:-90}, -lineinfo, generated sources from $gen)"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTENCILC_BUILD_COMPILER=OFF -DSTENCILC_BUILD_GPU_TESTS=ON \
    -DSTENCILC_CUDA_ARCHITECTURES="${cap:-90}" -DCMAKE_CUDA_FLAGS=-lineinfo \
    -DSTENCILC_GENERATED_DIR="$root/$gen" >"$logs/configure.log" 2>&1 ||
    { cat "$logs/configure.log"; exit 1; }
  targets=(stencilc-bench-gen-tensor stencilc-bench-gen-simt)
  [[ $suite_check == --check-run ]] && grep -q '\.bounds$' "$gen/manifest.txt" &&
    targets+=(stencilc-bench-gen-bounds)
  if ((do_tests)); then
    mapfile -t -O ${#targets[@]} targets < <(sed -n \
      's/^# Link build statements for EXECUTABLE target \(gpu-test-gen-[^ ]*\)$/\1/p' "$build/build.ninja")
  fi
  echo "== build ${#targets[@]} programs"
  phase=$SECONDS
  if ! cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >"$logs/build.log" 2>&1; then
    grep -E "error|FAILED" -A3 "$logs/build.log" | head -60
    exit 1
  fi
  grep -q "warning" "$logs/build.log" && grep "warning" "$logs/build.log" | sort -u | head -20
  echo "== build took $((SECONDS - phase))s"
fi

# --- the processes -----------------------------------------------------------
# One line each: TOOL GROUP SHARD PROGRAM ARGS...  (GROUP: tensor, simt,
# bounds, test). The suite at its other boundaries (bounds) runs with
# --check-run only: it is NAME_run's conformance at every boundary.
groups="simt tensor"
[[ $suite_check == --check-run ]] && groups+=" bounds"
plan=()
for tool in $tools none; do
  for backend in $groups; do
    count=$(grep -c "^bench/.*\.$backend\$" "$gen/manifest.txt")
    ((count)) || continue
    shards=$(((count + shard_size - 1) / shard_size))
    for ((i = 0; i < shards; i++)); do
      plan+=("$tool $backend $i/$shards $build/bench/stencilc-bench-gen-$backend $suite_check --shard $i/$shards")
    done
  done
done
if ((do_tests)); then
  for tool in $tools; do
    for exe in "$build"/gpu-tests/gpu-test-gen-*; do
      [[ -x $exe ]] || continue
      name=${exe##*/gpu-test-gen-test_}
      plan+=("$tool test $name $exe --max-points $test_max_points")
    done
  done
fi

sanitizer_args() { # tool
  case $1 in
  none) ;;
  memcheck) echo "$sanitizer --tool memcheck $padding $common" ;;
  *) echo "$sanitizer --tool $1 $common" ;;
  esac
}

# run_one N TOOL GROUP SHARD PROGRAM ARGS...: runs one process, writes its
# log and a result line: tool group shard rc cases failed errors warnings seconds
run_one() {
  local n=$1 tool=$2 group=$3 shard=$4
  shift 4
  local log=$logs/$group.$tool.${shard//\//of}.log start=$SECONDS rc left
  left=$((limit - SECONDS))
  # shellcheck disable=SC2046 # the sanitizer's command line is words
  timeout --kill-after=10 "$left" $(sanitizer_args "$tool") "$@" >"$log" 2>&1
  rc=$?
  local cases failed errors warnings
  cases=$(grep -cE '^\[(PASS|FAIL)\]' "$log")
  failed=$(grep -cE '^\[FAIL\]' "$log")
  # memcheck, initcheck, synccheck: "ERROR SUMMARY: N errors";
  # racecheck: "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
  errors=$(sed -nE 's/.*(ERROR SUMMARY: |\()([0-9]+) errors?.*/\2/p' "$log" | tail -1)
  warnings=$(sed -nE 's/.*, ([0-9]+) warnings?\).*/\1/p' "$log" | tail -1)
  [[ $tool == none ]] && errors=0
  echo "$tool $group $shard $rc $cases $failed ${errors:--} ${warnings:-0} $((SECONDS - start))" >"$logs/$n.result"
}

what="tools none (plain run) $tools; suite shards of $shard_size stencils"
((do_tests)) && what+="; test programs up to $test_max_points points"
echo "== ${#plan[@]} processes, $jobs at a time: $what"
if ((dry)); then
  for p in "${plan[@]}"; do
    read -r tool group shard cmd <<<"$p"
    echo "$tool $group $shard: $(sanitizer_args "$tool") $cmd"
  done
  exit 0
fi
phase=$SECONDS
n=0
skipped=0
for p in "${plan[@]}"; do
  n=$((n + 1))
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
  if ((SECONDS > limit - 30)); then
    skipped=$((skipped + 1))
    read -r tool group shard _ <<<"$p"
    echo "$tool $group $shard not-run 0 0 - 0 0" >"$logs/$n.result"
    continue
  fi
  # shellcheck disable=SC2086 # the plan line is words
  run_one "$n" $p &
done
# Job by job: a plain `wait` would also wait for the output's tee.
while (($(jobs -rp | wc -l))); do wait -n; done
echo "== the processes took $((SECONDS - phase))s$( ((skipped)) && echo ", $skipped not started (--limit)")"

# --- results -----------------------------------------------------------------
{
  echo "# tool group shard rc cases failed errors warnings seconds"
  sort -n -t. -k1 <(for f in "$logs"/*.result; do echo "${f##*/} $(cat "$f")"; done) | cut -d' ' -f2-
} >"$out/jobs.tsv"
echo
echo "tool       program  processes  cases  failed  errors  warnings  not-ok  longest"
awk '!/^#/ {
  k = $1 " " $2; if (!(k in procs)) order[++nk] = k
  procs[k]++; cases[k] += $5; failed[k] += $6; warn[k] += $8
  if ($7 != "-") errors[k] += $7; else if ($1 != "none") unknown[k]++
  if ($4 != 0 && !($4 == 3 && $7 > 0) && !($4 == 1 && $6 > 0)) bad[k]++
  if ($9 > longest[k]) longest[k] = $9
}
END {
  for (i = 1; i <= nk; i++) {
    k = order[i]; split(k, t, " ")
    printf "%-10s %-8s %9d %6d %7d %7s %9d %7d %7ds\n", t[1], t[2], procs[k], cases[k], failed[k],
      (t[1] == "none" ? "-" : errors[k] + 0) (unknown[k] ? "?" : ""), warn[k], bad[k], longest[k]
  }
}' "$out/jobs.tsv"
echo "(cases: the harness's [PASS]/[FAIL] lines, each checked against the float64 reference;"
echo " errors: compute-sanitizer's ERROR / RACECHECK SUMMARY; ? where a process printed none;"
echo " not-ok: processes that crashed, timed out or were not started)"

status=0
while read -r tool group shard rc cases failed errors warnings _; do
  [[ $tool == "#" ]] && continue
  if [[ $rc == 0 && $failed == 0 && ($errors == 0 || $tool == none) && $warnings == 0 ]]; then
    continue
  fi
  status=1
  log=$logs/$group.$tool.${shard//\//of}.log
  echo
  echo "== $tool $group $shard: exit $rc, $failed failed cases, $errors errors, $warnings warnings ($log)"
  [[ -f $log ]] || continue
  grep -E '^\[FAIL\]' "$log" | head -10
  grep -E '^=========' "$log" | grep -vE '^========= *$' | head -40
  [[ $rc == 0 || $rc == 1 || $rc == 3 ]] || tail -15 "$log"
done <"$out/jobs.tsv"

tar -czf "$out/logs.tgz" -C "$out" logs
echo
echo "== $( ((status)) && echo FAIL || echo PASS ) in ${SECONDS}s (logs in $out/logs.tgz)"
exit $status
