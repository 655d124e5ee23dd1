#!/usr/bin/env bash
# On the GPU machine, from the repository root: Nsight Compute on the pass
# kernels of NAME_run of plans that bench/variants/gen.sh wrote into
# VARIANTS (default .gpu/variants, carried), one program each
# (bench/headers/header_bench.cu, built with -lineinfo). Each argument is
# LABEL/NAME:REGEX (split at its last ':'), REGEX the kernels to profile
# (passKernel for a CUDA-core fused pass; tensor2d|stackedMapped|strip for
# a composed tensor-core pass: its step, by cp.async or, at a fixed grid on
# sm_90, by the tensor memory accelerator, then its band in strips). ncu
# skips the first SKIP (default 50) matching launches, past NAME_step's 36,
# and profiles COUNT (default 2), its clocks left alone.
# The whole reports go to OUT (default /tmp/variants-ncu) as
# ncu-LABEL.NAME.txt, a ':' of LABEL written '_' (the device tool brings
# back no name with a ':'); stdout has each kernel's lines that say what binds
# it (durations, clock, occupancy, the pipes, issue, a warp's stalls).
# SOURCE=1 profiles one launch (past SKIP, default 20 then) with the full
# set and the source instead, and writes ncu-source-LABEL.NAME.csv (the
# SASS page, an instruction a row with its executions and stall samples:
# read it here with bench/sass/regions.py) and ncu-source-LABEL.NAME.txt
# (the details page), as the 3D band was split (docs/performance.md,
# 2026-12-04 16:17-16:44).
# Usage: bench/variants/ncu.sh LABEL/NAME:REGEX...   (WORK, default /tmp/variants-ncu)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
variants=${VARIANTS:-$root/.gpu/variants}
work=${WORK:-/tmp/variants-ncu}
out=${OUT:-$work}
mkdir -p "$work" "$out"
command -v ncu >/dev/null || { echo "ncu.sh: no ncu on the PATH" >&2; exit 2; }
# shellcheck source=bench/variants/programs.sh
source "$root/bench/variants/programs.sh"
export -f headers compile build
export root variants work HB_N2D BUILD_SECONDS
export HB_NVCC_FLAGS="${HB_NVCC_FLAGS:-} -lineinfo"
printf '%s\n' "${@%:*}" | xargs -P "$(nproc)" -I{} bash -c 'build {}'
stalls=$(printf 'smsp__average_warp_latency_issue_stalled_%s.ratio,' wait long_scoreboard \
  short_scoreboard not_selected math_pipe_throttle mio_throttle barrier)
pct=.avg.pct_of_peak_sustained_active
metrics=sm__pipe_fp64_cycles_active$pct,sm__pipe_fma_cycles_active$pct,sm__inst_executed_pipe_lsu$pct
metrics+=,sm__pipe_tensor_op_hmma_cycles_active$pct,smsp__issue_active$pct,smsp__inst_executed.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,${stalls%,}
status=0
# One launch's per-instruction counters: the SASS page as CSV, the details.
source_profile() { # exe regex base
  ncu --clock-control none -k regex:"$2" --launch-skip "${SKIP:-20}" -c 1 --set full \
    --import-source yes -f -o "$work/source" "$1" >"$3.log" 2>&1 || return 1
  ncu -i "$work/source.ncu-rep" --page source --print-source sass --csv >"$3.csv" 2>&1
  ncu -i "$work/source.ncu-rep" --page details >"$3.txt" 2>&1
  grep -E "Duration|Executed Instructions  |Issue Slots Busy|Warp Cycles Per Issued|Achieved Occ|DRAM Throughput|Registers Per" \
    "$3.txt" | sed -E 's/ {2,}/ /g'
}
for arg in "$@"; do
  target=${arg%:*} regex=${arg##*:} # the last ':' (a label may hold one: new:clamp)
  label=${target%%/*}
  exe=$work/$label.${target##*/} report=$out/ncu-${label//:/_}.${target##*/}.txt
  echo "## $target ($regex)"
  [[ -x $exe ]] || { echo "not built"; status=1; continue; }
  if [[ -n ${SOURCE:-} ]]; then
    source_profile "$exe" "$regex" "$out/ncu-source-${label//:/_}.${target##*/}" ||
      { echo "ncu failed"; status=1; }
    continue
  fi
  ncu --clock-control none -k regex:"$regex" --launch-skip "${SKIP:-50}" -c "${COUNT:-2}" \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
    --print-details all --metrics "$metrics" "$exe" >"$report" 2>&1 || { echo "ncu failed"; status=1; }
  grep -E "\)x\(|Duration|SM Frequency|Registers Per|Achieved Occ|Warp Cycles Per Issued|Stall |pct_of_peak|inst_executed.sum" \
    "$report" | grep -v stalled_ | sed -E 's/ {2,}/ /g' | cut -c1-150
done
exit $status
