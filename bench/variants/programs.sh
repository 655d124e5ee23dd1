# shellcheck shell=bash
# What bench/variants/run.sh and ncu.sh share, sourced: the build of a
# variant's program (bench/headers/header_bench.cu). Needs root, variants
# (the folder gen.sh wrote) and work (where programs go); both callers
# export these and the functions, which run through xargs.

# The runtime headers of variant label $1: its include/, else the tree's.
# shellcheck disable=SC2154 # root, variants: the caller's
headers() {
  if [[ -d $variants/$1/include ]]; then echo "$variants/$1/include"; else echo "$root/runtime/include"; fi
}

# nvcc with its arguments, writing program $1 and its log $1.log, stopped
# after BUILD_SECONDS (default 240): then no program, and the log says why.
# One plan nvcc takes minutes over (EBISU's 2d49pt fp64 at fuse=4: more
# than 200 s here) costs its own line, not the whole device call.
# shellcheck disable=SC2317 # run through xargs
compile() {
  local exe=$1
  shift
  timeout "${BUILD_SECONDS:-240}" nvcc "$@" -o "$exe" >"$exe.log" 2>&1
  (($? != 124)) || {
    rm -f "$exe"
    echo "build: nvcc ran past BUILD_SECONDS (${BUILD_SECONDS:-240} s)" >>"$exe.log"
  }
}

# Builds variant $1 (LABEL/NAME) into $work/LABEL.NAME, its log beside it:
# the element type and dimensions read from its header; HB_PASS=1 times
# NAME_pass too where the header has it, HB_N2D sets the 2D side, and
# HB_NVCC_FLAGS adds nvcc flags (ncu.sh: -lineinfo).
# shellcheck disable=SC2154,SC2317 # root, variants, work: the caller's; run through xargs
build() {
  local label=${1%%/*} name=${1##*/} h=$variants/$1.h element dims=2 include
  include=$(headers "$label")
  element=$(grep -oE "cudaError_t ${name}_step\(const [a-z_0-9]+" "$h" | awk '{print $NF}')
  grep -qE "${name}_step\(.*int nz" "$h" && dims=3
  grep -qE "${name}_step\([^)]*, int nx, cudaStream_t" "$h" && ! grep -qE "${name}_step\(.*int ny" "$h" && dims=1
  local extra=()
  [[ -n ${HB_PASS:-} ]] && grep -qE "${name}_pass\(" "$h" && extra=(-DHB_PASS)
  local flags
  read -r -a flags <<<"${HB_NVCC_FLAGS:-}"
  extra+=("${flags[@]}")
  compile "$work/$label.$name" -std=c++17 -O3 -arch=sm_90 "${extra[@]}" -I "$include" \
    -I "$root/test/GPU/device" -I "$variants/$label" -DHEADER="\"$name.h\"" -DNAME="$name" \
    -DELEMENT="$element" -DDIMS="$dims" -DHB_N2D="${HB_N2D:-8192}" -DTREE="\"$label\"" \
    "$root/bench/headers/header_bench.cu" "$variants/$1.cu" "$root/runtime/src/check.cpp" \
    "$root/runtime/src/timer.cu"
}
