#!/usr/bin/env bash
# The peers beside our generated code, in one call on the GPU machine, from
# the repository root (EBISU here; LoRAStencil, TCStencil and
# FlashFFTStencil: scripts/peers/beside-ours.sh). Builds EBISU (ICS'23)
# from its source in .peers/ebisu (scripts/fetch-peers.sh, run where there
# is network; carry .peers) and our
# benchmark programs for the suite's ebisu_* stencils (EBISU's weights,
# examples/suite) from GEN (scripts/gen-gpu-sources.sh; carry it), both for
# the machine's GPU; then runs EBISU on each of its stencils in fp64 and
# fp32 and ours on the same stencils, sizes and steps, and prints
# bench/peers.py's table last: both in GStencil/s counted alike, and their
# ratio. Our benchmark measures the copy bandwidth in the same run.
#
# EBISU as its CMake files build it (each stencil folder's CMakeLists.txt:
# the kernel file and the -D flags read from there), with three changes:
#   - its code accepts __CUDA_ARCH__ 600, 700 or 800 alone (an #error
#     otherwise), so it is compiled as compute_80 and assembled for the
#     machine's sm_XX (-gencode arch=compute_80,code=sm_XX): machine code for
#     this GPU from the same source EBISU's own build compiles;
#   - CUDA 13: -static-global-template-stub=false, where nvcc has it (the
#     kernel templates are instantiated in one file and launched from
#     another);
#   - CUDA 13's headers need C++17: nvcc's own default, where EBISU's CMake
#     sets no CUDA standard.
# Like EBISU's build, no -O flag: the device code is optimised as nvcc does
# by default; the host code (not timed) is not, and must not be (its driver
# falls off the end of a non-void function).
#
# It is built from a copy, BUILD/ebisu/src, with three edits made there by
# sed (.peers keeps EBISU's files as fetched; prepare_ebisu_source below says
# why each): the 3D driver asks for the one element of shared memory its
# kernels use beyond their planes (as its 2D driver does); the warm-up no
# longer divides by zero when its launches all failed; the 3D driver prints
# a line "ebisu-diag: ..." to stderr with the occupancy and grid it picked.
# Its 3D programs run their cooperative grid of one block per SM over the
# whole x-y plane, which in fp64 (32 x 32 tiles) cannot cover 512 x 512 on
# fewer than 256 SMs: fp64 runs EBISU_SIZE3D_FP64 instead of 512^3.
#
# Usage: scripts/gpu-peers.sh [--build-only] [--dry-run] [--steps N] [--only TEXT]
#   --build-only  build both and stop (a first call; a later call on the
#                 same machine keeps EBISU's programs and rebuilds none of ours
#                 that is unchanged)
#   --dry-run     print the commands, run nothing
#   --steps N     time steps of every run (default 100); EBISU runs its fused
#                 depth T a launch, so it does ceil(N / T) x T (the table says)
#   --only TEXT   only EBISU's stencils whose folder name contains TEXT
#                 (2d5pt, 2ds9pt, 2d9pt, 2d25pt, 2d49pt, 3d7pt, 3d13pt,
#                 3d17pt, 3d27pt, poisson), or all of 2D or 3D (2d, 3d:
#                 poisson is 3D); ours the same (ebisu_NAME_fp64, _fp32)
#   PEERS (default .peers), GEN (default build-gen), BUILD (default
#   build-peers; logs in BUILD/out), ARCH (e.g. 90; default nvidia-smi's,
#   else 90), SIZE2D (default 8192), SIZE3D (default
#   512): issue 35's sizes, 8192^2 and 512^3; EBISU_TIMEOUT (default 120 s a run)
#   EBISU_SIZE3D_FP64 (default "512 256 1024": x y z of EBISU's 3D fp64 runs,
#   as many points as 512^3; (x/32) x (y/32) must not pass the SM count)
#   EBISU_SMEM_PAD (default 1; 0 builds the 3D driver's shared memory size as
#   EBISU has it, to see its failure again)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/peers/common.sh
source "$root/scripts/peers/common.sh"
cd "$root" || exit 2
peers=${PEERS:-.peers}
gen=${GEN:-build-gen}
build=$(peer_build_dir)
out=$build/out
esrc=$build/ebisu/src # EBISU's source as built (prepare_ebisu_source)
size2d=${SIZE2D:-8192}
size3d=${SIZE3D:-512}
size3d_fp64=${EBISU_SIZE3D_FP64:-512 256 1024}
smem_pad=${EBISU_SMEM_PAD:-1}
usage="usage: $0 [--build-only] [--dry-run] [--steps N] [--only TEXT]"
parse_peer_options "$usage" "$@"
[[ $size3d_fp64 =~ ^[1-9][0-9]*\ [1-9][0-9]*\ [1-9][0-9]*$ ]] ||
  { echo "gpu-peers: EBISU_SIZE3D_FP64 wants three extents, 'X Y Z'" >&2; exit 2; }
[[ $smem_pad == [01] ]] || { echo "gpu-peers: EBISU_SMEM_PAD wants 0 or 1" >&2; exit 2; }
ebisu=$peers/ebisu
if [[ ! -f $ebisu/PEER_SOURCE ]]; then
  echo "gpu-peers: no EBISU source in $ebisu (run scripts/fetch-peers.sh here, carry $peers)" >&2
  exit 2
fi
if [[ ! -f $gen/manifest.txt ]]; then
  echo "gpu-peers: no $gen/manifest.txt (run scripts/gen-gpu-sources.sh, carry $gen)" >&2
  exit 2
fi

arch=$(peer_arch)
arch=${arch:-90}
jobs=$(nproc)
((dry)) || mkdir -p "$out"
echo "== $(date -u +%FT%TZ) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi') (sm_$arch)"
echo "== EBISU: $(tr '\n' ' ' <"$ebisu/PEER_SOURCE")"

# EBISU's stencils: DIM/NAME folders holding a config.cuh.
stencils=()
for dir in "$ebisu"/2dstencil/*/ "$ebisu"/3dstencil/*/; do
  name=$(basename "$dir")
  [[ -f $dir/config.cuh && -f $dir/CMakeLists.txt ]] || continue
  [[ $name == *"$only"* || $(basename "$(dirname "$dir")") == "$only"stencil ]] && stencils+=("$name")
done
((${#stencils[@]})) || { echo "gpu-peers: no EBISU stencil matches '$only'" >&2; exit 2; }

nvcc_extra=()
# (the help read whole: under pipefail, grep -q closing the pipe early would
# fail nvcc's write, and with it the test)
[[ $(nvcc --help 2>/dev/null) == *-static-global-template-stub* ]] && nvcc_extra+=(-static-global-template-stub=false)
# The 3D driver's run function ends without a return; GCC 14 and later
# turn that into a trap at -O0 (-funreachable-traps, their default there),
# which killed every 3D program at its end, its figures still in stdout's
# buffer. Without the trap the function returns as older compilers made
# it, its value unused.
host_extra=()
unbuffered=()
command -v stdbuf >/dev/null && unbuffered=(stdbuf -oL)
g++ -fno-unreachable-traps -x c++ -fsyntax-only /dev/null 2>/dev/null && host_extra+=(-fno-unreachable-traps)

# EBISU's source as it is built: a copy of PEERS/ebisu in BUILD/ebisu/src,
# edited there (EBISU at dd3d84471cb6; each edit changes one line in place,
# so that the line numbers of its messages stay its own):
#   - 3dstencil/j3d.cu sizes a block's dynamic shared memory (executeSM) as
#     its planes' bytes, but both 3D kernels place their planes one element
#     in ((REAL *)sm + 1: j3d-temporal.cu:42, j3d-temporal-box.cu:44) and
#     fill every plane whole, so the last element lies past what was asked
#     for; the 2D driver counts that element (+ sizeof(REAL),
#     jacobi-2d.cu:110), the 3D one (j3d.cu:85-87) does not. Shared memory
#     is allocated in 128-byte units, which hide the overrun unless the
#     planes fill their last unit exactly: 3d13pt, 156672 B in fp32 and
#     165888 B in fp64, where the kernel writes outside its block's shared
#     memory. One element more is asked for (EBISU_SMEM_PAD=1, the default);
#     no other program's allocation changes, being rounded up as before.
#   - share/launchHelper.cuh (both drivers) sizes the warm-up by its first
#     1000 launches' time in whole ms and divides by it (lines 80-81, 110-111):
#     when those launches failed (a kernel that faulted, a grid too large),
#     that is 0 or unset, and the program dies of SIGFPE without a word
#     (3d13pt fp32 on the H200, 2026-11-29). Taken as at least 1 ms: a
#     program whose launches fail goes on to its own check after the timed
#     pass and names the error.
#   - 3dstencil/j3d.cu, where the grid is fixed (executeGridDim, line 108),
#     prints to stderr the SM count, the blocks an SM its occupancy query
#     allows, the dynamic shared memory and registers behind that, and the
#     grid: a cooperative launch wants grid <= SMs x blocks an SM.
# The copy is remade when the fetched source or these edits change.
prepare_ebisu_source() {
  local log=$out/ebisu-source.log stamp want diag
  stamp=$esrc/PATCHED
  want="$(cat "$ebisu/PEER_SOURCE") edits: smem-pad $smem_pad, warm-up guard, ebisu-diag, v1"
  ((!dry)) && [[ -f $stamp && $(<"$stamp") == "$want" ]] && return 0
  ((dry)) || : >"$log"
  diag='{ cudaFuncAttributes ebisu_fa; cudaFuncGetAttributes(\&ebisu_fa, execute_kernel);'
  diag+=' fprintf(stderr, "ebisu-diag: %d SMs x %d blocks/SM (occupancy query at %zu B dynamic shared memory,'
  diag+=' %d registers x %d threads) = cooperative limit %d; grid %ux%ux%u = %u blocks\\n",'
  diag+=' sm_count, numBlocksPerSm_current, executeSM, ebisu_fa.numRegs, global_bdimx,'
  diag+=' sm_count * numBlocksPerSm_current, executeGridDim.x, executeGridDim.y, executeGridDim.z,'
  diag+=' executeGridDim.x * executeGridDim.y * executeGridDim.z); }'
  x "$log" rm -rf "$esrc" || return 1
  x "$log" cp -R "$ebisu" "$esrc" || return 1
  if ((smem_pad)); then
    x "$log" sed -i 's|^\(\s*executeSM = basic_sm_space\);$|\1 + sizeof(REAL);|' "$esrc/3dstencil/j3d.cu" || return 1
  fi
  x "$log" sed -i 's|int nowwarmup = warmelapsedTime;|int nowwarmup = warmelapsedTime >= 1 ? warmelapsedTime : 1;|' \
    "$esrc/share/launchHelper.cuh" || return 1
  x "$log" sed -i "s|^\(\s*dim3 executeGridDim = grid_dim_3;\)\$|\1 $diag|" "$esrc/3dstencil/j3d.cu" || return 1
  ((dry)) && return 0
  # Each edit must have found its line (another commit of EBISU may differ).
  if ((smem_pad)) && ! grep -q 'executeSM = basic_sm_space + sizeof(REAL);' "$esrc/3dstencil/j3d.cu" ||
    (($(grep -c 'warmelapsedTime >= 1' "$esrc/share/launchHelper.cuh") != 2)) ||
    ! grep -q 'ebisu-diag' "$esrc/3dstencil/j3d.cu"; then
    echo "an edit of EBISU's source found no line to change (is PEERS/ebisu at dd3d84471cb6?)" | tee -a "$log"
    return 1
  fi
  echo "$want" >"$stamp"
}

# One EBISU program, BUILD/ebisu/NAME.exe, as its CMakeLists.txt makes it,
# from the edited copy.
build_ebisu() { # name
  local name=$1 dim src dir obj gencode kernel print=() rdc=() drv=() log
  [[ -d $ebisu/2dstencil/$name ]] && dim=2dstencil || dim=3dstencil
  src=$esrc/$dim
  dir=$src/$name
  obj=$build/ebisu/$name
  log=$out/ebisu-build-$name.log
  gencode=(-gencode "arch=compute_80,code=sm_$arch" "${nvcc_extra[@]}")
  # (read from the fetched files, which the copy has unchanged: a dry run
  # makes no copy)
  kernel=$(sed -n 's|^mylib(.*CMAKE_SOURCE_DIR}/\([^"]*\.cu\)".*|\1|p' "$ebisu/$dim/$name/CMakeLists.txt")
  grep -q '^subcompile(.*-D__PRINT__' "$ebisu/$dim/$name/CMakeLists.txt" && print=(-D__PRINT__)
  [[ -n $kernel ]] || { echo "no mylib(... .cu) line in $ebisu/$dim/$name/CMakeLists.txt" >>"$log"; return 1; }
  # Built by an earlier call on this machine from the same edited copy.
  ((!dry)) && [[ $build/ebisu/$name.exe -nt $esrc/PATCHED ]] && return 0
  ((dry)) || { mkdir -p "$obj" && : >"$log"; }
  if [[ $dim == 2dstencil ]]; then
    # 2D: the kernel library separately compiled (COMPILECG), -DTRATEMPORAL;
    # the driver built with the program's own -D flags.
    rdc=(-rdc=true)
    drv=(-DEBISU -D_TIMER_ "${print[@]}")
    x "$log" nvcc "${gencode[@]}" -I"$dir" -D_TIMER_ -rdc=true -Xptxas -v -DTRATEMPORAL \
      -c "$src/$kernel" -o "$obj/kernel.o" || return 1
    x "$log" nvcc "${gencode[@]}" -I"$dir" "${drv[@]}" -c "$src/jacobi-2d.cu" -o "$obj/host.o" || return 1
    x "$log" g++ -std=c++14 "${host_extra[@]}" -I"$dir" -I"$(nvcc_include)" "${drv[@]}" \
      -c "$src/jacobi.driver.cpp" -o "$obj/driver.o" || return 1
    x "$log" g++ -std=c++14 -I"$dir" -c "$dir/jacobi_gold.cpp" -o "$obj/gold.o" || return 1
    x "$log" g++ -std=c++14 -I"$dir" -c "$dir/jacobi_gold_gen.cpp" -o "$obj/gold_gen.o" || return 1
  else
    x "$log" nvcc "${gencode[@]}" -I"$dir" -D_TIMER_ -Xptxas -v -c "$src/$kernel" -o "$obj/kernel.o" || return 1
    x "$log" nvcc "${gencode[@]}" -I"$dir" -DEBISU -D_TIMER_ -Xptxas -v -D__PRINT__ -c "$src/j3d.cu" -o "$obj/host.o" || return 1
    x "$log" g++ -std=c++14 "${host_extra[@]}" -I"$dir" -I"$(nvcc_include)" -c "$src/j3d.driver.cpp" \
      -o "$obj/driver.o" || return 1
    x "$log" g++ -std=c++14 -I"$dir" -c "$dir/${name}_gold.cpp" -o "$obj/gold.o" || return 1
    x "$log" g++ -std=c++14 -I"$dir" -c "$dir/${name}_gold_gen.cpp" -o "$obj/gold_gen.o" || return 1
  fi
  x "$log" nvcc "${gencode[@]}" "${rdc[@]}" "$obj"/kernel.o "$obj"/host.o "$obj"/driver.o "$obj"/gold.o \
    "$obj"/gold_gen.o -o "$build/ebisu/$name.exe"
}

# The CUDA headers' folder, for EBISU's host files (its driver includes them).
nvcc_include() {
  local bin
  bin=$(dirname "$(command -v nvcc)")
  echo "$bin/../include"
}

# Our programs: GEN's bench/ebisu_* files alone (the rest of the suite is not
# compared here, and building it would cost minutes), in BUILD/gen; all of
# them whatever --only says, so that calls with another --only rebuild
# nothing (the programs' own --only picks the stencils).
build_ours() {
  local log=$out/ours-build.log targets=() backend listed
  # What BUILD/gen/manifest.txt holds (a dry run writes none).
  listed=$(grep '^bench/ebisu_' "$gen/manifest.txt")
  ((dry)) || : >"$log"
  x "$log" rm -rf "$build/gen"
  x "$log" mkdir -p "$build/gen/bench"
  if ((dry)); then
    echo "grep '^bench/ebisu_' $gen/manifest.txt >$build/gen/manifest.txt; cp -p $gen/bench/ebisu_* $build/gen/bench/"
  else
    echo "$listed" >"$build/gen/manifest.txt"
    # -p: the same times, so that a second call rebuilds nothing
    cp -p "$gen"/bench/ebisu_* "$build/gen/bench/" || return 1
  fi
  x "$log" cmake -S . -B "$build/ours" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTENCILC_BUILD_COMPILER=OFF \
    -DSTENCILC_BUILD_GPU_TESTS=ON -DSTENCILC_BUILD_TESTS=OFF -DSTENCILC_CUDA_ARCHITECTURES="$arch" \
    -DSTENCILC_GENERATED_DIR="$build/gen" || return 1
  for backend in tensor simt; do
    grep -q "\.$backend\$" <<<"$listed" && targets+=("stencilc-bench-gen-$backend")
  done
  ((${#targets[@]})) || { echo "no bench/ebisu_*.tensor or .simt in $gen/manifest.txt" >>"$log"; return 1; }
  x "$log" cmake --build "$build/ours" -j "$jobs" --target "${targets[@]}"
}

# EBISU's programs a few at a time (their files are few, each compiles
# alone), in a subshell of their own beside our build.
build_all_ebisu() {
  local name running=0 failed=0 limit=$(((jobs + 1) / 2))
  ((dry)) && limit=1
  for name in "${stencils[@]}"; do
    build_ebisu "$name" &
    running=$((running + 1))
    if ((running >= limit)); then
      wait -n || failed=1
      running=$((running - 1))
    fi
  done
  while ((running)); do
    wait -n || failed=1
    running=$((running - 1))
  done
  return $failed
}

phase=$SECONDS
((dry)) || mkdir -p "$build/ebisu"
failed=0
if ((dry)); then
  prepare_ebisu_source
  build_all_ebisu
  build_ours
else
  { prepare_ebisu_source && build_all_ebisu; } &
  ebisu_pid=$!
  build_ours &
  ours_pid=$!
  wait "$ebisu_pid" || {
    failed=1
    [[ -f $esrc/PATCHED ]] || { echo "EBISU's source was not prepared:"; tail -n 5 "$out/ebisu-source.log"; }
    for name in "${stencils[@]}"; do
      [[ -x $build/ebisu/$name.exe ]] && continue
      echo "EBISU $name failed to build:"
      grep -E "error" -A2 "$out/ebisu-build-$name.log" | head -10
    done
  }
  wait "$ours_pid" || {
    failed=1
    echo "our build failed:"
    grep -E "error|FAILED" -A3 "$out/ours-build.log" | head -30
  }
fi
built=("$build"/ebisu/*.exe)
((dry)) || echo "== built in $((SECONDS - phase))s (${#built[@]} EBISU programs in $build/ebisu)"
((build_only)) && exit $failed

# Stencil by stencil, ours then EBISU, so that both meet the card in the
# same state. Each of our programs appends its rows to one CSV a backend and
# measures the copy bandwidth again at its start.
run_ours() { # name
  local backend exe
  for backend in tensor simt; do
    exe=$build/ours/bench/stencilc-bench-gen-$backend
    [[ -x $exe ]] || ((dry)) || continue
    x "$out/ours-$backend.log" "$exe" --no-naive --only "ebisu_$1_" --run-steps "$steps" \
      --csv "$out/ours-$backend.csv" || {
      echo "ours ($backend, $1) exited non-zero:"
      tail -n 3 "$out/ours-$backend.log"
      status=1
    }
  done
}

# EBISU's program in both precisions; its last line of figures to TSV.
# 3D in fp64 runs EBISU_SIZE3D_FP64, not SIZE3D^3: its kernels (about 255
# registers a thread, 256 threads, 135-162 KB of shared memory) fit one block
# an SM, its cooperative grid tiles the whole x-y plane (z is split only
# where SMs are left over), and an fp64 tile is 32 x 32 (fp32: 64 x 32), so
# 512 x 512 wants 256 blocks at once: more than the H200's 132 SMs.
run_ebisu() { # name
  local name=$1 precision extents flags log figures failed is3d=0
  [[ -d $ebisu/2dstencil/$name ]] || is3d=1
  for precision in fp64 fp32; do
    if ((!is3d)); then
      extents=("$size2d" "$size2d")
    elif [[ $precision == fp64 ]]; then
      read -r -a extents <<<"$size3d_fp64"
    else
      extents=("$size3d" "$size3d" "$size3d")
    fi
    flags=(--iter="$steps" --warmup)
    [[ $precision == fp32 ]] && flags+=(--fp32)
    log=$out/ebisu-$name-$precision.log
    failed=0
    ((dry)) || rm -f "$log"
    # --warmup: EBISU's own warm-up (its ICS'23 setting), then one timed pass.
    # stdbuf: a line at a time, so that a program that dies at its end
    # still leaves the figures it printed.
    x "$log" timeout "${EBISU_TIMEOUT:-120}" "${unbuffered[@]}" "$build/ebisu/$name.exe" "${extents[@]}" \
      "${flags[@]}" ||
      { echo "EBISU $name $precision exited non-zero:"; tail -n 3 "$log"; status=1; failed=1; }
    ((dry)) && continue
    figures=$(grep -E '^[0-9]+[[:space:]]' "$log" | tail -n 1)
    # EBISU checks no launch, only the errors left at its end (and so prints
    # a time for a launch that failed, e.g. a cooperative grid too large):
    # such a run has no figure.
    if grep -q -E "Cuda failure|CUDA-ERROR" "$log"; then
      echo "EBISU $name $precision reported a CUDA error (no figure taken):"
      grep -m 2 -E "Cuda failure|CUDA-ERROR" "$log"
      figures=
      status=1
      failed=1
    fi
    # The grid the 3D driver picked and why (its edited line, on stderr).
    ((is3d)) && echo "EBISU $name $precision at ${extents[*]}: $(grep -m 1 '^ebisu-diag:' "$log" || echo 'no ebisu-diag line')"
    ((is3d && failed)) && sanitize_ebisu "$name" "$precision" "${extents[0]}" "${extents[1]}"
    printf 'ebisu_%s\t%s\t%s\n' "$name" "$precision" "$figures" >>"$tsv"
  done
}

# A failed 3D run once more under compute-sanitizer (memcheck), where the
# toolkit has it: one launch (--iter=1, no warm-up) on the same x-y plane,
# 16 planes deep (the same grid and shared memory, little work), its first
# findings printed; the log in BUILD/out. EBISU_SANITIZE=0: never.
sanitize_ebisu() { # name precision x y
  local name=$1 precision=$2 tool log flags=(--iter=1)
  [[ ${EBISU_SANITIZE:-1} == 0 ]] && return 0
  tool=$(command -v compute-sanitizer || echo "$(dirname "$(command -v nvcc)")/compute-sanitizer")
  [[ -x $tool ]] || { echo "  (no compute-sanitizer to look further)"; return 0; }
  [[ $precision == fp32 ]] && flags+=(--fp32)
  log=$out/ebisu-$name-$precision.sanitizer.log
  timeout 180 "$tool" --tool memcheck --print-limit 4 "$build/ebisu/$name.exe" "$3" "$4" 16 "${flags[@]}" >"$log" 2>&1
  echo "  compute-sanitizer, one launch at $3 $4 16 ($log):"
  grep -E 'Invalid|out of bounds|Program hit|ERROR SUMMARY|ebisu-diag' "$log" | head -n 8 | sed 's/^/    /'
}

phase=$SECONDS
status=0
tsv=$out/ebisu.tsv
((dry)) || rm -f "$tsv" "$out"/ours-*.csv "$out"/ours-*.log
for name in "${stencils[@]}"; do
  run_ours "$name"
  run_ebisu "$name"
done
((dry)) && exit 0
echo "== ran in $((SECONDS - phase))s"
csvs=()
for csv in "$out"/ours-*.csv; do [[ -f $csv ]] && csvs+=(--ours "$csv"); done
python3 bench/peers.py --ebisu "$tsv" "${csvs[@]}" || status=1
exit $status
