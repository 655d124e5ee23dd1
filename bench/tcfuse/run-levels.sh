#!/usr/bin/env bash
# The GPU call of way B (issue 19, item 4), run beside a built levels_bench
# (gen-levels.sh): the check, the speed table, ncu of some kinds, and
# compute-sanitizer memcheck at small sizes, each part when named.
# Usage: run-levels.sh OUTDIR [check] [speed] [profile=PART,...] [sanitize=PART,...]
set -uo pipefail
out=$1
shift
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
for part in "$@"; do
  case $part in
  check) timeout ${CHECK_S:-90} ./levels_bench --check >"$out/check.txt" 2>&1
    echo "check rc=$?"; grep -E "FAIL|REF|RESULT" "$out/check.txt" | head -40 ;;
  speed) timeout ${SPEED_S:-130} ./levels_bench --speed 2>&1 | tee "$out/speed.txt" | grep -vE "^SPEED" ;;
  profile=*)
    for p in $(echo "${part#profile=}" | tr , ' '); do
      timeout ${NCU_S:-60} ncu --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis \
        --section WarpStateStats --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active \
        ./levels_bench --profile "$p" >"$out/ncu-$p.txt" 2>&1
      echo "ncu $p rc=$?"
      grep -E "levelsKernel|kernel|Duration|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Executed Ipc A|Issue Slots Busy|hmma|lsu|mem_shared|fp64_cycles|Block Limit Shared|Registers Per" "$out/ncu-$p.txt" | cut -c1-120 | head -60
    done ;;
  sanitize=*)
    for p in $(echo "${part#sanitize=}" | tr , ' '); do
      timeout ${SAN_S:-60} compute-sanitizer --tool memcheck --leak-check full ./levels_bench --sanitize "$p" >>"$out/memcheck.txt" 2>&1
      echo "memcheck $p rc=$?"; grep -E "ERROR SUMMARY|RESULT|FAIL" "$out/memcheck.txt" | tail -3
    done ;;
  esac
done
