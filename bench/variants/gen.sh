#!/usr/bin/env bash
# Generates, where stencilc is (no GPU needed), the plans a variants list
# names, for bench/variants/run.sh on the GPU machine (carry OUT there).
# A list line is `LABEL SUITE-NAME [stencilc flags...]` ('#' starts a
# comment): the suite stencil examples/suite/SUITE-NAME.stencil planned for
# sm_90 with those flags, as OUT/LABEL/SUITE-NAME.{cu,h,plan}. The plans
# keep the stencil's own name, so each variant is its own program there.
# Usage: bench/variants/gen.sh LIST [OUT]   (default OUT .gpu/variants;
#   STENCILC, default build/bin/stencilc)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
list=${1:?usage: gen.sh LIST [OUT]}
out=${2:-$root/.gpu/variants}
stencilc=${STENCILC:-$root/build/bin/stencilc}
rm -rf "$out" && mkdir -p "$out"
cp "$list" "$out/list.txt"
while read -r label name flags; do
  [[ -z $label || $label == \#* ]] && continue
  mkdir -p "$out/$label"
  # shellcheck disable=SC2086 # the flags, split
  "$stencilc" --arch=sm_90 $flags "$root/examples/suite/$name.stencil" -o "$out/$label/$name.cu"
  # shellcheck disable=SC2086
  "$stencilc" --arch=sm_90 $flags --emit=plan "$root/examples/suite/$name.stencil" \
    >"$out/$label/$name.plan"
done <"$list"
echo "variants: $(grep -cvE '^\s*(#|$)' "$list") plans in $out"
