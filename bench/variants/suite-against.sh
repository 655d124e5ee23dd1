#!/usr/bin/env bash
# Here (no GPU needed): lays out, for bench/variants/run.sh, every stencil of
# examples/suite/ at COMMIT as that commit's compiler generates it (label
# `old`, built there against COMMIT's runtime/include, copied in as
# old/include) beside the working tree's compiler's plan of the same file,
# COMMIT's text (label `new`), old and new alternating in list.txt: the way
# to check that the suite has not slowed down since COMMIT
# (docs/performance.md, 2026-12-01 23:25). COMMIT's compiler is built in a temporary worktree
# (about a minute on two cores with ccache, more without). Both plan for
# sm_90 with the default options.
# Usage: bench/variants/suite-against.sh COMMIT [OUT]   (default OUT
#   .gpu/against; STENCILC, default build/bin/stencilc)
# then, there: VARIANTS=$PWD/OUT ROUNDS=2 bench/variants/run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
commit=${1:?usage: suite-against.sh COMMIT [OUT]}
out=${2:-$root/.gpu/against}
stencilc=${STENCILC:-$root/build/bin/stencilc}
tree=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true; rm -rf "$tree"' EXIT
git -C "$root" worktree add -q --detach "$tree" "$commit"
cmake -S "$tree" -B "$tree/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSTENCILC_BUILD_GPU_TESTS=OFF -DSTENCILC_PYTHON=OFF >"$tree/configure.log" 2>&1 ||
  { tail -20 "$tree/configure.log"; exit 1; }
ninja -C "$tree/build" stencilc >"$tree/build.log" 2>&1 || { tail -20 "$tree/build.log"; exit 1; }
rm -rf "$out" && mkdir -p "$out/old" "$out/new"
cp -r "$tree/runtime/include" "$out/old/include"
for source in "$tree"/examples/suite/*.stencil; do
  name=$(basename "$source" .stencil)
  "$tree/build/bin/stencilc" --arch=sm_90 "$source" -o "$out/old/$name.cu"
  "$tree/build/bin/stencilc" --arch=sm_90 --emit=plan "$source" >"$out/old/$name.plan"
  "$stencilc" --arch=sm_90 "$source" -o "$out/new/$name.cu"
  "$stencilc" --arch=sm_90 --emit=plan "$source" >"$out/new/$name.plan"
  printf 'old %s\nnew %s\n' "$name" "$name" >>"$out/list.txt"
done
echo "suite-against: $(($(wc -l <"$out/list.txt") / 2)) stencils at $(git -C "$root" rev-parse --short "$commit") and now in $out"
