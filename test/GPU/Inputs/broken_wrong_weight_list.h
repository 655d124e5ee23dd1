// broken_wrong_weight_list.h - the list header of the broken stand-in wrong_weight.
#include "broken.h"
#define STENCILC_FOR_EACH_STENCIL(X) X(wrong_weight)
