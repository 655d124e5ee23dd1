"""From stencil source to a loaded shared library, through a cache.

compile() runs the bundled stencilc executable (the whole pipeline: parser,
Sema, planner, emitter) and nvcc once per cache key, and loads the result.
A key is the sha256 of everything that decides the library: the source, the
backend and the options, stencilc's version (and which executable), the
target architecture, the CUDA version and the Python ABI.
"""

import ctypes
import errno
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time

log = logging.getLogger("stencilc")

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
VERSION = "0.1.0"


class CompileError(RuntimeError):
    """The stencil source was refused (the message holds stencilc's diagnostics),
    or nvcc failed on the generated code, or no nvcc was found."""


def stencilc_executable():
    """The stencilc the package bundles; $STENCILC overrides it."""
    path = os.environ.get("STENCILC") or os.path.join(PACKAGE_DIR, "bin", "stencilc")
    if not os.access(path, os.X_OK):
        raise CompileError(
            f"stencilc: no stencilc executable at '{path}' (reinstall the package, "
            "or set $STENCILC to one)"
        )
    return path


def nvcc_executable():
    """nvcc from $CUDACXX, else from PATH, else /usr/local/cuda/bin."""
    given = os.environ.get("CUDACXX")
    if given:
        if not os.access(given, os.X_OK):
            raise CompileError(f"stencilc: CUDACXX names '{given}', which is not an executable nvcc")
        return given
    found = shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None
    )
    if not found:
        raise CompileError(
            "stencilc: nvcc (the CUDA compiler) was not found: set CUDACXX to its path, "
            "or put the CUDA toolkit's bin directory on PATH"
        )
    return found


def _nvcc_reported_version(nvcc):
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"release [0-9.]+, V([0-9.]+)", out)
    return "nvcc " + (match.group(1) if match else out.strip())


def cuda_version(nvcc):
    """The toolkit's version: its version.json, else `nvcc --version`, whose
    answer is kept in the cache per nvcc (path, size, time stamp) so that a
    cache hit starts no process."""
    real = os.path.realpath(nvcc)
    try:
        with open(os.path.join(os.path.dirname(os.path.dirname(real)), "version.json")) as f:
            return "cuda " + json.load(f)["cuda"]["version"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    stat = os.stat(real)
    tag = hashlib.sha256(f"{real}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()[:32]
    memo = os.path.join(cache_root(), "nvcc-" + tag)
    try:
        with open(memo) as f:
            return f.read()
    except OSError:
        pass
    version = _nvcc_reported_version(nvcc)
    os.makedirs(cache_root(), exist_ok=True)
    fd, partial = tempfile.mkstemp(prefix="nvcc-", dir=cache_root())
    with os.fdopen(fd, "w") as f:
        f.write(version)
    os.replace(partial, memo)
    return version


# The architectures stencilc plans for (its --arch), oldest first.
STENCILC_ARCHS = (80, 86, 89, 90, 100, 103, 120)
DEFAULT_ARCH = "sm_80"


def _framework_device_arch():
    """The current device's compute capability from an already imported
    framework that has CUDA running, else None (cheap: no CUDA start-up)."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
        return torch.cuda.get_device_capability()
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        try:
            cc = cupy.cuda.Device().compute_capability
            return int(cc[:-1]), int(cc[-1])
        except Exception:  # no device, no driver
            return None
    return None


def _driver_device_arch():
    """Device 0's compute capability through the CUDA driver, else None
    when there is no driver or no GPU."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    if cuda.cuInit(0) != 0:
        return None
    device, major, minor = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    if cuda.cuDeviceGet(ctypes.byref(device), 0) != 0:
        return None
    if cuda.cuDeviceGetAttribute(ctypes.byref(major), 75, device) != 0:
        return None
    cuda.cuDeviceGetAttribute(ctypes.byref(minor), 76, device)
    return major.value, minor.value


def _machine_tag():
    """What names this boot's set of visible GPUs: the boot id and the
    variables that choose and order the devices (None where unknown)."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            boot = f.read().strip()
    except OSError:
        return None
    seen = "|".join([boot, os.environ.get("CUDA_VISIBLE_DEVICES", "*"),
                     os.environ.get("CUDA_DEVICE_ORDER", "")])
    return hashlib.sha256(seen.encode()).hexdigest()[:32]


def _first_device_arch():
    """Device 0's compute capability, asked of the CUDA driver once per
    boot and kept in the cache: starting the driver takes a tenth of a
    second or more, too long for a cache hit."""
    tag = _machine_tag()
    memo = os.path.join(cache_root(), "gpu-" + tag) if tag else None
    if memo:
        try:
            with open(memo) as f:
                text = f.read().split()
            return (int(text[0]), int(text[1])) if text else None
        except (OSError, ValueError, IndexError):
            pass
    cc = _driver_device_arch()
    if memo:
        os.makedirs(cache_root(), exist_ok=True)
        fd, partial = tempfile.mkstemp(prefix="gpu-", dir=cache_root())
        with os.fdopen(fd, "w") as f:
            f.write(f"{cc[0]} {cc[1]}" if cc else "")
        os.replace(partial, memo)
    return cc


def resolve_arch(arch):
    """(stencilc's --arch, nvcc's -arch) for the compile() argument: "sm_90"
    or 90 names one; None means the current device's where PyTorch or CuPy
    has CUDA running, else device 0's, or sm_80 without a GPU."""
    if arch is None:
        cc = _framework_device_arch() or _first_device_arch()
        if cc is None:
            log.debug("stencilc: no GPU found; compiling for %s", DEFAULT_ARCH)
            return DEFAULT_ARCH, DEFAULT_ARCH
        number = cc[0] * 10 + cc[1]
        planned = max((a for a in STENCILC_ARCHS if a <= number), default=STENCILC_ARCHS[0])
        return f"sm_{planned}", f"sm_{number}"
    text = f"sm_{arch}" if isinstance(arch, int) else str(arch)
    match = re.fullmatch(r"sm_([0-9]+)(a?)", text)
    if not match or int(match.group(1)) not in STENCILC_ARCHS:
        names = ", ".join(f"sm_{a}" for a in STENCILC_ARCHS)
        raise ValueError(f"compile(): arch must be one of {names} (or None), got {arch!r}")
    return text, text


def cache_root():
    """$XDG_CACHE_HOME/stencilc, or ~/.cache/stencilc."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "stencilc")


def cache_key(source, backend, options, arch, nvcc):
    executable = stencilc_executable()
    stat = os.stat(executable)
    parts = {
        "source": source,
        "backend": backend,
        "options": list(options),
        "stencilc": [VERSION, stat.st_size, stat.st_mtime_ns],
        "arch": arch,
        "cuda": cuda_version(nvcc),
        "python": [sys.implementation.cache_tag, sysconfig.get_config_var("SOABI")],
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


class _FileLock:
    """An exclusive flock on `path`, waited for up to `timeout` seconds."""

    def __init__(self, path, timeout):
        self.path, self.timeout = path, timeout

    def __enter__(self):
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
            if time.monotonic() > deadline:
                os.close(self.fd)
                raise TimeoutError(
                    f"stencilc: waited {self.timeout:g} s for the compile lock "
                    f"'{self.path}' (another process is compiling the same stencils); "
                    "$STENCILC_LOCK_TIMEOUT sets the wait"
                )
            time.sleep(0.05)

    def __exit__(self, *exc):
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


LIBRARY = "libstencils.so"


def _stencil_names(header):
    return re.findall(r"^cudaError_t (\w+)_step\(", header, flags=re.M)


# The host functions the package needs beside the generated API, by name.
HELPERS = ("stencilc_py_error_string", "stencilc_py_pointer_device", "stencilc_py_stream_wait",
           "stencilc_py_infos")


def shim_source(header_names, names):
    """The HELPERS: CUDA's error strings, the device a pointer lives on,
    ordering one stream after another, and the stencils' info structs."""
    infos = "".join(f"&{n}_info, " for n in names)
    includes = "".join(f'#include "{h}"\n' for h in header_names)
    return f"""// Written by the stencilc Python package; do not edit.
#include <cuda_runtime.h>
{includes}
extern "C" {{
const char *stencilc_py_error_string(int error) {{
  return cudaGetErrorString(static_cast<cudaError_t>(error));
}}
int stencilc_py_pointer_device(const void *p) {{
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {{
    cudaGetLastError();
    return -2;
  }}
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : -1;
}}
int stencilc_py_stream_wait(cudaStream_t consumer, cudaStream_t producer) {{
  cudaEvent_t event;
  cudaError_t e = cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
  if (e != cudaSuccess) return e;
  e = cudaEventRecord(event, producer);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(consumer, event, 0);
  cudaEventDestroy(event);
  return e;
}}
const stencilc_stencil_info *stencilc_py_infos[] = {{{infos}nullptr}};
}}
"""


def _run(command, what):
    log.debug("stencilc: running %s", " ".join(command))
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise CompileError(f"{what} failed (exit status {done.returncode}):\n{done.stderr}{done.stdout}")
    return done


def run_stencilc(path, cuda_path, backend, options, stencilc_arch):
    """Runs stencilc on the .stencil file `path`, writing cuda_path and the
    header beside it; returns the names of its stencils."""
    command = [stencilc_executable(), path, "-o", cuda_path, f"--arch={stencilc_arch}",
               f"--backend={backend}", *options]
    _run(command, "stencilc")
    with open(os.path.splitext(cuda_path)[0] + ".h") as f:
        names = _stencil_names(f.read())
    if not names:
        raise CompileError(f"stencilc: '{path}' defines no stencil")
    return names


def generate(source, display_name, backend, options, stencilc_arch, workdir):
    """Runs stencilc on `source`; returns the stencil names. The .cu and .h
    land in workdir as stencils.cu and stencils.h."""
    path = os.path.join(workdir, display_name)
    with open(path, "w") as f:
        f.write(source)
    return run_stencilc(path, os.path.join(workdir, "stencils.cu"), backend, options,
                        stencilc_arch)


def build_library(nvcc, nvcc_arch, names, workdir):
    shim = os.path.join(workdir, "shim.cu")
    with open(shim, "w") as f:
        f.write(shim_source(["stencils.h"], names))
    include = os.path.join(PACKAGE_DIR, "include")
    command = [nvcc, "-O3", "-std=c++17", "-shared", "-Xcompiler", "-fPIC", f"-arch={nvcc_arch}",
               "-I", include, "-I", workdir, os.path.join(workdir, "stencils.cu"), shim,
               "-o", os.path.join(workdir, LIBRARY)]
    _run(command, "nvcc")


def compiled_library(source, display_name, backend, options, arch):
    """The cache entry's directory for these inputs, compiled if missing."""
    stencilc_arch, nvcc_arch = resolve_arch(arch)
    nvcc = nvcc_executable()
    key = cache_key(source, backend, options, nvcc_arch, nvcc)
    root = cache_root()
    entry = os.path.join(root, key)
    if os.path.exists(os.path.join(entry, LIBRARY)):
        log.debug("stencilc: cache hit %s", entry)
        return entry
    os.makedirs(root, exist_ok=True)
    timeout = float(os.environ.get("STENCILC_LOCK_TIMEOUT", "600"))
    with _FileLock(entry + ".lock", timeout):
        if os.path.exists(os.path.join(entry, LIBRARY)):
            log.debug("stencilc: cache hit %s (compiled by another process)", entry)
            return entry
        log.debug("stencilc: cache miss %s; compiling", entry)
        work = tempfile.mkdtemp(prefix=key[:16] + ".", dir=root)
        try:
            names = generate(source, display_name, backend, options, stencilc_arch, work)
            build_library(nvcc, nvcc_arch, names, work)
            os.rename(work, entry)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
    return entry
