/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of device memory frees, and of the stream-ordered allocator, whose
 * allocations and frees are stream work like any other. A free makes
 * devmem/ forget what it knew of the allocation's bytes; freeing managed
 * memory ends its guarding (preload/cuda/managed.c). */
#include "config.h"

#include "devmem/devmem.h"
#include "model/sync.h"
#include "preload/cuda/managed.h"
#include "preload/shim.h"

SG_CUDA_SHIM(cuMemFree_v2, (CUdeviceptr d))
{
    if (SG_ENTER()) {
        sg_devmem_freeing(d);
        sg_managed_freeing(d);
    }
    return SG_FORWARD(cuMemFree_v2, d);
}

#define FREE_ASYNC(symbol, per_thread)                                  \
    SG_CUDA_SHIM(symbol, (CUdeviceptr d, CUstream s))                   \
    {                                                                   \
        SG_IN_ORDER();                                                  \
        if (SG_ENTER())                                                 \
            sg_devmem_freeing(d);                                       \
        CUresult r = SG_FORWARD(symbol, d, s);                          \
        if (r == CUDA_SUCCESS && SG_ENTER() && sg_observe_needed())     \
            sg_note_stream_work(s, per_thread);                         \
        return r;                                                       \
    }

FREE_ASYNC(cuMemFreeAsync, 0)
FREE_ASYNC(cuMemFreeAsync_ptsz, 1)
SG_STREAM_WORK(cuMemAllocAsync, 0, s, (CUdeviceptr *d, size_t n, CUstream s), d, n, s)
SG_STREAM_WORK(cuMemAllocAsync_ptsz, 1, s, (CUdeviceptr *d, size_t n, CUstream s), d, n, s)
