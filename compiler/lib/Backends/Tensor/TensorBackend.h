//===- TensorBackend.h - The tensor-core backend's one entry point -*- C++ -*-===//
//
// What the pipeline knows of the tensor backend: the function that registers
// it (Common/Backend.h); everything else is reached through the Backend
// interface.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace stencilc {

/// Registers the tensor-core backend (backendFor(BackendKind::Tensor)).
void initializeTensorBackend();

} // namespace stencilc
