#!/usr/bin/env bash
# On the GPU machine, from the repository root: times every plan that
# bench/variants/gen.sh wrote into VARIANTS (default .gpu/variants,
# carried), one program each (bench/headers/header_bench.cu: NAME_step,
# and NAME_run of 100 steps at 8192^2 or 512^3), built in parallel and run
# one at a time, the copy bandwidth first. One line a variant, its label
# in the place of header_bench's tree. With LIBS (a folder holding the
# build's libstencilc_testing.a and libstencilc_runtime.a, carried), each
# variant's plan also goes through the GPU conformance harness
# (test/GPU/harness: NAME_step and NAME_run against the float64 reference
# at every contract size and step count), in parallel after the timing, at
# most CHECK_SECONDS (default 240) each (CHECK_ONLY: only the LABEL/NAME
# variants that grep -E pattern matches); SANITIZE names LABEL/NAME variants
# whose harness then runs under compute-sanitizer memcheck, racecheck and
# initcheck (SANITIZE_TOOLS, to name others) on grids up to 100000
# points. A build past BUILD_SECONDS (default 240) is stopped: that variant
# is not built. HB_N2D sets the side of the 2D grids (default 8192); HB_PASS=1
# also times NAME_pass of one step; ROUNDS=N times every variant N times,
# every other round in reverse order. A variant folder holding include/
# (another tree's runtime/include, for generated code of another commit) is
# built, and checked, against it instead of the working tree's headers.
# BUILD_ONLY=1 builds the programs (and, with LIBS, the checks) into WORK
# and stops, with no GPU needed: nvcc runs here, where device time is not
# spent on it (the same CUDA 13 as the GPU machine's); carry WORK there and
# run with PREBUILT=1, which runs what WORK holds and builds nothing (WORK
# inside the tree: a path that travels, e.g. .gpu/work). With PACK=FILE,
# BUILD_ONLY also strips the programs and packs WORK and VARIANTS into
# FILE (tar.xz, inside the tree): a device call carries only that (a
# dozen plans with their checks take about 80 MB unpacked, past the 64 MiB
# a call carries, and about 10 MB packed); PREBUILT with PACK=FILE unpacks
# it first.
# Exit 1 where a build, run or check fails.
# Usage: bench/variants/run.sh   (WORK, default /tmp/variants)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
variants=${VARIANTS:-$root/.gpu/variants}
work=${WORK:-/tmp/variants}
if [[ -n ${PREBUILT:-} && -n ${PACK:-} ]]; then
  tar -xJf "$PACK" -C "$root" || exit 1
fi
[[ -n ${PREBUILT:-} ]] || { rm -rf "$work" && mkdir -p "$work"; }
programs=()
while read -r label name _; do
  [[ -z $label || $label == \#* ]] && continue
  programs+=("$label/$name")
done <"$variants/list.txt"
# shellcheck source=bench/variants/programs.sh
source "$root/bench/variants/programs.sh"
# The conformance program of variant $1 (LABEL/NAME).
# shellcheck disable=SC2317
check() {
  local label=${1%%/*} name=${1##*/} include
  include=$(headers "$label")
  python3 "$root/test/GPU/harness/stencil_list.py" --main "$root/test/GPU/harness/stencil_test_main.cu" \
    "$variants/$1.h" >"$work/check-$label.$name.cu"
  compile "$work/check-$label.$name" -std=c++17 -O3 -arch=sm_90 -I "$include" \
    -I "$root/test/support/include" "$work/check-$label.$name.cu" "$variants/$1.cu" \
    "$LIBS/libstencilc_testing.a" "$LIBS/libstencilc_runtime.a"
}
export -f headers compile build check
export root variants work HB_N2D HB_PASS HB_NVCC_FLAGS BUILD_SECONDS
[[ -n ${PREBUILT:-} ]] || printf '%s\n' "${programs[@]}" | xargs -P "$(nproc)" -I{} bash -c 'build {}'
checked=("${programs[@]}")
[[ -n ${CHECK_ONLY:-} ]] && mapfile -t checked < <(printf '%s\n' "${programs[@]}" | grep -E "$CHECK_ONLY")
if [[ -n ${LIBS:-} && -z ${PREBUILT:-} ]]; then
  export LIBS
  printf '%s\n' "${checked[@]}" | xargs -P "$(nproc)" -I{} bash -c 'check {}'
fi
if [[ -n ${BUILD_ONLY:-} ]]; then
  for p in "${programs[@]}"; do
    exe=$work/${p%%/*}.${p##*/}
    [[ -x $exe ]] || { echo "$p: not built"; tail -3 "$exe.log"; }
  done
  echo "built in $work: $(find "$work" -maxdepth 1 -type f -perm -u+x | wc -l) programs"
  if [[ -n ${PACK:-} ]]; then
    find "$work" -maxdepth 1 -type f -perm -u+x -exec strip {} +
    tar -cJf "$PACK" -C "$root" "$(realpath --relative-to="$root" "$work")" \
      "$(realpath --relative-to="$root" "$variants")" || exit 1
    echo "packed into $PACK: $(du -h "$PACK" | cut -f1)"
  fi
  exit 0
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
first=1
# ROUNDS (default 1) times over the variants, every other round in reverse
# order, so that a variant listed after another is also timed before it.
for ((round = 1; round <= ${ROUNDS:-1}; ++round)); do
  order=("${programs[@]}")
  ((round % 2 == 0)) && mapfile -t order < <(printf '%s\n' "${programs[@]}" | tac)
  ((round > 1)) && echo "round $round"
  for p in "${order[@]}"; do
    exe=$work/${p%%/*}.${p##*/}
    [[ -x $exe ]] || { echo "$p: not built"; tail -3 "$exe.log"; status=1; continue; }
    HB_COPY=$first "$exe" || { echo "$p: failed"; status=1; }
    first=0
  done
done
# (PREBUILT: the checks WORK holds, as BUILD_ONLY with LIBS built them)
[[ -n ${LIBS:-} || (-n ${PREBUILT:-} && -n $(compgen -G "$work/check-*")) ]] || exit $status
for p in "${checked[@]}"; do
  exe=$work/check-${p%%/*}.${p##*/}
  [[ -x $exe ]] || { echo "check $p: not built"; tail -3 "$exe.log"; status=1; continue; }
  timeout "${CHECK_SECONDS:-240}" "$exe" >"$exe.out" 2>&1 &
done
wait
for p in "${checked[@]}"; do
  out=$work/check-${p%%/*}.${p##*/}.out
  [[ -f $out ]] || continue
  echo "check $p: $(tail -1 "$out") ($(grep -c '^\[PASS\]' "$out") cases passed," \
    "$(grep -c '^\[FAIL\]' "$out") failed)"
  grep -q "RESULT: PASS" "$out" || { status=1; grep "^\[FAIL\]" "$out" | head -5; }
done
for p in ${SANITIZE:-}; do
  exe=$work/check-${p%%/*}.${p##*/}
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck initcheck}; do
    if timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 3 "$exe" --max-points 100000 \
      >"$exe.$tool" 2>&1; then
      echo "sanitize $p $tool: $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$exe.$tool" | tail -1)"
    else
      echo "sanitize $p $tool: FAILED"; tail -8 "$exe.$tool"; status=1
    fi
  done
done
exit $status
