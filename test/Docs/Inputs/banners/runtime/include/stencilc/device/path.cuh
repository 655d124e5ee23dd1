// stencilc/device/path.cuh - a trailing part of its path names it too
#pragma once
