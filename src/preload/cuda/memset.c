/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of memsets. An asynchronous memset of device memory has no host
 * side but orders streams; one of pinned host memory (by its host address,
 * which the driver accepts, or the device's own address of mapped memory)
 * writes it in stream order, long after the call returns, and is guarded
 * like the destination of a device-to-host copy. The synchronous memsets
 * are work on the null stream (preload/cuda/null_stream.h) which the host
 * waits for only when they write host memory. */
#include "config.h"

#include "life/site.h"
#include "model/incall.h"
#include "model/model.h"
#include "model/sync.h"
#include "preload/cuda/null_stream.h"
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

/* The bytes a 2D memset writes, for devmem/, when its rows leave no gap
 * between them; 0 (not followed) when they do: the gaps may be another
 * stream's. */
static size_t dense_extent(size_t pitch, size_t width_bytes, size_t height)
{
    return pitch == width_bytes ? width_bytes * height : 0;
}

#define MEMSET_1D(symbol, api, per_thread, T)                                               \
    SG_CUDA_SHIM(symbol, (CUdeviceptr d, T v, size_t n, CUstream s))                     \
    {                                                                                    \
        SG_IN_ORDER();                                                                   \
        struct sg_dev_op dop_;                                                           \
        sg_devmem_op_init(&dop_, api, SG_ORIGIN_MEMSET, s, per_thread);                  \
        if (SG_ENTER()) {                                                                \
            SG_DEV_MEMSET(d, n * sizeof(T));                                             \
            sg_devmem_before(&dop_);                                                     \
        }                                                                                \
        CUresult r = SG_FORWARD_IN_CALL(api, s, per_thread, symbol, d, v, n, s);           \
        if (r == CUDA_SUCCESS && SG_ENTER())                                             \
            memset_accepted(api, s, per_thread, d, sg_shape_linear(n * sizeof(T)));      \
        sg_devmem_after(&dop_, r == CUDA_SUCCESS);                                       \
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
        struct sg_dev_op dop_;                                                           \
        sg_devmem_op_init(&dop_, api, SG_ORIGIN_MEMSET, s, per_thread);                  \
        if (SG_ENTER()) {                                                                \
            SG_DEV_MEMSET(d, dense_extent(pitch, w * sizeof(T), h));                     \
            sg_devmem_before(&dop_);                                                     \
        }                                                                                \
        CUresult r = SG_FORWARD_IN_CALL(api, s, per_thread, symbol, d, pitch, v, w, h, s); \
        if (r == CUDA_SUCCESS && SG_ENTER())                                             \
            memset_accepted(api, s, per_thread, d, rows(pitch, w * sizeof(T), h));       \
        sg_devmem_after(&dop_, r == CUDA_SUCCESS);                                       \
        return r;                                                                        \
    }

MEMSET_2D(cuMemsetD2D8Async, "cuMemsetD2D8Async", 0, unsigned char)
MEMSET_2D(cuMemsetD2D8Async_ptsz, "cuMemsetD2D8Async", 1, unsigned char)
MEMSET_2D(cuMemsetD2D16Async, "cuMemsetD2D16Async", 0, unsigned short)
MEMSET_2D(cuMemsetD2D16Async_ptsz, "cuMemsetD2D16Async", 1, unsigned short)
MEMSET_2D(cuMemsetD2D32Async, "cuMemsetD2D32Async", 0, unsigned int)
MEMSET_2D(cuMemsetD2D32Async_ptsz, "cuMemsetD2D32Async", 1, unsigned int)

/* "The synchronous memset functions are asynchronous with respect to the
 * host except when the target is pinned host memory or a Unified Memory
 * region, in which case they are fully synchronous" (API synchronization
 * behavior): such a memset returns once it is done, and so is everything
 * before it on its stream. */
static int memset_waits(CUdeviceptr d, size_t extent)
{
    if (sg_copy_mapped_side(d))
        return 1; /* pinned, by its host address or the device's own */
    int kind = sg_host_kind((uintptr_t)d, extent);
    return kind == SG_HOST_PINNED || kind == SG_HOST_MANAGED;
}

#define MEMSET_1D_SYNC(symbol, api, per_thread, T)                                               \
    SG_NULL_STREAM_CALL(symbol, api, per_thread, memset_waits(d, n * sizeof(T)),               \
                        SG_NULL_STREAM_NOTE(per_thread), SG_DEV_MEMSET(d, n * sizeof(T)),         \
                        (CUdeviceptr d, T v, size_t n), d, v, n)

MEMSET_1D_SYNC(cuMemsetD8_v2, "cuMemsetD8", 0, unsigned char)
MEMSET_1D_SYNC(cuMemsetD8_v2_ptds, "cuMemsetD8", 1, unsigned char)
MEMSET_1D_SYNC(cuMemsetD16_v2, "cuMemsetD16", 0, unsigned short)
MEMSET_1D_SYNC(cuMemsetD16_v2_ptds, "cuMemsetD16", 1, unsigned short)
MEMSET_1D_SYNC(cuMemsetD32_v2, "cuMemsetD32", 0, unsigned int)
MEMSET_1D_SYNC(cuMemsetD32_v2_ptds, "cuMemsetD32", 1, unsigned int)

/* The bytes a 2D memset spans, first row to last. */
static size_t rows_extent(size_t pitch, size_t width_bytes, size_t height)
{
    struct sg_shape shape = rows(pitch, width_bytes, height);
    return height ? sg_shape_extent(&shape) : 0;
}

#define MEMSET_2D_SYNC(symbol, api, per_thread, T)                                               \
    SG_NULL_STREAM_CALL(symbol, api, per_thread, memset_waits(d, rows_extent(pitch, w * sizeof(T), h)), \
                        SG_NULL_STREAM_NOTE(per_thread),                                         \
                        SG_DEV_MEMSET(d, dense_extent(pitch, w * sizeof(T), h)),                  \
                        (CUdeviceptr d, size_t pitch, T v, size_t w, size_t h), d, pitch, v, w, h)

MEMSET_2D_SYNC(cuMemsetD2D8_v2, "cuMemsetD2D8", 0, unsigned char)
MEMSET_2D_SYNC(cuMemsetD2D8_v2_ptds, "cuMemsetD2D8", 1, unsigned char)
MEMSET_2D_SYNC(cuMemsetD2D16_v2, "cuMemsetD2D16", 0, unsigned short)
MEMSET_2D_SYNC(cuMemsetD2D16_v2_ptds, "cuMemsetD2D16", 1, unsigned short)
MEMSET_2D_SYNC(cuMemsetD2D32_v2, "cuMemsetD2D32", 0, unsigned int)
MEMSET_2D_SYNC(cuMemsetD2D32_v2_ptds, "cuMemsetD2D32", 1, unsigned int)
