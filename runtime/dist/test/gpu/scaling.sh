#!/usr/bin/env bash
# The scaling run on a machine of several GPUs (docs/distributed.md,
# "Scaling"), one rank a GPU: expects dist_scaling (build.sh) beside it;
# Open MPI as mpi-env.sh finds it (with mpi-env.sh beside it). Writes OUT/scaling.csv and
# OUT/scaling-*.txt and prints the tables last (scaling_table.py).
#
#   1. correctness: on 2 and 4 GPUs (those there are), star3d7p and
#      box3d27p in fp64 and fp32 through NAME_dist_run, gathered and
#      compared bit for bit with the single-GPU NAME_run, with the NCCL
#      transport and with MPI through pinned host buffers;
#   2. weak scaling: 512^3 points a GPU, 200 steps, each stencil, 1/2/4 ranks;
#   3. strong scaling: 1024^3 fp32, 200 steps, 1/2/4 ranks;
#   each timing with the overlap and without it, and the local runs alone.
#
# Usage: scaling.sh [--shared NP] [--no-check]  (--shared: a dry run of NP
#        ranks on the GPUs there are, sharing them: smaller grids, no NCCL;
#        --no-check: the timings alone, where the checks ran before)
# TIME_TRANSPORTS (default: auto) lists the transports the weak runs of
# several ranks are timed with, e.g. "auto cuda-ipc" to compare NCCL's
# SM-driven copies with CUDA IPC's copy engines under the overlap; REPS
# (default 3) the timed runs each figure is the median of; STRONG=0 leaves
# the strong scaling out.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-.}
shared=0 check=1
while (($#)); do
  case $1 in
  --shared) shared=$2 && shift ;;
  --no-check) check=0 ;;
  *) echo "usage: $0 [--shared NP] [--no-check]" >&2 && exit 2 ;;
  esac
  shift
done
gpus=$(nvidia-smi -L | grep -c '^GPU')
nvidia-smi -L
source ./mpi-env.sh # $mpirun, Open MPI from ./debs where missing, the ranks' environment
$mpirun --version | head -1
status=0
csv=$out/scaling.csv
echo "mode,stencil,ranks,nz,ny,nx,steps,fused,transport,what,ms,gstencil_per_s" >"$csv"
if ((shared)); then
  counts=(1 "$shared") transports=(host) checkN=96 per=256 strongN=384 steps=40
else
  counts=() transports=(nccl host) checkN=256 per=512 strongN=1024 steps=200
  for np in 1 2 4; do ((np <= gpus)) && counts+=("$np"); done
fi
for np in "${counts[@]}"; do
  ((np > 1 && check)) || continue
  for t in "${transports[@]}"; do
    STENCILC_DIST_TRANSPORT=$t timeout 300 $mpirun -np "$np" ./dist_scaling check "$checkN" 37 \
      >"$out/scaling-check-np$np-$t.txt" 2>&1 || status=1
    grep -h -E '^(PASS|FAIL)' "$out/scaling-check-np$np-$t.txt"
    grep -q '^PASS' "$out/scaling-check-np$np-$t.txt" || { status=1; tail -5 "$out/scaling-check-np$np-$t.txt"; }
  done
done
time1() { # mode stencil n np [transport]
  STENCILC_DIST_TRANSPORT=${5:-auto} timeout 300 $mpirun -np "$4" ./dist_scaling "$1" "$2" "$3" \
    "$steps" "${REPS:-3}" 2>>"$out/scaling-errors.txt" | grep -E '^(weak|strong),' >>"$csv" || status=1
}
for np in "${counts[@]}"; do
  for t in ${TIME_TRANSPORTS:-auto}; do
    [[ $t == auto || $np -gt 1 ]] || continue
    for s in star3d7p_fp64 star3d7p_fp32 box3d27p_fp64 box3d27p_fp32; do
      time1 weak "$s" "$per" "$np" "$t"
    done
  done
  [[ ${STRONG:-1} == 0 ]] && continue
  for s in star3d7p_fp32 box3d27p_fp32; do time1 strong "$s" "$strongN" "$np"; done
done
python3 ./scaling_table.py "$csv" "$out/scaling.png" | tee "$out/scaling-table.txt"
exit $status
