/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the copy family. An async copy whose host side is pinned runs
 * after the call returns, so its host range is handed to the model to be
 * guarded; a pageable one is complete on return and is left alone. A
 * synchronous copy with a host side also tells the host that its stream's
 * earlier work is complete; one between device buffers is work on the
 * null stream (null_stream.h). Copies between a CUDA array and host
 * memory follow the rules of copies between device and host memory. */
#include "config.h"

#include "driver/driver.h"
#include "devmem/devmem.h"
#include "life/life.h"
#include "life/site.h"
#include "model/copies.h"
#include "model/incall.h"
#include "model/sync.h"
#include "preload/cuda/null_stream.h"
#include "preload/shim.h"

/* After the driver accepted an async copy: guard its pinned host sides. A
 * copy with none is still work on its stream, which orders the legacy
 * stream against blocking streams like any other. */
static void async_copy_accepted(const char *api, CUstream s, int per_thread, uintptr_t dst,
                                uintptr_t src, size_t n)
{
    struct copy_call call;
    sg_copy_call_init(&call, api, s, per_thread);
    sg_copy_call_guard(&call, dst, sg_shape_linear(n), SG_GUARD_NO_ACCESS);
    sg_copy_call_guard(&call, src, sg_shape_linear(n), SG_GUARD_READ_ONLY);
    sg_copy_call_done(&call);
}

/* An async copy from the device into pageable memory "will return only
 * once the copy has completed" (API synchronization behavior): like a
 * synchronous one, its return shows the stream's earlier work done. Only
 * memory the driver does not know is pageable: page-locked memory that
 * syncguard did not see pinned, and managed memory, are not (the copy is
 * asynchronous there, and its return shows nothing). */
static int to_pageable(uintptr_t dst, uintptr_t src, size_t n, int dst_known_host)
{
    if (!sg_observe_needed() || sg_host_kind(dst, n) != SG_HOST_PAGEABLE)
        return 0;
    return dst_known_host || !sg_is_host_pointer(src);
}

/* A copy between two host buffers is "fully synchronous with respect to
 * the host" (API synchronization behavior), pinned or not: nothing of it
 * is left to guard once the call returns. The driver moves the bytes
 * itself, inside the call (model/incall.h), whatever the entry point's
 * nominal direction: a cuMemcpyDtoHAsync whose "device" source is mapped
 * pinned memory is one. */
static int host_to_host(uintptr_t dst, uintptr_t src)
{
    return sg_is_host_pointer(dst) && sg_is_host_pointer(src);
}

#define ASYNC_COPY(symbol, api, per_thread, dst_host, src_host, dst_known_host, dev) \
    SG_CUDA_SHIM(symbol, (COPY_PARAMS))                                                  \
    {                                                                                \
        if (!SG_ENTER())                                                             \
            return SG_FORWARD(symbol, COPY_ARGS);                                    \
        uintptr_t dh_ = (dst_host), sh_ = (src_host);                                \
        struct sg_dev_op dop_;                                                       \
        sg_devmem_op_init(&dop_, api, SG_ORIGIN_COPY, hStream, per_thread);          \
        dev;                                                                         \
        sg_devmem_before(&dop_);                                                     \
        CUresult r;                                                                  \
        if (dh_ && sh_ && host_to_host(dh_, sh_)) {                                  \
            r = SG_FORWARD_IN_CALL(api, hStream, per_thread, symbol, COPY_ARGS);     \
            if (r == CUDA_SUCCESS && sg_observe_needed())                            \
                sg_note_stream_work(hStream, per_thread);                            \
        } else if (dh_ && to_pageable(dh_, sh_, n, dst_known_host)) {                \
            r = SG_COMPLETING_COPY(api, hStream, per_thread,                         \
                                   SG_FORWARD_IN_CALL(api, hStream, per_thread,      \
                                                      symbol, COPY_ARGS));           \
        } else {                                                                     \
            SG_IN_ORDER(); /* not across the blocking calls above */                \
            r = SG_FORWARD_IN_CALL(api, hStream, per_thread, symbol, COPY_ARGS);     \
            if (r == CUDA_SUCCESS)                                                   \
                async_copy_accepted(api, hStream, per_thread, dh_, sh_, n);          \
        }                                                                            \
        sg_devmem_after(&dop_, r == CUDA_SUCCESS);                                   \
        return r;                                                                    \
    }

#define COPY_PARAMS CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream hStream
#define COPY_ARGS dst, src, n, hStream
ASYNC_COPY(cuMemcpyAsync, "cuMemcpyAsync", 0, dst, src, 0, SG_DEV_COPY(dst, src, n))
ASYNC_COPY(cuMemcpyAsync_ptsz, "cuMemcpyAsync", 1, dst, src, 0, SG_DEV_COPY(dst, src, n))
#undef COPY_PARAMS
#undef COPY_ARGS

#define COPY_PARAMS void *dst, CUdeviceptr src, size_t n, CUstream hStream
#define COPY_ARGS dst, src, n, hStream
ASYNC_COPY(cuMemcpyDtoHAsync_v2, "cuMemcpyDtoHAsync", 0, (uintptr_t)dst, sg_copy_mapped_side(src), 1, SG_DEV_ADD(src, n, 0))
ASYNC_COPY(cuMemcpyDtoHAsync_v2_ptsz, "cuMemcpyDtoHAsync", 1, (uintptr_t)dst, sg_copy_mapped_side(src), 1, SG_DEV_ADD(src, n, 0))
#undef COPY_PARAMS
#undef COPY_ARGS

#define COPY_PARAMS CUdeviceptr dst, const void *src, size_t n, CUstream hStream
#define COPY_ARGS dst, src, n, hStream
ASYNC_COPY(cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync", 0, sg_copy_mapped_side(dst), (uintptr_t)src, 0, SG_DEV_ADD(dst, n, 1))
ASYNC_COPY(cuMemcpyHtoDAsync_v2_ptsz, "cuMemcpyHtoDAsync", 1, sg_copy_mapped_side(dst), (uintptr_t)src, 0, SG_DEV_ADD(dst, n, 1))
#undef COPY_PARAMS
#undef COPY_ARGS

#define COPY_PARAMS void *dst, CUarray src, size_t off, size_t n, CUstream hStream
#define COPY_ARGS dst, src, off, n, hStream
ASYNC_COPY(cuMemcpyAtoHAsync_v2, "cuMemcpyAtoHAsync", 0, (uintptr_t)dst, 0, 1, SG_DEV_NONE)
ASYNC_COPY(cuMemcpyAtoHAsync_v2_ptsz, "cuMemcpyAtoHAsync", 1, (uintptr_t)dst, 0, 1, SG_DEV_NONE)
#undef COPY_PARAMS
#undef COPY_ARGS

#define COPY_PARAMS CUarray dst, size_t off, const void *src, size_t n, CUstream hStream
#define COPY_ARGS dst, off, src, n, hStream
ASYNC_COPY(cuMemcpyHtoAAsync_v2, "cuMemcpyHtoAAsync", 0, 0, (uintptr_t)src, 0, SG_DEV_NONE)
ASYNC_COPY(cuMemcpyHtoAAsync_v2_ptsz, "cuMemcpyHtoAAsync", 1, 0, (uintptr_t)src, 0, SG_DEV_NONE)
#undef COPY_PARAMS
#undef COPY_ARGS

/* A synchronous copy is an operation on the null stream; when one side is
 * host memory its return means the stream's earlier work is done (to the
 * host: the copy completed; from the host: the stream was synchronized
 * before the copy started, or the copy was synchronous). */
#define SYNC_COPY(symbol, per_thread, has_host_side, api, dev)                             \
    SG_NULL_STREAM_CALL(symbol, api, per_thread, has_host_side, SG_NULL_STREAM_NOTE(per_thread), \
                        dev, (COPY_PARAMS), COPY_ARGS)

#define COPY_PARAMS void *dst, CUdeviceptr src, size_t n
#define COPY_ARGS dst, src, n
SYNC_COPY(cuMemcpyDtoH_v2, 0, 1, "cuMemcpyDtoH", SG_DEV_ADD(src, n, 0))
SYNC_COPY(cuMemcpyDtoH_v2_ptds, 1, 1, "cuMemcpyDtoH", SG_DEV_ADD(src, n, 0))
#undef COPY_PARAMS
#undef COPY_ARGS

#define COPY_PARAMS CUdeviceptr dst, const void *src, size_t n
#define COPY_ARGS dst, src, n
SYNC_COPY(cuMemcpyHtoD_v2, 0, 1, "cuMemcpyHtoD", SG_DEV_ADD(dst, n, 1))
SYNC_COPY(cuMemcpyHtoD_v2_ptds, 1, 1, "cuMemcpyHtoD", SG_DEV_ADD(dst, n, 1))
#undef COPY_PARAMS
#undef COPY_ARGS

#define COPY_PARAMS void *dst, CUarray src, size_t off, size_t n
#define COPY_ARGS dst, src, off, n
SYNC_COPY(cuMemcpyAtoH_v2, 0, 1, "cuMemcpyAtoH", SG_DEV_NONE)
SYNC_COPY(cuMemcpyAtoH_v2_ptds, 1, 1, "cuMemcpyAtoH", SG_DEV_NONE)
#undef COPY_PARAMS
#undef COPY_ARGS

#define COPY_PARAMS CUarray dst, size_t off, const void *src, size_t n
#define COPY_ARGS dst, off, src, n
SYNC_COPY(cuMemcpyHtoA_v2, 0, 1, "cuMemcpyHtoA", SG_DEV_NONE)
SYNC_COPY(cuMemcpyHtoA_v2_ptds, 1, 1, "cuMemcpyHtoA", SG_DEV_NONE)
#undef COPY_PARAMS
#undef COPY_ARGS

/* A "device" operand that is host memory: mapped pinned memory (by its
 * host address or the device's own), or host memory the driver knows. A
 * synchronous copy with one is a copy with a host side. */
static int host_operand(CUdeviceptr p)
{
    return sg_copy_mapped_side(p) || sg_is_host_pointer(p);
}

#define COPY_PARAMS CUdeviceptr dst, CUdeviceptr src, size_t n
#define COPY_ARGS dst, src, n
SYNC_COPY(cuMemcpy, 0, host_operand(dst) || host_operand(src), "cuMemcpy", SG_DEV_COPY(dst, src, n))
SYNC_COPY(cuMemcpy_ptds, 1, host_operand(dst) || host_operand(src), "cuMemcpy", SG_DEV_COPY(dst, src, n))
/* "For transfers from device memory to device memory, no host-side
 * synchronization is performed." */
SYNC_COPY(cuMemcpyDtoD_v2, 0, host_operand(dst) || host_operand(src), "cuMemcpyDtoD", SG_DEV_COPY(dst, src, n))
SYNC_COPY(cuMemcpyDtoD_v2_ptds, 1, host_operand(dst) || host_operand(src), "cuMemcpyDtoD", SG_DEV_COPY(dst, src, n))
#undef COPY_PARAMS
#undef COPY_ARGS

/* cuMemcpyPeer is documented as "serialized with respect [to] all pending
 * and future asynchronous work" of the current, source and destination
 * contexts, but on the real driver it is not: within one context (driver
 * 580, H200, tests/gpu/RESULTS.md run 39) it did not wait for a copy
 * pending on a non-blocking stream, and the host read that copy's old
 * bytes after synchronizing a stream that waited for it. So it is ordered
 * like any synchronous device-to-device copy: work on the default stream,
 * which a wider ordering would only hide races behind. */
#define PEER_SYNC(symbol, per_thread)                                                          \
    SG_NULL_STREAM_CALL(symbol, "cuMemcpyPeer", per_thread, host_operand(d) || host_operand(src), \
                        SG_NULL_STREAM_NOTE(per_thread), SG_DEV_COPY(d, src, n),               \
                        (CUdeviceptr d, CUcontext dc, CUdeviceptr src, CUcontext sc, size_t n), d, \
                        dc, src, sc, n)

PEER_SYNC(cuMemcpyPeer, 0)
PEER_SYNC(cuMemcpyPeer_ptds, 1)

/* Copies between device memory (and between devices) still order streams;
 * an operand that is mapped pinned memory (its host address under unified
 * addressing, or the device's own address of it) is a host side like any
 * other: the device writes or reads it in stream order. */
#define DEVICE_COPY(symbol, api, per_thread, PARAMS, ...)                                 \
    SG_CUDA_SHIM(symbol, PARAMS)                                                       \
    {                                                                                  \
        SG_IN_ORDER();                                                                 \
        uintptr_t dst_host_ = sg_copy_mapped_side(d), src_host_ = sg_copy_mapped_side(src); \
        struct sg_dev_op dop_;                                                         \
        sg_devmem_op_init(&dop_, api, SG_ORIGIN_COPY, s, per_thread);                  \
        if (SG_ENTER()) {                                                              \
            SG_DEV_COPY(d, src, n);                                                    \
            sg_devmem_before(&dop_);                                                   \
        }                                                                              \
        CUresult r = SG_FORWARD_IN_CALL(api, s, per_thread, symbol, __VA_ARGS__);      \
        if (r == CUDA_SUCCESS && SG_ENTER() && !(dst_host_ && src_host_))              \
            async_copy_accepted(api, s, per_thread, dst_host_, src_host_, n);          \
        else if (r == CUDA_SUCCESS && SG_ENTER() && sg_observe_needed())               \
            sg_note_stream_work(s, per_thread); /* host to host: done on return */     \
        sg_devmem_after(&dop_, r == CUDA_SUCCESS);                                     \
        return r;                                                                      \
    }

#define DTOD_PARAMS (CUdeviceptr d, CUdeviceptr src, size_t n, CUstream s)
DEVICE_COPY(cuMemcpyDtoDAsync_v2, "cuMemcpyDtoDAsync", 0, DTOD_PARAMS, d, src, n, s)
DEVICE_COPY(cuMemcpyDtoDAsync_v2_ptsz, "cuMemcpyDtoDAsync", 1, DTOD_PARAMS, d, src, n, s)

#define PEER_PARAMS \
    (CUdeviceptr d, CUcontext dc, CUdeviceptr src, CUcontext sc, size_t n, CUstream s)
DEVICE_COPY(cuMemcpyPeerAsync, "cuMemcpyPeerAsync", 0, PEER_PARAMS, d, dc, src, sc, n, s)
DEVICE_COPY(cuMemcpyPeerAsync_ptsz, "cuMemcpyPeerAsync", 1, PEER_PARAMS, d, dc, src, sc, n, s)
