/* SPDX-License-Identifier: Apache-2.0 */
/* libcudart_sgtest: a stand-in for the CUDA runtime, a library named like
 * it (libcudart*) that enqueues a copy for the program, linked into
 * d2h_sample_site_runtime. Its frame is the innermost native one of the
 * copy's enqueue stack, which the sampled mode's summary must pass over
 * to name the program's own line. */
#include "cudart_sgtest.h"

CUresult sgt_rt_copy_dtoh_async(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
    /* Through a volatile: a tail call would take this frame off the stack. */
    volatile CUresult r = cuMemcpyDtoHAsync(dst, src, n, s);
    return r;
}
