#!/usr/bin/env bash
# On the GPU machine, from the repository root: generated suite stencils
# built against the working tree's runtime headers ("tree") and against
# another copy of them ("other", OTHER: a folder laid out as
# runtime/include, e.g. an older commit's, carried), side by side:
# NAME_step and NAME_run of each (header_bench.cu), and whether both trees
# give the same results bit for bit. One program per stencil and tree,
# compiled in parallel, run one at a time; the copy bandwidth first. With
# CHECKS (names of GEN's bench files, e.g. "star3d7p_fp64_clamp.bounds")
# and LIBS (a folder holding libstencilc_testing.a and
# libstencilc_runtime.a, built where CMake is and carried), it first runs
# the GPU conformance harness (test/GPU/harness) on each of those against
# the working tree's headers, in parallel, at most CHECK_SECONDS (default
# 240) each: NAME_step and NAME_run against the float64 reference at every
# contract size and step count (CHECK_ARGS: the harness's options, e.g.
# "--max-points 2000000").
# Usage: bench/headers/run.sh NAME...   GEN (default build-gen: the
# sources of scripts/gen-gpu-sources.sh, carried), OTHER (required),
# WORK (default /tmp/headers)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gen=${GEN:-$root/build-gen}
other=${OTHER:?set OTHER to the other header tree}
work=${WORK:-/tmp/headers}
(($#)) || { echo "usage: $0 NAME..." >&2; exit 2; }
rm -rf "$work" && mkdir -p "$work"
# The runtime's error check and timer, which the helpers use.
support=("$root/runtime/src/check.cpp" "$root/runtime/src/timer.cu")
pids=()
for c in ${CHECKS:-}; do
  python3 "$root/test/GPU/harness/stencil_list.py" --main "$root/test/GPU/harness/stencil_test_main.cu" \
    "$gen/bench/$c.h" >"$work/check-$c.cu"
  nvcc -std=c++17 -O3 -arch=sm_90 -I "$root/runtime/include" -I "$root/test/support/include" \
    -o "$work/check-$c" "$work/check-$c.cu" "$gen/bench/$c.cu" "$LIBS/libstencilc_testing.a" \
    "$LIBS/libstencilc_runtime.a" >"$work/check-$c.log" 2>&1 &
  pids+=($!)
done
for n in "$@"; do
  h=$gen/bench/$n.simt.h
  [[ -f $h ]] || { echo "headers: no $h" >&2; exit 2; }
  element=$(grep -oE "cudaError_t ${n}_step\(const [a-z_0-9]+" "$h" | awk '{print $NF}')
  dims=2
  grep -qE "${n}_step\(.*int nz" "$h" && dims=3
  for tree in tree other; do
    inc=$root/runtime/include
    [[ $tree == other ]] && inc=$other
    nvcc -std=c++17 -O3 -arch=sm_90 -I "$inc" -I "$root/test/GPU/device" -I "$gen/bench" \
      -DHEADER="\"$n.simt.h\"" -DNAME="$n" -DELEMENT="$element" -DDIMS="$dims" -DTREE="\"$tree\"" \
      "$root/bench/headers/header_bench.cu" "$gen/bench/$n.simt.cu" "${support[@]}" \
      -o "$work/$n.$tree" >"$work/$n.$tree.log" 2>&1 &
    pids+=($!)
  done
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
if ((failed)); then
  echo "headers: a build failed:"
  grep -h error "$work"/*.log | head -5 || true
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
checks=()
for c in ${CHECKS:-}; do
  [[ -x $work/check-$c ]] || { echo "check-$c: not built"; status=1; continue; }
  # shellcheck disable=SC2086 # CHECK_ARGS: the harness's options, split
  timeout "${CHECK_SECONDS:-240}" "$work/check-$c" ${CHECK_ARGS:-} >"$work/check-$c.out" 2>&1 &
  checks+=("$c")
done
wait
for c in "${checks[@]}"; do
  echo "check-$c: $(tail -1 "$work/check-$c.out") ($(grep -c '^\[PASS\]' "$work/check-$c.out") cases" \
    "passed, $(grep -c '^\[FAIL\]' "$work/check-$c.out") failed)"
  grep -q "RESULT: PASS" "$work/check-$c.out" || { status=1; grep "^\[FAIL\]" "$work/check-$c.out" | head -5; }
done
first=1
for n in "$@"; do
  hashes=()
  for tree in tree other; do
    [[ -x $work/$n.$tree ]] || { echo "$n $tree: not built"; status=1; continue; }
    line=$(HB_COPY=$first "$work/$n.$tree") || { echo "$n $tree: failed"; status=1; continue; }
    first=0
    echo "$line"
    hashes+=("${line##*hash }")
  done
  if [[ ${#hashes[@]} == 2 && ${hashes[0]} != "${hashes[1]}" ]]; then
    echo "$n: the trees' results DIFFER"
    status=1
  fi
done
exit $status
