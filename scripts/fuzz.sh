#!/usr/bin/env bash
# Builds a libFuzzer target (fuzz/, clang-19 with ASan and UBSan, -O1 with
# assertions on, in build-fuzz/) and runs it over its seed corpus, gathered
# afresh at each run from examples/ and test/: for `stencil` (the default,
# stencil_fuzzer, the whole .stencil pipeline) every .stencil file, for
# `cfront` (cfront_fuzzer, the C front end) every .c/.cc/.cpp/.cxx file.
# The other arguments go to libFuzzer, e.g.
#   scripts/fuzz.sh -max_total_time=60 -max_len=2048          # what CI runs
#   scripts/fuzz.sh cfront -max_total_time=60 -max_len=2048   # and for C
#   scripts/fuzz.sh -max_len=2048 -runs=10000000              # a long run (docs/robustness.md)
#   scripts/fuzz.sh build-fuzz/fuzz-artifacts/crash-*         # replay inputs
# New inputs go to $build/fuzz-corpus (cfront: cfront-fuzz-corpus), crashing
# ones to $build/fuzz-artifacts/ (cfront-fuzz-artifacts/).
# A crash, a sanitizer report or a slow input (-timeout: 60 s here, as the
# machine may be shared) exits non-zero. Environment: STENCILC_FUZZ_BUILD_DIR
# (default build-fuzz), STENCILC_JOBS (build parallelism).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${STENCILC_FUZZ_BUILD_DIR:-build-fuzz}
jobs=${STENCILC_JOBS:-$(nproc)}
target=stencil
if [[ "${1:-}" == stencil || "${1:-}" == cfront ]]; then
  target=$1
  shift
fi
if [[ $target == stencil ]]; then
  name=stencil_fuzzer prefix=fuzz dict=fuzz/stencil.dict
  seed_names=(-name '*.stencil')
else
  name=cfront_fuzzer prefix=cfront-fuzz dict=fuzz/cfront.dict
  seed_names=(-name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx')
fi

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DSTENCILC_FUZZ=ON -DSTENCILC_BUILD_TESTS=OFF -DSTENCILC_CUDA=OFF
fi
cmake --build "$build" --target "$name" -j "$jobs"
fuzzer="$build/bin/$name"

# Replaying files: no corpus, no seeds.
replay=1
for arg in "$@"; do
  [[ "$arg" == -* ]] || continue
  replay=0
done
if (($# > 0 && replay)); then
  exec "$fuzzer" -dict="$dict" "$@"
fi

seeds="$build/$prefix-seeds"
corpus="$build/$prefix-corpus"
artifacts="$build/$prefix-artifacts"
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus" "$artifacts"
# One seed per source file, named after its path so the names stay unique.
while IFS= read -r -d '' file; do
  cp "$file" "$seeds/$(echo "${file#./}" | tr '/' '_')"
done < <(find examples test \( "${seed_names[@]}" \) -print0)
echo "fuzz.sh: $(ls "$seeds" | wc -l) seed files, corpus $corpus ($(ls "$corpus" | wc -l) inputs)"

exec "$fuzzer" -dict="$dict" -artifact_prefix="$artifacts/" -timeout=60 \
  -print_final_stats=1 "$@" "$corpus" "$seeds"
