#!/usr/bin/env bash
# The exchange overhead study of one GPU shared by the ranks
# (docs/distributed.md, "Exchange overhead"): on a GPU machine, beside the
# programs build.sh made, checks the runtime bit for bit (dist_check on 2
# and 4 ranks with cuda-ipc, 2 with host and with cuda-ipc's host-waiting
# protocol, cuda-mpi where Open MPI is CUDA-aware, compute-sanitizer on two
# ranks), and times dist_bench on 2 ranks for cuda-ipc (both protocols)
# and host, under MPS and without it, each also profiled
# (STENCILC_DIST_PROFILE). Logs go to $OUT (overhead.txt, sanitizer.txt);
# a summary is printed last. The most telling steps come first.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-.}
log=$out/overhead.txt
: > "$log"
say() { echo "$*" | tee -a "$log"; }
nvidia-smi -L | tee -a "$log"
source ./mpi-env.sh
say "mpirun: $($mpirun --version | head -1); nsys: $(command -v nsys || echo none)"
say "CUDA-aware Open MPI: ${cuda_mpi:-no}" # mpi-env.sh's $cuda_mpi
summary=()
check() { # label np env... : dist_check; returns its status
  local label=$1 np=$2 text rc; shift 2
  text=$(env "$@" timeout 60 $mpirun -np "$np" ./dist_check 2>&1); rc=$?
  { echo "== check $label (exit $rc)"; echo "$text"; } >> "$log"
  summary+=("check $label: exit $rc, $(echo "$text" | tail -1); $(echo "$text" | grep -o 'transport=[a-z-]*' | sort | uniq -c | tr '\n' ' ')")
  echo "${summary[-1]}"; echo "$text" | grep '^FAIL' | head -3
  return $rc
}
bench() { # label env... : dist_bench, then the same profiled
  local label=$1; shift
  echo "== bench $label" >> "$log"
  env "$@" timeout 50 $mpirun -np 2 ./dist_bench 512 72 7 3 >> "$log" 2>&1
  echo "== profile $label" >> "$log"
  env "$@" STENCILC_DIST_PROFILE=1 timeout 40 $mpirun -np 2 ./dist_bench 512 36 3 2 >> "$log" 2>&1
  summary+=("bench $label: $(sed -n "/== bench $label\$/,/== profile/p" "$log" | grep -E '^(local|k=|default)' | tr -s ' ' | sed 's/local [0-9]* planes//' | tr '\n' ';')")
  echo "${summary[-1]}"
}
sync=()
if ! check np2-ipc 2 STENCILC_DIST_TRANSPORT=cuda-ipc; then
  say "the event protocol failed: the rest runs cuda-ipc with host waits"
  sync=(STENCILC_DIST_IPC_SYNC=host)
fi
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log
mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
nvidia-cuda-mps-control -d && say "MPS started"
bench mps-ipc STENCILC_DIST_TRANSPORT=cuda-ipc "${sync[@]}"
bench mps-ipc-again STENCILC_DIST_TRANSPORT=cuda-ipc "${sync[@]}"
# The forms before NAME_pass_range (whole passes, the overlap's bands
# copied back), in the same lease.
bench mps-ipc-no-range STENCILC_DIST_TRANSPORT=cuda-ipc STENCILC_DIST_PASS_RANGE=0 "${sync[@]}"
bench mps-ipc-hostsync STENCILC_DIST_TRANSPORT=cuda-ipc STENCILC_DIST_IPC_SYNC=host
bench mps-host STENCILC_DIST_TRANSPORT=host
check mps-np2-ipc 2 STENCILC_DIST_TRANSPORT=cuda-ipc "${sync[@]}"
echo quit | nvidia-cuda-mps-control && say "MPS stopped"
sleep 1
check np4-ipc 4 STENCILC_DIST_TRANSPORT=cuda-ipc "${sync[@]}"
check np2-host 2 STENCILC_DIST_TRANSPORT=host
check np2-ipc-no-range 2 STENCILC_DIST_TRANSPORT=cuda-ipc STENCILC_DIST_PASS_RANGE=0 "${sync[@]}"
check np2-ipc-hostsync 2 STENCILC_DIST_TRANSPORT=cuda-ipc STENCILC_DIST_IPC_SYNC=host
[[ -n $cuda_mpi ]] && check np2-cuda-mpi 2 STENCILC_DIST_TRANSPORT=cuda-mpi
text=$(timeout 60 $mpirun -np 4 ./heat3d-mpi 192 100 2>&1 | grep heat3d-mpi:)
summary+=("heat3d-mpi, 4 ranks, default plan: $text"); echo "$text" >> "$log"
for t in cuda-ipc host; do
  text=$(STENCILC_DIST_TRANSPORT=$t timeout 90 $mpirun -np 2 ./dist_scaling check 96 37 2>&1)
  echo "$text" >> "$log"
  summary+=("dist_scaling check, 2 ranks, $t: $(echo "$text" | grep -c '^PASS') PASS, $(echo "$text" | grep -c '^FAIL') FAIL")
done
bench no-mps-ipc STENCILC_DIST_TRANSPORT=cuda-ipc "${sync[@]}"
bench no-mps-host STENCILC_DIST_TRANSPORT=host
STENCILC_DIST_TRANSPORT=cuda-ipc timeout 60 $mpirun -np 2 compute-sanitizer --error-exitcode 3 \
  ./dist_check --quick > "$out/sanitizer.txt" 2>&1
summary+=("compute-sanitizer cuda-ipc exit $?: $(grep -h 'ERROR SUMMARY' "$out/sanitizer.txt" | tr '\n' ' ')")
echo "===== summary"
grep -E '^(device|copy|single)' "$log" | sort | uniq -c
printf '%s\n' "${summary[@]}"
