// Included by compiler-flags.c through -I.
#define CENTRE 0.5
