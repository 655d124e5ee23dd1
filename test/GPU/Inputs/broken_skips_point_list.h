// broken_skips_point_list.h - the list header of the broken stand-in skips_point.
#include "broken.h"
#define STENCILC_FOR_EACH_STENCIL(X) X(skips_point)
