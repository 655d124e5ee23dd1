"""The compilation cache: a hit in a new process (under 50 ms, logged at
debug level), two processes compiling the same source at once (one
compiles, the other waits on the lock and loads its result), and the
lock's timeout."""

import os
import subprocess
import sys
import time

import pytest

import stencilc
from stencilc import _build

PROGRAM = """
import logging, sys, time
logging.basicConfig(level=logging.DEBUG, format="%(message)s")
import stencilc
t = time.perf_counter()
stencilc.compile(sys.argv[1], arch="sm_90")
print(f"{(time.perf_counter() - t) * 1e3:.2f}")
"""


def source(tag):
    return (f"// {tag}\nstencil s {{\n  precision fp32;\n  boundary periodic;\n"
            "  out[i] = 0.25 * in[i-1] + 0.5 * in[i] + 0.25 * in[i+1];\n}\n")


def compile_in_new_process(text, **popen):
    return subprocess.Popen([sys.executable, "-c", PROGRAM, text], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **popen)


def test_cache_lives_under_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert stencilc.cache_root() == str(tmp_path / "stencilc")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert stencilc.cache_root() == str(tmp_path / ".cache" / "stencilc")


def test_hit_in_a_new_process(needs_nvcc):
    text = source(f"hit {time.time()}")
    first = compile_in_new_process(text)
    out, err = first.communicate()
    assert first.returncode == 0, err
    assert "cache miss" in err
    times = []
    for _ in range(3):
        again = compile_in_new_process(text)
        out, err = again.communicate()
        assert again.returncode == 0, err
        assert "cache hit" in err and "cache miss" not in err
        times.append(float(out))
    assert min(times) < 50.0, f"compile() on a cache hit took {times} ms"


def test_two_processes_one_compile(needs_nvcc):
    text = source(f"concurrent {time.time()}")
    procs = [compile_in_new_process(text) for _ in range(2)]
    results = [p.communicate() for p in procs]
    assert all(p.returncode == 0 for p in procs), results
    logs = [err for _, err in results]
    assert sum("cache miss" in log for log in logs) == 1, logs
    assert sum("compiled by another process" in log for log in logs) == 1, logs


def test_lock_timeout(needs_nvcc, monkeypatch):
    text = source(f"lock {time.time()}")
    arch, nvcc_arch = _build.resolve_arch("sm_90")
    nvcc = _build.nvcc_executable()
    entry = os.path.join(_build.cache_root(), _build.cache_key(text, "auto", [], nvcc_arch, nvcc))
    os.makedirs(_build.cache_root(), exist_ok=True)
    monkeypatch.setenv("STENCILC_LOCK_TIMEOUT", "0.3")
    with _build._FileLock(entry + ".lock", 1):
        with pytest.raises(TimeoutError, match="waited 0.3 s for the compile lock"):
            stencilc.compile(text, arch="sm_90")
