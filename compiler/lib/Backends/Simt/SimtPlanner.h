//===- SimtPlanner.h - The CUDA-core plan -----------------------*- C++ -*-===//
//
// planSimt() plans the CUDA-core (simt) kernel of any stencil the language
// accepts. The choice between the backends (`--backend=auto`) is
// Backends/Common/BackendChoice.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "Backends/Tensor/TensorPlanner.h"
#include "stencilc/Plan.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// Overrides of the simt geometry (0: the planner's choice), for tuning and
/// for tests that need many blocks on a small grid.
struct SimtOptions {
  int threads = 0;
  int tileX = 0;
  int tileY = 0;
  int chunkZ = 0;
  /// Shared-memory plane buffers of 2D/3D kernels: 1 (straight), 2 (the
  /// next plane through registers) or a ring of 3 or more filled by
  /// asynchronous copies; 0: the planner's choice.
  int stages = 0;
  /// Bytes the L2 is asked to fetch from memory around each 16-byte read of
  /// the input (PTX's L2::64B / 128B / 256B prefetch sizes); 0: no hint.
  int l2Prefetch = 0;
  /// 32-bit registers the queue of partial outputs may take per thread.
  int queueRegisterBudget = 64;
  /// Shared memory a block may use when the plane buffers are the planner's
  /// choice: the static limit. Buffers asked for (`stages`) may use up to
  /// the arch's opt-in maximum (maxDynamicSharedBytes), as dynamic shared
  /// memory where they pass this limit.
  int sharedMemoryLimit = StaticSharedMemoryBytes;
  /// Largest points x outputs per thread emitted as straight-line FMAs.
  int unrollLimit = 4096;
};

/// The most shared memory a block can opt in to on `arch` (sm_80: 163 KiB,
/// sm_86 and sm_89: 99 KiB, sm_90: 227 KiB).
int maxDynamicSharedBytes(std::string_view arch);

/// Plans the simt kernel of `spec`. Needs: nothing (every spec the front end
/// accepts). Guarantees: tileX is a multiple of vectorWidth and outputsX,
/// haloX a multiple of vectorWidth and >= radiusX, sharedBytes() within the
/// limit, and every (dz, dy, dx) with a non-zero coefficient in exactly one
/// slice term.
Plan planSimt(const StencilSpec &spec, const PlannerOptions &options = {},
              const SimtOptions &simt = {});

} // namespace stencilc
