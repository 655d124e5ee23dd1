// broken_odd_steps_in_b_list.h - the list header of the broken stand-in odd_steps_in_b.
#include "broken.h"
#define STENCILC_FOR_EACH_STENCIL(X) X(odd_steps_in_b)
