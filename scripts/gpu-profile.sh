#!/usr/bin/env bash
# Nsight Compute profiles of suite kernels, on the GPU machine: one launch of
# each named kernel at the benchmark's size, with the sections that say what
# limits a stencil kernel (speed of light, memory workload, occupancy, launch,
# warp states, instruction mix). The clocks are left alone
# (--clock-control none).
#
# Usage: scripts/gpu-profile.sh [BUILD_DIR] NAME:BACKEND[:run]...
#   BUILD_DIR  a build with the benchmark programs (default build-gpu;
#              scripts/gpu-check.sh makes one)
#   NAME       a suite stencil, e.g. box2d25p_fp64; BACKEND tensor or simt
#   :run       profile a pass of NAME_run's fused kernel (fused::passKernel)
#              instead of NAME_step's kernel
#   OUT        where ncu-NAME-BACKEND.txt go (default BUILD_DIR/profiles)
# Prints the headline metrics of each.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-gpu
if [[ $# -gt 0 && $1 != *:* ]]; then
  build=$1
  shift
fi
out=${OUT:-$build/profiles}
mkdir -p "$out"
command -v ncu >/dev/null || { echo "gpu-profile: no ncu on the PATH" >&2; exit 2; }
status=0
for target in "$@"; do
  IFS=: read -r name backend mode <<<"$target"
  exe=$build/bench/stencilc-bench-gen-$backend
  [[ -x $exe ]] || { echo "gpu-profile: no $exe" >&2; status=1; continue; }
  report=$out/ncu-$name-$backend${mode:+-$mode}.txt
  # The kernels are NAME_simt_kernel, NAME_tensor2d_kernel (1D, 2D) and
  # NAME_tensor3d_kernel; NAME_run's fused passes run fused::passKernel.
  kernel="regex:^${name}_(simt|tensor[23]d)_kernel"
  [[ $mode == run ]] && kernel="regex:passKernel"
  if ! timeout 300 ncu --clock-control none --launch-count 1 -k "$kernel" \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
    --section LaunchStats --section WarpStateStats --section InstructionStats \
    --section ComputeWorkloadAnalysis "$exe" --only "$name" --runs 20 --no-naive >"$report" 2>&1; then
    echo "gpu-profile: ncu failed on $target (see $report)" >&2
    status=1
    continue
  fi
  echo "== $name $backend${mode:+ $mode}"
  grep -E "^ +(Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|L2 Hit Rate|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued Instruction|Executed Instructions|Grid Size|Block Size) " \
    "$report" | sed -E 's/  +/ /g'
  grep -E "is the highest-utilized pipeline" "$report" | sed -E 's/^ +INF +//; s/  +/ /g'
done
exit $status
