#!/usr/bin/env bash
# Builds the distributed runtime's GPU check and benchmarks (dist_check,
# dist_bench, dist_scaling) and the heat3d-mpi example for sm_90 into OUT_DIR (default
# ./out), all with the CUDA runtime linked statically: generates the stencils
# with stencilc, compiles them and the programs with nvcc, links the
# runtime's dist libraries from BUILD (default build/) and MPI. Run from the
# repository root on a machine with stencilc, nvcc and MPI; the programs then
# run where the GPU is (docs/distributed.md says how). Also builds
# transport_check (one transport's exchange alone). NCCL_INCLUDE, the
# directory of an nccl.h (the nvidia-nccl-cu13 wheel's nvidia/nccl/include),
# builds the runtime's NCCL transport into them: BUILD's library has it only
# where nccl.h was found when it was built. transport.cpp is compiled again
# against the headers of the mpicc on the PATH: built under a CUDA-aware
# Open MPI (`source runtime/dist/test/gpu/mpi-env.sh` beside the
# ompi-cuda.tar.xz of build-cuda-ompi.sh), the programs take cuda-mpi; the
# tarball is copied beside them.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../../.." && pwd)
build=${BUILD:-$root/build}
out=${OUT_DIR:-$PWD/out}
here=$root/runtime/dist/test/gpu
mkdir -p "$out"
mpi_inc=$(mpicc --showme:incdirs | tr ' ' '\n' | sed 's/^/-I/' | tr '\n' ' ')
mpi_lib=$(mpicc --showme:libdirs | tr ' ' '\n' | sed 's/^/-L/' | tr '\n' ' ')
includes="-I$out -I$root/runtime/include -I$root/runtime/dist/include $mpi_inc"
nvcc_flags=(-O3 -std=c++17 -arch=sm_90 -Xcompiler=-Wall,-Wextra)
"$build/bin/stencilc" "$here/dist_check.stencil" -o "$out/dist_check_gen.cu" --header "$out/dist_check.h"
for k in star3d7p_fp64 star3d7p_fp32 box3d27p_fp64 box3d27p_fp32; do
  "$build/bin/stencilc" "$root/examples/suite/$k.stencil" -o "$out/$k.cu"
done
"$build/bin/stencilc" "$root/examples/heat3d-mpi/heat3d.stencil" -o "$out/heat3d.cu"
dist_lib=$build/runtime/dist/libstencilc_dist.a
# The same library with transport.cpp built again against the headers of
# the mpicc on the PATH (a CUDA-aware Open MPI's mpi-ext.h turns cuda-mpi
# on: source mpi-env.sh beside ompi-cuda.tar.xz first) and, with
# NCCL_INCLUDE, against nccl.h.
mkdir -p "$out/lib" && cp "$dist_lib" "$out/lib/" && dist_lib=$out/lib/libstencilc_dist.a
g++ -O3 -std=c++17 -fPIC -Wall -Wextra -Werror -DOMPI_SKIP_MPICXX=1 -I"$root/runtime/dist/include" \
  -I"$root/runtime/include" $mpi_inc -isystem "$(dirname "$(command -v nvcc)")/../include" \
  ${NCCL_INCLUDE:+-isystem "$NCCL_INCLUDE"} -c "$root/runtime/dist/src/transport.cpp" \
  -o "$out/lib/transport.cpp.o"
ar r "$dist_lib" "$out/lib/transport.cpp.o"
rm -f "$out/with-nccl" # where nccl.h was found (transport.cpp's __has_include), run-device.sh
if echo '#include <nccl.h>' | g++ -E -x c++ -isystem "$(dirname "$(command -v nvcc)")/../include" \
  ${NCCL_INCLUDE:+-isystem "$NCCL_INCLUDE"} - >/dev/null 2>&1; then
  touch "$out/with-nccl" # ... runs the nccl transport too
fi
libs="$dist_lib $build/runtime/dist/libstencilc_dist_exchange.a \
  $build/runtime/dist/libstencilc_dist_core.a $mpi_lib -lmpi -ldl"
nvcc "${nvcc_flags[@]}" $includes -DSTENCILC_DIST -DOMPI_SKIP_MPICXX=1 \
  "$here/dist_check.cu" "$out/dist_check_gen.cu" $libs -o "$out/dist_check" &
check=$!
nvcc "${nvcc_flags[@]}" $includes -DSTENCILC_DIST -DOMPI_SKIP_MPICXX=1 \
  "$root/examples/heat3d-mpi/main.cu" "$out/heat3d.cu" $libs -o "$out/heat3d-mpi"
nvcc "${nvcc_flags[@]}" $includes -DSTENCILC_DIST -DOMPI_SKIP_MPICXX=1 \
  "$here/dist_bench.cu" "$out/star3d7p_fp64.cu" $libs -o "$out/dist_bench"
nvcc "${nvcc_flags[@]}" $includes -DSTENCILC_DIST -DOMPI_SKIP_MPICXX=1 "$here/dist_scaling.cu" \
  "$out/star3d7p_fp64.cu" "$out/star3d7p_fp32.cu" "$out/box3d27p_fp64.cu" "$out/box3d27p_fp32.cu" \
  $libs -o "$out/dist_scaling"
nvcc "${nvcc_flags[@]}" $includes -I"$root/runtime/dist/src" -DOMPI_SKIP_MPICXX=1 \
  "$here/transport_check.cu" $libs -o "$out/transport_check"
cp "$here"/{run-device.sh,overhead.sh,scaling.sh,scaling_table.py,mpi-env.sh} "$out/" # what runs them there
if [[ -f $here/ompi-cuda.tar.xz ]]; then # the CUDA-aware Open MPI (build-cuda-ompi.sh), for mpi-env.sh
  cp "$here/ompi-cuda.tar.xz" "$out/"
fi
wait "$check" # the check, built in the background
