# shellcheck shell=bash
# What the peers' drivers share (scripts/gpu-peers.sh and scripts/peers/
# NAME.sh source it): their common options and the way they run and log a
# command, the GPU's sm and their build folder. Sourced, it defines
# functions only.

# Parses the options every peer driver takes into build_only, dry, steps
# and only: --build-only, --dry-run, --steps N (a positive count, default
# 100), --only TEXT. A driver's own flags without a value (e.g. --ncu) are
# named in PEER_FLAGS ("--ncu --no-check"), each setting the variable of
# its name without the dashes, '-' read as '_' (ncu=1, no_check=1).
# Anything else is a usage error: `usage` printed, exit 2.
# shellcheck disable=SC2034 # build_only, dry, steps, only: the caller's
parse_peer_options() { # usage args...
  local usage=$1 flag
  shift
  build_only=0 dry=0 steps=100 only=
  while (($#)); do
    case $1 in
    --build-only) build_only=1 ;;
    --dry-run) dry=1 ;;
    --steps) steps=${2:-}; shift ;;
    --only) only=${2:-}; shift ;;
    *)
      [[ " ${PEER_FLAGS:-} " == *" $1 "* ]] || { echo "$usage" >&2; exit 2; }
      flag=${1#--}
      printf -v "${flag//-/_}" 1
      ;;
    esac
    shift
  done
  [[ $steps =~ ^[1-9][0-9]*$ ]] || { echo "$usage (--steps wants a positive count)" >&2; exit 2; }
}

# The sm to build for, as nvcc's digits (90 for 9.0): ARCH where set, else
# nvidia-smi's first GPU; nothing where neither says (each driver decides
# what a dry run without a GPU takes).
peer_arch() {
  if [[ -n ${ARCH:-} ]]; then
    echo "$ARCH"
    return
  fi
  nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d .
}

# The drivers' build folder, BUILD (default build-peers), as an absolute
# path: compilers and CMake run it from elsewhere. Needs root, the
# repository's root.
# shellcheck disable=SC2154 # root: the caller's
peer_build_dir() {
  local build=${BUILD:-build-peers}
  [[ $build == /* ]] || build=$root/$build
  echo "$build"
}

# Runs a command, its output appended to LOG; with --dry-run (dry=1)
# prints it instead.
x() { # log command...
  local log=$1
  shift
  if ((dry)); then
    printf '%q ' "$@"
    printf '>>%q\n' "$log"
  else
    "$@" >>"$log" 2>&1
  fi
}
