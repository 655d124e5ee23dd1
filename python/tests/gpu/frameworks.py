"""Making and reading device arrays in CuPy and PyTorch, for the GPU tests."""

import numpy as np


def available():
    names = []
    try:
        import cupy  # noqa: F401

        names.append("cupy")
    except ImportError:
        pass
    try:
        import torch

        if torch.cuda.is_available():
            names.append("torch")
    except ImportError:
        pass
    return names


def supports(framework, dtype):
    return framework == "torch" or dtype != "bfloat16"


def to_device(framework, values, dtype):
    """A device array of `dtype` holding `values` (float64 NumPy)."""
    if framework == "cupy":
        import cupy

        return cupy.asarray(values.astype(dtype))
    import torch

    return torch.from_numpy(values).to("cuda").to(getattr(torch, dtype))


def to_host(x):
    """float64 NumPy copy of a device array."""
    if type(x).__module__.startswith("cupy"):
        return x.get().astype(np.float64)
    return x.double().cpu().numpy()


def pointer(x):
    return x.data.ptr if type(x).__module__.startswith("cupy") else x.data_ptr()


def copy(x):
    """A copy of a device array, on its device."""
    return x.copy() if type(x).__module__.startswith("cupy") else x.clone()


def per_step_values(framework, values, where):
    """A float64 array of `values` where a per-step parameter may live:
    "numpy" (host memory), "device" (the framework's, on the GPU) or
    "torch-cpu" (a PyTorch tensor in host memory)."""
    if where == "numpy":
        return np.array(values, dtype=np.float64)
    if where == "torch-cpu":
        import torch

        return torch.from_numpy(np.array(values, dtype=np.float64))
    return to_device(framework, np.asarray(values, dtype=np.float64), "float64")
