#!/usr/bin/env bash
# Runs the distributed runtime's GPU check and benchmark on a GPU machine
# that may have no MPI: where mpirun is missing, Open MPI comes from the
# Debian .deb files in ./debs (unpacked with dpkg -x, relocated with
# OPAL_PREFIX; docs/distributed.md lists them). Expects dist_check and
# dist_bench (build.sh) beside it. Writes its logs to $OUT when set.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-.}
nvidia-smi -L
mpirun=mpirun
if ! command -v mpirun >/dev/null; then
  rm -rf /tmp/ompi && mkdir -p /tmp/ompi
  for f in debs/*.deb; do dpkg -x "$f" /tmp/ompi; done
  export OPAL_PREFIX=/tmp/ompi/usr PATH=/tmp/ompi/usr/bin:$PATH
  export LD_LIBRARY_PATH=/tmp/ompi/usr/lib/x86_64-linux-gnu:/tmp/ompi/usr/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}
  mpirun=mpirun.openmpi # Debian makes the plain name with update-alternatives
fi
# Root in a container: allow it; shared memory and TCP on one machine only.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
export NCCL_NVLS_ENABLE=0
$mpirun --version | head -1
status=0
for np in 2 4; do
  $mpirun -np "$np" ./dist_check 2>&1 | tee "$out/check-np$np.txt" | tail -4 || status=1
  grep -q '^PASS: ' "$out/check-np$np.txt" || status=1
done
grep -h '^FAIL' "$out"/check-np*.txt | head -20
# One rank under compute-sanitizer (memcheck), two stencils.
timeout 120 $mpirun -np 1 compute-sanitizer --error-exitcode 3 ./dist_check --quick \
  > "$out/sanitizer.txt" 2>&1
echo "compute-sanitizer exit $?"; tail -4 "$out/sanitizer.txt"
$mpirun -np 2 ./dist_bench 512 20 7 2>&1 | tee "$out/bench-np2.txt"
exit $status
