"""Whether each 3D suite stencil's fused pass, as planned, runs its interior
form on a grid NZ x NY x NX: a block whose window lies inside the grid along
x and y (runtime fused3d.cuh's passBlock: x0 >= r and x0 + width <= nx - r,
nx a multiple of a thread's columns) and a middle run of chunks along z
(ZChunks: more planes than its head and tail, bounded here with the lag of
a box, r + 1). Prints a line a fused plan, "reaches" or "misses", and exits
1 if any misses.

Usage: fused3d_interior_grid.py STENCILC SUITE_DIR NZ NY NX
"""
import glob
import os
import re
import subprocess
import sys

PLAN = re.compile(
    r"windows of (\d+) x (\d+) \(rows x columns\), (\d+) x (\d+) stored: "
    r"a halo of (\d+) rows and (\d+) columns each side \(T x r = (\d+)")


def inside(n, tile, halo, window, r):
    """Some block (1, 2, ...) whose window lies r inside both ends."""
    return any(b * tile - halo >= r and b * tile - halo + window <= n - r
               for b in range(1, n // tile + 2))


def main():
    stencilc, suite = sys.argv[1], sys.argv[2]
    nz, ny, nx = map(int, sys.argv[3:6])
    misses = 0
    for path in sorted(glob.glob(os.path.join(suite, "*3d*.stencil"))):
        plan = subprocess.run([stencilc, "--arch=sm_90", "--emit=plan", path],
                              capture_output=True, text=True, check=True).stdout
        m = PLAN.search(plan)
        if not m:
            continue
        height, width, tile_y, tile_x, halo_y, halo_x, tr = map(int, m.groups())
        steps = int(re.search(r"(\d+) steps fused a pass", plan).group(1))
        cols = int(re.search(r"keeps its \d+ x (\d+)", plan).group(1))
        r = tr // steps
        head, tail = steps * (2 * r + 1) + r, steps * (r + 1)
        ok = (inside(nx, tile_x, halo_x, width, r) and nx % cols == 0
              and inside(ny, tile_y, halo_y, height, r) and nz > head + tail)
        misses += not ok
        name = os.path.basename(path)[:-len(".stencil")]
        print(f"{'reaches' if ok else 'misses'}: {name} (T {steps}, windows "
              f"{height} x {width}, columns {cols})")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
