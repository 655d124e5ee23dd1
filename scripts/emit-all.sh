#!/usr/bin/env bash
# Writes everything stencilc prints for every input in the tree, so that a
# refactoring can be proved to change no output: run it before and after with
# the two builds' stencilc, then `diff -r BEFORE AFTER` must print nothing.
#
# Inputs: every tracked *.stencil, *.c and *.cpp under examples/ and test/
# but the tests' own C++ (test/support, test/unittests); rejected inputs
# included (they prove the diagnostics unchanged). Each is run with the
# default flags plus --arch (default sm_90), once per --emit kind: stencil,
# ast, spec, plan, cuda, header. For the input examples/suite/heat2d.stencil
# and the kind plan it writes, under OUTDIR:
#   examples/suite/heat2d.stencil/plan.out      stencilc's standard output
#   examples/suite/heat2d.stencil/plan.err      its standard error (diagnostics)
#   examples/suite/heat2d.stencil/plan.status   its exit status (124: timed out)
# With --backends, cuda, header and plan are also written with each backend
# forced (cuda.tensor.out, cuda.simt.out, ...): more of the backends' code runs.
# Inputs are named relative to the repository root and stencilc runs there, so
# two checkouts (or two trees) give comparable outputs; runs go in parallel.
# C inputs need stencilc-cfront beside stencilc (a build with Clang 19).
#
# Usage: scripts/emit-all.sh [--backends] STENCILC OUTDIR
#   STENCILC_ARCH  (default sm_90)   EMIT_JOBS (default nproc)
#   EMIT_TIMEOUT   seconds a run may take (default 120)
# Prints a count per status; exit status 0 unless the usage was wrong.
set -euo pipefail

backends=0
if [[ ${1:-} == --backends ]]; then
  backends=1
  shift
fi
if (($# != 2)); then
  echo "usage: scripts/emit-all.sh [--backends] STENCILC OUTDIR" >&2
  exit 2
fi
stencilc=$(realpath "$1")
out=$(realpath -m "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ ! -x $stencilc ]]; then
  echo "emit-all: no stencilc at $1" >&2
  exit 2
fi
if [[ -e $out ]] && [[ -n $(ls -A "$out") ]]; then
  echo "emit-all: $out is not empty (outputs of two runs must not mix)" >&2
  exit 2
fi
mkdir -p "$out"
cd "$root"
# Diagnostics must not depend on the locale.
export LC_ALL=C STENCILC="$stencilc" OUT="$out" BACKENDS="$backends"
export ARCH=${STENCILC_ARCH:-sm_90} TIMEOUT=${EMIT_TIMEOUT:-120}

# One input: every kind of output, each with its stderr and exit status.
emit_input() {
  local input=$1 dir=$OUT/$1 kind backend name
  mkdir -p "$dir"
  for kind in stencil ast spec plan cuda header; do
    for backend in "" tensor simt; do
      if [[ -n $backend ]] && { ((BACKENDS == 0)) || [[ $kind != @(cuda|header|plan) ]]; }; then
        continue
      fi
      name=$dir/$kind${backend:+.$backend}
      local status=0 try
      # 126 once more: a binary just copied can be busy for an instant.
      for try in 1 2; do
        status=0
        timeout "$TIMEOUT" "$STENCILC" --arch="$ARCH" ${backend:+--backend=$backend} \
          --emit="$kind" "$input" >"$name.out" 2>"$name.err" </dev/null || status=$?
        ((status != 126)) && break
      done
      echo "$status" >"$name.status"
    done
  done
}
export -f emit_input

# The C++ of test/support and test/unittests is the tests' own code, no input.
inputs=(-- 'examples/*.stencil' 'examples/*.c' 'examples/*.cpp' 'test/*.stencil' 'test/*.c'
  'test/*.cpp' ':!test/support/' ':!test/unittests/')
# shellcheck disable=SC2016 # $1 expands in the child bash
git ls-files -z "${inputs[@]}" |
  xargs -0 -n 1 -P "${EMIT_JOBS:-$(nproc)}" bash -c 'emit_input "$1"' emit_input

echo "emit-all: $(git ls-files "${inputs[@]}" | wc -l) inputs into $out; runs by exit status:"
find "$out" -name '*.status' -exec cat {} + | sort -n | uniq -c |
  awk '{printf "  status %s: %s runs\n", $2, $1}'
