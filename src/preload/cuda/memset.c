/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of asynchronous memsets. A memset of device memory has no host
 * side but orders streams; one of pinned host memory (by its host address,
 * which the driver accepts, or the device's own address of mapped memory)
 * writes it in stream order, long after the call returns, and is guarded
 * like the destination of a device-to-host copy. */
#include "config.h"

#include "life/site.h"
#include "model/incall.h"
#include "model/sync.h"
#include "preload/shim.h"

static void memset_accepted(const char *api, CUstream s, int per_thread, CUdeviceptr d,
                            struct sg_shape shape)
{
    struct copy_call call;
    sg_copy_call_init(&call, api, s, per_thread);
    call.origin = SG_ORIGIN_MEMSET;
    uintptr_t host = sg_copy_mapped_side(d);
    if (host)
        sg_copy_call_guard(&call, host, shape, SG_GUARD_NO_ACCESS);
    sg_copy_call_done(&call);
}

/* The bytes a 2D memset writes: height rows of width elements, pitch
 * bytes apart. */
static struct sg_shape rows(size_t pitch, size_t width_bytes, size_t height)
{
    return (struct sg_shape){ width_bytes, pitch < width_bytes ? width_bytes : pitch, height,
                              height, 1 };
}

#define MEMSET_1D(symbol, api, per_thread, T)                                               \
    SG_CUDA_SHIM(symbol, (CUdeviceptr d, T v, size_t n, CUstream s))                     \
    {                                                                                    \
        SG_IN_ORDER();                                                                   \
        CUresult r = SG_FORWARD_IN_CALL(api, s, per_thread, symbol, d, v, n, s);           \
        if (r == CUDA_SUCCESS && SG_ENTER())                                             \
            memset_accepted(api, s, per_thread, d, sg_shape_linear(n * sizeof(T)));      \
        return r;                                                                        \
    }

MEMSET_1D(cuMemsetD8Async, "cuMemsetD8Async", 0, unsigned char)
MEMSET_1D(cuMemsetD8Async_ptsz, "cuMemsetD8Async", 1, unsigned char)
MEMSET_1D(cuMemsetD16Async, "cuMemsetD16Async", 0, unsigned short)
MEMSET_1D(cuMemsetD16Async_ptsz, "cuMemsetD16Async", 1, unsigned short)
MEMSET_1D(cuMemsetD32Async, "cuMemsetD32Async", 0, unsigned int)
MEMSET_1D(cuMemsetD32Async_ptsz, "cuMemsetD32Async", 1, unsigned int)

#define MEMSET_2D(symbol, api, per_thread, T)                                               \
    SG_CUDA_SHIM(symbol,                                                                 \
                 (CUdeviceptr d, size_t pitch, T v, size_t w, size_t h, CUstream s))     \
    {                                                                                    \
        SG_IN_ORDER();                                                                   \
        CUresult r = SG_FORWARD_IN_CALL(api, s, per_thread, symbol, d, pitch, v, w, h, s); \
        if (r == CUDA_SUCCESS && SG_ENTER())                                             \
            memset_accepted(api, s, per_thread, d, rows(pitch, w * sizeof(T), h));       \
        return r;                                                                        \
    }

MEMSET_2D(cuMemsetD2D8Async, "cuMemsetD2D8Async", 0, unsigned char)
MEMSET_2D(cuMemsetD2D8Async_ptsz, "cuMemsetD2D8Async", 1, unsigned char)
MEMSET_2D(cuMemsetD2D16Async, "cuMemsetD2D16Async", 0, unsigned short)
MEMSET_2D(cuMemsetD2D16Async_ptsz, "cuMemsetD2D16Async", 1, unsigned short)
MEMSET_2D(cuMemsetD2D32Async, "cuMemsetD2D32Async", 0, unsigned int)
MEMSET_2D(cuMemsetD2D32Async_ptsz, "cuMemsetD2D32Async", 1, unsigned int)
