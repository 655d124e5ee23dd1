# mpi-env.sh - sourced by run-device.sh, overhead.sh and scaling.sh: sets $mpirun to an
# Open MPI launcher and the environment for ranks on one machine. Where
# ompi-cuda.tar.xz is beside this file (build-cuda-ompi.sh makes it), its
# CUDA-aware Open MPI 4.1.4 is unpacked into /tmp/ompi-cuda and used for
# mpirun and the ranks' libmpi.so.40 (relocated with OPAL_PREFIX), and
# $ompi_cuda names that directory. Else, where mpirun is missing, Open MPI
# comes from the Debian .deb files in ./debs (unpacked with dpkg -x,
# relocated with OPAL_PREFIX; docs/distributed.md lists them).
mpirun=mpirun
ompi_cuda=
ompi_cuda_tarball=$(dirname "${BASH_SOURCE[0]}")/ompi-cuda.tar.xz
if [[ -f $ompi_cuda_tarball ]]; then
  ompi_cuda=/tmp/ompi-cuda # unpacked again only where it came from another tarball
  if [[ "$(cat "$ompi_cuda/.tarball" 2>/dev/null)" != "$(stat -c '%s %Y' "$ompi_cuda_tarball")" ]]; then
    rm -rf "$ompi_cuda" && mkdir -p "$ompi_cuda" && tar -xJf "$ompi_cuda_tarball" -C "$ompi_cuda" &&
      stat -c '%s %Y' "$ompi_cuda_tarball" >"$ompi_cuda/.tarball"
  fi
  export OPAL_PREFIX=$ompi_cuda PATH=$ompi_cuda/bin:$PATH
  export LD_LIBRARY_PATH=$ompi_cuda/lib:${LD_LIBRARY_PATH:-}
elif ! command -v mpirun >/dev/null; then
  rm -rf /tmp/ompi && mkdir -p /tmp/ompi
  for f in debs/*.deb; do dpkg -x "$f" /tmp/ompi; done
  export OPAL_PREFIX=/tmp/ompi/usr PATH=/tmp/ompi/usr/bin:$PATH
  export LD_LIBRARY_PATH=/tmp/ompi/usr/lib/x86_64-linux-gnu:/tmp/ompi/usr/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}
  mpirun=mpirun.openmpi # Debian makes the plain name with update-alternatives
fi
# Root in a container: allow it; shared memory and TCP on one machine only.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_vader_single_copy_mechanism=none
if [[ -n $ompi_cuda ]]; then
  # Device buffers between the ranks of one machine: ob1 over smcuda, the
  # shared-memory BTL with CUDA IPC for large messages (CUDA support on).
  export OMPI_MCA_btl=self,smcuda,tcp OMPI_MCA_opal_cuda_support=1 OMPI_MCA_btl_smcuda_use_cuda_ipc=1
fi
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
# $cuda_mpi: "cuda-mpi" where the Open MPI in use says it is CUDA-aware
# (run-device.sh and overhead.sh then check that transport too), else empty.
cuda_mpi=
ompi_info --parsable --all 2>/dev/null | grep -q 'mpi_built_with_cuda_support:value:true' &&
  cuda_mpi=cuda-mpi
# NVLink multicast stays off (the device tool's KINDS.md says why).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
