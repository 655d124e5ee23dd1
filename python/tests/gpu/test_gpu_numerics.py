"""Every precision, 1D/2D/3D and every boundary, on odd sizes, in CuPy and
PyTorch: step (1 step) and run (37 steps) against a float64 NumPy
reference, written in place in the arrays passed (their pointers unchanged)."""

import numpy as np
import pytest

import frameworks
import stencils

SHAPES = {1: (1001,), 2: (37, 131), 3: (13, 17, 19)}
FRAMEWORKS = frameworks.available()


@pytest.mark.parametrize("framework", FRAMEWORKS or ["none"])
@pytest.mark.parametrize("steps", [1, 37])
@pytest.mark.parametrize("precision,dims,boundary", stencils.cases())
def test_matches_float64_reference(modules, framework, steps, precision, dims, boundary):
    if framework == "none":
        pytest.skip("GPU test skipped: neither CuPy nor PyTorch with CUDA is installed")
    dtype = stencils.DTYPES[precision]
    if not frameworks.supports(framework, dtype):
        pytest.skip(f"{framework} has no {dtype}")
    stencil = getattr(modules[precision, dims], stencils.name(precision, dims, boundary))
    assert stencil.info.dims == dims and stencil.info.precision == precision
    assert stencil.info.boundary == boundary.split()[0]
    rng = np.random.default_rng([steps, dims, len(boundary), len(precision)])
    shape = SHAPES[dims]
    a = frameworks.to_device(framework, rng.random(shape), dtype)
    b = frameworks.to_device(framework, rng.random(shape), dtype)
    a0, b0 = frameworks.to_host(a), frameworks.to_host(b)
    pa, pb = frameworks.pointer(a), frameworks.pointer(b)
    if steps == 1:
        stencil.step(a, b)
        got = frameworks.to_host(b)
        want = stencils.reference_step(a0, b0, dims, boundary)
        assert np.array_equal(frameworks.to_host(a), a0), "step changed its input"
    else:
        stencil.run(a, b, steps)
        got = frameworks.to_host(a)
        want = stencils.reference_run(a0, b0, dims, boundary, steps)
    assert (frameworks.pointer(a), frameworks.pointer(b)) == (pa, pb)
    error = stencils.relative_l2(got, want)
    assert error <= steps * stencils.TOLERANCE[precision], (
        f"{stencil.info.name} ({stencil.info.backend}), {steps} steps: relative L2 error "
        f"{error:.3g}")
