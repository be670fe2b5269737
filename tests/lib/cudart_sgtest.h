/* SPDX-License-Identifier: Apache-2.0 */
#ifndef SGT_CUDART_SGTEST_H
#define SGT_CUDART_SGTEST_H
#include <cuda.h>
#include <stddef.h>
/* cuMemcpyDtoHAsync, called from libcudart_sgtest.so (cudart_sgtest.c). */
CUresult sgt_rt_copy_dtoh_async(void *dst, CUdeviceptr src, size_t n, CUstream s);
#endif
