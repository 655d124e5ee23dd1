#!/usr/bin/env bash
# TCStencil (ICS'22: 2D stencils as fp16 GEMMs on tensor cores, WMMA
# 16 x 16 x 16), built from its public source and run on the GPU machine,
# from the repository root, beside our plans of the same stencils
# (bench/peers/tcstencil: tcs_*_fp16.stencil and variants.list).
# Needs .peers/tcstencil (the fetch tool or a clone of buaa-hipo/TCStencil,
# where there is network; carry .peers): the commit named in its
# PEER_SOURCE. bench/peers/tcstencil/README.md has the facts behind every
# choice below, with the peer's file:line references.
#
# Build: as the peer's script/nvcc_compile.py does it, one nvcc line a
# program, four sources each (its driver main_Rr.cu, the CPU reference
# gold_S.cpp, the tensor-core host code and kernel layout16/{host,kernel}_S.cu):
#   nvcc -O3 -arch=sm_XX -DMESH_SIZE=N -DTILE_SIZE=T -DRUN_TIMES=R -o ... \
#        common/main_Rr.cu common/gold_S.cpp layout16/host_S.cu layout16/kernel_S.cu
# with sm_XX the machine's (nvidia-smi's compute_cap; ARCH=90 overrides it,
# for a machine without a GPU) where the peer has sm_80 (A100) or sm_70
# (V100): its WMMA code has no architecture check. It compiles and links
# with CUDA 13 as it is: no flag is added for CUDA 13.
# One flag differs from the peer's script: RUN_TIMES. Its script passes
# -DRUN_TIMES=1 because the paper's times were ncu's kernel Duration, not
# the program's own print (which, with RUN_TIMES 1, divides by 1 - 400).
# Here R = 400 + STEPS: the program launches R times, its first 400
# (SKIP_TIMES, common/param.hpp) untimed, and prints the mean event time of
# the other STEPS launches; R = 500, the source's own default, for 100.
# Its tile size (TILE_SIZE: 16 x 16 blocks a thread block walks along x) is
# swept as the peer's script does (every T in 1..15 with (N/16) % T == 0;
# 1, 2, 4, 8 at 8192) and the fastest is reported, as its
# script/process_data.py keeps the best tile per mesh size.
#
# Edits: the peer is built from a copy, BUILD/tcstencil/src (.peers keeps
# its files as fetched), with three edits there, by sed, each uncommenting
# one line in both common/main_1r.cu and common/main_2r.cu, so that every
# run checks its output against the peer's own CPU reference (after the
# timed launches; the times are unchanged):
#   - `gold(h_A, h_B, C, MESH_SIZE, ...)`: the CPU reference of the stencil;
#   - `double relative_error = checkRelativeError2D(...)`: compares the
#     peer's output with it over the points the reference computes;
#   - `printf("[Test] Relative RMS Error: ...")`: prints the result.
# The peer's input is all ones (common/common.hpp, get_random returns 1)
# and its weights are integers, so every sum is exact in fp16 and the
# error must be 0: a weak check (it cannot see a weight at the wrong
# offset) but one that sees a lost or doubled term or a garbled tile.
#
# Runs: fp16 (the peer's only precision), its four 2D stencils (it has no
# 3D code), SIZE2D x SIZE2D (default 8192: a multiple of 16 is all it
# needs; its own sweep went up to 7200). Each launch is one step from the
# same input A to the same output C (no time loop, no buffer swap), the
# N x N grid read inside a ring of 1.0 and every point written:
#   box2d1r  3 x 3 box     box2d2r  5 x 5 box
#   star2d1r 5-point star  star2d2r 9-point star
# The line, per stencil (at the fastest tile; every tile's figure and its
# check are a '#' line before it):
#   peer tcstencil STENCIL PRECISION NX NY NZ STEPS_DONE TIME_MS OWN_FIGURE OWN_UNIT RECOUNTED_GSTENCILS
# STEPS_DONE: the launches timed (STEPS); OWN_FIGURE: what it prints, the
# mean event time of one launch in ms (events around each launch and a
# cudaDeviceSynchronize, so each includes a launch's latency); TIME_MS:
# that x STEPS_DONE; RECOUNTED: N x N x STEPS_DONE / TIME_MS, in
# GStencil/s. A stencil none of whose runs gave a time prints nan figures
# and STEPS_DONE 0, and the script exits 1.
#
# Usage: scripts/peers/tcstencil.sh [--build-only] [--dry-run] [--steps N] [--only TEXT] [--ncu]
#   --build-only  build the programs and stop (a later call on the same
#                 machine rebuilds only what changed)
#   --dry-run     print the commands, run nothing
#   --steps N     timed launches a run (default 100)
#   --only TEXT   only the stencils whose name contains TEXT
#   --ncu         also profile launch 401 of each stencil's fastest tile with
#                 ncu --clock-control none (the peer's own way, without the
#                 launch latency; its Duration in a '#' line), where ncu is
#                 and may read the counters
#   PEERS (default .peers), BUILD (default build-peers; logs in
#   BUILD/tcstencil/out), SIZE2D (default 8192), TILES (default: the sweep
#   above; e.g. TILES=1 for the peer's default), TCS_TIMEOUT (default 300 s
#   a run: most of a run is its host code at 8192^2), ARCH (e.g. 90)
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/peers/common.sh
source "$root/scripts/peers/common.sh"
cd "$root" || exit 2
peer=${PEERS:-.peers}/tcstencil
build=$(peer_build_dir)
src=$build/tcstencil/src # the edited copy (prepare_source)
bin=$build/tcstencil/bin
out=$build/tcstencil/out
size=${SIZE2D:-8192}
run_timeout=${TCS_TIMEOUT:-300}
stencils_all=(box2d1r box2d2r star2d1r star2d2r)
skip_times=400 # SKIP_TIMES of the peer's common/param.hpp: untimed launches

usage="usage: $0 [--build-only] [--dry-run] [--steps N] [--only TEXT] [--ncu]"
ncu=0
PEER_FLAGS="--ncu"
parse_peer_options "$usage" "$@"
if [[ ! $size =~ ^[1-9][0-9]*$ ]] || ((size % 16)); then
  echo "tcstencil: SIZE2D must be a multiple of 16 (its 16 x 16 blocks)" >&2
  exit 2
fi
if [[ ! -f $peer/PEER_SOURCE ]]; then
  echo "tcstencil: no source in $peer (fetch buaa-hipo/TCStencil, carry .peers)" >&2
  exit 2
fi


# The tile sizes: TILES, else those the peer's sweep allows at this size
# (script/param.py: 1..15; script/nvcc_compile.py: (N/16) % T == 0).
tiles_for_size() {
  local t
  if [[ -n ${TILES:-} ]]; then
    echo "$TILES"
    return
  fi
  for ((t = 1; t <= 15; t++)); do
    ((size / 16 % t == 0)) && printf '%d ' "$t"
  done
}

# The copy of the peer's source that is built, with the three edits of the
# header (each uncomments one line of both drivers). Remade when the
# fetched source or the edits change.
prepare_source() {
  local log=$out/source.log stamp=$src/PATCHED want f
  want="$(tr '\n' ' ' <"$peer/PEER_SOURCE") edits: gold check v1"
  ((!dry)) && [[ -f $stamp && $(<"$stamp") == "$want" ]] && return 0
  ((dry)) || : >"$log"
  x "$log" rm -rf "$src" || return 1
  x "$log" cp -R "$peer" "$src" || return 1
  for f in "$src/common/main_1r.cu" "$src/common/main_2r.cu"; do
    x "$log" sed -i 's|^\(\s*\)// \(gold(h_A, h_B, C, \)|\1\2|' "$f" || return 1
    x "$log" sed -i 's|^\(\s*\)// \(double relative_error = checkRelativeError2D(\)|\1\2|' "$f" || return 1
    x "$log" sed -i 's|^\(\s*\)// \(printf("\[Test\] Relative RMS Error\)|\1\2|' "$f" || return 1
  done
  ((dry)) && return 0
  for f in "$src/common/main_1r.cu" "$src/common/main_2r.cu"; do
    if (($(grep -cE '^\s*(gold\(h_A|double relative_error|printf\("\[Test\] Relative)' "$f") != 3)); then
      echo "tcstencil: an edit found no line in $f (is .peers/tcstencil at 4587a33eb306?)" | tee -a "$log" >&2
      return 1
    fi
  done
  echo "$want" >"$stamp"
}

# One program, BIN/S_tT, unless it is there already from the same flags.
build_one() { # stencil tile
  local s=$1 t=$2 name=$1_t$2 flags log
  log=$out/build-$name.log
  flags=(-O3 "-arch=sm_$arch" "-DMESH_SIZE=$size" "-DTILE_SIZE=$t" "-DRUN_TIMES=$((skip_times + steps))")
  ((!dry)) && [[ -x $bin/$name && $(cat "$bin/$name.flags" 2>/dev/null) == "${flags[*]}" ]] && return 0
  ((dry)) || : >"$log"
  x "$log" nvcc "${flags[@]}" -o "$bin/$name" "$src/common/main_${s: -2:1}r.cu" "$src/common/gold_$s.cpp" \
    "$src/layout16/host_$s.cu" "$src/layout16/kernel_$s.cu" || { echo "tcstencil: build of $name failed ($log)" >&2; return 1; }
  ((dry)) || echo "${flags[*]}" >"$bin/$name.flags"
}

# Every program, nproc at a time.
build_all() {
  local s t failed=0 width
  width=$(nproc)
  for s in "${stencils[@]}"; do
    for t in "${tiles[@]}"; do
      while (($(jobs -rp | wc -l) >= width)); do wait -n || failed=1; done
      build_one "$s" "$t" &
    done
  done
  while (($(jobs -rp | wc -l))); do wait -n || failed=1; done
  return "$failed"
}

# Runs S_tT once; sets ms (its mean ms a launch), err (its check's
# relative RMS error), each "-" where the program printed none, and rc.
run_one() { # stencil tile
  local name=$1_t$2 log
  log=$out/run-$name.log
  ((dry)) || : >"$log"
  x "$log" timeout "$run_timeout" "${unbuffered[@]}" "$bin/$name"
  rc=$?
  ms=$(sed -n 's/^\[Time\] Time used: \([0-9.eE+-]*\) ms$/\1/p' "$log" 2>/dev/null | tail -1)
  err=$(sed -n 's/^\[Test\] Relative RMS Error: \(.*\)$/\1/p' "$log" 2>/dev/null | tail -1)
  ms=${ms:--} err=${err:--}
}

# ncu's Duration of launch SKIP_TIMES + 1 of a program (a '#' line).
ncu_one() { # stencil tile
  local name=$1_t$2 log=$out/ncu-$1_t$2.log
  command -v ncu >/dev/null || { echo "# ncu $name: no ncu on this machine"; return; }
  x "$log" timeout "$run_timeout" ncu --clock-control none --launch-skip "$skip_times" --launch-count 1 "$bin/$name"
  ((dry)) && return
  echo "# ncu $name: $(grep -m1 -E '^\s*Duration' "$log" | tr -s ' ' || echo "no Duration (see $log)")"
}

# Every tile of one stencil, then its line at the fastest.
run_stencil() { # stencil
  local s=$1 t ms err rc best_ms='' best_t='' total verdict
  for t in "${tiles[@]}"; do
    run_one "$s" "$t"
    ((dry)) && continue
    verdict="CHECK FAILED" # the sums are exact: anything but 0 is an error
    [[ $err != - ]] && awk -v e="$err" 'BEGIN { exit !(e == 0) }' && verdict="check ok"
    echo "# tcstencil $s tile $t: exit $rc, ${ms} ms/step, relative RMS error ${err}: $verdict" \
      "(log $out/run-${s}_t$t.log)"
    [[ $ms == - ]] && continue
    if [[ -z $best_ms ]] || awk -v a="$ms" -v b="$best_ms" 'BEGIN { exit !(a < b) }'; then
      best_ms=$ms best_t=$t
    fi
  done
  if ((dry)); then
    ((ncu)) && ncu_one "$s" "${tiles[0]}"
    return 0
  fi
  if [[ -z $best_ms ]]; then
    echo "peer tcstencil $s fp16 $size $size 1 0 nan nan ms/step nan"
    return 1
  fi
  ((ncu)) && ncu_one "$s" "$best_t"
  total=$(awk -v m="$best_ms" -v n="$steps" 'BEGIN { printf "%.6f", m * n }')
  echo "peer tcstencil $s fp16 $size $size 1 $steps $total $best_ms ms/step" \
    "$(awk -v p="$size" -v n="$steps" -v t="$total" 'BEGIN { printf "%.3f", p * p * n / (t * 1e6) }')"
}

arch=$(peer_arch)
[[ $arch =~ ^[0-9]+$ ]] || { echo "tcstencil: no GPU found by nvidia-smi; set ARCH (e.g. ARCH=90)" >&2; exit 2; }
# Line-buffered output where stdbuf is: a program killed by the timeout
# or dying in its check still leaves its time line in the log.
unbuffered=()
command -v stdbuf >/dev/null && unbuffered=(stdbuf -oL)
stencils=()
for s in "${stencils_all[@]}"; do [[ $s == *"$only"* ]] && stencils+=("$s"); done
((${#stencils[@]})) || { echo "tcstencil: no stencil matches '$only' (${stencils_all[*]})" >&2; exit 2; }
read -r -a tiles <<<"$(tiles_for_size)"
for t in "${tiles[@]}"; do
  if [[ ! $t =~ ^[1-9][0-9]*$ ]] || ((size / 16 % t)); then
    echo "tcstencil: tile $t does not divide $size / 16" >&2
    exit 2
  fi
done
((dry)) || mkdir -p "$out" "$bin"
echo "== $(date -u +%FT%TZ) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi') (sm_$arch)"
echo "== TCStencil: $(tr '\n' ' ' <"$peer/PEER_SOURCE")$size^2, $steps timed launches, tiles ${tiles[*]}"

prepare_source || exit 1
build_all || exit 1
((build_only)) && exit 0
status=0
for s in "${stencils[@]}"; do
  run_stencil "$s" || status=1
done
exit "$status"
