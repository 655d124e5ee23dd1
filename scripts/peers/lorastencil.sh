#!/usr/bin/env bash
# LoRAStencil (SC'24, "Low-Rank Adaptation of Stencil Computation on Tensor
# Cores"; the authors' repository github.com/zondie17/LoRAStencil) built and
# run on the GPU machine, from the repository root, for a comparison with our
# plans of the same stencils (bench/peers/lorastencil: one .stencil file a
# stencil and variants.list, timed by bench/variants/run.sh). Its source is
# .peers/lorastencil, exported where there is network, with a file
# PEER_SOURCE naming the repository and commit (bench/peers/lorastencil/
# README.md says how); carry .peers to the GPU machine, which has no network.
#
# What it runs: the peer's three programs, lorastencil_1d (1d1r, 1d2r),
# lorastencil_2d (star2d1r, box2d1r, star2d3r, box2d3r) and lorastencil_3d
# (star3d1r, box3d1r), fp64 only (its kernels are double throughout), at
# 2^27 points (1D), 8192 x 8192 (2D) and 512^3 (3D): our benchmark's sizes,
# which the peer accepts (it needs 1D sizes a multiple of 1024; 2D rows a
# multiple of 32 and columns of 64; 3D rows of 8 and columns of 64: it checks
# none and would read and write outside its arrays otherwise, so this script
# refuses such sizes). Those sizes are the points each step updates; the
# peer's arrays add a halo that no step writes (4 a side in 1D and 2D; 1
# plane, 2 rows, 4 columns in 3D). 100 steps, that is 100 launches: the peer
# does exactly the launches asked for. Each run is repeated LORA_REPEAT times
# (default 3; take the median).
#
# How the peer times: std::chrono around its launch loop and one
# cudaDeviceSynchronize, no warm-up, the first launch included (e.g.
# src/2d/gpu.cu:408-419). It prints "Time = N[ms]" (whole ms) and
# "GStencil/s = F", F = interior points x launches x K / seconds (from whole
# microseconds), where K is 3 for 1d1r, star2d1r, box2d1r and box2d3r, 2 for
# 1d2r, 1 for the others: it counts one launch of a wider stencil as K steps
# of the narrow one it stands for (box2d3r, the same kernel and weights as
# box2d1r, is counted x3 too). Here the time is taken back from F (exact to
# the microsecond, checked against N) and recounted as ours is counted:
# every updated point x launches / time.
# The runs set CUDA_MODULE_LOADING=EAGER (LORA_MODULE_LOADING): the peer's
# timed loop starts with the first launch of its kernel, which under lazy
# loading (CUDA's default) would load the kernel inside the timed region.
#
# Build: as its CMakeLists.txt builds it (C++17, -O3 -lineinfo
# --use_fast_math --ptxas-options=-v, separable compilation: -rdc=true; each
# program from the .cu files its add_executable line names), with one change:
# machine code for this GPU's sm (nvidia-smi's compute_cap; ARCH=90 where
# there is none), not the sm_80 it names. nvcc runs directly (the CMake file
# also fixes nvcc's path to /usr/local/cuda). CUDA 13 builds it as it is: no
# template is launched from another file (no -static-global-template-stub
# needed) and no API it calls was removed. A second build of each program
# with -DCHECK_ERROR (its own switch, off in its source) compares one step
# with its CPU loop of the full coefficient table (src/2d/main.cu:38-93);
# those run first, on small grids, and say whether each kernel computes the
# table our .stencil files transcribe.
#
# It is built from a copy, BUILD/lorastencil/src, with one edit made there by
# sed (.peers keeps the peer's files as fetched; each edit changes one line
# in place, so its line numbers stay its own):
#   - src/1d/gpu_1r.cu, gpu_2r.cu and src/2d/gpu.cu (5 lines) check the
#     launches' status after the timed loop: the 1D and 2D drivers check none
#     (the 3D ones do, src/3d/gpu_box.cu:210), and a launch that fails (no
#     machine code for the GPU, too many resources) leaves no sticky error
#     for their cudaDeviceSynchronize, so they would print a time and a
#     figure for work never done. `CUDA_CHECK(cudaGetLastError());` is added
#     on the line that takes the end time, after it: the timed region is
#     unchanged, and a failed launch ends the program with "CUDA Error"
#     before any figure.
#
# Prints one line a run:
#   peer lorastencil STENCIL fp64 NX NY NZ STEPS_DONE TIME_MS OWN_FIGURE GStencil/s RECOUNTED
# (STENCIL the peer's name for it, NX the contiguous extent, NZ 1 in 1D and
# 2D, NY 1 in 1D; RECOUNTED in GStencil/s), also kept in BUILD/lorastencil/out/
# results.txt; logs in BUILD/lorastencil/out. Our files for the same
# stencils: bench/peers/lorastencil/README.md maps each name.
#
# Usage: scripts/peers/lorastencil.sh [--build-only] [--dry-run] [--no-check]
#                                     [--steps N] [--only TEXT]
#   --build-only  build and stop (runs nothing, needs no GPU: ARCH=90 here)
#   --dry-run     print the commands, run nothing
#   --no-check    skip the -DCHECK_ERROR runs
#   --steps N     launches a run (default 100)
#   --only TEXT   only the stencils whose name contains TEXT (1d, 2d, 3d, box...)
#   PEERS (default .peers), BUILD (default build-peers), ARCH (default from
#   nvidia-smi), NVCC (default nvcc), SIZE1D (default 134217728), SIZE2D
#   (8192), SIZE3D (512), LORA_REPEAT (3), LORA_TIMEOUT (120 s a run),
#   LORA_MODULE_LOADING (EAGER)
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/peers/common.sh
source "$root/scripts/peers/common.sh"
cd "$root" || exit 2
peer=${PEERS:-.peers}/lorastencil
build=$(peer_build_dir)/lorastencil
out=$build/out
copy=$build/src
sizes=([1]=${SIZE1D:-134217728} [2]=${SIZE2D:-8192} [3]=${SIZE3D:-512}) # a dimension's side
repeat=${LORA_REPEAT:-3}
loading=${LORA_MODULE_LOADING:-EAGER}
usage="usage: $0 [--build-only] [--dry-run] [--no-check] [--steps N] [--only TEXT]"
no_check=0
PEER_FLAGS="--no-check"
parse_peer_options "$usage" "$@"
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "lorastencil: LORA_REPEAT wants a positive count" >&2; exit 2; }
if [[ ! -f $peer/PEER_SOURCE ]]; then
  echo "lorastencil: no source in $peer (README of bench/peers/lorastencil: fetch it, carry .peers)" >&2
  exit 2
fi

# The peer's stencils: name, program (its dimension), and K, the steps its
# own figure counts a launch (its printf lines: src/1d/gpu_1r.cu:132,
# gpu_2r.cu:134, src/2d/gpu.cu:419, 478, 553, src/3d/gpu_box.cu:221,
# gpu_star.cu:190; box2d1r and box2d3r both run gpu_box_2d3r).
table=(
  "1d1r 1 3" "1d2r 1 2"
  "star2d1r 2 3" "box2d1r 2 3" "star2d3r 2 1" "box2d3r 2 3"
  "star3d1r 3 1" "box3d1r 3 1"
)
# Each program's files (in src/Nd), as its add_executable line in CMakeLists.txt.
sources=([1]="main.cu gpu_1r.cu gpu_2r.cu" [2]="main.cu gpu.cu" [3]="main.cu gpu_box.cu gpu_star.cu")


# The sm to build for: ARCH, else the GPU's compute capability.
arch=$(peer_arch)
if [[ -z $arch ]] && ((dry)); then
  arch=90
elif [[ -z $arch ]]; then
  echo "lorastencil: no nvidia-smi to ask the GPU's sm: set ARCH (e.g. ARCH=90)" >&2
  exit 2
fi
[[ $arch =~ ^[0-9]+[a-z]?$ ]] || { echo "lorastencil: ARCH '$arch' is not an sm number (90, 100a...)" >&2; exit 2; }
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc # where the peer's CMake looks
flags=(-std=c++17 -O3 -lineinfo --use_fast_math --ptxas-options=-v -rdc=true
  -gencode "arch=compute_$arch,code=sm_$arch")
((dry)) || mkdir -p "$out" "$build/check"
echo "== $(date -u +%FT%TZ) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 || echo 'no nvidia-smi') (sm_$arch)"
echo "== LoRAStencil: $(tr '\n' ' ' <"$peer/PEER_SOURCE")"

# The peer's source as built: a copy of PEERS/lorastencil in
# BUILD/lorastencil/src with the one edit of the header (each changes a line
# in place). The copy is remade when the fetched source or the edit changes.
prepare_source() {
  local log=$out/source.log want stamp=$copy/PATCHED file
  local end='std::chrono::steady_clock::time_point end = std::chrono::steady_clock::now();'
  want="$(cat "$peer/PEER_SOURCE") edits: launch-status check after the timed loop, v1"
  ((!dry)) && [[ -f $stamp && $(<"$stamp") == "$want" ]] && return 0
  ((dry)) || : >"$log"
  x "$log" rm -rf "$copy" || return 1
  x "$log" cp -R "$peer" "$copy" || return 1
  for file in src/1d/gpu_1r.cu src/1d/gpu_2r.cu src/2d/gpu.cu; do
    x "$log" sed -i "s|^\(\s*$end\)\$|\1 CUDA_CHECK(cudaGetLastError());|" "$copy/$file" || return 1
  done
  ((dry)) && return 0
  # All 5 lines must have been found (another commit of the peer may differ).
  if (($(cat "$copy"/src/1d/gpu_1r.cu "$copy"/src/1d/gpu_2r.cu "$copy"/src/2d/gpu.cu |
    grep -c 'now(); CUDA_CHECK(cudaGetLastError());') != 5)); then
    echo "the edit found fewer than its 5 lines (is $peer at c45c993de3d3?)" | tee -a "$log"
    return 1
  fi
  echo "$want" >"$stamp"
}

# One program, timed (BUILD/lorastencil/lorastencil_Nd) or checking
# (BUILD/lorastencil/check/lorastencil_Nd, -DCHECK_ERROR).
build_program() { # dim timed|check
  local dim=$1 kind=$2 exe=$build/lorastencil_${1}d extra=() log file srcs=()
  [[ $kind == check ]] && { exe=$build/check/lorastencil_${dim}d; extra=(-DCHECK_ERROR); }
  log=$out/build-${dim}d-$kind.log
  for file in ${sources[$dim]}; do srcs+=("$copy/src/${dim}d/$file"); done
  ((dry)) || : >"$log"
  x "$log" "$nvcc" "${flags[@]}" "${extra[@]}" "${srcs[@]}" -o "$exe"
}

# All six programs at once (each is a few files, seconds apiece); skipped
# when an earlier call built them from the same copy, sm and flags.
build_all() {
  local want stamp=$build/BUILT pids=() pid failed=0 dim kind
  want="$(cat "$copy/PATCHED" 2>/dev/null) sm_$arch ${flags[*]} v1"
  if ((!dry)) && [[ -f $stamp && $(<"$stamp") == "$want" ]] &&
    ls "$build"/lorastencil_{1,2,3}d "$build"/check/lorastencil_{1,2,3}d >/dev/null 2>&1; then
    echo "== built already ($build)"
    return 0
  fi
  for dim in 1 2 3; do
    for kind in timed check; do
      if ((dry)); then build_program "$dim" "$kind"; else build_program "$dim" "$kind" & pids+=($!); fi
    done
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  ((dry)) && return 0
  if ((failed)); then
    grep -h -B1 -A3 -E 'error' "$out"/build-*.log | head -30
    return 1
  fi
  echo "$want" >"$stamp"
  echo "== built in $((SECONDS - phase))s: $build/lorastencil_{1,2,3}d and check/"
}

# The extents a program takes for DIM at SIZE (its argument order: 1D n;
# 2D rows, columns; 3D planes, rows, columns), refused where the peer's
# tiles would not cover them exactly.
extents() { # dim size
  local dim=$1 n=$2
  case $dim in
  1) ((n % 1024 == 0)) && echo "$n" ;;
  2) ((n % 64 == 0)) && echo "$n $n" ;;
  3) ((n % 64 == 0)) && echo "$n $n $n" ;;
  esac
}

# One -DCHECK_ERROR run: one step on a small grid (distinct extents in 2D
# and 3D, so that a swapped axis shows), its mismatches counted (a line each
# where the kernel and the CPU loop differ by more than 1e-7; the program
# prints "Correct!" whatever it found).
check_one() { # name dim
  local name=$1 dim=$2 log=$out/check-$1.log args bad rc
  case $dim in 1) args=(65536) ;; 2) args=(256 512) ;; 3) args=(32 64 128) ;; esac
  ((dry)) || rm -f "$log"
  x "$log" timeout "${LORA_TIMEOUT:-120}" env CUDA_MODULE_LOADING="$loading" \
    "$build/check/lorastencil_${dim}d" "$name" "${args[@]}" 1
  rc=$?
  ((dry)) && return 0
  bad=$(grep -c 'naive = ' "$log")
  if ((rc == 0 && bad == 0)) && grep -q 'Comparing naive and lora' "$log" && ! grep -q 'CUDA Error' "$log"; then
    echo "== check $name at ${args[*]}, 1 step: the kernel matches the CPU loop"
  else
    echo "== check $name at ${args[*]}: FAILED (exit $rc, $bad points differ; $log)"
    return 1
  fi
}

# One timed run and its line; 1 when the run gave no figure.
run_one() { # name dim K rep
  local name=$1 dim=$2 k=$3 log=$out/run-$1-$4.log ext own ms rc
  read -r -a ext <<<"$(extents "$dim" "${sizes[$dim]}")"
  ((dry)) || rm -f "$log"
  x "$log" timeout "${LORA_TIMEOUT:-120}" env CUDA_MODULE_LOADING="$loading" \
    "$build/lorastencil_${dim}d" "$name" "${ext[@]}" "$steps"
  rc=$?
  ((dry)) && return 0
  own=$(sed -n 's|^GStencil/s = \([0-9.]*\)$|\1|p' "$log" | tail -n 1)
  ms=$(sed -n 's|^Time = \([0-9]*\)\[ms\]$|\1|p' "$log" | tail -n 1)
  if ((rc != 0)) || [[ -z $own || -z $ms ]] || grep -q 'CUDA Error\|failed:' "$log"; then
    echo "== $name run $4: no figure (exit $rc; $log):"
    tail -n 3 "$log" | sed 's/^/   /'
    return 1
  fi
  report "$name" "$k" "$own" "$ms" "${ext[@]}"
}

# The line of a run: NX NY NZ from the extents (the contiguous one last),
# the time in ms taken back from the figure (figure = points x launches x K
# / s / 1e9), checked against the whole ms printed, and the recount.
report() { # name K own whole-ms extents...
  local name=$1 k=$2 own=$3 ms=$4 nx ny=1 nz=1 line
  shift 4
  case $# in 1) nx=$1 ;; 2) ny=$1 nx=$2 ;; 3) nz=$1 ny=$2 nx=$3 ;; esac
  line=$(awk -v n="$name" -v x="$nx" -v y="$ny" -v z="$nz" -v s="$steps" -v k="$k" -v f="$own" -v w="$ms" '
    BEGIN {
      if (f <= 0) exit 1
      p = x * y * z; t = p * s * k / (f * 1e6)
      if (t < w - 0.01 || t >= w + 1.01)
        printf "== %s: time from the figure %.3f ms, printed %d ms: is K = %d right?\n", n, t, w, k
      printf "peer lorastencil %s fp64 %d %d %d %d %.3f %s GStencil/s %.3f\n", n, x, y, z, s, t, f, p * s / (t * 1e6)
    }') || { echo "== $name: a figure of $own GStencil/s cannot be timed"; return 1; }
  echo "$line"
  grep '^peer ' <<<"$line" >>"$out/results.txt"
  [[ $line != "== "* ]] # a time that disagrees fails the run
}

status=0
phase=$SECONDS
((dry)) || mkdir -p "$build"
if ! prepare_source || ! build_all; then
  echo "== LoRAStencil did not build (logs in $out)"
  exit 1
fi
((build_only)) && exit 0

((dry)) || rm -f "$out/results.txt"
picked=0
for entry in "${table[@]}"; do
  read -r name dim k <<<"$entry"
  [[ $name == *"$only"* ]] || continue
  picked=1
  if [[ -z $(extents "$dim" "${sizes[$dim]}") ]]; then
    echo "== $name: SIZE${dim}D=${sizes[$dim]} is not a multiple of the peer's tile (1D 1024, 2D and 3D 64): not run"
    status=1
    continue
  fi
  ((!no_check)) && { check_one "$name" "$dim" || status=1; }
  for ((rep = 1; rep <= repeat; rep++)); do
    run_one "$name" "$dim" "$k" "$rep" || status=1
  done
done
((picked)) || { echo "lorastencil: no stencil matches '$only'" >&2; exit 2; }
((dry)) || echo "== ran in $((SECONDS - phase))s; lines in $out/results.txt"
exit $status
