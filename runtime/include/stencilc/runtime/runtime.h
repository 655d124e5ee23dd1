// runtime.h - everything the stencilc runtime offers, in one include.
#pragma once

#include "stencilc/runtime/check.h"
#include "stencilc/runtime/compare.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/runtime/element.h"
#include "stencilc/runtime/extents.h"
#include "stencilc/runtime/fill.h"
#include "stencilc/runtime/harness.h"
#include "stencilc/runtime/naive.h"
#include "stencilc/runtime/reference.h"
#include "stencilc/runtime/stencil_info.h"
#include "stencilc/runtime/timer.h"
