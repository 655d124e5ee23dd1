#!/usr/bin/env bash
# Runs the distributed runtime's GPU check, the heat3d-mpi example and the
# benchmark on a GPU machine. Where mpirun is missing, Open MPI comes from
# the Debian .deb files in ./debs (unpacked with dpkg -x, relocated with
# OPAL_PREFIX; docs/distributed.md lists them). Expects dist_check,
# dist_bench and heat3d-mpi (build.sh) beside it. Logs go to $OUT when set.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-.}
nvidia-smi -L
source ./mpi-env.sh # $mpirun, Open MPI from ./debs where missing, the ranks' environment
$mpirun --version | head -1
status=0
check() { # name np [transport]
  STENCILC_DIST_TRANSPORT=${3:-auto} timeout 60 $mpirun -np "$2" ./dist_check > "$out/$1.txt" 2>&1
  grep -q '^PASS: ' "$out/$1.txt" || status=1
  echo "$1: $(tail -1 "$out/$1.txt"); transports: $(grep -o 'transport=[a-z-]*' "$out/$1.txt" | sort | uniq -c | tr '\n' ' ')"
  grep -h '^FAIL' "$out/$1.txt" | head -5
}
check check-np2 2
check check-np4 4
check check-np2-host 2 host
# Two ranks, each under compute-sanitizer (memcheck), two stencils.
for t in host auto; do
  STENCILC_DIST_TRANSPORT=$t timeout 60 $mpirun -np 2 compute-sanitizer --error-exitcode 3 \
    ./dist_check --quick > "$out/sanitizer-$t.txt" 2>&1
  echo "compute-sanitizer ($t) exit $?: $(grep -h 'ERROR SUMMARY' "$out/sanitizer-$t.txt" | tr '\n' ' ')"
done
timeout 60 $mpirun -np 4 ./heat3d-mpi 192 100 2>&1 | grep heat3d-mpi: | tee "$out/heat3d-mpi-np4.txt"
grep -q ': PASS$' "$out/heat3d-mpi-np4.txt" || status=1
for t in auto host; do
  STENCILC_DIST_TRANSPORT=$t timeout 60 $mpirun -np 2 ./dist_bench 512 40 9 2>&1 | tee "$out/bench-np2-$t.txt"
done
exit $status
