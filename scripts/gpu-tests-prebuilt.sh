#!/usr/bin/env bash
# The GPU test programs (test/GPU) built where nvcc runs without a GPU, and
# run on the GPU machine, so that a device call spends its time running
# them: built there, fused3d's checks alone outlast a call (2026-12-07:
# two builds of 380-430 s on 16 cores stopped in one unit).
#   scripts/gpu-tests-prebuilt.sh pack [REGEX]   here (nvcc, no GPU): builds
#       the test programs whose name matches REGEX (grep -E; default every
#       gpu-test-device-* program) for sm_90, strips them and packs them
#       into PACK; with build-gen/ (scripts/gen-gpu-sources.sh) the
#       gpu-test-gen-* programs of the generated stencils may be named too
#   scripts/gpu-tests-prebuilt.sh run            on the GPU machine (carry
#       PACK): unpacks it, runs every program GPU_TEST_JOBS at a time (each
#       at most TEST_SECONDS), prints a line a program (its verdict, rc and
#       last line) and `RESULT: PASS|FAIL|SKIP` (exit 0, 1, or 77 where a
#       program found no GPU); the logs stay in PACK's folder
# PACK (default .gpu/tests/tests.tar.xz; a call carries 64 MiB at most),
# BUILD (default build-gpu-prebuilt), GPU_TEST_JOBS (default 4),
# TEST_SECONDS (default 600). The broken stand-ins, which must fail, and
# the stand-ins' program, which takes arguments, are scripts/gpu-check.sh's.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
mode=${1:-}
pack=${PACK:-.gpu/tests/tests.tar.xz}
folder=$(dirname "$pack")

# The test programs CMake defines in BUILD whose name matches $1.
programs() {
  ninja -C "$build" -t targets all | sed -n 's/^\(gpu-test-[A-Za-z0-9_.-]*\): phony$/\1/p' |
    grep -vE '^gpu-test-(broken-|standins$)' | grep -E "$1" | sort -u
}

case $mode in
pack)
  build=${BUILD:-build-gpu-prebuilt}
  mkdir -p "$build"
  generated=()
  [[ -d build-gen ]] && generated=(-DSTENCILC_GENERATED_DIR="$root/build-gen")
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTENCILC_BUILD_COMPILER=OFF \
    -DSTENCILC_BUILD_GPU_TESTS=ON -DSTENCILC_CUDA_ARCHITECTURES=90 "${generated[@]}" \
    >"$build/prebuilt-configure.log" 2>&1 || { tail -20 "$build/prebuilt-configure.log"; exit 1; }
  mapfile -t targets < <(programs "${2:-^gpu-test-device-}")
  ((${#targets[@]})) || { echo "no test program matches '${2:-}'" >&2; exit 1; }
  echo "building ${#targets[@]} programs in $build"
  ninja -C "$build" -j "$(nproc)" "${targets[@]}" >"$build/prebuilt-build.log" 2>&1 ||
    { grep -E "error|FAILED" -A3 "$build/prebuilt-build.log" | head -40; exit 1; }
  rm -rf "${folder:?}/bin" && mkdir -p "$folder/bin"
  for t in "${targets[@]}"; do
    strip -o "$folder/bin/$t" "$build/gpu-tests/$t" || exit 1
  done
  tar -cJf "$pack" -C "$folder" bin || exit 1
  echo "packed ${#targets[@]} programs into $pack: $(du -h "$pack" | cut -f1)"
  (($(stat -c %s "$pack") <= 64 * 1024 * 1024)) || echo "warning: past the 64 MiB a call carries" >&2
  ;;
run)
  rm -rf "${folder:?}/bin" && tar -xJf "$pack" -C "$folder" || exit 1
  mkdir -p "$folder/logs"
  export folder seconds=${TEST_SECONDS:-600}
  # shellcheck disable=SC2016 # expanded by the inner bash
  find "$folder/bin" -type f -perm -u+x -printf '%f\n' | sort |
    xargs -P "${GPU_TEST_JOBS:-4}" -I{} bash -c '
      timeout "$seconds" "$folder/bin/$1" >"$folder/logs/$1.log" 2>&1
      rc=$? verdict=FAIL
      ((rc == 0)) && verdict=PASS
      ((rc == 77)) && verdict=SKIP
      echo "[$verdict] $1 (rc $rc): $(tail -1 "$folder/logs/$1.log")"' _ {} | tee "$folder/logs/summary.txt"
  [[ -s $folder/logs/summary.txt ]] || { echo "RESULT: FAIL (no program in $pack)"; exit 1; }
  if grep -q '^\[FAIL\]' "$folder/logs/summary.txt"; then echo "RESULT: FAIL"; exit 1; fi
  # Not a pass where a program could not run: 77, as each program's own.
  if grep -q '^\[SKIP\]' "$folder/logs/summary.txt"; then echo "RESULT: SKIP"; exit 77; fi
  echo "RESULT: PASS"
  ;;
*)
  echo "usage: $0 pack [REGEX] | run" >&2
  exit 2
  ;;
esac
