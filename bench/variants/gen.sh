#!/usr/bin/env bash
# Generates, where stencilc is (no GPU needed), the plans a variants list
# names, for bench/variants/run.sh on the GPU machine (carry OUT there).
# A list line is `LABEL SUITE-NAME [stencilc flags...]` ('#' starts a
# comment): the suite stencil examples/suite/SUITE-NAME.stencil planned for
# sm_90 with those flags, as OUT/LABEL/SUITE-NAME.{cu,h,plan}. The plans
# keep the stencil's own name, so each variant is its own program there.
# A LABEL of the form NAME:BOUNDARY... (e.g. `q-const:constant 0.25`
# written `q-const:constant_0.25`) also sets the stencil's boundary line
# to BOUNDARY, underscores read as spaces (OUT/LABEL/SUITE-NAME.stencil).
# A SUITE-NAME ending in .stencil is a path from the repository root
# instead (a stencil of a benchmark's own, outside the suite); its list.txt
# line in OUT then names the stencil's own name.
# A line `LABEL SUITE-NAME from=FROM K=V...` is a variant of FROM's plan of
# that stencil with some of its fused Params' constants set otherwise
# (bench/variants/params.sh, whose assignments the K=V are), made after
# every plan the list names.
# Usage: bench/variants/gen.sh LIST [OUT]   (default OUT .gpu/variants;
#   STENCILC, default build/bin/stencilc; SUITE, the folder of the suite's
#   files, default examples/suite: another commit's, for suite-against.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
list=${1:?usage: gen.sh LIST [OUT]}
out=${2:-$root/.gpu/variants}
stencilc=${STENCILC:-$root/build/bin/stencilc}
rm -rf "$out" && mkdir -p "$out"
: >"$out/list.txt"
derived=()
while read -r label name flags; do
  [[ -z $label || $label == \#* ]] && continue
  if [[ $flags == from=* ]]; then
    derived+=("$label $name $flags")
    continue
  fi
  mkdir -p "$out/$label"
  source=${SUITE:-$root/examples/suite}/$name.stencil
  if [[ $name == *.stencil ]]; then # a path from the root, outside the suite
    source=$root/$name
    # the stencil's own name (its first), which its functions carry
    name=$(grep -m1 -oE '^stencil [A-Za-z_][A-Za-z_0-9]*' "$source" | awk '{print $2}')
  fi
  echo "$label $name $flags" >>"$out/list.txt"
  if [[ $label == *:* ]]; then
    boundary=${label#*:}
    sed "s/^  boundary .*;\$/  boundary ${boundary//_/ };/" "$source" >"$out/$label/$name.stencil"
    source=$out/$label/$name.stencil
  fi
  # shellcheck disable=SC2086 # the flags, split
  "$stencilc" --arch=sm_90 $flags "$source" -o "$out/$label/$name.cu"
  # shellcheck disable=SC2086
  "$stencilc" --arch=sm_90 $flags --emit=plan "$source" >"$out/$label/$name.plan"
done <"$list"
for line in "${derived[@]}"; do
  read -r label name from assignments <<<"$line"
  [[ -f $out/${from#from=}/$name.cu ]] ||
    { echo "gen.sh: $list: '$line': the list plans no $name as ${from#from=}" >&2; exit 1; }
  # shellcheck disable=SC2086 # the assignments, split
  bash "$root/bench/variants/params.sh" "$out" "${from#from=}" "$name" "$label" $assignments
done
echo "variants: $(grep -cvE '^\s*(#|$)' "$list") plans in $out"
