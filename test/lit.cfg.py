# lit configuration for stencilc's test suites.
#
# Features: `nvcc` when the CUDA compiler is available (Compile tests build
# generated code), `cuda-gpu` when a GPU answers (GPU tests run it). Tests that
# need a missing feature are reported UNSUPPORTED, never passed silently.
import os
import shutil
import subprocess

import lit.formats

config.name = "stencilc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".stencil", ".test", ".c", ".cpp"]
config.excludes = ["Inputs", "unittests", "CMake", "lit.cfg.py", "lit.site.cfg.py", "expect-status.py"]

site = lit_config.params.get("stencilc_site_config")
if not site:
    lit_config.fatal("run lit through CTest or pass --param stencilc_site_config=PATH")
lit_config.load_config(config, site)

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.stencilc_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.stencilc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# Diagnostics and outputs must not depend on the user's locale or colours.
config.environment["LC_ALL"] = "C"
# Without --arch stencilc plans for the machine's GPU: the tests pin sm_80,
# so that what they check is the same on a machine with a GPU.
config.environment["STENCILC_NO_DEVICE_QUERY"] = "1"

config.substitutions.append(("%stencilc", os.path.join(config.stencilc_tools_dir, "stencilc")))
config.substitutions.append(("%src_root", config.stencilc_src_root))
config.substitutions.append(("%runtime_include",
                             os.path.join(config.stencilc_src_root, "runtime", "include")))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%obj_root", config.stencilc_obj_root))
config.substitutions.append(("%cmake", config.cmake))
# The differential fuzzers (fuzz/diff, docs/robustness.md).
config.substitutions.append(("%fuzz_diff",
                             os.path.join(config.stencilc_tools_dir, "stencilc-fuzz-diff")))
# CTest beside CMake: test/Docs/quick-tier-is-documented.test lists the tests.
config.substitutions.append(("%ctest", os.path.join(os.path.dirname(config.cmake), "ctest")))

# The build has the CUDA runtime (STENCILC_CUDA not OFF, nvcc found) and the
# distributed runtime (and MPI): only then does CTest hold the tests that link
# them (cmake-consumer; dist-*).
if config.stencilc_have_runtime == "ON":
    config.available_features.add("cuda-runtime")
if config.stencilc_have_dist == "ON":
    config.available_features.add("dist-runtime")

nvcc = config.nvcc if config.nvcc and os.path.exists(config.nvcc) else shutil.which("nvcc")
# The fast tier (scripts/run-tests --quick) leaves out the nvcc builds, the
# slow part of the suite: its tests then say UNSUPPORTED, as on a machine
# without nvcc, and the full suite runs them.
if lit_config.params.get("stencilc_quick"):
    nvcc = None
if nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))
    # sm_80 and sm_90 in one nvcc call: the host code is compiled once, the
    # device code once for each architecture, as two -arch= calls would.
    config.substitutions.append(
        ("%gencode_80_90", "-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90"))
    # Device passes unoptimised, for the tests that prove code builds: the
    # front end's errors and warnings and ptxas's check of each instruction
    # against the architecture do not depend on it, and most of an
    # optimised build is cicc unrolling the stencils' loops (a generated .cu
    # takes about a quarter of the CPU time). fused-run-every-boundary,
    # fused-run-1d-every-boundary, tensor-fused-run-every-boundary and
    # fused-run-3d-builds-optimised still build optimised for sm_80 and sm_90
    # (NAME_step's and NAME_run's kernels of both backends), so that what
    # ptxas meets only in optimised code still shows.
    config.substitutions.append(("%device_O0", "-Xcicc -O0 -Xptxas -O0"))
    # sm_90's PTX only, unoptimised, for the tests whose check is the C++
    # itself (a static_assert of the generated code against a header's
    # count): ptxas, more than half of an unoptimised build, adds nothing.
    config.substitutions.append(("%ptx_only_90", "-gencode arch=compute_90,code=compute_90 -Xcicc -O0"))

# A C compiler and the CUDA headers (beside nvcc): `c-compiler`, %cc and
# %cuda_include, for checking that generated headers are valid C.
c_compiler = shutil.which("gcc") or shutil.which("cc")
if nvcc and c_compiler:
    config.available_features.add("c-compiler")
    config.substitutions.append(("%cc", c_compiler))
    config.substitutions.append(("%cuda_include",
                                 os.path.join(os.path.dirname(os.path.dirname(
                                     os.path.realpath(nvcc))), "include")))


def gpu_present():
    smi = config.nvidia_smi or shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "GPU" in out.stdout


if nvcc and gpu_present():
    config.available_features.add("cuda-gpu")

# GPU suite (test/GPU, REQUIRES: cuda-gpu): %gpu_harness compiles the
# conformance driver's translation unit (stencil_list.py --main) with a
# generated .cu for the GPU in this machine, against the test support and
# runtime libraries of this build.
if nvcc:
    config.substitutions.append((
        "%gpu_harness",
        f"{nvcc} -std=c++17 -O2 -arch=native"
        f" -I{os.path.join(config.stencilc_src_root, 'runtime', 'include')}"
        f" -I{os.path.join(config.stencilc_src_root, 'test', 'support', 'include')}"
        f" {os.path.join(config.stencilc_obj_root, 'test-support', 'libstencilc_testing.a')}"
        f" {os.path.join(config.stencilc_obj_root, 'runtime', 'libstencilc_runtime.a')}"))
    config.substitutions.append((
        "%gpu_list",
        f"{config.python_executable} "
        f"{os.path.join(config.stencilc_src_root, 'test', 'GPU', 'harness', 'stencil_list.py')}"
        f" --main {os.path.join(config.stencilc_src_root, 'test', 'GPU', 'harness', 'stencil_test_main.cu')}"))

# The GPU conformance of stencils of fields (test/GPU/fields): %fields_list
# writes the test program of a generated header, %fields_harness builds it
# with the generated .cu (header-only harness, no libraries).
if nvcc:
    fields_harness = os.path.join(config.stencilc_src_root, "test", "GPU", "fields", "harness")
    config.substitutions.append((
        "%fields_harness",
        f"{nvcc} -std=c++17 -O2 -arch=native"
        f" -I{os.path.join(config.stencilc_src_root, 'runtime', 'include')} -I{fields_harness}"))
    config.substitutions.append((
        "%fields_list",
        f"{config.python_executable} {os.path.join(fields_harness, 'fields_list.py')}"))

# `mount-namespace` where an unprivileged mount namespace can be made
# (`unshare -rm`): a test hides /proc in one.
try:
    if subprocess.run(["unshare", "-rm", "true"], capture_output=True, timeout=30).returncode == 0:
        config.available_features.add("mount-namespace")
except (OSError, subprocess.TimeoutExpired):
    pass

# The C front end (test/CFrontend, REQUIRES via its lit.local.cfg): `cfront`
# when this build made stencilc-cfront (STENCILC_BUILD_CFRONT).
cfront_option = getattr(config, "stencilc_cfront", "").upper()
if cfront_option not in ("", "OFF", "0", "FALSE", "NO", "N", "IGNORE") and \
        not cfront_option.endswith("NOTFOUND"):
    config.available_features.add("cfront")
    config.substitutions.append(
        ("%cfront", os.path.join(config.stencilc_tools_dir, "stencilc-cfront")))

# Sanitized builds (STENCILC_SANITIZE, docs/robustness.md): lit's `not` turns
# any non-zero exit into a pass, so a sanitizer report under `not %stencilc`
# would go unnoticed. Reports are written to files instead, and the CTest test
# `sanitizer-reports` fails when any exists. Options the user set are kept;
# a binary built without sanitizers ignores these variables.
sanitizer_reports = os.path.join(config.stencilc_obj_root, "sanitizer-reports")
os.makedirs(sanitizer_reports, exist_ok=True)
sanitizer_log = "log_path=" + os.path.join(sanitizer_reports, "report")
for variable, options in [("ASAN_OPTIONS", "detect_leaks=1:" + sanitizer_log),
                          ("UBSAN_OPTIONS", "print_stacktrace=1:" + sanitizer_log)]:
    user = config.environment.get(variable, "")
    config.environment[variable] = options + (":" + user if user else "")
