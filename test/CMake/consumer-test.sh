#!/usr/bin/env bash
# The package as a user consumes it: install this build into a fresh prefix,
# then configure and build examples/consumer against it (find_package +
# stencilc_add_library); do the same against the build tree's export. Edit
# the consumer's .stencil and check that the next build regenerates it.
# Builds only: CI has nvcc but no GPU.
#
# Usage: consumer-test.sh <stencilc build dir> <source dir> <scratch dir>
set -euo pipefail
build=$1 source=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch"

cmake --install "$build" --prefix "$scratch/prefix" >"$scratch/install.log"
test -x "$scratch/prefix/bin/stencilc"
test -f "$scratch/prefix/lib/cmake/stencilc/stencilcConfigVersion.cmake"

cp -r "$source/examples/consumer" "$scratch/consumer"
for flavour in installed build-tree; do
  if [[ $flavour == installed ]]; then
    where=(-DCMAKE_PREFIX_PATH="$scratch/prefix")
  else
    where=(-Dstencilc_DIR="$build")
  fi
  cmake -S "$scratch/consumer" -B "$scratch/$flavour" -G Ninja "${where[@]}" \
    >"$scratch/$flavour.configure.log"
  cmake --build "$scratch/$flavour" >"$scratch/$flavour.build.log"
  test -x "$scratch/$flavour/blur-demo"
  test -f "$scratch/$flavour/blur.stencilc/blur.h"
  echo "consumer ($flavour package): configured and built"
done

# An edited .stencil regenerates on the next build, and only then.
cmake --build "$scratch/installed" | grep -q "no work to do" ||
  { echo "a second build did work it should not have"; exit 1; }
sed -i 's|let e = 1 / 9;|let e = 0.125;|' "$scratch/consumer/blur.stencil"
cmake --build "$scratch/installed" >"$scratch/rebuild.log"
grep -q "stencilc .*blur.stencil" "$scratch/rebuild.log" ||
  { echo "editing blur.stencil did not regenerate"; cat "$scratch/rebuild.log"; exit 1; }
grep -q "0.125" "$scratch/installed/blur.stencilc/blur.h" ||
  { echo "the regenerated header does not have the new coefficient"; exit 1; }
echo "consumer: editing the .stencil regenerated the library"

# stencilc plans for the oldest ARCH, whatever the order: code planned for
# sm_90 may not build for sm_80.
sed -i 's|ARCH sm_80 sm_90|ARCH sm_90 sm_80|' "$scratch/consumer/CMakeLists.txt"
cmake --build "$scratch/installed" >"$scratch/arch.log"
grep -o -- "--arch=sm_[0-9]*" "$scratch/installed/build.ninja" | sort -u >"$scratch/arch.txt"
[[ $(cat "$scratch/arch.txt") == --arch=sm_80 ]] ||
  { echo "ARCH sm_90 sm_80 did not plan for sm_80:"; cat "$scratch/arch.txt"; exit 1; }
echo "consumer: ARCH sm_90 sm_80 plans for sm_80"
