#!/usr/bin/env bash
# The fat library on a GPU (issue 37): box2d49p fp64 (examples/suite/) built
# once from --arch=sm_80,sm_90 for sm_80 and sm_90 (PTX of sm_90 too, as
# stencilc_add_library builds it) and once from --arch=sm_90 for sm_90 alone.
# On an H100 or H200 the fat library must run its sm_90 plan (NAME_info),
# match the float64 reference, and time NAME_run of 100 steps at 8192^2
# within 2 % of the single library (median of 11 after 3 warm-ups). In two
# halves, since the GPU machine has no LLVM:
#   scripts/fat-arch-check.sh gen OUTDIR   where stencilc builds: the two .cu
#       and .h in OUTDIR/fat and OUTDIR/single, and the test program
#   scripts/fat-arch-check.sh build OUTDIR where nvcc is (no GPU needed):
#       the four programs, so that the GPU machine's time only runs them
#   scripts/fat-arch-check.sh run OUTDIR   on the GPU machine: builds what
#       `build` has not, runs both, prints their lines, the ratio, and `RESULT: PASS|FAIL`
#       (PASS: the sm_90 plan, both checks pass, fat within 2 % of single);
#       first, a library of sm_100 and sm_120 plans only must refuse this
#       older GPU: cudaErrorNoKernelImageForDevice, no plan's NAME_info, and
#       a line on stderr naming the device's and the library's architectures;
#       and a library of sm_80 and sm_86 plans only (PTX of sm_86, as
#       stencilc_add_library builds it) must run its sm_86 plan (NAME_info)
#       through the driver's JIT and match the reference
# RUNTIME_INCLUDE= overrides runtime/include; STENCILC= the compiler.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
out=${2:-}
if [[ -z $out || ( $mode != gen && $mode != build && $mode != run ) ]]; then
  echo "usage: $0 gen|build|run OUTDIR" >&2
  exit 2
fi
source=$root/examples/suite/box2d49p_fp64.stencil
if [[ $mode == gen ]]; then
  stencilc=${STENCILC:-$root/build/bin/stencilc}
  rm -rf "$out" && mkdir -p "$out/fat" "$out/single"
  "$stencilc" --arch=sm_80,sm_90 "$source" -o "$out/fat/box2d49p_fp64.cu" || exit 1
  "$stencilc" --arch=sm_90 "$source" -o "$out/single/box2d49p_fp64.cu" || exit 1
  mkdir -p "$out/newer" "$out/older"
  "$stencilc" --arch=sm_100,sm_120 "$source" -o "$out/newer/box2d49p_fp64.cu" || exit 1
  "$stencilc" --arch=sm_80,sm_86 "$source" -o "$out/older/box2d49p_fp64.cu" || exit 1
  cp "$root/test/GPU/fat-arch/fat_arch_check.cu" "$out/"
  echo "generated $out; on the GPU machine: scripts/fat-arch-check.sh run $out"
  exit 0
fi
include=${RUNTIME_INCLUDE:-$root/runtime/include}
cd "$out" || exit 2
flags=(-std=c++17 -O3 -I"$include")
build() { # NAME, then nvcc's arguments: builds NAME.exe unless it is there
  local name=$1
  shift
  [[ -x $name.exe ]] && return 0
  nvcc "${flags[@]}" "$@" -o "$name.exe" >"$name.build.log" 2>&1 || { cat "$name.build.log"; exit 1; }
}
build fat -DFAT_LIBRARY -Ifat -gencode arch=compute_80,code=sm_80 \
  "-gencode=arch=compute_90,code=[sm_90,compute_90]" fat_arch_check.cu fat/box2d49p_fp64.cu
build single -Isingle "-gencode=arch=compute_90,code=[sm_90,compute_90]" \
  fat_arch_check.cu single/box2d49p_fp64.cu
build newer -DOLDER_DEVICE -Inewer -gencode arch=compute_100,code=sm_100 \
  "-gencode=arch=compute_120,code=[sm_120,compute_120]" fat_arch_check.cu newer/box2d49p_fp64.cu
build older -DOLDER_PLANS -Iolder -gencode arch=compute_80,code=sm_80 \
  "-gencode=arch=compute_86,code=[sm_86,compute_86]" fat_arch_check.cu older/box2d49p_fp64.cu
[[ $mode == build ]] && { echo "built $out/{fat,single,newer,older}.exe"; exit 0; }
status=0
echo "== older (plans for sm_80 and sm_86 only, sm_86's PTX)"
./older.exe 2>&1 | tee older.out || status=1
grep -q "^plan: sm_86" older.out || { echo "the older library does not run its sm_86 plan"; status=1; }
grep -q "^check: PASS" older.out || status=1
echo "== newer (plans for sm_100 and sm_120 only)"
./newer.exe 2>&1 | tee newer.out
grep -q "^refusal: PASS" newer.out || status=1
grep -q "this library was built for sm_100 and sm_120" newer.out ||
  { echo "no message naming the library's architectures"; status=1; }
for library in fat single; do
  echo "== $library"
  ./$library.exe | tee $library.out || status=1
done
fat_ms=$(sed -n 's/^time_ms: \([0-9.]*\).*/\1/p' fat.out)
single_ms=$(sed -n 's/^time_ms: \([0-9.]*\).*/\1/p' single.out)
grep -q "^plan: sm_90" fat.out || { echo "the fat library does not run its sm_90 plan"; status=1; }
grep -q "^check: PASS" fat.out && grep -q "^check: PASS" single.out || status=1
if [[ -n $fat_ms && -n $single_ms ]]; then
  ratio=$(python3 -c "print(f'{$fat_ms / $single_ms:.4f}')")
  echo "fat / single: $ratio (target: within 2 %)"
  python3 -c "import sys; sys.exit(0 if $fat_ms <= 1.02 * $single_ms else 1)" || status=1
else
  status=1
fi
echo "RESULT: $([[ $status == 0 ]] && echo PASS || echo FAIL)"
exit $status
