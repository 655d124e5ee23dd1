# mpi-env.sh - sourced by run-device.sh and scaling.sh: sets $mpirun to an
# Open MPI launcher and the environment for ranks on one machine. Where
# mpirun is missing, Open MPI comes from the Debian .deb files in ./debs
# (unpacked with dpkg -x, relocated with OPAL_PREFIX; docs/distributed.md
# lists them).
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
# NVLink multicast stays off (the device tool's KINDS.md says why).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
