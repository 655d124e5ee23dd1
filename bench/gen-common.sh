# bench/gen-common.sh - what the GPU packages' gen.sh scripts share
# (bench/lowrank, bench/packed): sourced after `set -euo pipefail` with
# `root` set and OUT's default in `default_out`. Sets out, stencilc, build,
# jobs, suite and gen (the sources, beside OUT and not carried), makes both
# folders, builds the runtime and test-support libraries the drivers link,
# and defines stencil().
out=${1:-$default_out}
stencilc=${STENCILC:-$root/build/bin/stencilc}
build=${BUILD:-$root/build}
jobs=${JOBS:-2}
suite=$root/examples/suite
gen=$out-gen
mkdir -p "$out" "$gen"
cmake --build "$build" --target stencilc_runtime stencilc_testing >/dev/null

# stencil NEWNAME SOURCE [stencilc flags...]: SOURCE renamed NEWNAME (its
# fixed boundary replaced where NEWNAME ends in _periodic or _constant),
# planned for sm_90: GEN/NEWNAME.{stencil,cu,h,plan}.
stencil() {
  local name=$1 source=$2
  shift 2
  local text
  text=$(sed -E "s/^stencil [A-Za-z0-9_]+ /stencil $name /" "$source")
  case $name in
  *_periodic) text=$(sed 's/boundary fixed;/boundary periodic;/' <<<"$text") ;;
  *_constant) text=$(sed 's/boundary fixed;/boundary constant 0.25;/' <<<"$text") ;;
  esac
  printf '%s\n' "$text" >"$gen/$name.stencil"
  "$stencilc" --arch=sm_90 "$@" "$gen/$name.stencil" -o "$gen/$name.cu"
  "$stencilc" --arch=sm_90 "$@" --emit=plan "$gen/$name.stencil" >"$gen/$name.plan"
}
