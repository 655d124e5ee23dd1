#!/usr/bin/env bash
# Runs N independent processes of a built libFuzzer target at once, each
# with its own seed (-seed=1..N) and corpus, for SECONDS each, from the
# repository root, and prints each process's executions and the total. For
# a machine with many cores (the GPU machine's CPUs: docs/robustness.md);
# the fuzzer must already be built (scripts/fuzz.sh builds it), and is
# taken as it is: nothing is compiled here.
#
# Usage: scripts/fuzz-many.sh N SECONDS [stencil|cfront]
#   STENCILC_FUZZ_BUILD_DIR (default build-fuzz); OUT (default that folder):
#   fuzz-many-K.log per process and crashing inputs under fuzz-many-artifacts/
# Exit status 1 when any process found something (a crash, a sanitizer
# report, a slow unit), 0 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
if (($# < 2)); then
  echo "usage: $0 N SECONDS [stencil|cfront]" >&2
  exit 2
fi
procs=$1 seconds=$2 target=${3:-stencil}
build=${STENCILC_FUZZ_BUILD_DIR:-build-fuzz}
out=${OUT:-$build}
if [[ $target == stencil ]]; then
  name=stencil_fuzzer dict=fuzz/stencil.dict pattern='*.stencil'
else
  name=cfront_fuzzer dict=fuzz/cfront.dict pattern='*.c'
fi
fuzzer=$build/bin/$name
[[ -x $fuzzer ]] || { echo "fuzz-many: no $fuzzer (build it with scripts/fuzz.sh)" >&2; exit 2; }
work=$(mktemp -d)
mkdir -p "$work/seeds" "$out/fuzz-many-artifacts"
while IFS= read -r -d '' file; do
  cp "$file" "$work/seeds/$(echo "${file#./}" | tr '/' '_')"
done < <(find examples test -name "$pattern" -print0)
for k in $(seq 1 "$procs"); do
  mkdir -p "$work/corpus-$k"
  "$fuzzer" -dict="$dict" -seed="$k" -max_len=2048 -timeout=60 -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="$out/fuzz-many-artifacts/" \
    "$work/corpus-$k" "$work/seeds" >"$out/fuzz-many-$k.log" 2>&1 &
done
status=0
for k in $(seq 1 "$procs"); do
  wait -n || status=1
done
total=0
for k in $(seq 1 "$procs"); do
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz-many-$k.log")
  echo "process $k: ${runs:-?} executions$(grep -q 'ERROR\|deadly signal\|Timeout' "$out/fuzz-many-$k.log" && echo ', FOUND SOMETHING')"
  total=$((total + ${runs:-0}))
done
echo "fuzz-many: $procs processes x ${seconds}s of $name: $total executions in all"
rm -rf "$work"
exit $status
