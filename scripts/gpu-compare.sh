#!/usr/bin/env bash
# The suite benchmark of two generated trees side by side, in one lease on
# the GPU machine, from the repository root: "before" and "after" a change
# to the generated code. Builds the suite's benchmark programs
# (stencilc-bench-gen-tensor and -simt) of each tree, then runs them shard by
# shard, before and after alternating, so that both meet the same card in
# the same state; each program measures the copy roofline in its own run.
# Prints bench/compare.py's table last: per stencil and backend, both
# GStencil/s and their ratio, flagging a change beyond --tolerance.
#
# Usage: scripts/gpu-compare.sh [--build-only] [--shard I/N] [--tolerance PCT]
#          [--bench-args "ARGS"] BEFORE_GEN AFTER_GEN
#   BEFORE_GEN, AFTER_GEN  folders written by scripts/gen-gpu-sources.sh (carry both)
#   --build-only   build both and stop (a first 10-minute call)
#   --shard I/N    benchmark only the stencils k with k % N == I (the suite in
#                  N calls while the machine stays warm; build folders are kept)
#   --tolerance PCT  flag a change beyond PCT percent (default 2)
#   --bench-args ARGS  more arguments for both benchmark programs, e.g.
#                  "--runs 60 --only star3d13p" (bench/bench_options.h)
#   COMPARE_OUT (default build-compare/out): before-*.csv, after-*.csv, logs.
#   Not OUT: the device tool empties OUT and returns only small files, so
#   the logs would be lost there; copy the CSVs to OUT yourself.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
usage="usage: $0 [--build-only] [--shard I/N] [--tolerance PCT] [--bench-args ARGS] BEFORE_GEN AFTER_GEN"
build_only=0
shard=
tolerance=2
bench_args=()
while (($#)); do
  case $1 in
  --build-only) build_only=1 ;;
  --shard) shard=$2; shift ;;
  --tolerance) tolerance=$2; shift ;;
  --bench-args) read -r -a bench_args <<<"$2"; shift ;;
  -*) echo "$usage" >&2; exit 2 ;;
  *) break ;;
  esac
  shift
done
if (($# != 2)); then
  echo "$usage" >&2
  exit 2
fi
gens=("$1" "$2")
labels=(before after)
out=${COMPARE_OUT:-build-compare/out}
mkdir -p "$out"
status=0

echo "== $(date -u +%FT%TZ) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
for i in 0 1; do
  build=build-compare/${labels[i]}
  if [[ ! -f $build/build.ninja ]]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTENCILC_BUILD_COMPILER=OFF -DSTENCILC_BUILD_GPU_TESTS=ON \
      -DSTENCILC_BUILD_TESTS=OFF -DSTENCILC_CUDA_ARCHITECTURES="${cap:-90}" \
      -DSTENCILC_GENERATED_DIR="$root/${gens[i]}" >"$out/${labels[i]}-configure.log" 2>&1 ||
      { tail -20 "$out/${labels[i]}-configure.log"; exit 1; }
  fi
done
# A backend's program exists only where the manifest lists its stencils.
targets=()
for backend in tensor simt; do
  grep -q "\.$backend\$" "${gens[0]}/manifest.txt" && targets+=("stencilc-bench-gen-$backend")
done
((${#targets[@]})) || { echo "no bench/NAME.tensor or .simt in ${gens[0]}/manifest.txt"; exit 2; }
# Both trees at once: the machine's cores are many, one tree's programs few.
phase=$SECONDS
for i in 0 1; do
  cmake --build "build-compare/${labels[i]}" -j "$(nproc)" \
    --target "${targets[@]}" >"$out/${labels[i]}-build.log" 2>&1 &
done
for i in 0 1; do
  wait -n || { echo "a build failed:"; grep -h -E "error|FAILED" -A3 "$out"/*-build.log | head -40; exit 1; }
done
echo "== both built in $((SECONDS - phase))s"
((build_only)) && exit 0

args=(--no-naive "${bench_args[@]}")
[[ -n $shard ]] && args+=(--shard "$shard")
tag=${shard//\//of}
for backend in tensor simt; do
  for i in 0 1; do
    exe=build-compare/${labels[i]}/bench/stencilc-bench-gen-$backend
    [[ -x $exe ]] || continue
    csv=$out/${labels[i]}-$backend${tag:+-$tag}.csv
    rm -f "$csv"
    if ! "$exe" "${args[@]}" --csv "$csv" >"$out/${labels[i]}-$backend${tag:+-$tag}.log" 2>&1; then
      echo "${labels[i]} $backend exited non-zero"; tail -5 "$out/${labels[i]}-$backend${tag:+-$tag}.log"
      status=1
    fi
  done
done
python3 bench/compare.py --tolerance "$tolerance" --before "$out"/before-*.csv --after "$out"/after-*.csv || status=1
exit $status
