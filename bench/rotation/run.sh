#!/usr/bin/env bash
# On the GPU machine, from the repository root: the 2D fused kernel with its
# windows' rows carried (the runtime's fused.cuh) against rotated
# (rotation.patch applied to a copy of it; made against fused.cuh at
# cefea0c, so it may need redoing once that file changes), on the generated CUDA-core
# sources of GEN (scripts/gen-gpu-sources.sh; carry it), for the stencils
# named (default: the suite's 2D kinds that fuse). One program per stencil
# and variant, compiled in parallel; each prints its GStencil/s and a hash
# of its result, and the script says whether the variants agree bit for
# bit. A comparison of variants: it measures no copy bandwidth.
# Usage: bench/rotation/run.sh [NAME...]   GEN (default build-gen), WORK
# (default /tmp/rotation)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gen=${GEN:-$root/build-gen}
work=${WORK:-/tmp/rotation}
names=("$@")
((${#names[@]})) || names=(star2d5p_fp32 star2d5p_fp16 box2d9p_fp32 box2d9p_fp64 star2d9p_fp32
  star2d9p_fp64 ebisu_2d25pt_fp32 ebisu_2d25pt_fp64 ebisu_2d9pt_fp64)
rm -rf "$work"
mkdir -p "$work/include/stencilc/device"
cp "$root/runtime/include/stencilc/device/fused.cuh" "$work/include/stencilc/device/"
patch -s -d "$work/include/stencilc/device" -p1 <"$root/bench/rotation/rotation.patch"
common=(-std=c++17 -O3 -arch=sm_90 -I "$root/test/GPU/device" -I "$gen/bench")
# The runtime's error check and timer, which the benchmark's helpers use.
support=("$root/runtime/src/check.cpp" "$root/runtime/src/timer.cu")
# variant: name, include folders first, kMaxPhases
variants=("carried|$root/runtime/include|1" "rotate4|$work/include:$root/runtime/include|4"
  "rotate8|$work/include:$root/runtime/include|8")
pids=()
for n in "${names[@]}"; do
  for v in "${variants[@]}"; do
    IFS='|' read -r vname dirs phases <<<"$v"
    incs=()
    IFS=: read -ra ds <<<"$dirs"
    for d in "${ds[@]}"; do incs+=(-I "$d"); done
    nvcc "${common[@]}" "${incs[@]}" -DSTENCIL="\"$n.simt.cu\"" -DNAME="$n" -DVARIANT="\"$vname\"" \
      -DPHASES="$phases" "$root/bench/rotation/rotation_bench.cu" "${support[@]}" -I "$root/runtime/include" -o "$work/$n.$vname" \
      >"$work/$n.$vname.log" 2>&1 &
    pids+=($!)
  done
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
if ((failed)); then
  echo "rotation: a build failed:"
  grep -h error "$work"/*.log | head -5 || true
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
for n in "${names[@]}"; do
  hashes=()
  for v in "${variants[@]}"; do
    exe=$work/$n.${v%%|*}
    [[ -x $exe ]] || { echo "$n ${v%%|*}: not built"; status=1; continue; }
    line=$("$exe") || { echo "$n ${v%%|*}: failed"; status=1; continue; }
    echo "$line"
    hashes+=("${line##* }")
  done
  if [[ $(printf '%s\n' "${hashes[@]}" | sort -u | wc -l) != 1 ]]; then
    echo "$n: the variants DIFFER"
    status=1
  fi
done
exit $status
