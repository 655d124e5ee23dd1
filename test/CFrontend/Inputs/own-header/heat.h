/* The user's own header, which heat.c includes: stencilc must not replace it. */
#define ALPHA 0.25
