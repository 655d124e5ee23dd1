#!/usr/bin/env bash
# On the GPU machine, from the repository root: Nsight Compute's
# per-instruction counters (the full set, SourceCounters among them) on one
# launch of the kernels matching REGEX in a variant's program (as ncu.sh
# builds it, with -lineinfo), past the first SKIP (default 20) matching
# launches, its clocks left alone. Writes to OUT (default /tmp/variants-ncu),
# a ':' of LABEL written '_' (the device tool brings back no name with one):
#   ncu-source-LABEL.NAME.csv      the SASS page, an instruction a row with
#                                  its executions and stall samples (read it
#                                  here with bench/sass/regions.py)
#   ncu-source-LABEL.NAME.txt      the details page (duration, issue, ...)
# and prints the details' lines that say what binds the kernel. How the 3D
# band was split into its setup, levels and stores (docs/performance.md,
# 2026-12-04 16:17-16:44).
# Usage: bench/variants/ncu-source.sh LABEL/NAME:REGEX...
#   (VARIANTS as gen.sh wrote them, default .gpu/variants; WORK, default /tmp/variants-ncu)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
variants=${VARIANTS:-$root/.gpu/variants}
work=${WORK:-/tmp/variants-ncu}
out=${OUT:-$work}
mkdir -p "$work" "$out"
command -v ncu >/dev/null || { echo "ncu-source.sh: no ncu on the PATH" >&2; exit 2; }
# shellcheck source=bench/variants/programs.sh
source "$root/bench/variants/programs.sh"
export -f headers build
export root variants work
export HB_NVCC_FLAGS="${HB_NVCC_FLAGS:-} -lineinfo"
printf '%s\n' "${@%:*}" | xargs -P "$(nproc)" -I{} bash -c 'build {}'
status=0
for arg in "$@"; do
  target=${arg%:*} regex=${arg##*:} # the last ':' (a label may hold one: new:clamp)
  label=${target%%/*} name=${target##*/}
  exe=$work/$label.$name base=$out/ncu-source-${label//:/_}.$name
  echo "## $target ($regex)"
  [[ -x $exe ]] || { echo "not built"; status=1; continue; }
  ncu --clock-control none -k regex:"$regex" --launch-skip "${SKIP:-20}" -c 1 --set full \
    --import-source yes -f -o "$work/source" "$exe" >"$base.log" 2>&1 || { echo "ncu failed"; status=1; continue; }
  ncu -i "$work/source.ncu-rep" --page source --print-source sass --csv >"$base.csv" 2>&1
  ncu -i "$work/source.ncu-rep" --page details >"$base.txt" 2>&1
  grep -E "Duration|Executed Instructions  |Issue Slots Busy|Warp Cycles Per Issued|Achieved Occ|DRAM Throughput|Registers Per" \
    "$base.txt" | sed -E 's/ {2,}/ /g'
done
exit $status
