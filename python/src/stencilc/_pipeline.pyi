"""stencilc's pipeline in the Python process (python/src/pipeline.cpp),
where the package was built with it. tests/test_types.py checks these
against the compiled module."""

# (status, cuda, header, diagnostics): the driver's stages on `text`, whose
# diagnostics name `file`; status 0, 1 (the input) or 2 (the options).
def generate(text: str, file: str, arch: str, backend: str, options: list[str],
             header_include: str) -> tuple[int, str, str, str]: ...

TAKEN_FLAGS: str
