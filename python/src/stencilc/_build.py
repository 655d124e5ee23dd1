"""From stencil source to a loaded shared library, through a cache.

compile() runs the pipeline (_generate.py: in this process, or the bundled
stencilc executable) and nvcc once per cache key, and loads the result.
A key is the sha256 of everything that decides the library: the source and
its language, the backend and the options, stencilc's version (and which
generator), the target architecture, the CUDA version and the Python ABI.
"""

from __future__ import annotations

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
from typing import Sequence, Tuple

from . import _generate
from ._errors import CudaCompileError, nvcc_failed

log = logging.getLogger("stencilc")

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
VERSION = "0.1.0"


# (stencilc's --arch, nvcc's -arch): what a library is planned and built for.
Archs = Tuple[str, str]
# A compute capability, (major, minor).
Capability = Tuple[int, int]


def nvcc_executable() -> str:
    """nvcc from $CUDACXX, else from PATH, else /usr/local/cuda/bin."""
    given = os.environ.get("CUDACXX")
    if given:
        if not os.access(given, os.X_OK):
            raise CudaCompileError(
                f"stencilc: CUDACXX names '{given}', which is not an executable nvcc")
        return given
    found = shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None
    )
    if not found:
        raise CudaCompileError(
            "stencilc: nvcc (the CUDA compiler) was not found: set CUDACXX to its path, "
            "or put the CUDA toolkit's bin directory on PATH"
        )
    return found


def _nvcc_reported_version(nvcc: str) -> str:
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"release [0-9.]+, V([0-9.]+)", out)
    return "nvcc " + (match.group(1) if match else out.strip())


def cuda_version(nvcc: str) -> str:
    """The toolkit's version: its version.json, else `nvcc --version`, whose
    answer is kept in the cache per nvcc (path, size, time stamp) so that a
    cache hit starts no process."""
    real = os.path.realpath(nvcc)
    try:
        with open(os.path.join(os.path.dirname(os.path.dirname(real)), "version.json")) as f:
            version: str = json.load(f)["cuda"]["version"]
            return "cuda " + version
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


def _framework_device_arch() -> Capability | None:
    """The current device's compute capability from an already imported
    framework that has CUDA running, else None (cheap: no CUDA start-up)."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
        capability: Capability = torch.cuda.get_device_capability()
        return capability
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        try:
            cc = cupy.cuda.Device().compute_capability
            return int(cc[:-1]), int(cc[-1])
        except Exception:  # no device, no driver
            return None
    return None


def _driver_device_arch() -> Capability | None:
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


def _machine_tag() -> str | None:
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


def _first_device_arch() -> Capability | None:
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


def device_archs(number: int) -> Archs:
    """(stencilc's --arch, nvcc's -arch) for a device of compute capability
    `number` (90 for 9.0): stencilc plans for the newest of its
    architectures not newer than the device, nvcc builds for the device."""
    planned = max((a for a in STENCILC_ARCHS if a <= number), default=STENCILC_ARCHS[0])
    return f"sm_{planned}", f"sm_{number}"


def resolve_arch(arch: str | int | None) -> Archs:
    """(stencilc's --arch, nvcc's -arch) for the compile() argument: "sm_90"
    or 90 names one; None means the current device's where PyTorch or CuPy
    has CUDA running, else device 0's, or sm_80 without a GPU (a call on
    arrays of another architecture builds for theirs then: _module.py)."""
    if arch is None:
        cc = _framework_device_arch() or _first_device_arch()
        if cc is None:
            log.debug("stencilc: no GPU found; compiling for %s", DEFAULT_ARCH)
            return DEFAULT_ARCH, DEFAULT_ARCH
        return device_archs(cc[0] * 10 + cc[1])
    text = f"sm_{arch}" if isinstance(arch, int) else str(arch)
    match = re.fullmatch(r"sm_([0-9]+)(a?)", text)
    if not match or int(match.group(1)) not in STENCILC_ARCHS:
        names = ", ".join(f"sm_{a}" for a in STENCILC_ARCHS)
        raise ValueError(f"compile(): arch must be one of {names} (or None), got {arch!r}")
    return text, text


def cache_root() -> str:
    """$XDG_CACHE_HOME/stencilc, or ~/.cache/stencilc."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "stencilc")


def cache_key(source: str, backend: str, options: Sequence[str], arch: str, nvcc: str,
              language: str = "stencil") -> str:
    parts = {
        "source": source,
        "language": language,
        "backend": backend,
        "options": list(options),
        "stencilc": [VERSION, *_generate.generator_identity(language)],
        # The library holds the helpers: an entry built with other ones
        # (an older package's, without the per-step table) must not load.
        "helpers": list(_generate.HELPERS),
        "arch": arch,
        "cuda": cuda_version(nvcc),
        "python": [sys.implementation.cache_tag, sysconfig.get_config_var("SOABI")],
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


class _FileLock:
    """An exclusive flock on `path`, waited for up to `timeout` seconds."""

    def __init__(self, path: str, timeout: float) -> None:
        self.path, self.timeout = path, timeout

    def __enter__(self) -> _FileLock:
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

    def __exit__(self, *exc: object) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)


LIBRARY = "libstencils.so"


def build_library(nvcc: str, nvcc_arch: str, names: Sequence[str], workdir: str) -> None:
    shim = os.path.join(workdir, "shim.cu")
    tables = _generate.header_tables(os.path.join(workdir, "stencils.h"))
    with open(shim, "w") as f:
        f.write(_generate.shim_source(["stencils.h"], names, tables))
    include = os.path.join(PACKAGE_DIR, "include")
    command = [nvcc, "-O3", "-std=c++17", "-shared", "-Xcompiler", "-fPIC", f"-arch={nvcc_arch}",
               "-I", include, "-I", workdir, os.path.join(workdir, "stencils.cu"), shim,
               "-o", os.path.join(workdir, LIBRARY)]
    _generate.run(command, nvcc_failed)


class Source:
    """What compile() was given: the text, the file name diagnostics use,
    its language ("stencil", "c" or "c++"), and the path of the file where
    it came from one (a C source is translated there, so that its
    #includes are found)."""

    def __init__(self, text: str, name: str, language: str, path: str | None = None) -> None:
        self.text, self.name, self.language, self.path = text, name, language, path


def _generate_into(source: Source, backend: str, options: Sequence[str], stencilc_arch: str,
                   work: str) -> list[str]:
    path = source.path
    if path is None or source.language == "stencil":
        path = os.path.join(work, source.name)
        with open(path, "w") as f:
            f.write(source.text)
    return _generate.generate_file(path, os.path.join(work, "stencils.cu"), backend, options,
                                   stencilc_arch, source.language)


def compiled_library(source: Source, backend: str, options: Sequence[str], archs: Archs) -> str:
    """The cache entry's directory for these inputs (a Source; archs:
    stencilc's and nvcc's), compiled if missing."""
    stencilc_arch, nvcc_arch = archs
    nvcc = nvcc_executable()
    key = cache_key(source.text, backend, options, nvcc_arch, nvcc, source.language)
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
            names = _generate_into(source, backend, options, stencilc_arch, work)
            build_library(nvcc, nvcc_arch, names, work)
            os.rename(work, entry)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
    return entry
