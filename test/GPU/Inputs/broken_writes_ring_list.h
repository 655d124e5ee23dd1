// broken_writes_ring_list.h - the list header of the broken stand-in writes_ring.
#include "broken.h"
#define STENCILC_FOR_EACH_STENCIL(X) X(writes_ring)
