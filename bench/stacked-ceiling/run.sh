#!/usr/bin/env bash
# On the GPU machine, in the folder prepare.sh wrote: builds every variant
# of variants.txt in parallel, then times each twice (README.md).
set -uo pipefail
cd "$(dirname "$0")" || exit 1
build() { # name driver flags [sed]
  local name=$1 driver=$2 flags=${3//§/ } edit=${4:-}
  mkdir -p "v/$name"
  sed "${edit:-s/^//}" s.cu >"v/$name/s.cu"
  cp s.h timing.h "$driver.cu" "v/$name/"
  # shellcheck disable=SC2086
  nvcc -std=c++17 -O3 -arch=sm_90 -I include -I "v/$name" $flags -DVARIANT="\"$name\"" -Xptxas -v \
    -o "v/$name/x" "v/$name/$driver.cu" 2>&1 |
    grep -A3 "Compiling entry.*\(composed_tensor2d_kernel\|tmaKernel\)" |
    grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores" | tr '\n' ' ' >"v/$name/regs"
}
while read -r name driver flags edit; do
  [[ -z $name || $name == \#* ]] && continue
  build "$name" "$driver" "$flags" "$edit" </dev/null &
done <variants.txt
wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  while read -r name _; do
    [[ -z $name || $name == \#* ]] && continue
    echo "round $round: $("v/$name/x" </dev/null) ($(cat "v/$name/regs"))"
  done <variants.txt
done
