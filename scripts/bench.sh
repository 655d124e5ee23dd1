#!/usr/bin/env bash
# The benchmark in one command (issue 5), on the GPU machine: every
# generated suite file against the naive kernel of the same stencil, each
# program measuring the copy roofline in its own run; and the naive kernel
# over the whole suite (by default only when no generated suite was built,
# since each generated benchmark already times its naive baseline). Appends
# everything to one CSV and prints the tables.
#
# Usage: scripts/bench.sh [BUILD_DIR] [-- extra benchmark flags, e.g. --only fp16]
#   BUILD_DIR  a build of this tree with the GPU parts (default build-gpu;
#              scripts/gpu-check.sh makes one)
#   OUT        where bench.csv, bench.log and bench.png go (default BUILD_DIR)
#   NAIVE_SUITE=1 / 0  force / skip the naive-only suite (default: auto)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-gpu}
shift $(($# > 0 ? 1 : 0))
[[ ${1:-} == -- ]] && shift
out=${OUT:-$build}
mkdir -p "$out"
csv=$out/bench.csv
log=$out/bench.log
rm -f "$csv"
status=0

run() {
  echo "== $*" | tee -a "$log"
  "$@" --csv "$csv" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  ((rc == 0)) || { echo "bench: $1 exited $rc" | tee -a "$log"; status=1; }
}

: >"$log"
generated=()
# Not -bounds: the suite at its other boundaries, for conformance only.
for exe in "$build"/bench/stencilc-bench-gen-*; do
  [[ $exe == *-bounds ]] && continue
  [[ -f $exe && -x $exe ]] && generated+=("$exe")
done
naive=${NAIVE_SUITE:-auto}
if [[ $naive == 1 || ($naive == auto && ${#generated[@]} -eq 0) ]]; then
  run "$build/bench/stencilc-bench-naive" "$@"
fi
for exe in "${generated[@]}"; do
  run "$exe" "$@"
done
python3 "$root/bench/summarize.py" --bench "$csv"
# The plot needs matplotlib (on the GPU machine); its absence is not a failure.
python3 "$root/bench/plot.py" "$csv" "$out/bench.png" 2>/dev/null ||
  echo "bench: no plot (matplotlib missing?)"
exit $status
