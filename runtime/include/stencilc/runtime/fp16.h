/* fp16.h - the fp16 element type of generated code, for C++ and for C.
 *
 * In C++ (and CUDA) this is cuda_fp16.h's __half. In C, cuda_fp16.h declares
 * only __half_raw, a struct holding the 16 bits; it is named __half here so
 * that a generated header's prototypes (which take `const __half*`) can be
 * included from C. Both are two bytes with two-byte alignment: a C program
 * passes pointers to device memory holding fp16 values, as C++ does. */
#ifndef STENCILC_RUNTIME_FP16_H
#define STENCILC_RUNTIME_FP16_H

#include <cuda_fp16.h>

#ifndef __cplusplus
typedef __half_raw __half;
_Static_assert(sizeof(__half) == 2 && _Alignof(__half) == 2, "__half is 16 bits");
#endif

#endif /* STENCILC_RUNTIME_FP16_H */
