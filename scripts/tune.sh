#!/usr/bin/env bash
# The benchmark's --tune mode (issue 5): sweep the plans' free parameters
# (stencilc --plan-option) per suite stencil and backend, and turn the
# fastest variant of each into table entries that the planners and
# `--backend=auto` read. Two halves, because stencilc needs LLVM and the
# benchmark a GPU:
#
#   scripts/tune.sh gen [OUTDIR] [--only REGEX]     here, where stencilc builds
#     For every examples/suite stencil whose name matches REGEX (bash =~)
#     and each backend that takes it (of TUNE_BACKENDS, default "tensor
#     simt"): the planner's default and one variant per point of the grid
#     below, each compiled with its --plan-option values and the
#     stencil renamed NAME_tune_tK / NAME_tune_sK (K = the grid point). Writes
#     OUTDIR/bench/*, OUTDIR/manifest.txt (for the GPU build) and
#     OUTDIR/variants.tsv (variant, stencil, backend, shape, dims, radius,
#     precision, plan options), and a copy of the TunedPlans.inc the
#     variants were planned over (tune.py --base: a winner's entry keeps
#     the fields it did not set). Default OUTDIR: build-tune.
#
#   scripts/tune.sh run [OUTDIR] [--shard I/N]      there, OUTDIR carried
#     Builds and runs the benchmark over OUTDIR (scripts/gpu-check.sh
#     --no-tests: every variant timed, and checked against the float64
#     reference), then bench/tune.py prints, per stencil and backend, the
#     fastest variant against the default, and the lines for
#     compiler/lib/Backends/Common/TunedPlans.inc and compiler/lib/Pipeline/BackendTable.inc. A sweep
#     that would pass one device call's 10 minutes (about 100 variants of
#     3D stencils) runs as N calls with --shard I/N, each timing every N-th
#     variant into $OUT/bench-I-of-N.csv; then:
#
#   scripts/tune.sh pick OUTDIR CSV...              anywhere
#     bench/tune.py over the shards' CSVs.
#
# Each grid point multiplies the benchmark's time (about 3 s a stencil and
# backend on an H100): sweep a subset per device call with --only.
#   STENCILC=path/to/stencilc (default build/bin/stencilc), STENCILC_ARCH (default sm_90)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
shift || true

# The grids. Tensor cores: block shapes (tiles down x across, warps) and MMA
# blocks per tile (n-blocks: independent accumulators that share A
# fragments). CUDA cores: block sizes and plane buffering.
tensor_grid=("tile-rows=2,tile-cols=8,warps=4,n-blocks=1" "tile-rows=2,tile-cols=4,warps=4,n-blocks=2"
  "tile-rows=2,tile-cols=2,warps=4,n-blocks=4" "tile-rows=2,tile-cols=4,warps=4,n-blocks=4"
  "tile-rows=4,tile-cols=2,warps=4,n-blocks=4" "tile-rows=4,tile-cols=2,warps=8,n-blocks=4"
  "tile-rows=8,tile-cols=2,warps=8,n-blocks=4" "tile-rows=4,tile-cols=4,warps=8,n-blocks=4")
simt_grid=("threads=128,stages=2" "threads=256,stages=2" "threads=128,stages=4"
  "threads=256,stages=4" "threads=256,stages=1")
# TUNE_TENSOR_GRID / TUNE_SIMT_GRID (space-separated points) replace them.
[[ -n ${TUNE_TENSOR_GRID:-} ]] && read -r -a tensor_grid <<<"$TUNE_TENSOR_GRID"
[[ -n ${TUNE_SIMT_GRID:-} ]] && read -r -a simt_grid <<<"$TUNE_SIMT_GRID"

generate() {
  local out=${1:-$root/build-tune} only=""
  shift || true
  if [[ ${1:-} == --only ]]; then only=$2; fi
  local stencilc=${STENCILC:-$root/build/bin/stencilc} arch=${STENCILC_ARCH:-sm_90}
  local lister=$root/test/GPU/harness/stencil_list.py
  [[ -x $stencilc ]] || { echo "tune: no stencilc at $stencilc (set STENCILC=)" >&2; exit 2; }
  rm -rf "$out" && mkdir -p "$out/bench" "$out/test" "$out/src"
  : >"$out/manifest.txt"
  : >"$out/failed.txt"
  : >"$out/unavailable.txt"
  printf 'variant\tstencil\tbackend\tshape\tdims\tradius\tprecision\toptions\n' >"$out/variants.tsv"
  cp "$root/compiler/lib/Backends/Common/TunedPlans.inc" "$out/TunedPlans.inc"
  local count=0
  for input in "$root"/examples/suite/*.stencil; do
    local name key
    name=$(basename "$input" .stencil)
    [[ -z $only || $name =~ $only ]] || continue
    # The peers' stencils (ebisu_*) share a suite kind's key with other
    # weights: the tuned plans are the suite kinds', one entry a key.
    [[ $name == ebisu_* ]] && continue
    # shape dims radius precision, from the checked spec
    key=$("$stencilc" --emit=spec "$input" |
      awk '$1 == "dims" {d = $2} $1 == "radius" {r = $2} $1 == "shape" {s = $2}
           $1 == "precision" {p = $2} END {print s "\t" d "\t" r "\t" p}')
    for backend in ${TUNE_BACKENDS:-tensor simt}; do
      local -a grid
      if [[ $backend == tensor ]]; then grid=("" "${tensor_grid[@]}"); else grid=("" "${simt_grid[@]}"); fi
      for k in "${!grid[@]}"; do
        local variant=${name}_tune_${backend:0:1}$k options=${grid[$k]}
        local source=$out/src/$variant.stencil base=bench/$variant.$backend
        sed "s/^stencil $name {/stencil $variant {/" "$input" >"$source"
        if "$stencilc" --arch="$arch" --backend="$backend" ${options:+--plan-option="$options"} \
          "$source" -o "$out/$base.cu" 2>/dev/null &&
          python3 "$lister" "$out/$base.h" >"$out/$base.list.h"; then
          echo "$base" >>"$out/manifest.txt"
          printf '%s\t%s\t%s\t%s\t%s\n' "$variant" "$name" "$backend" "$key" "${options:-default}" \
            >>"$out/variants.tsv"
          count=$((count + 1))
        else
          rm -f "$out/$base.cu" "$out/$base.h" "$out/$base.list.h"
          [[ $k == 0 ]] && break # the backend does not take this stencil
        fi
      done
    done
  done
  echo "tune: $count variants in $out (arch $arch); carry it and run 'scripts/tune.sh run $(basename "$out")' on the GPU machine"
}

run() {
  local gen=build-tune shard=""
  if [[ $# -gt 0 && $1 != --shard ]]; then gen=$1; shift; fi
  if [[ ${1:-} == --shard ]]; then shard=$2; fi
  local out=${OUT:-$root/build-tune-gpu/out}
  mkdir -p "$out"
  if [[ -n $shard ]]; then
    GEN=$gen BUILD=${BUILD:-build-tune-gpu} OUT=$out "$root/scripts/gpu-check.sh" --no-tests \
      --no-naive --bench-shard "$shard"
    mv "$out/bench.csv" "$out/bench-${shard%/*}-of-${shard#*/}.csv"
    echo "tune: shard $shard in $out/bench-${shard%/*}-of-${shard#*/}.csv;" \
      "when every shard has run: scripts/tune.sh pick $gen CSV..."
    return
  fi
  GEN=$gen BUILD=${BUILD:-build-tune-gpu} OUT=$out "$root/scripts/gpu-check.sh" --no-tests --no-naive
  python3 "$root/bench/tune.py" "$gen/variants.tsv" "$out/bench.csv" --base "$gen/TunedPlans.inc" |
    tee "$out/tune.txt"
}

pick() {
  local gen=${1:?usage: $0 pick OUTDIR CSV...}
  shift
  python3 "$root/bench/tune.py" "$gen/variants.tsv" "$@" --base "$gen/TunedPlans.inc"
}

case $mode in
gen) generate "$@" ;;
run) run "$@" ;;
pick) pick "$@" ;;
*) echo "usage: $0 gen [OUTDIR] [--only REGEX] | run [OUTDIR] [--shard I/N] | pick OUTDIR CSV..." >&2; exit 2 ;;
esac
