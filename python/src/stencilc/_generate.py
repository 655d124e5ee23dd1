"""From a source to the generated .cu and .h: the pipeline in this process
(the _pipeline extension, which links compiler/lib/Pipeline) where the
package was built with it, else the bundled stencilc executable. C and C++
sources always go through the executable, which runs stencilc-cfront (it
links libclang and the shared LLVM, which must not meet the pipeline's
static LLVMSupport in one process).

Also the package's helpers beside the generated API (HELPERS, shim_source).
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
from typing import Callable, Iterable, NamedTuple, Sequence

from ._errors import CompileError, SourceError, stencilc_failed
from ._info import POINT_LISTS

try:
    from . import _pipeline
except ImportError:  # built without LLVM (the GPU machine): the executable does it all
    # Typed as the module (_pipeline.pyi) where it is used: in_process()
    # checks for None first.
    _pipeline = None  # type: ignore[assignment]

log = logging.getLogger("stencilc")

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
C_SUFFIXES = (".c", ".cc", ".cpp", ".cxx")


def stencilc_executable() -> str:
    """The stencilc the package bundles; $STENCILC overrides it."""
    path = os.environ.get("STENCILC") or os.path.join(PACKAGE_DIR, "bin", "stencilc")
    if not os.access(path, os.X_OK):
        raise CompileError(
            f"stencilc: no stencilc executable at '{path}' (reinstall the package, "
            "or set $STENCILC to one)"
        )
    return path


def in_process(language: str) -> bool:
    """True where `language`'s sources go through the pipeline in this
    process ($STENCILC, naming an executable, turns it off)."""
    return _pipeline is not None and language == "stencil" and not os.environ.get("STENCILC")


def generator_identity(language: str) -> list[str | int]:
    """What names the code generator, for the cache key: the extension or
    the executable, by path, size and time stamp."""
    path = _pipeline.__file__ if in_process(language) else stencilc_executable()
    stat = os.stat(path)
    return [os.path.basename(path), stat.st_size, stat.st_mtime_ns]


def run(command: Sequence[str],
        failed: Callable[[int, str], CompileError]) -> subprocess.CompletedProcess[str]:
    """Runs stencilc or nvcc; where it fails, raises failed(exit status,
    output): the error of _errors.py for that tool."""
    log.debug("stencilc: running %s", " ".join(command))
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise failed(done.returncode, done.stderr + done.stdout)
    return done


def stencil_names(header: str) -> list[str]:
    return re.findall(r"^cudaError_t (\w+)_step\(", header, flags=re.M)


def run_lists(header: str) -> dict[str, list[str]]:
    """{stencil: the lists of points its NAME_run takes, in argument order}
    for the stencils whose NAME_run takes any: each list is a `const int*
    LIST, int COUNT` pair in the prototype (receivers: `record`), named
    after its points."""
    found: dict[str, list[str]] = {}
    for name, parameters in re.findall(r"^cudaError_t (\w+)_run\(([^)]*)\)", header, flags=re.M):
        lists = re.findall(r"const int\* (\w+), int \w+_count", parameters)
        if lists:
            found[name] = lists
    return found


def refuse_what_run_cannot_pass(header: str) -> None:
    """Raises SourceError for the first stencil of `header` whose NAME_run
    takes a list of points that run() does not know (POINT_LISTS): it
    would pass nothing where that NAME_run reads the list's arguments."""
    for name, lists in run_lists(header).items():
        unknown = [n for n in lists if n not in POINT_LISTS]
        if unknown:
            raise SourceError(f"stencilc: stencil '{name}' takes a list of {unknown[0]}, which "
                              "this Python package does not pass; call its NAME_run from C or "
                              "C++, or update the package")


def generate_file(path: str, cuda_path: str, backend: str, options: Iterable[str],
                  stencilc_arch: str, language: str = "stencil") -> list[str]:
    """Translates the source file `path`, writing cuda_path and the header
    beside it (its .h); returns the names of its stencils."""
    header_path = os.path.splitext(cuda_path)[0] + ".h"
    if in_process(language):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        log.debug("stencilc: the pipeline in process on %s", path)
        status, cuda, header, diagnostics = _pipeline.generate(
            text, path, stencilc_arch, backend, list(options), os.path.basename(header_path))
        if status != 0:
            raise stencilc_failed(status, diagnostics)
        for name, content in ((cuda_path, cuda), (header_path, header)):
            with open(name, "w") as f:
                f.write(content)
    else:
        run([stencilc_executable(), path, "-o", cuda_path, f"--arch={stencilc_arch}",
             f"--backend={backend}", *options], stencilc_failed)
        with open(header_path) as f:
            header = f.read()
    names = stencil_names(header)
    if not names:
        raise SourceError(f"stencilc: '{path}' defines no stencil")
    refuse_what_run_cannot_pass(header)
    return names


class Tables(NamedTuple):
    """What the helpers list of a header's stencils beyond their NAME_info."""

    fields: set[str]  # the stencils of fields (NAME_fields_info)
    per_step: set[str]  # those with a parameter per step (NAME_param_is_per_step)
    lists: dict[str, list[str]]  # run_lists()


def header_tables(header_path: str) -> Tables:
    with open(header_path) as f:
        header = f.read()
    return Tables(
        set(re.findall(r"^static const stencilc_fields_info (\w+)_fields_info =", header,
                       flags=re.M)),
        set(re.findall(r"^static const int (\w+)_param_is_per_step\[", header, flags=re.M)),
        run_lists(header))


def merge(tables: Iterable[Tables]) -> Tables:
    """The Tables of several headers as one."""
    merged = Tables(set(), set(), {})
    for t in tables:
        merged.fields.update(t.fields)
        merged.per_step.update(t.per_step)
        merged.lists.update(t.lists)
    return merged


# The host functions and tables the package needs beside the generated API,
# by name.
HELPERS = ("stencilc_py_error_string", "stencilc_py_pointer_device", "stencilc_py_stream_wait",
           "stencilc_py_device_arch", "stencilc_py_infos", "stencilc_py_fields",
           "stencilc_py_per_step", "stencilc_py_lists")


def shim_source(header_names: Iterable[str], names: Iterable[str], tables: Tables) -> str:
    """The HELPERS: CUDA's error strings, the device a pointer lives on,
    ordering one stream after another, a device's compute capability, and,
    in the order of `names`, the stencils' info structs, their fields info
    (null for a stencil of the one input `in`), which parameters are per
    step (null where none is) and the lists of points NAME_run takes
    (their names, space-separated: "" where none).

    The tables are not const: a const object at namespace scope has
    internal linkage in C++, extern "C" or not, and dlsym would miss it."""
    names = list(names)
    infos = "".join(f"&{n}_info, " for n in names)
    fields_infos = "".join(f"&{n}_fields_info, " if n in tables.fields else "nullptr, "
                           for n in names)
    per_step = "".join(f"{n}_param_is_per_step, " if n in tables.per_step else "nullptr, "
                       for n in names)
    lists = "".join(f'"{" ".join(tables.lists.get(n, []))}", ' for n in names)
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
int stencilc_py_device_arch(int device) {{
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {{
    cudaGetLastError();
    return -1;
  }}
  return major * 10 + minor;
}}
const stencilc_stencil_info *stencilc_py_infos[] = {{{infos}nullptr}};
const stencilc_fields_info *stencilc_py_fields[] = {{{fields_infos}nullptr}};
const int *stencilc_py_per_step[] = {{{per_step}nullptr}};
const char *stencilc_py_lists[] = {{{lists}nullptr}};
}}
"""
