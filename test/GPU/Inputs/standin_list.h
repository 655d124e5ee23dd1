// standin_list.h - the list header (as stencil_list.py writes for generated
// code) for the stand-in stencils.
#include "standins.h"
#define STENCILC_LIST_WITHOUT_PASS // the stand-ins have NAME_step and NAME_run only
#define STENCILC_FOR_EACH_STENCIL(X)                                                               \
  X(heat2d)                                                                                        \
  X(skew2d) X(wide2d) X(reach2d) X(line1d) X(half1d) X(star3d) X(box3d) X(clamp2d) X(mirror3d)
