#!/usr/bin/env bash
# Runs the differential fuzzers (fuzz/diff, docs/robustness.md) for a
# bounded time: `stencilc-fuzz-diff cfront` (random '#pragma stencil' loop
# nests: clang's answer against the float64 reference of stencilc's
# translation), then `stencilc-fuzz-diff fields` (random stencils of
# fields against a direct interpretation of their text), SECONDS in all. Builds stencilc-fuzz-diff and stencilc-cfront in the
# release build first (nothing to do where the suite has built them).
#
#   scripts/fuzz-diff.sh --seconds 60          # what CI runs
#   scripts/fuzz-diff.sh --seconds 3600 --seed 5000000 --batch-size 1000
# Other options go to both fuzzers' command lines where they apply (--seed).
# Minimised findings are written, as lit tests, to $build/fuzz-diff-findings.
# Exit status 1 on any finding (an accepted nest or stencil that computes
# something else, or a batch that could not be checked), 0 otherwise.
# Environment: STENCILC_BUILD_DIR (default build), STENCILC_JOBS.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${STENCILC_BUILD_DIR:-build}
jobs=${STENCILC_JOBS:-$(nproc)}
seconds=60 seed=1 batch=500
while (($#)); do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --batch-size) batch=$2; shift 2 ;;
    *) echo "usage: $0 [--seconds N] [--seed S] [--batch-size B]" >&2; exit 2 ;;
  esac
done
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release || exit 2
fi
cmake --build "$build" --target stencilc-fuzz-diff stencilc-cfront -j "$jobs" || exit 2
findings="$build/fuzz-diff-findings"
status=0
# SECONDS in all: three fifths generating and checking nests, a sixth for
# the fields, the rest for minimising findings (one per class).
"$build/bin/stencilc-fuzz-diff" cfront --seconds $((seconds * 3 / 5 + 1)) --seed "$seed" \
  --batch-size "$batch" --findings "$findings" --minimise-limit 1 || status=1
"$build/bin/stencilc-fuzz-diff" fields --seconds $((seconds / 6 + 1)) --seed "$seed" \
  --findings "$findings" || status=1
if ((status)); then
  echo "fuzz-diff: findings (minimised, as lit tests) in $findings" >&2
fi
exit $status
