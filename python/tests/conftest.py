"""Every test session compiles into a cache of its own (a fresh folder as
$XDG_CACHE_HOME) unless STENCILC_TEST_CACHE names one to reuse."""

import os
import shutil
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import support  # noqa: E402

_cache = os.environ.get("STENCILC_TEST_CACHE") or tempfile.mkdtemp(prefix="stencilc-test-cache-")
os.environ["XDG_CACHE_HOME"] = _cache


@pytest.fixture
def needs_nvcc():
    reason = support.nvcc_reason()
    if reason:
        pytest.skip(f"needs nvcc: {reason}")


def pytest_sessionfinish(session, exitstatus):
    if not os.environ.get("STENCILC_TEST_CACHE"):
        shutil.rmtree(_cache, ignore_errors=True)
