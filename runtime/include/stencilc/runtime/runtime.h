// runtime.h - everything the stencilc runtime offers, in one include: what a
// program that calls generated stencils may use (error checks, device
// buffers, event timing, element types). The GPU test harness, the float64
// reference and the naive kernels are test support (test/support/).
#pragma once

#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/runtime/element.h"
#include "stencilc/runtime/stencil_info.h"
#include "stencilc/runtime/timer.h"
