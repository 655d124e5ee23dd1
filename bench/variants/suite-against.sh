#!/usr/bin/env bash
# Here (no GPU needed): lays out, for bench/variants/run.sh, the stencils of
# examples/suite/ at COMMIT (every one, or the NAMEs given) as that commit's
# compiler generates them (label `old`, built there against COMMIT's
# runtime/include, copied in as old/include) beside the working tree's
# compiler's plan of the same file, COMMIT's text (label `new`), old and
# new alternating in list.txt: the way to check that the suite has not
# slowed down since COMMIT (docs/performance.md, 2026-12-01 23:25), or to
# time a change of some kinds beside the commit before it (2026-12-02
# 01:27). Both go through gen.sh, planning for sm_90 with the default
# options. COMMIT's compiler is built in a temporary worktree (about a
# minute on two cores with ccache, more without).
# Usage: bench/variants/suite-against.sh COMMIT [OUT [NAME...]]   (default
#   OUT .gpu/against; STENCILC, default build/bin/stencilc)
# then, there: VARIANTS=$PWD/OUT ROUNDS=2 bench/variants/run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
commit=${1:?usage: suite-against.sh COMMIT [OUT [NAME...]]}
out=${2:-$root/.gpu/against}
shift $(($# < 2 ? $# : 2))
names=("$@")
stencilc=${STENCILC:-$root/build/bin/stencilc}
tree=$(mktemp -d)
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true; rm -rf "$tree" "$work"' EXIT
git -C "$root" worktree add -q --detach "$tree" "$commit"
cmake -S "$tree" -B "$tree/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSTENCILC_BUILD_GPU_TESTS=OFF -DSTENCILC_PYTHON=OFF >"$tree/configure.log" 2>&1 ||
  { tail -20 "$tree/configure.log"; exit 1; }
ninja -C "$tree/build" stencilc >"$tree/build.log" 2>&1 || { tail -20 "$tree/build.log"; exit 1; }
if ((${#names[@]} == 0)); then
  for source in "$tree"/examples/suite/*.stencil; do
    names+=("$(basename "$source" .stencil)")
  done
fi
for label in old new; do
  for name in "${names[@]}"; do
    echo "$label $name"
  done >"$work/$label.list"
done
SUITE=$tree/examples/suite STENCILC=$tree/build/bin/stencilc \
  "$root/bench/variants/gen.sh" "$work/old.list" "$work/old" >/dev/null
SUITE=$tree/examples/suite STENCILC=$stencilc \
  "$root/bench/variants/gen.sh" "$work/new.list" "$work/new" >/dev/null
rm -rf "$out" && mkdir -p "$out"
mv "$work/old/old" "$work/new/new" "$out/"
cp -r "$tree/runtime/include" "$out/old/include"
for name in "${names[@]}"; do
  printf 'old %s\nnew %s\n' "$name" "$name"
done >"$out/list.txt"
echo "suite-against: ${#names[@]} stencils at $(git -C "$root" rev-parse --short "$commit") and now in $out"
