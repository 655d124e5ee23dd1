// broken_accepts_alias_list.h - the list header of the broken stand-in accepts_alias.
#include "broken.h"
#define STENCILC_FOR_EACH_STENCIL(X) X(accepts_alias)
