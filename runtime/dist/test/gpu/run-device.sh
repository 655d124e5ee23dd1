#!/usr/bin/env bash
# Runs the distributed runtime's GPU check, the transport check, the
# heat3d-mpi example and the benchmark on a GPU machine. Where mpirun is missing, Open MPI comes from
# the Debian .deb files in ./debs (unpacked with dpkg -x, relocated with
# OPAL_PREFIX; docs/distributed.md lists them). Expects dist_check,
# dist_bench and heat3d-mpi (build.sh) beside it. Logs go to $OUT when set.
# Where ompi-cuda.tar.xz (build-cuda-ompi.sh) is beside it, mpi-env.sh runs
# everything under that CUDA-aware Open MPI, and where its ompi_info says it
# has CUDA support the cuda-mpi transport is checked and timed too.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-.}
nvidia-smi -L
source ./mpi-env.sh # $mpirun, Open MPI from ./ompi-cuda.tar.xz, or ./debs where missing; the ranks' environment
$mpirun --version | head -1
echo "CUDA-aware Open MPI: ${cuda_mpi:-no}" # mpi-env.sh's $cuda_mpi
status=0
check() { # name np [transport]
  STENCILC_DIST_TRANSPORT=${3:-auto} timeout 300 $mpirun -np "$2" ./dist_check > "$out/$1.txt" 2>&1
  grep -q '^PASS: ' "$out/$1.txt" || status=1
  echo "$1: $(tail -1 "$out/$1.txt"); transports: $(grep -o 'transport=[a-z-]*' "$out/$1.txt" | sort | uniq -c | tr '\n' ' ')"
  grep -h '^FAIL' "$out/$1.txt" | head -5
}
# One rank a GPU where the machine has as many (dist_gpu_test.h's
# initRanks): every transport on 2 ranks, by name; nccl where it is built in.
check check-np2 2
[[ -e with-nccl ]] && check check-np2-nccl 2 nccl
check check-np2-cuda-ipc 2 cuda-ipc
check check-np4 4
check check-np2-host 2 host
if [[ -n $cuda_mpi ]]; then
  check check-np2-cuda-mpi 2 cuda-mpi
  check check-np4-cuda-mpi 4 cuda-mpi
fi
# The transports alone (transport_check): a ring of ranks exchanging halos.
# NCCL takes a GPU per rank, so on one GPU it runs on one rank exchanging
# with itself, where build.sh built it in (NCCL_INCLUDE: ./with-nccl exists) and
# libnccl.so.2 loads (the nvidia-nccl-cu13 wheel's, where Python has it).
if nccl_lib=$(python3 -c "import nvidia.nccl as n; print(list(n.__path__)[0] + '/lib')" 2>/dev/null); then
  export LD_LIBRARY_PATH=$nccl_lib:${LD_LIBRARY_PATH:-}
fi
transport() { # name np transport
  STENCILC_DIST_TRANSPORT=$3 timeout 60 $mpirun -np "$2" ./transport_check > "$out/$1.txt" 2>&1 || status=1
  echo "$1: $(grep -c ': PASS' "$out/$1.txt") of $2 ranks pass; $(grep -m1 '^rank' "$out/$1.txt")"
}
transport transport-np2 2 auto
transport transport-np3-host 3 host
[[ -e with-nccl ]] && transport transport-np1-nccl 1 nccl
[[ -n $cuda_mpi ]] && transport transport-np2-cuda-mpi 2 cuda-mpi
# Two ranks, each under compute-sanitizer (memcheck), two stencils. NCCL's
# communicator set-up probes kernels it has no image for on this GPU
# (cudaFuncGetAttributes, error 209, handled inside NCCL): with nccl the
# API errors are not reported; memory errors of every kernel still are.
for t in host auto $cuda_mpi; do
  api=()
  [[ $t == auto ]] && api=(--report-api-errors no)
  STENCILC_DIST_TRANSPORT=$t timeout 120 $mpirun -np 2 compute-sanitizer --error-exitcode 3 "${api[@]}" \
    ./dist_check --quick > "$out/sanitizer-$t.txt" 2>&1
  echo "compute-sanitizer ($t) exit $?: $(grep -h 'ERROR SUMMARY' "$out/sanitizer-$t.txt" | tr '\n' ' ')"
done
timeout 60 $mpirun -np 4 ./heat3d-mpi 192 100 2>&1 | grep heat3d-mpi: | tee "$out/heat3d-mpi-np4.txt"
grep -q ': PASS$' "$out/heat3d-mpi-np4.txt" || status=1
for t in auto host $cuda_mpi; do
  STENCILC_DIST_TRANSPORT=$t timeout 60 $mpirun -np 2 ./dist_bench 512 40 9 2>&1 | tee "$out/bench-np2-$t.txt"
done
exit $status
