#define ALPHA 0.25
