/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of copies with a shape (2D, 3D, 3D between contexts) and batches of
 * copies. Each host side that is pinned is guarded with the exact rows it
 * covers; bytes between the rows (the pitch) stay the program's, so
 * touching them is a neighbour access, not a race. Synchronous 2D/3D
 * copies with a host side are complete on return; between device buffers
 * they are work on the null stream (null_stream.h). */
#include "config.h"

#include "driver/driver.h"
#include "life/life.h"
#include "life/site.h"
#include "model/incall.h"
#include "model/sync.h"
#include "preload/cuda/null_stream.h"
#include "preload/shim.h"

#undef cuMemcpyBatchAsync
#undef cuMemcpy3DBatchAsync

/* Both sides host memory: the copy is "fully synchronous with respect to
 * the host" (API synchronization behavior), even when asked for Async. */
#define HOST_TO_HOST(p)                                                \
    (sg_copy_is_host_side((p)->srcMemoryType, (p)->srcDevice) &&       \
     sg_copy_is_host_side((p)->dstMemoryType, (p)->dstDevice))

#define SHAPED_ASYNC(symbol, API, PT, TYPE, guard_fn)                      \
    SG_CUDA_SHIM(symbol, (const TYPE *p, CUstream s))                              \
    {                                                                          \
        SG_IN_ORDER();                                                         \
        CUresult r = SG_FORWARD_IN_CALL(API, s, PT, symbol, p, s);             \
        if (r == CUDA_SUCCESS && p && SG_ENTER()) {                            \
            struct copy_call call;                                             \
            sg_copy_call_init(&call, API, s, PT);                              \
            if (!HOST_TO_HOST(p))                                              \
                guard_fn(&call, p);                                            \
            sg_copy_call_done(&call);                                          \
        }                                                                      \
        return r;                                                              \
    }

SHAPED_ASYNC(cuMemcpy2DAsync_v2, "cuMemcpy2DAsync", 0, CUDA_MEMCPY2D, sg_copy_call_guard_2d)
SHAPED_ASYNC(cuMemcpy2DAsync_v2_ptsz, "cuMemcpy2DAsync", 1, CUDA_MEMCPY2D, sg_copy_call_guard_2d)
SHAPED_ASYNC(cuMemcpy3DAsync_v2, "cuMemcpy3DAsync", 0, CUDA_MEMCPY3D, sg_copy_call_guard_3d)
SHAPED_ASYNC(cuMemcpy3DAsync_v2_ptsz, "cuMemcpy3DAsync", 1, CUDA_MEMCPY3D, sg_copy_call_guard_3d)

/* A 3D peer copy is a 3D copy whose sides also name their contexts: the
 * same fields but for the contexts in place of the reserved ones. */
static CUDA_MEMCPY3D peer_as_3d(const CUDA_MEMCPY3D_PEER *p)
{
    return (CUDA_MEMCPY3D){
        .srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcZ = p->srcZ, .srcLOD = p->srcLOD,
        .srcMemoryType = p->srcMemoryType, .srcHost = p->srcHost, .srcDevice = p->srcDevice,
        .srcArray = p->srcArray, .srcPitch = p->srcPitch, .srcHeight = p->srcHeight,
        .dstXInBytes = p->dstXInBytes, .dstY = p->dstY, .dstZ = p->dstZ, .dstLOD = p->dstLOD,
        .dstMemoryType = p->dstMemoryType, .dstHost = p->dstHost, .dstDevice = p->dstDevice,
        .dstArray = p->dstArray, .dstPitch = p->dstPitch, .dstHeight = p->dstHeight,
        .WidthInBytes = p->WidthInBytes, .Height = p->Height, .Depth = p->Depth,
    };
}

static void guard_3d_peer(struct copy_call *call, const CUDA_MEMCPY3D_PEER *p)
{
    CUDA_MEMCPY3D c = peer_as_3d(p);
    sg_copy_call_guard_3d(call, &c);
}

SHAPED_ASYNC(cuMemcpy3DPeerAsync, "cuMemcpy3DPeerAsync", 0, CUDA_MEMCPY3D_PEER, guard_3d_peer)
SHAPED_ASYNC(cuMemcpy3DPeerAsync_ptsz, "cuMemcpy3DPeerAsync", 1, CUDA_MEMCPY3D_PEER, guard_3d_peer)

/* The source access order of copy i of a batch: attribute k applies to
 * the copies from attr_idx[k] up to the next one's start. */
static int src_order(size_t i, const CUmemcpyAttributes *attrs, const size_t *attr_idx, size_t nattrs)
{
    int order = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    for (size_t k = 0; attrs && attr_idx && k < nattrs && attr_idx[k] <= i; k++)
        order = attrs[k].srcAccessOrder;
    return order;
}

/* A source read "during the API call" is the program's again once the
 * call returns (it "can be reused or freed"): no guard. A pair of host
 * buffers is copied by the call itself, like a host-to-host cuMemcpyAsync. */
static void guard_batch(struct copy_call *call, CUdeviceptr *dsts, CUdeviceptr *srcs,
                        size_t *sizes, size_t count, const CUmemcpyAttributes *attrs,
                        const size_t *attr_idx, size_t nattrs)
{
    for (size_t i = 0; dsts && srcs && sizes && i < count; i++) {
        if (sg_is_host_pointer(dsts[i]) && sg_is_host_pointer(srcs[i]))
            continue;
        sg_copy_call_guard(call, dsts[i], sg_shape_linear(sizes[i]), SG_GUARD_NO_ACCESS);
        if (src_order(i, attrs, attr_idx, nattrs) != CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL)
            sg_copy_call_guard(call, srcs[i], sg_shape_linear(sizes[i]), SG_GUARD_READ_ONLY);
    }
}

/* "If either operand is a CUDA array, the extent is in elements" of the
 * array (and so are the other operand's rowLength and layerHeight). */
static size_t op_elem(const CUDA_MEMCPY3D_BATCH_OP *op)
{
    if (op->src.type == CU_MEMCPY_OPERAND_TYPE_ARRAY)
        return sg_array_elem_bytes(op->src.op.array.array);
    if (op->dst.type == CU_MEMCPY_OPERAND_TYPE_ARRAY)
        return sg_array_elem_bytes(op->dst.op.array.array);
    return 1;
}

static void guard_3d_batch(struct copy_call *call, size_t n, const CUDA_MEMCPY3D_BATCH_OP *ops)
{
    for (size_t i = 0; ops && i < n; i++) {
        size_t elem = op_elem(&ops[i]);
        sg_copy_call_guard_operand(call, &ops[i].dst, &ops[i].extent, elem, SG_GUARD_NO_ACCESS);
        if (ops[i].srcAccessOrder != CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL)
            sg_copy_call_guard_operand(call, &ops[i].src, &ops[i].extent, elem, SG_GUARD_READ_ONLY);
    }
}

#define BATCH_PARAMS                                                                   \
    CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs, \
        size_t *attr_idx, size_t nattrs
#define BATCH_ARGS dsts, srcs, sizes, count, attrs, attr_idx, nattrs

#define BATCH(symbol, PT, PARAMS, ...)                                         \
    SG_CUDA_SHIM(symbol, PARAMS)                                                  \
    {                                                                          \
        SG_IN_ORDER();                                                         \
        CUresult r = SG_FORWARD_IN_CALL("cuMemcpyBatchAsync", s, PT, symbol, __VA_ARGS__); \
        if (r == CUDA_SUCCESS && SG_ENTER()) {                                 \
            struct copy_call call;                                             \
            sg_copy_call_init(&call, "cuMemcpyBatchAsync", s, PT);             \
            guard_batch(&call, dsts, srcs, sizes, count, attrs, attr_idx, nattrs); \
            sg_copy_call_done(&call);                                          \
        }                                                                      \
        return r;                                                              \
    }

BATCH(cuMemcpyBatchAsync, 0, (BATCH_PARAMS, size_t *fail, CUstream s), BATCH_ARGS, fail, s)
BATCH(cuMemcpyBatchAsync_ptsz, 1, (BATCH_PARAMS, size_t *fail, CUstream s), BATCH_ARGS, fail, s)
BATCH(cuMemcpyBatchAsync_v2, 0, (BATCH_PARAMS, CUstream s), BATCH_ARGS, s)
BATCH(cuMemcpyBatchAsync_v2_ptsz, 1, (BATCH_PARAMS, CUstream s), BATCH_ARGS, s)

#define BATCH_3D(symbol, PT, PARAMS, ...)                                      \
    SG_CUDA_SHIM(symbol, PARAMS)                                                  \
    {                                                                          \
        SG_IN_ORDER();                                                         \
        CUresult r = SG_FORWARD_IN_CALL("cuMemcpy3DBatchAsync", s, PT, symbol, __VA_ARGS__); \
        if (r == CUDA_SUCCESS && SG_ENTER()) {                                 \
            struct copy_call call;                                             \
            sg_copy_call_init(&call, "cuMemcpy3DBatchAsync", s, PT);           \
            guard_3d_batch(&call, n, ops);                                     \
            sg_copy_call_done(&call);                                          \
        }                                                                      \
        return r;                                                              \
    }

BATCH_3D(cuMemcpy3DBatchAsync, 0,
         (size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, size_t *fail, unsigned long long flags,
          CUstream s),
         n, ops, fail, flags, s)
BATCH_3D(cuMemcpy3DBatchAsync_ptsz, 1,
         (size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, size_t *fail, unsigned long long flags,
          CUstream s),
         n, ops, fail, flags, s)
BATCH_3D(cuMemcpy3DBatchAsync_v2, 0,
         (size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, unsigned long long flags, CUstream s), n, ops,
         flags, s)
BATCH_3D(cuMemcpy3DBatchAsync_v2_ptsz, 1,
         (size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, unsigned long long flags, CUstream s), n, ops,
         flags, s)

/* A synchronous 2D/3D copy with a host side shows, on return, that the
 * null stream's earlier work is done: to the host it returns once
 * complete; from host memory the copy is synchronous (pinned) or "a stream
 * sync is performed before the copy is initiated" (pageable; API
 * synchronization behavior). A unified side may be either: the driver is
 * asked what it is (two unified device buffers are a device-to-device
 * copy, which synchronizes nothing with the host). */
#define DONE_SHAPED(p)                                                          \
    ((p) && (sg_copy_is_host_side((p)->srcMemoryType, (p)->srcDevice) ||       \
             sg_copy_is_host_side((p)->dstMemoryType, (p)->dstDevice)))

#define SYNC_SHAPED(symbol, per_thread, api, TYPE)                                         \
    SG_NULL_STREAM_CALL(symbol, api, per_thread, DONE_SHAPED(p), SG_NULL_STREAM_NOTE(per_thread), SG_DEV_NONE, \
                        (const TYPE *p), p)

SYNC_SHAPED(cuMemcpy2D_v2, 0, "cuMemcpy2D", CUDA_MEMCPY2D)
SYNC_SHAPED(cuMemcpy2D_v2_ptds, 1, "cuMemcpy2D", CUDA_MEMCPY2D)
SYNC_SHAPED(cuMemcpy2DUnaligned_v2, 0, "cuMemcpy2DUnaligned", CUDA_MEMCPY2D)
SYNC_SHAPED(cuMemcpy2DUnaligned_v2_ptds, 1, "cuMemcpy2DUnaligned", CUDA_MEMCPY2D)
SYNC_SHAPED(cuMemcpy3D_v2, 0, "cuMemcpy3D", CUDA_MEMCPY3D)
SYNC_SHAPED(cuMemcpy3D_v2_ptds, 1, "cuMemcpy3D", CUDA_MEMCPY3D)
/* A 3D peer copy between device buffers orders like a 3D copy: unlike
 * cuMemcpyPeer it is not documented to serialize with the contexts'
 * other work. */
SYNC_SHAPED(cuMemcpy3DPeer, 0, "cuMemcpy3DPeer", CUDA_MEMCPY3D_PEER)
SYNC_SHAPED(cuMemcpy3DPeer_ptds, 1, "cuMemcpy3DPeer", CUDA_MEMCPY3D_PEER)
