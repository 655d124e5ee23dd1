#!/usr/bin/env bash
# Builds the libFuzzer target (fuzz/, clang-19 with ASan and UBSan, -O1 with
# assertions on, in build-fuzz/) and runs it over the seed corpus: every
# .stencil file under examples/ and test/, gathered afresh at each run.
# Arguments go to libFuzzer, e.g.
#   scripts/fuzz.sh -max_total_time=60 -max_len=2048   # what CI runs
#   scripts/fuzz.sh -max_len=2048 -runs=10000000       # a long run (docs/robustness.md)
#   scripts/fuzz.sh build-fuzz/fuzz-artifacts/crash-*  # replay inputs
# New inputs go to $build/fuzz-corpus, crashing ones to $build/fuzz-artifacts/.
# A crash, a sanitizer report or a slow input (-timeout: 60 s here, as the
# machine may be shared) exits non-zero. Environment: STENCILC_FUZZ_BUILD_DIR
# (default build-fuzz), STENCILC_JOBS (build parallelism).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${STENCILC_FUZZ_BUILD_DIR:-build-fuzz}
jobs=${STENCILC_JOBS:-$(nproc)}

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DSTENCILC_FUZZ=ON -DSTENCILC_BUILD_TESTS=OFF -DSTENCILC_CUDA=OFF
fi
cmake --build "$build" --target stencil_fuzzer -j "$jobs"
fuzzer="$build/bin/stencil_fuzzer"

# Replaying files: no corpus, no seeds.
replay=1
for arg in "$@"; do
  [[ "$arg" == -* ]] || continue
  replay=0
done
if (($# > 0 && replay)); then
  exec "$fuzzer" -dict=fuzz/stencil.dict "$@"
fi

seeds="$build/fuzz-seeds"
corpus="$build/fuzz-corpus"
artifacts="$build/fuzz-artifacts"
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus" "$artifacts"
# One seed per source file, named after its path so the names stay unique.
while IFS= read -r -d '' file; do
  cp "$file" "$seeds/$(echo "${file#./}" | tr '/' '_')"
done < <(find examples test -name '*.stencil' -print0)
echo "fuzz.sh: $(ls "$seeds" | wc -l) seed files, corpus $corpus ($(ls "$corpus" | wc -l) inputs)"

exec "$fuzzer" -dict=fuzz/stencil.dict -artifact_prefix="$artifacts/" -timeout=60 \
  -print_final_stats=1 "$@" "$corpus" "$seeds"
