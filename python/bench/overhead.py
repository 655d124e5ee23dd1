"""The Python package's per-call overhead and kernel time against the C API
(issue 21's benchmark; docs/performance.md has the results).

    python overhead.py [--calls 1000] [--reps 15] [--json FILE]

One fp32 2D heat stencil (periodic), compiled by stencilc.compile(). For a
64^2 grid (overhead) and a 4096^2 grid (kernel time) it times CALLS
back-to-back step() calls with CUDA events (GPU time per call) and with the
host clock (the time to issue a call), median of REPS, from CuPy and PyTorch
arrays, and the same NAME_step called from C (capi_timing.cu, built here
with nvcc against the same library). Also the device-to-device copy
bandwidth, to place the kernel times.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import stencilc

HEAT = """
stencil heat {
  precision fp32;
  boundary periodic;
  out[j, i] = 0.5 * in[j, i] + 0.125 * (in[j-1, i] + in[j+1, i] + in[j, i-1] + in[j, i+1]);
}
"""
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from stencils import WAVE  # noqa: E402 (a stencil of fields: its calls go through ctypes)


def capi(library, ny, nx, calls, reps, workdir):
    exe = os.path.join(workdir, "capi_timing")
    if not os.path.exists(exe):
        nvcc = os.environ.get("CUDACXX", "nvcc")
        subprocess.run([nvcc, "-O2", "-std=c++17", "-arch=sm_90", os.path.join(HERE, "capi_timing.cu"),
                        "-o", exe, "-ldl"], check=True)
    out = subprocess.run([exe, library, "heat", str(ny), str(nx), str(calls), str(reps)],
                         check=True, capture_output=True, text=True).stdout.split()
    return float(out[4]), float(out[6])


def framework_timing(name, heat, n, calls, reps):
    if name == "cupy":
        import cupy

        a = cupy.random.random((n, n), dtype=cupy.float32)
        b = cupy.random.random((n, n), dtype=cupy.float32)
        event = cupy.cuda.Event
        elapsed = cupy.cuda.get_elapsed_time
        sync = cupy.cuda.Device().synchronize
        record = lambda e: e.record()  # noqa: E731
    else:
        import torch

        a = torch.rand((n, n), device="cuda")
        b = torch.rand((n, n), device="cuda")
        event = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731
        elapsed = lambda s, e: s.elapsed_time(e)  # noqa: E731
        sync = torch.cuda.synchronize
        record = lambda e: e.record()  # noqa: E731
    step = heat.step
    for _ in range(calls):
        step(a, b)
    sync()
    gpu, issue = [], []
    for _ in range(reps):
        start, stop = event(), event()
        record(start)
        t0 = time.perf_counter()
        for _ in range(calls):
            step(a, b)
        t1 = time.perf_counter()
        record(stop)
        stop.synchronize()
        gpu.append(1000.0 * elapsed(start, stop) / calls)
        issue.append(1e6 * (t1 - t0) / calls)
    return statistics.median(gpu), statistics.median(issue)


def host_breakdown(name, heat, wave, calls):
    """Host microseconds per call of the parts of step(): reading the two
    arrays, checking them, finding the current stream, and the whole call;
    a stencil of fields' whole step(); for CuPy, reading the arrays as the
    package did before it read ndarray._c_contiguous."""
    from stencilc import _arrays

    if name == "cupy":
        import cupy

        a = cupy.random.random((64, 64), dtype=cupy.float32)
        b = cupy.random.random((64, 64), dtype=cupy.float32)
        sync = cupy.cuda.Device().synchronize
    else:
        import torch

        a = torch.rand((64, 64), device="cuda")
        b = torch.rand((64, 64), device="cuda")
        sync = torch.cuda.synchronize
    va = _arrays.view(a, "inp")
    u_prev, c2 = a * 0.5, a * 0.25
    parts = {
        "view x2": lambda: (_arrays.view(a, "inp"), _arrays.view(b, "out")),
        "checks": lambda: _arrays.usable(va, va, "float32", 2, 1),
        "stream": lambda: _arrays.stream_handle(None, va),
        "step()": lambda: heat.step(a, b),
        "fields step()": lambda: wave.step(a, u_prev, b, c2=c2, dt=0.1),
    }
    if name == "cupy":  # how the fast path read CuPy arrays before (session 11)
        parts["view x2 by .flags"] = lambda: (_arrays._cupy_view_by_flags(a),
                                              _arrays._cupy_view_by_flags(b))
    result = {}
    for part, fn in parts.items():
        best = []
        for _ in range(5):
            sync()
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            best.append(1e6 * (time.perf_counter() - t0) / calls)
        sync()
        result[part] = statistics.median(best)
    return result


def copy_bandwidth(reps):
    import cupy

    n = 4096 * 4096 * 4  # 256 MiB of fp32
    a = cupy.random.random(n, dtype=cupy.float32)
    b = cupy.empty_like(a)
    b[...] = a
    times = []
    for _ in range(reps):
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        b[...] = a
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop) / 1000.0)
    return 2 * a.nbytes / statistics.median(times) / 1e9


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--json")
    args = parser.parse_args()
    module = stencilc.compile(HEAT)
    heat = module.heat
    library = os.path.join(module.cache_entry, "libstencils.so")
    frameworks = []
    for name in ("cupy", "torch"):
        try:
            __import__(name)
            frameworks.append(name)
        except ImportError:
            pass
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for n in (64, 4096):
            calls = args.calls if n == 64 else 100
            c_gpu, c_issue = capi(library, n, n, calls, args.reps, work)
            rows.append({"caller": "C API", "grid": n, "gpu_us": c_gpu, "issue_us": c_issue})
            for name in frameworks:
                gpu, issue = framework_timing(name, heat, n, calls, args.reps)
                rows.append({"caller": name, "grid": n, "gpu_us": gpu, "issue_us": issue,
                             "gpu_over_c_us": gpu - c_gpu, "issue_over_c_us": issue - c_issue})
    wave = stencilc.compile(WAVE).wave2d
    breakdown = {name: host_breakdown(name, heat, wave, args.calls) for name in frameworks}
    bandwidth = copy_bandwidth(args.reps) if "cupy" in frameworks else None
    print(f"stencil heat (fp32 periodic 2D star), backend {heat.info.backend}; "
          f"device-to-device copy {bandwidth:.0f} GB/s" if bandwidth else "")
    print(f"{'caller':8} {'grid':>6} {'GPU us/call':>12} {'issue us/call':>14} "
          f"{'GPU - C':>9} {'issue - C':>10}")
    for r in rows:
        extra = (f"{r['gpu_over_c_us']:9.2f} {r['issue_over_c_us']:10.2f}"
                 if "gpu_over_c_us" in r else "")
        print(f"{r['caller']:8} {r['grid']:>6} {r['gpu_us']:12.2f} {r['issue_us']:14.2f} {extra}")
    for name, parts in breakdown.items():
        print(f"host us per call, {name}: " + ", ".join(f"{k} {v:.2f}" for k, v in parts.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "copy_GBps": bandwidth, "backend": heat.info.backend,
                       "host_breakdown_us": breakdown}, f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
