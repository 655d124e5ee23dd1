#!/usr/bin/env bash
# FlashFFTStencil (PPoPP'25: stencils as FFT convolutions on FP64 tensor
# cores), built from its public source and run on the GPU machine, from the
# repository root, beside our plans of the same stencils
# (bench/peers/flashfftstencil: fft_*_fp64.stencil and variants.list).
# Needs .peers/flashfftstencil (carry .peers): HPHEX/FlashFFTStencil at the
# commit its PEER_SOURCE names, exported where there is network.
# bench/peers/flashfftstencil/README.md says how, and has the facts behind
# every choice below.
#
# Build: as the peer's README does it, one nvcc line a program
# (src/1D/1d_main.cu, 2D, 3D: each includes its kernel and cuFFT plan file):
#   nvcc ./ND/Nd_main.cu -o Nd.out -lcufft -O3 --use_fast_math --gpu-architecture=sm_XX
# with sm_XX the machine's (nvidia-smi's compute_cap; ARCH=90 overrides it,
# for a machine without a GPU), and one addition, for CUDA 13 only:
#   -DCUFFT_INCOMPLETE_PARAMETER_LIST=0xA -DCUFFT_PARSE_ERROR=0xC
#   -DCUFFT_LICENSE_ERROR=0xF
# CUDA 13's cufft.h no longer has these three cufftResult names; the peer's
# helper_cuda/helper_cuda.h names them as cases of its error-string switch,
# so without them nothing compiles. The values are those the names had in
# cufft.h up to CUDA 12, the gaps CUDA 13's enum left; cuFFT no longer
# returns them, so the cases are never taken.
#
# Edits: the peer is built from a copy, BUILD/flashfftstencil/src (.peers
# keeps its files as fetched), with one edit there, by sed:
#   - src/3D/3d_main.cu: `const int INPUT_WIDTH = 768;` becomes
#     `const int INPUT_WIDTH = std::stoi(argv[2]);`. The 3D program takes an
#     input size on its command line (its usage text and README say so) but
#     uses a fixed 768; with the edit it uses the size given, so it can run
#     near our 512^3. Its run at 768 is the unedited program's.
# Runs with CUDA_MODULE_LOADING=EAGER: the peer was tested with CUDA 12.1,
# whose default that was (CUDA 12.2 made loading lazy), so its timed loop
# does not include loading its kernel on the first launch; and with the
# toolkit's lib64 and lib ahead of LD_LIBRARY_PATH, to find libcufft.
#
# Runs: fp64 (the peer's only precision), one line a run (below); each of
# its programs times its launches with CUDA events (no warm-up) and each
# launch is one application of its stencil, from its input to its output
# (tiles overlap-added, by atomic adds; the grid wraps around every axis):
#   box2d9p   2D, its only kernel (a 3 x 3 box; the shape argument is only
#             printed): side the multiple of 12 nearest SIZE2D (8196 for
#             8192: the side must be a multiple of 6 and the number of tiles
#             a row even), STEPS launches
#   box3d27p  3D, its only kernel (3 x 3 x 3): side the multiple of 12
#             nearest SIZE3D (516 for 512), then its own 768 (OWN3D), STEPS
#   1d29p     1D "Heat-1D" (29 taps, which it counts as 14 heat steps a
#             launch): the multiple of 56 nearest SIZE1D (134217720 for
#             2^27: tiles of 56 - 28 = 28 points, an even number of them);
#             asked for 14 x STEPS steps, so STEPS launches. "1D5P" is the
#             same program and kernel (29 taps too), so it is not run again
#   1d31p     1D "1D7P" (31 taps, 5 steps a launch): the multiple of 52
#             (tiles of 26) nearest SIZE1D (134217720 too), 5 x STEPS asked,
#             STEPS launches
# The line, per run:
#   peer flashfftstencil STENCIL PRECISION NX NY NZ STEPS_DONE TIME_MS OWN_FIGURE OWN_UNIT RECOUNTED_GSTENCILS
# STEPS_DONE: the launches (applications of the stencil) timed; TIME_MS:
# its event time; OWN_FIGURE: what it prints, its time in ms (2D, 3D) or
# its "GStencil/s" (1D: points x (taps - 1) / 2 x launches / time);
# RECOUNTED: every grid point x STEPS_DONE / TIME_MS, in GStencil/s. A run
# that fails prints nan figures and STEPS_DONE 0, and the script exits 1.
#
# Usage: scripts/peers/flashfftstencil.sh [--build-only] [--dry-run] [--steps N]
#   --build-only  build the three programs and stop
#   --dry-run     print the commands, run nothing
#   --steps N     launches a run (default 100)
#   PEERS (default .peers), BUILD (default build-peers; logs in
#   BUILD/flashfftstencil/out), ARCH (e.g. 90; default nvidia-smi's),
#   SIZE2D (8192), SIZE3D (512), SIZE1D (134217728), OWN3D (768; empty: not
#   run), FFT_TIMEOUT (300 s a run)
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/peers/common.sh
source "$root/scripts/peers/common.sh"
cd "$root" || exit 2
peers=${PEERS:-.peers}
build=$(peer_build_dir)
dir=$build/flashfftstencil
src=$dir/src # the peer's tree, copied, with the edit
bin=$dir/bin
out=$dir/out
size2d=${SIZE2D:-8192}
size3d=${SIZE3D:-512}
size1d=${SIZE1D:-134217728}
own3d=${OWN3D-768}
run_timeout=${FFT_TIMEOUT:-300}
usage="usage: $0 [--build-only] [--dry-run] [--steps N]"
parse_peer_options "$usage" "$@"
[[ -z $only ]] || { echo "$usage" >&2; exit 2; } # its runs are one list, not picked by name

# Prints a command, and runs it unless --dry-run.
run() {
  echo "+ $*" >&2
  ((dry)) || "$@"
}

# The multiple of $2 nearest $1 (the lower one on a tie), at least $2.
nearest_multiple() {
  local n=$1 m=$2 low
  low=$((n / m * m))
  if ((low == 0)) || ((n - low > low + m - n)); then echo $((low + m)); else echo "$low"; fi
}

# Copies the peer's tree to $src and makes the one edit (see the header);
# fails where the line to edit is not there, so a changed peer is noticed.
prepare_source() {
  local from=$peers/flashfftstencil line='^    const int INPUT_WIDTH = 768;$'
  [[ -f $from/PEER_SOURCE ]] || { echo "flashfftstencil: no $from (scripts/fetch-peers.sh)" >&2; return 1; }
  run rm -rf "$src" && run mkdir -p "$dir" && run cp -r "$from" "$src" || return 1
  if ((!dry)) && ! grep -q "$line" "$src/src/3D/3d_main.cu"; then
    echo "flashfftstencil: 3d_main.cu has no fixed INPUT_WIDTH line to edit" >&2
    return 1
  fi
  run sed -i "s/$line/    const int INPUT_WIDTH = std::stoi(argv[2]);/" "$src/src/3D/3d_main.cu"
}

# Builds $bin/Nd.out for N = 1, 2, 3 as the peer's README does, from its
# src folder (the header says why the -D flags); logs in $out/build-Nd.log.
build_peer() {
  local arch=$1 d status=0
  local flags=(-lcufft -O3 --use_fast_math --gpu-architecture="sm_$arch"
    -DCUFFT_INCOMPLETE_PARAMETER_LIST=0xA -DCUFFT_PARSE_ERROR=0xC -DCUFFT_LICENSE_ERROR=0xF)
  run mkdir -p "$bin" "$out" || return 1
  for d in 1 2 3; do
    echo "+ (cd $src/src && nvcc ./${d}D/${d}d_main.cu -o $bin/${d}d.out ${flags[*]})" >&2
    ((dry)) && continue
    if ! (cd "$src/src" && nvcc "./${d}D/${d}d_main.cu" -o "$bin/${d}d.out" "${flags[@]}") \
      >"$out/build-${d}d.log" 2>&1; then
      echo "flashfftstencil: building ${d}d.out failed ($out/build-${d}d.log):" >&2
      tail -n 20 "$out/build-${d}d.log" >&2
      status=1
    fi
  done
  return $status
}

# The toolkit's library folders (libcufft.so) ahead of LD_LIBRARY_PATH, for a
# machine whose loader is not set up for them.
cuda_lib_path() {
  local top
  top=$(dirname "$(dirname "$(command -v nvcc)")")
  echo "$top/lib64:$top/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# The number after "$2" in file $1 (the peer's "Time = X[ms]", "GStencil/s = X").
figure_after() {
  grep -oE "$2 = [-+0-9.eE]+" "$1" | tail -n 1 | awk '{print $NF}'
}

# Runs one program and prints its line. Arguments: stencil label, program
# (1d, 2d, 3d), the peer's shape argument, its size argument, its step
# argument, the launches that makes, NX NY NZ.
run_case() {
  local label=$1 prog=$2 shape=$3 size=$4 asked=$5 launches=$6 nx=$7 ny=$8 nz=$9
  local log=$out/$label-$shape-$size.log ms own unit=ms rc
  local cmd=(timeout "$run_timeout" env CUDA_MODULE_LOADING=EAGER LD_LIBRARY_PATH="$(cuda_lib_path)"
    "$bin/$prog.out" "$shape" "$size" "$asked")
  [[ $prog == 1d ]] && unit=GStencil/s
  echo "+ ${cmd[*]}" >&2
  ((dry)) && return 0
  "${cmd[@]}" >"$log" 2>&1
  rc=$?
  ms=$(figure_after "$log" "Time")
  own=$ms
  [[ $prog == 1d ]] && own=$(figure_after "$log" "GStencil/s")
  if ((rc != 0)) || [[ -z $ms || -z $own ]]; then
    echo "flashfftstencil: $label $shape $size failed (exit $rc; 124: past ${run_timeout}s), $log" >&2
    echo "peer flashfftstencil $label fp64 $nx $ny $nz 0 nan nan $unit nan"
    return 1
  fi
  awk -v l="$label" -v x="$nx" -v y="$ny" -v z="$nz" -v s="$launches" -v t="$ms" -v o="$own" -v u="$unit" \
    'BEGIN { printf "peer flashfftstencil %s fp64 %d %d %d %d %s %s %s %.3f\n", l, x, y, z, s, t, o, u, x * y * z * s / (t * 1e6) }'
}

# Every run of the header's list; returns 1 where one failed.
run_all() {
  local status=0 n2 n3 n29 n31 n
  n2=$(nearest_multiple "$size2d" 12)
  n3=$(nearest_multiple "$size3d" 12)
  n29=$(nearest_multiple "$size1d" 56)
  n31=$(nearest_multiple "$size1d" 52)
  run_case box2d9p 2d Box2D9P "$n2" "$steps" "$steps" "$n2" "$n2" 1 || status=1
  local sides3=("$n3") # then the peer's own side, unless it is the same
  [[ -n $own3d && $own3d != "$n3" ]] && sides3+=("$own3d")
  for n in "${sides3[@]}"; do
    run_case box3d27p 3d Box3D27P "$n" "$steps" "$steps" "$n" "$n" "$n" || status=1
  done
  run_case 1d29p 1d Heat-1D "$n29" $((14 * steps)) "$steps" "$n29" 1 1 || status=1
  run_case 1d31p 1d 1D7P "$n31" $((5 * steps)) "$steps" "$n31" 1 1 || status=1
  return $status
}

main() {
  local arch
  arch=$(peer_arch)
  if [[ ! $arch =~ ^[0-9]+[a-z]?$ ]]; then
    ((dry)) || { echo "flashfftstencil: no GPU found by nvidia-smi; set ARCH (e.g. 90)" >&2; exit 2; }
    arch=XX # a dry run where there is no GPU
  fi
  echo "flashfftstencil: $(tr '\n' ' ' <"$peers/flashfftstencil/PEER_SOURCE" 2>/dev/null)for sm_$arch" >&2
  prepare_source || exit 1
  build_peer "$arch" || exit 1
  ((build_only)) && exit 0
  run_all
}

main
