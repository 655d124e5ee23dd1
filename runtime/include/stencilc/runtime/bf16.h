/* bf16.h - the bf16 element type of generated code, for C++ and for C.
 *
 * In C++ (and CUDA) this is cuda_bf16.h's __nv_bfloat16. In C, cuda_bf16.h
 * declares only __nv_bfloat16_raw, a struct holding the 16 bits; it is named
 * __nv_bfloat16 here so that a generated header's prototypes can be
 * included from C. Both are two bytes with two-byte alignment. */
#ifndef STENCILC_RUNTIME_BF16_H
#define STENCILC_RUNTIME_BF16_H

#include <cuda_bf16.h>

#ifndef __cplusplus
typedef __nv_bfloat16_raw __nv_bfloat16;
_Static_assert(sizeof(__nv_bfloat16) == 2 && _Alignof(__nv_bfloat16) == 2,
               "__nv_bfloat16 is 16 bits");
#endif

#endif /* STENCILC_RUNTIME_BF16_H */
