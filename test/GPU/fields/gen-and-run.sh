#!/usr/bin/env bash
# The GPU conformance of stencils of fields on a machine without stencilc
# (the GPU machine has no LLVM), in two halves:
#   test/GPU/fields/gen-and-run.sh gen OUTDIR   where stencilc builds: writes
#       OUTDIR/NAME.cu, NAME.h and NAME.main.cu for each test/GPU/fields/*.stencil
#   test/GPU/fields/gen-and-run.sh run OUTDIR   on the GPU machine: builds each
#       test program for sm_90 and runs it, then compute-sanitizer memcheck on
#       the first (RUNTIME_INCLUDE= overrides runtime/include; the programs
#       build JOBS at a time, MEMCHECK= names the program to check instead of
#       the first, on grids of at most FIELDS_MAX_POINTS points, default
#       200000); prints each program's RESULT and a last line, ALL: PASS|FAIL.
# (lit runs the same inputs where stencilc and a GPU are on one machine.)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mode=$1
out=$2
if [[ $mode == gen ]]; then
  stencilc=${STENCILC:-$root/build/bin/stencilc}
  rm -rf "$out" && mkdir -p "$out"
  for input in "$here"/*.stencil; do
    name=$(basename "$input" .stencil)
    # A file's "// GEN-ARGS:" line: its stencilc flags (--backend=tensor).
    read -ra args <<< "$(sed -n 's|^// GEN-ARGS: ||p' "$input")"
    # EXTRA_ARGS: more stencilc flags for every input (--plan-option variants).
    # shellcheck disable=SC2086
    "$stencilc" "${args[@]}" ${EXTRA_ARGS:-} "$input" -o "$out/$name.cu" || exit 1
    (cd "$out" && python3 "$here/harness/fields_list.py" "$name.h" > "$name.main.cu") || exit 1
  done
  cp "$here/harness/fields_test.cuh" "$out/"
  exit 0
fi
cd "$out" || exit 2
status=0
first=
# Build every program first (those not built since their sources were
# written), JOBS (default: the cores) at a time.
ls *.main.cu | sed 's/\.main\.cu$//' |
  xargs -P "${JOBS:-$(nproc)}" -I{} sh -c '[ {}.exe -nt {}.cu ] && [ {}.exe -nt {}.main.cu ] || nvcc -std=c++17 -O2 -arch=sm_90 -I"$1" -I. {}.main.cu {}.cu -o {}.exe > {}.build.log 2>&1' _ "${RUNTIME_INCLUDE:-$root/runtime/include}"
for main in *.main.cu; do
  name=${main%.main.cu}
  if [[ ! -x $name.exe ]]; then
    cat "$name.build.log"; echo "$name: BUILD FAILED"; status=1; continue
  fi
  ./"$name.exe" > "$name.log" 2>&1
  rc=$?
  grep -E "^FAIL" "$name.log" | head -20
  echo "$name: $(tail -2 "$name.log" | tr '\n' ' ') (exit $rc)"
  [[ $rc == 0 ]] || status=1
  first=${first:-$name}
done
first=${MEMCHECK:-$first}
if [[ -n $first ]]; then
  FIELDS_NO_LONG_RUN=1 FIELDS_MAX_POINTS=${FIELDS_MAX_POINTS:-200000} compute-sanitizer --tool memcheck --error-exitcode 9 ./"$first.exe" > "$first.memcheck.log" 2>&1
  rc=$?
  echo "memcheck $first: $(tail -1 "$first.memcheck.log") (exit $rc)"
  [[ $rc == 0 ]] || status=1
fi
echo "ALL: $([[ $status == 0 ]] && echo PASS || echo FAIL)"
exit $status
