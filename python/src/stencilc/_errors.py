"""The exceptions stencilc raises, under one base class (docs/python.md,
"Errors"):

    StencilcError             every error of stencilc's own (a RuntimeError)
        CompileError          compile() could not build the library
            SourceError       stencilc refused the source (status 1)
            OptionsError      stencilc refused the options (status 2)
            CudaCompileError  nvcc failed on the generated code, or no nvcc
        CudaError             a CUDA call failed (`code`: the cudaError_t)

Arguments a Python function refuses before stencilc sees them (a stencil
call's arrays, compile()'s `backend` or `arch`) raise TypeError or
ValueError instead, as Python's own functions do.

This module imports nothing of the package, so that every other module can
import it.
"""

from __future__ import annotations


class StencilcError(RuntimeError):
    """The base of every error stencilc raises itself. A RuntimeError, as
    CompileError and CudaError were before they had a common base."""


class CompileError(StencilcError):
    """compile() could not build the library. Raised as is where the package
    itself is broken (no stencilc executable, or stencilc died); otherwise
    as one of SourceError, OptionsError and CudaCompileError, so that
    `except CompileError` catches every compile-time failure.

    `status` is the exit status of the tool that failed (stencilc: 1 for the
    source, 2 for the options; nvcc's own), or None where none ran."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class SourceError(CompileError):
    """stencilc refused the source: the message holds its located
    diagnostics (file:line:column: error: ...), the same text whether the
    pipeline ran in this process or as the executable."""


class OptionsError(CompileError):
    """stencilc refused the options (a flag it does not take, a bad
    --plan-option): its usage message, status 2."""


class CudaCompileError(CompileError):
    """nvcc failed on the generated code (its output is in the message), or
    there is no nvcc to run (the message says how to name one)."""


class CudaError(StencilcError):
    """A CUDA call failed: a kernel launch's status, or a CUDA call the
    package made for it. The message holds CUDA's text; `code` is the
    cudaError_t."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def stencilc_failed(status: int, output: str) -> CompileError:
    """The error for stencilc (the executable or the pipeline in process)
    exiting with `status`: its driver exits 1 for an error in the input and
    2 for a usage error; anything else (a crash) is the package's problem."""
    message = f"stencilc failed (exit status {status}):\n{output}"
    if status == 1:
        return SourceError(message, status)
    if status == 2:
        return OptionsError(message, status)
    return CompileError(message, status)


def nvcc_failed(status: int, output: str) -> CudaCompileError:
    """The error for nvcc exiting with `status` on the generated code."""
    return CudaCompileError(f"nvcc failed (exit status {status}):\n{output}", status)
