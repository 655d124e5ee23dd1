#!/usr/bin/env bash
# Adds to a variants folder (bench/variants/gen.sh's OUT) a variant of one
# of its plans with some of the generated fused Params' constants set
# otherwise: a geometry the planner does not take, to time beside it with
# bench/variants/run.sh. FROM/NAME.{cu,h} are copied into OUT/LABEL, each
# `static constexpr int K = ...;` (or bool) line of the fused Params that an
# assignment names rewritten, and the variant appended to OUT/list.txt.
# An assignment +K=V adds the constant instead, one the Params may have
# but the plan does not set (an int, or a bool where V is true or false),
# as the last of the fused Params. Stops, writing nothing, where a
# constant it names is not in the plan, or one it adds is.
# gen.sh runs it for a list's `LABEL NAME from=FROM-LABEL K=V...` lines.
# Usage: bench/variants/params.sh OUT FROM-LABEL NAME LABEL [+]K=V [[+]K=V...]
#   e.g. params.sh .gpu/v auto star3d7p_fp64 c128 kChunkZ=128
#        params.sh .gpu/v auto star3d7p_fp64 s3 +kStagedPlanes=3
set -euo pipefail
out=${1:?usage: params.sh OUT FROM-LABEL NAME LABEL K=V...}
from=$out/${2:?} name=${3:?} label=${4:?}
shift 4
[[ $# -gt 0 ]] || { echo "params.sh: no constant to set" >&2; exit 1; }
script=()
added=""
params() { sed -n '/^struct FusedParams {/,/^};/p' "$from/$name.cu"; }
for assignment in "$@"; do
  key=${assignment%%=*} value=${assignment#*=}
  if [[ $key == +* ]]; then
    key=${key#+}
    ! params | grep -q "static constexpr \(int\|bool\) $key = " ||
      { echo "params.sh: $from/$name.cu's FusedParams has $key already" >&2; exit 1; }
    type=int
    [[ $value == true || $value == false ]] && type=bool
    added+="  static constexpr $type $key = $value; \\/\\/ params.sh\\n"
    continue
  fi
  params | grep -q "static constexpr \(int\|bool\) $key = " ||
    { echo "params.sh: $from/$name.cu's FusedParams has no $key" >&2; exit 1; }
  script+=(-e "/^struct FusedParams {/,/^};/s/static constexpr \(int\|bool\) $key = [^;]*;/static constexpr \1 $key = $value;/")
done
[[ -z $added ]] || script+=(-e "/^struct FusedParams {/,/^};/s/^};/$added};/")
mkdir -p "$out/$label"
sed "${script[@]}" "$from/$name.cu" >"$out/$label/$name.cu"
# kSteps is also the header's contract (its descriptor's fused_steps, the
# most levels NAME_pass takes), which the conformance harness holds the
# code to: the header follows it.
header=()
for assignment in "$@"; do
  [[ ${assignment%%=*} == kSteps ]] &&
    header+=(-e "s|^  [0-9]*, /\* fused_steps:|  ${assignment#*=}, /* fused_steps:|")
done
sed "${header[@]}" -e '' "$from/$name.h" >"$out/$label/$name.h"
echo "$label $name" >>"$out/list.txt"
