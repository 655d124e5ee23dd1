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

# The projects' device code is built unoptimised: this test is about the
# package (configure, build, regenerate, install, import), and an optimised
# build of the generated kernels, several times over, was most of its time;
# the Compile lit tests build them optimised.
cuda_flags=-DCMAKE_CUDA_FLAGS="-Xcicc -O0 -Xptxas -O0"

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
  cmake -S "$scratch/consumer" -B "$scratch/$flavour" -G Ninja "${where[@]}" "$cuda_flags" \
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

# stencilc plans for each ARCH, oldest first whatever the order (one .cu of
# both plans, docs/generated-code.md).
sed -i 's|ARCH sm_80 sm_90|ARCH sm_90 sm_80|' "$scratch/consumer/CMakeLists.txt"
cmake --build "$scratch/installed" >"$scratch/arch.log"
grep -o -- "--arch=[a-z0-9_,]*" "$scratch/installed/build.ninja" | sort -u >"$scratch/arch.txt"
[[ $(cat "$scratch/arch.txt") == --arch=sm_80,sm_90 ]] ||
  { echo "ARCH sm_90 sm_80 did not plan for sm_80 and sm_90:"; cat "$scratch/arch.txt"; exit 1; }
echo "consumer: ARCH sm_90 sm_80 plans for sm_80 and sm_90"

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
  cmake -S "$scratch/c-consumer" -B "$scratch/c-build" -G Ninja -Dstencilc_DIR="$build" "$cuda_flags" \
    >"$scratch/c-consumer.configure.log"
  cmake --build "$scratch/c-build" >"$scratch/c-consumer.build.log"
  grep -q "0.25" "$scratch/c-build/heat.stencilc/heat.h" ||
    { echo "the C consumer's header lacks ALPHA"; exit 1; }
  sed -i 's|0.25|0.125|' "$scratch/c-consumer/coeffs.h"
  expect_regenerated "$scratch/c-build" "$scratch/c-consumer/coeffs.h" heat.c \
    "$scratch/c-build/heat.stencilc/heat.h"
fi

# Packaging: a project builds a generated library STATIC (installed and
# exported), SHARED and OBJECT; a second project imports the installed one.
mkdir -p "$scratch/pkg"
cp "$source/examples/consumer/blur.stencil" "$source/examples/consumer/main.cu" "$scratch/pkg/"
cat >"$scratch/pkg/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(stencilc_pkg LANGUAGES CXX CUDA)
find_package(stencilc 0.1 REQUIRED)
stencilc_add_library(blur SOURCES blur.stencil ARCH sm_80)
stencilc_add_library(blur_shared SHARED SOURCES blur.stencil ARCH sm_80)
stencilc_add_library(blur_objects OBJECT SOURCES blur.stencil ARCH sm_80)
add_executable(blur-demo main.cu)
target_link_libraries(blur-demo PRIVATE blur)
add_executable(blur-demo-shared main.cu)
target_link_libraries(blur-demo-shared PRIVATE blur_shared)
add_executable(blur-demo-objects main.cu $<TARGET_OBJECTS:blur_objects>)
target_link_libraries(blur-demo-objects PRIVATE blur_objects)
set_target_properties(blur-demo blur-demo-shared blur-demo-objects PROPERTIES CUDA_ARCHITECTURES 80)
install(TARGETS blur EXPORT blurTargets PUBLIC_HEADER DESTINATION include)
install(EXPORT blurTargets NAMESPACE pkg:: DESTINATION lib/cmake/blur)
CMAKE
cmake -S "$scratch/pkg" -B "$scratch/pkg-build" -G Ninja -DCMAKE_PREFIX_PATH="$scratch/prefix" "$cuda_flags" \
  >"$scratch/pkg.configure.log"
cmake --build "$scratch/pkg-build" >"$scratch/pkg.build.log"
test -f "$scratch/pkg-build/libblur_shared.so" || { echo "SHARED built no .so"; exit 1; }
test -x "$scratch/pkg-build/blur-demo-shared" && test -x "$scratch/pkg-build/blur-demo-objects"
cmake --install "$scratch/pkg-build" --prefix "$scratch/pkg-prefix" >"$scratch/pkg.install.log"
test -f "$scratch/pkg-prefix/include/blur.h" || { echo "blur.h was not installed"; exit 1; }
echo "consumer: STATIC, SHARED and OBJECT built; the STATIC one installed and exported"

# A project that imports the installed, exported library and includes its header.
mkdir -p "$scratch/importer"
cp "$source/examples/consumer/main.cu" "$scratch/importer/"
cat >"$scratch/importer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(stencilc_importer LANGUAGES CXX CUDA)
find_package(stencilc 0.1 REQUIRED)
include("${PKG_PREFIX}/lib/cmake/blur/blurTargets.cmake")
add_executable(importer main.cu)
target_link_libraries(importer PRIVATE pkg::blur)
set_target_properties(importer PROPERTIES CUDA_ARCHITECTURES 80)
CMAKE
cmake -S "$scratch/importer" -B "$scratch/importer-build" -G Ninja "$cuda_flags" \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" -DPKG_PREFIX="$scratch/pkg-prefix" \
  >"$scratch/importer.configure.log"
cmake --build "$scratch/importer-build" >"$scratch/importer.build.log"
test -x "$scratch/importer-build/importer"
echo "consumer: the exported library imported and linked from its install"

# A comment-only edit reruns stencilc, which leaves both outputs as they
# were: nothing downstream is compiled or linked again.
echo '// a comment, nothing else' >>"$scratch/pkg/blur.stencil"
cmake --build "$scratch/pkg-build" >"$scratch/pkg.comment.log"
grep -q "stencilc .*blur.stencil" "$scratch/pkg.comment.log" ||
  { echo "the comment-only edit did not rerun stencilc"; cat "$scratch/pkg.comment.log"; exit 1; }
if grep -Eq "Building CUDA|Linking" "$scratch/pkg.comment.log"; then
  echo "a comment-only edit rebuilt downstream:"; cat "$scratch/pkg.comment.log"; exit 1
fi
cmake --build "$scratch/pkg-build" | grep -q "no work to do" ||
  { echo "the build after a comment-only edit did not settle"; exit 1; }
echo "consumer: a comment-only edit rebuilt nothing downstream"

# Without ARCH the project's CMAKE_CUDA_ARCHITECTURES decides: --arch is the
# oldest entry stencilc plans for, CUDA_ARCHITECTURES the project's list
# (all-major: stencilc's own majors).
mkdir -p "$scratch/archs"
cp "$source/examples/consumer/blur.stencil" "$scratch/archs/"
cat >"$scratch/archs/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(stencilc_archs LANGUAGES CXX CUDA)
find_package(stencilc 0.1 REQUIRED)
stencilc_add_library(blur SOURCES blur.stencil)
get_target_property(archs blur CUDA_ARCHITECTURES)
message(STATUS "blur CUDA_ARCHITECTURES: ${archs}")
CMAKE
# One build folder for all of them: each configure sets the cache's
# CMAKE_CUDA_ARCHITECTURES again, and CMake finds the CUDA compiler once.
expect_arch() { # CMAKE_CUDA_ARCHITECTURES --arch CUDA_ARCHITECTURES
  cmake -S "$scratch/archs" -B "$scratch/archs-build" -G Ninja -DCMAKE_PREFIX_PATH="$scratch/prefix" \
    "-DCMAKE_CUDA_ARCHITECTURES=$1" >"$scratch/archs.configure.log"
  grep -q -- "--arch=$2 " "$scratch/archs-build/build.ninja" ||
    { echo "CMAKE_CUDA_ARCHITECTURES=$1 did not plan for $2"; exit 1; }
  grep -q "blur CUDA_ARCHITECTURES: $3\$" "$scratch/archs.configure.log" ||
    { echo "CMAKE_CUDA_ARCHITECTURES=$1 did not give CUDA_ARCHITECTURES $3"; exit 1; }
}
expect_arch 90 sm_90 90
expect_arch "100-real;86" sm_86,sm_100 "100;86"
expect_arch 90a sm_90a 90a
expect_arch all-major sm_80,sm_90,sm_100,sm_120 "80-real;90-real;100-real;120"
expect_arch 75 sm_80 80
if cmake -S "$scratch/archs" -B "$scratch/archs-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" "-DCMAKE_CUDA_ARCHITECTURES=75;90" \
  >"$scratch/archs.mixed.log" 2>&1; then
  echo "CMAKE_CUDA_ARCHITECTURES=75;90 was accepted"; exit 1
fi
grep -q "does not plan for" "$scratch/archs.mixed.log"
echo "consumer: CMAKE_CUDA_ARCHITECTURES followed without ARCH"
