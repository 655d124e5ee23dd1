"""GPU tests: skipped, with the reason, where there is no GPU or neither CuPy
nor PyTorch is installed. The stencils are compiled once, in parallel."""

import concurrent.futures
import os
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import stencils  # noqa: E402


def _gpu_reason():
    if not shutil.which("nvidia-smi"):
        return "no GPU: nvidia-smi not found"
    if subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode != 0:
        return "no GPU: nvidia-smi -L failed"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _gpu_reason()
    if reason:
        skip = pytest.mark.skip(reason=f"GPU test skipped: {reason}")
        for item in items:
            if item.path.parent.name == "gpu":
                item.add_marker(skip)


@pytest.fixture(scope="session")
def modules():
    """{(precision, dims): Module} for every precision and dimension, each
    with a stencil per boundary."""
    import stencilc

    keys = [(p, d) for p in stencils.PRECISIONS for d in (1, 2, 3)]
    with concurrent.futures.ThreadPoolExecutor(len(keys)) as pool:
        futures = {k: pool.submit(stencilc.compile, stencils.source(*k)) for k in keys}
        return {k: f.result() for k, f in futures.items()}
