#!/usr/bin/env bash
# The peers of scripts/peers/ (LoRAStencil, TCStencil, FlashFFTStencil)
# beside our plans of their stencils (bench/peers/NAME: the peer's own
# weights and boundary, variants.list), in one call on the GPU machine.
# EBISU has its own driver, scripts/gpu-peers.sh.
#
# Here (stencilc built; the peers' sources fetched into .peers/NAME, each
# README in bench/peers/NAME says how):
#   scripts/peers/beside-ours.sh --gen [NAME...]
# plans each peer's stencils for sm_90 into .gpu/peers/NAME
# (bench/variants/gen.sh). There, from the repository root, carrying .peers
# and .gpu/peers:
#   scripts/peers/beside-ours.sh [NAME...]
# runs each peer's script (scripts/peers/NAME.sh: its build, its runs, a
# line "peer NAME ..." a stencil), then our plans (bench/variants/run.sh:
# NAME_step and NAME_run of 100 steps, the copy bandwidth first), one
# after the other so that no two time the GPU at once. Our 2D grids are
# the peer's side where it differs from 8192 (FlashFFTStencil's tiles want
# a multiple of 12: 8196).
# NAME: lorastencil, tcstencil, flashfftstencil (default: all three).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
all=(lorastencil tcstencil flashfftstencil)
gen=0
if [[ ${1:-} == --gen ]]; then
  gen=1
  shift
fi
names=("$@")
((${#names[@]})) || names=("${all[@]}")
for name in "${names[@]}"; do
  [[ " ${all[*]} " == *" $name "* ]] || { echo "beside-ours: no peer '$name' (${all[*]})" >&2; exit 2; }
done

# Our 2D grids' side for peer $1.
side2d() {
  case $1 in
  flashfftstencil) echo 8196 ;;
  *) echo 8192 ;;
  esac
}

status=0
for name in "${names[@]}"; do
  if ((gen)); then
    bench/variants/gen.sh "bench/peers/$name/variants.list" ".gpu/peers/$name" || status=1
    continue
  fi
  echo "== $name: the peer ($(tr '\n' ' ' <".peers/$name/PEER_SOURCE" 2>/dev/null || echo 'no source'))"
  "scripts/peers/$name.sh" || status=1
  echo "== $name: ours, 2D at $(side2d "$name")^2"
  VARIANTS=$root/.gpu/peers/$name WORK=/tmp/beside-ours-$name HB_N2D=$(side2d "$name") \
    bench/variants/run.sh || status=1
done
exit $status
