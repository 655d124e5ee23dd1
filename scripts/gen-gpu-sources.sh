#!/usr/bin/env bash
# Generates CUDA sources for the GPU machine (which has no LLVM, so no
# stencilc): runs stencilc (with a test's "// STENCILC-FLAGS:" if it has
# one) on every test/GPU/*.stencil and
# examples/suite/*.stencil and writes, under OUTDIR (default build-gen/):
#   test/NAME.cu, test/NAME.h, test/NAME.list.h
#   test/NAME.tensor.*  the same with --backend=tensor (where the stencil
#                  does not name its backend), and the tensor conformance set
#                  test/Compile/Inputs/tensor-conformance-2d.stencil, also
#                  planned for sm_80 (test/NAME.tensor-sm_80.*) and for
#                  sm_80 with 3 MMA blocks a tile (NAME.tensor-sm_80-n-blocks3.*)
#   bench/NAME.tensor.*, bench/NAME.simt.*  each suite stencil with each
#                  backend forced (--backend=tensor / simt), so the benchmark
#                  compares both
#   bench/NAME_BOUNDARY.bounds.*  each suite stencil at every boundary but its
#                  own (constant 0.25, periodic, clamp, mirror, reflect), renamed, with
#                  the default backend: the fused NAME_run's conformance at
#                  every boundary (gpu-sanitize.sh --check-run)
#   bench/fields_tc.*, bench/fields_simt.*  bench/fieldstc/fields.stencil.in's
#                  stencils of fields with --backend=tensor and --backend=simt,
#                  for stencilc-bench-fieldstc (bench/CMakeLists.txt); not in
#                  the manifest
#   bench/fields_bench_stencils.*  bench/fields/fields_bench.stencil, for
#                  stencilc-bench-fields (one step of stencils of fields
#                  against the copy roofline); not in the manifest
#   manifest.txt   one "test/NAME" or "bench/NAME.BACKEND" a line, for CMake
#   failed.txt     the inputs stencilc rejected, with its message
#   unavailable.txt  suite stencils a forced backend cannot take (stencilc's
#                  reason), e.g. fp32 on tensor cores: not failures
# Carry OUTDIR to the GPU machine (run's `carry`), where scripts/gpu-check.sh
# builds and runs them. Exit status 1 when any input failed to generate (the
# others are still written and listed).
#
# Usage: scripts/gen-gpu-sources.sh [OUTDIR]
#   STENCILC=path/to/stencilc (default build/bin/stencilc)
#   STENCILC_ARCH=sm_90        (default sm_90: the H100/H200)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build-gen}
stencilc=${STENCILC:-$root/build/bin/stencilc}
arch=${STENCILC_ARCH:-sm_90}
lister=$root/test/GPU/harness/stencil_list.py

if [[ ! -x $stencilc ]]; then
  echo "gen-gpu-sources: no stencilc at $stencilc (build it, or set STENCILC=)" >&2
  exit 2
fi

rm -rf "$out"
mkdir -p "$out/test" "$out/bench"
: >"$out/manifest.txt"
: >"$out/failed.txt"
: >"$out/unavailable.txt"
generated=0
failed=0
unavailable=0

generate() { # group input [backend [arch [plan-option [set]]]]
  # set: the manifest's ".SET" for an input planned with the default backend
  local group=$1 input=$2 backend=${3:-} plan_arch=${4:-} option=${5:-} set=${6:-} base flags suffix
  suffix=${option//=/}
  base=$group/$(basename "$input" .stencil)${backend:+.$backend}${set:+.$set}${plan_arch:+-$plan_arch}${suffix:+-${suffix//,/-}}
  # A test may ask for flags with a "// STENCILC-FLAGS: ..." line.
  flags=$(sed -n 's|^// STENCILC-FLAGS: *||p' "$input" | head -1)
  flags+=${backend:+ --backend=$backend}${option:+ --plan-option=$option}
  # shellcheck disable=SC2086 # flags are words
  if msg=$("$stencilc" --arch="${plan_arch:-$arch}" $flags "$input" -o "$out/$base.cu" 2>&1) &&
    python3 "$lister" "$out/$base.h" >"$out/$base.list.h"; then
    echo "$base" >>"$out/manifest.txt"
    generated=$((generated + 1))
  else
    rm -f "$out/$base.cu" "$out/$base.h" "$out/$base.list.h"
    if [[ -n $backend ]] && grep -qi "backend" <<<"$msg"; then
      printf '%s (--backend=%s)\n%s\n\n' "$input" "$backend" "$msg" >>"$out/unavailable.txt"
      unavailable=$((unavailable + 1))
    else
      printf '%s\n%s\n\n' "$input" "$msg" >>"$out/failed.txt"
      failed=$((failed + 1))
    fi
  fi
}

for f in "$root"/test/GPU/*.stencil; do
  [[ -e $f ]] || continue
  generate test "$f"
  # Under auto many stencils run on CUDA cores: test the tensor-core kernel of
  # each one too (the .tensor twin), unless the test itself asks for it.
  grep -q '^// STENCILC-FLAGS:.*--backend=tensor' "$f" || generate test "$f" tensor
done
# The tensor backend's conformance set: every shape, radius 1..8,
# precision and boundary; also as planned for sm_80 (fp64 on m8n8k4 rather
# than sm_90's m16n8k4), which runs on newer GPUs too; and with tiles of 3
# MMA blocks across (A fragments shared between blocks, 16-bit tiles stored
# pair by pair; the tuned plans of the suite kinds use 4).
conformance=$root/test/Compile/Inputs/tensor-conformance-2d.stencil
generate test "$conformance" tensor
generate test "$conformance" tensor sm_80
generate test "$conformance" tensor sm_80 n-blocks=3
for f in "$root"/examples/suite/*.stencil; do
  [[ -e $f ]] || continue
  generate bench "$f" tensor
  generate bench "$f" simt
done
bounds=$(mktemp -d)
trap 'rm -rf "$bounds"' EXIT
for f in "$root"/examples/suite/*.stencil; do
  [[ -e $f ]] || continue
  name=$(basename "$f" .stencil)
  # The peers' stencils (ebisu_*) are there to be compared with the peer on
  # its own boundary; the suite's kinds are the ones held to every rule.
  [[ $name == ebisu_* ]] && continue
  for boundary in "constant 0.25" periodic clamp mirror reflect; do
    variant=$bounds/${name}_${boundary%% *}.stencil
    sed -e "s/^stencil $name {/stencil ${name}_${boundary%% *} {/" \
      -e "s/^  boundary fixed;/  boundary $boundary;/" "$f" >"$variant"
    grep -q "boundary $boundary;" "$variant" || { echo "gen-gpu-sources: $f has no 'boundary fixed;'" >&2; exit 2; }
    generate bench "$variant" "" "" "" bounds
  done
done
# The fields benchmark (bench/fieldstc): the same stencils of fields on
# tensor cores (NAME = tc) and on CUDA cores (NAME = simt), one program.
for backend in tensor simt; do
  name=fields_$([[ $backend == tensor ]] && echo tc || echo simt)
  sed "s/NAME/${name#fields_}/g" "$root/bench/fieldstc/fields.stencil.in" >"$bounds/$name.stencil"
  if msg=$("$stencilc" --arch="$arch" --backend=$backend "$bounds/$name.stencil" \
    -o "$out/bench/$name.cu" 2>&1); then
    generated=$((generated + 1))
  else
    rm -f "$out/bench/$name.cu" "$out/bench/$name.h"
    printf '%s (--backend=%s)\n%s\n\n' "bench/fieldstc/fields.stencil.in" "$backend" "$msg" \
      >>"$out/failed.txt"
    failed=$((failed + 1))
  fi
done

# The one-step benchmark of stencils of fields (bench/fields): its stencils
# with the default backend, for stencilc-bench-fields.
if msg=$("$stencilc" --arch="$arch" "$root/bench/fields/fields_bench.stencil" \
  -o "$out/bench/fields_bench_stencils.cu" 2>&1); then
  generated=$((generated + 1))
else
  printf '%s\n%s\n\n' "bench/fields/fields_bench.stencil" "$msg" >>"$out/failed.txt"
  failed=$((failed + 1))
fi

echo "gen-gpu-sources: $generated generated into $out, $unavailable not available" \
  "with the backend forced, $failed failed (arch $arch)"
if ((failed)); then
  echo "gen-gpu-sources: failures in $out/failed.txt:" >&2
  cat "$out/failed.txt" >&2
  exit 1
fi
