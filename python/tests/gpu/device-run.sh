#!/usr/bin/env bash
# Builds the package and runs its GPU tests and benchmarks on a GPU machine
# that has CUDA, CuPy and PyTorch but no LLVM and no network. Run from a
# folder holding python/ (this package), runtime/include/ (the runtime's
# headers), compiler/include/stencilc/ (the tables the package's build
# reads: *.def), cmake/StencilcPython.cmake (which it installs), stencilc (a
# prebuilt compiler: it links LLVM statically; not stencilc-cfront, which
# needs LLVM's shared libraries, so the C-source tests fail there) and,
# where the machine lacks them, whl/ (pure-Python wheels: nanobind,
# scikit-build-core, pytest and their needs). Without LLVM the package is
# built without the in-process pipeline: compile() runs the bundled
# stencilc. Results go to $OUT (or ./out).
set -uo pipefail
out=${OUT:-$PWD/out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1 XDG_CACHE_HOME=/tmp/stencilc-cache
if compgen -G "whl/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site whl/*.whl || exit 1
fi
export PYTHONPATH=/tmp/site
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
python3 -c 'import torch, cupy; print("torch", torch.__version__, "cupy", cupy.__version__)' |
  tee -a "$out/device.txt"
start=$(date +%s)
python3 -m pip install -q --no-index --no-deps --no-build-isolation --target /tmp/pkg ./python \
  -C cmake.define.STENCILC_EXECUTABLE="$PWD/stencilc" 2>&1 | tail -20 || exit 1
export PYTHONPATH=/tmp/pkg:/tmp/site
echo "package built and installed in $(( $(date +%s) - start )) s"
cd python
timeout "${PYTEST_TIMEOUT:-240}" python3 -m pytest -q -rs tests --junitxml="$out/pytest.xml" \
  -p no:cacheprovider 2>&1 | tee "$out/pytest.txt" | tail -40
echo "pytest done at $(( $(date +%s) - start )) s"
python3 bench/cache_hit.py 2>&1 | tee "$out/cache-hit.txt"
python3 bench/overhead.py --json "$out/overhead.json" 2>&1 | tee "$out/overhead.txt"
echo "all done at $(( $(date +%s) - start )) s"
