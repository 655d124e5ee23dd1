"""Time of a second compile() of the same source in a new process (a cache
hit), measured in fresh interpreters: the import of stencilc, and the
compile() call itself, for an explicit arch and for arch=None (which asks
the CUDA driver for the current GPU).

    python cache_hit.py [--runs 7]
"""

import argparse
import statistics
import subprocess
import sys

PROGRAM = """
import time
t0 = time.perf_counter()
import stencilc
t1 = time.perf_counter()
m = stencilc.compile(SOURCE, arch=ARCH)
t2 = time.perf_counter()
print((t1 - t0) * 1e3, (t2 - t1) * 1e3)
"""
SOURCE = """
stencil heat {
  precision fp32;
  boundary periodic;
  out[j, i] = 0.5 * in[j, i] + 0.125 * (in[j-1, i] + in[j+1, i] + in[j, i-1] + in[j, i+1]);
}
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    for arch in ("'sm_90'", "None"):
        code = PROGRAM.replace("SOURCE", repr(SOURCE)).replace("ARCH", arch)
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)  # fill
        imports, compiles = [], []
        for _ in range(args.runs):
            out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                                 text=True).stdout.split()
            imports.append(float(out[0]))
            compiles.append(float(out[1]))
        print(f"cache hit, arch={arch}: import stencilc {statistics.median(imports):.1f} ms, "
              f"compile() {statistics.median(compiles):.1f} ms (medians of {args.runs} "
              "new processes)")


if __name__ == "__main__":
    main()
