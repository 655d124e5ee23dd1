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

# expect_regenerated BUILD-DIR EDITED-FILE SOURCE HEADER: after an edit of
# EDITED-FILE that brings in 0.125, the next build of BUILD-DIR reruns
# stencilc on SOURCE and HEADER has the new number.
expect_regenerated() {
  local build_dir=$1 edited=$2 source_name=$3 header=$4
  cmake --build "$build_dir" >"$build_dir.rebuild.log"
  grep -q "stencilc .*$source_name" "$build_dir.rebuild.log" ||
    { echo "editing $edited did not regenerate"; cat "$build_dir.rebuild.log"; exit 1; }
  grep -q "0.125" "$header" ||
    { echo "the regenerated $header does not have the new coefficient"; exit 1; }
  echo "consumer: editing $(basename "$edited") regenerated the library"
}

# An edited .stencil regenerates on the next build, and only then.
cmake --build "$scratch/installed" | grep -q "no work to do" ||
  { echo "a second build did work it should not have"; exit 1; }
sed -i 's|let e = 1 / 9;|let e = 0.125;|' "$scratch/consumer/blur.stencil"
expect_regenerated "$scratch/installed" "$scratch/consumer/blur.stencil" blur.stencil \
  "$scratch/installed/blur.stencilc/blur.h"

# stencilc plans for the oldest ARCH, whatever the order: code planned for
# sm_90 may not build for sm_80.
sed -i 's|ARCH sm_80 sm_90|ARCH sm_90 sm_80|' "$scratch/consumer/CMakeLists.txt"
cmake --build "$scratch/installed" >"$scratch/arch.log"
grep -o -- "--arch=sm_[0-9]*" "$scratch/installed/build.ninja" | sort -u >"$scratch/arch.txt"
[[ $(cat "$scratch/arch.txt") == --arch=sm_80 ]] ||
  { echo "ARCH sm_90 sm_80 did not plan for sm_80:"; cat "$scratch/arch.txt"; exit 1; }
echo "consumer: ARCH sm_90 sm_80 plans for sm_80"

# A C source's #includes are dependencies too (stencilc's depfile): editing
# a header it includes regenerates the kernel. Needs the C front end.
if [[ -x "$build/bin/stencilc-cfront" ]]; then
  mkdir -p "$scratch/c-consumer"
  cat >"$scratch/c-consumer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(stencilc_c_consumer LANGUAGES CXX CUDA)
find_package(stencilc 0.1 REQUIRED)
stencilc_add_library(heat SOURCES heat.c)
CMAKE
  echo '#define ALPHA 0.25' >"$scratch/c-consumer/coeffs.h"
  cat >"$scratch/c-consumer/heat.c" <<'C'
#include "coeffs.h"
void heat(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = ALPHA * a[i - 1] + (1 - 2 * ALPHA) * a[i] + ALPHA * a[i + 1];
}
C
  cmake -S "$scratch/c-consumer" -B "$scratch/c-build" -G Ninja -Dstencilc_DIR="$build" \
    >"$scratch/c-consumer.configure.log"
  cmake --build "$scratch/c-build" >"$scratch/c-consumer.build.log"
  grep -q "0.25" "$scratch/c-build/heat.stencilc/heat.h" ||
    { echo "the C consumer's header lacks ALPHA"; exit 1; }
  sed -i 's|0.25|0.125|' "$scratch/c-consumer/coeffs.h"
  expect_regenerated "$scratch/c-build" "$scratch/c-consumer/coeffs.h" heat.c \
    "$scratch/c-build/heat.stencilc/heat.h"
fi
