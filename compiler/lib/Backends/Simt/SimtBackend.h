//===- SimtBackend.h - The CUDA-core backend's one entry point --*- C++ -*-===//
//
// What the pipeline knows of the simt backend: the function that registers
// it (Common/Backend.h); everything else is reached through the Backend
// interface.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace stencilc {

/// Registers the CUDA-core backend (backendFor(BackendKind::Simt)).
void initializeSimtBackend();

} // namespace stencilc
