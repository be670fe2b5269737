/* SPDX-License-Identifier: Apache-2.0 */
/* batch.c - cuMemcpyBatchAsync and cuMemcpy3DBatchAsync, in the CUDA 12.8
 * ABI (with failIdx) and the 13.0 one (_v2), legacy and per-thread.
 *
 * "The batch as a whole executes in stream order": the copies are checked
 * all together (nothing is enqueued if one is wrong; the 12.8 ABI reports
 * its index), then enqueued back to back.  Each copy follows the rules of
 * cuMemcpyAsync for its memory; its source access order decides when the
 * source is read: CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL reads it
 * during the call, STREAM and ANY read page-locked and device sources in
 * stream order.  With a page-locked or device source, the real driver
 * (CUDA 13.0, driver 580, GPU run 20) meets "during the call" by waiting:
 * the call returned only once the gate held in front of it on its stream
 * had opened, so the emulator waits for the copy too; a pageable source is
 * staged as by cuMemcpyAsync.  The stream "must not be legacy NULL
 * stream".  3D batches take pointer and CUDA array operands (array.c);
 * with an array operand the extent, and the other operand's rowLength and
 * layerHeight, are in elements of the array, else in bytes.
 */
#include "copy.h"

#include <stdint.h>
#include <stdlib.h>

static bool is_legacy(CUstream hs, emu_null_stream null_means)
{
    return hs == CU_STREAM_LEGACY || (!hs && null_means == EMU_NULL_LEGACY);
}

static bool order_ok(CUmemcpySrcAccessOrder o)
{
    return o == CU_MEMCPY_SRC_ACCESS_ORDER_STREAM || o == CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL ||
           o == CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
}

static bool empty(const emu_copy *c)
{
    return !c->width || !c->height || !c->depth;
}

/* Checks, stages and enqueues n copies as one batch on stream hs; *fail
 * gets the index of a copy that is wrong.  Every copy of a batch is an
 * asynchronous one on that stream, so the callers describe only what and
 * where; the stream is set here. */
static CUresult submit_batch(emu_copy *c, const CUmemcpySrcAccessOrder *order, size_t n, CUstream hs,
                             emu_null_stream null_means, size_t *fail)
{
    for (size_t i = 0; i < n; i++) {
        c[i].async = true;
        c[i].stream = hs;
        c[i].null_means = null_means;
    }
    emu_copy_policy *policy = emu_xcalloc(n, sizeof *policy);
    void **staging = emu_xcalloc(n, sizeof *staging);
    bool wait = false, stage = false;
    emu_lock();
    CUresult r = CUDA_SUCCESS;
    for (size_t i = 0; i < n && r == CUDA_SUCCESS; i++) {
        r = emu_copy_check(&c[i], &policy[i]);
        if (r == CUDA_SUCCESS && !empty(&c[i]) && order[i] == CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL &&
            policy[i] == EMU_COPY_ASYNC) {
            CUstream s;
            policy[i] = EMU_COPY_WAIT;
            if (emu_stream_get(c[i].stream, c[i].null_means, &s) == CUDA_SUCCESS && emu_capturing(s))
                r = emu_capture_fail(s, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
        }
        if (r != CUDA_SUCCESS)
            *fail = i;
        stage |= policy[i] == EMU_COPY_STAGED;
        wait |= policy[i] == EMU_COPY_WAIT;
    }
    if (r == CUDA_SUCCESS && stage) {
        emu_unlock();           /* never touch program memory under the lock */
        for (size_t i = 0; i < n; i++)
            if (policy[i] == EMU_COPY_STAGED && !empty(&c[i]))
                staging[i] = emu_copy_stage(&c[i]);
        emu_lock();
    }
    uint64_t seq = 0, last = 0;
    for (size_t i = 0; i < n; i++) {
        if (r == CUDA_SUCCESS && !empty(&c[i])) {
            r = emu_copy_enqueue(&c[i], staging[i], &seq);
            last = seq ? seq : last;
        } else {
            free(staging[i]);
        }
    }
    CUstream s;
    if (r == CUDA_SUCCESS && wait && last && emu_stream_get(c[0].stream, c[0].null_means, &s) == CUDA_SUCCESS)
        emu_host_wait_op(s, last);
    emu_unlock();
    free(policy);
    free(staging);
    return r;
}

/* The 12.8 ABI's failIdx: the index of the copy that failed, SIZE_MAX if
 * none did or the failure is the whole batch's. */
static CUresult report_fail(CUresult r, size_t fail, size_t *fail_out)
{
    if (fail_out)
        *fail_out = r == CUDA_SUCCESS ? SIZE_MAX : fail;
    return r;
}

/* ---- 1D batches ---------------------------------------------------------- */

/* The attribute ranges: attrsIdxs[0] == 0, increasing, below count. */
static CUresult check_attrs(size_t count, const CUmemcpyAttributes *attrs, const size_t *idxs, size_t nattrs)
{
    if (!attrs || !idxs || nattrs == 0 || nattrs > count || idxs[0] != 0)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t k = 0; k < nattrs; k++) {
        if ((k > 0 && idxs[k] <= idxs[k - 1]) || idxs[k] >= count)
            return CUDA_ERROR_INVALID_VALUE;
        if (!order_ok(attrs[k].srcAccessOrder) || (attrs[k].flags & ~(unsigned int)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE))
            return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static CUresult batch_1d(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                         CUmemcpyAttributes *attrs, size_t *idxs, size_t nattrs, size_t *fail_out, CUstream hs,
                         emu_null_stream null_means)
{
    size_t fail = SIZE_MAX;
    CUresult r = !dsts || !srcs || !sizes || count == 0 || is_legacy(hs, null_means) ? CUDA_ERROR_INVALID_VALUE
                                                                                     : check_attrs(count, attrs, idxs, nattrs);
    if (r == CUDA_SUCCESS) {
        emu_copy *c = emu_xcalloc(count, sizeof *c);
        CUmemcpySrcAccessOrder *order = emu_xcalloc(count, sizeof *order);
        for (size_t i = 0, k = 0; i < count; i++) {
            if (k + 1 < nattrs && i == idxs[k + 1])
                k++;
            order[i] = attrs[k].srcAccessOrder;
            c[i] = emu_copy_1d((uintptr_t)dsts[i], EMU_SIDE_UNIFIED, (uintptr_t)srcs[i], EMU_SIDE_UNIFIED, sizes[i]);
        }
        r = submit_batch(c, order, count, hs, null_means, &fail);
        free(c);
        free(order);
    }
    return report_fail(r, fail, fail_out);
}

EMU_NULL_STREAM_ABIS(cuMemcpyBatchAsync, cuMemcpyBatchAsync_ptsz,
                     (CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs,
                      size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, CUstream hStream),
                     batch_1d, dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, failIdx, hStream)

EMU_NULL_STREAM_ABIS(cuMemcpyBatchAsync_v2, cuMemcpyBatchAsync_v2_ptsz,
                     (CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count, CUmemcpyAttributes *attrs,
                      size_t *attrsIdxs, size_t numAttrs, CUstream hStream),
                     batch_1d, dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, NULL, hStream)

/* ---- 3D batches ---------------------------------------------------------- */

/* A pointer operand: rows of the extent's width, rowLength apart (0:
 * packed), layerHeight rows per layer (0: packed), all in elements of
 * elem bytes; an array operand: its elements at the operand's offset. */
static CUresult operand_side(const CUmemcpy3DOperand *o, const CUextent3D *e, size_t elem, emu_side *side)
{
    if (o->type == CU_MEMCPY_OPERAND_TYPE_ARRAY)
        return o->op.array.array ? emu_array_side(o->op.array.array, &o->op.array.offset, e, side)
                                 : CUDA_ERROR_INVALID_VALUE;
    if (o->type != CU_MEMCPY_OPERAND_TYPE_POINTER)
        return CUDA_ERROR_INVALID_VALUE;
    size_t row = o->op.ptr.rowLength, layer = o->op.ptr.layerHeight;
    if ((row && row < e->width) || (layer && layer < e->height))
        return CUDA_ERROR_INVALID_VALUE;
    row = (row ? row : e->width) * elem;
    layer = layer ? layer : e->height;
    *side = (emu_side){ .addr = (uintptr_t)o->op.ptr.ptr, .pitch = row, .slice = row * layer,
                        .type = EMU_SIDE_UNIFIED };
    return CUDA_SUCCESS;
}

/* The bytes per element of a batch operation: its array's, 1 without. */
static size_t op_elem(const CUDA_MEMCPY3D_BATCH_OP *op)
{
    if (op->src.type == CU_MEMCPY_OPERAND_TYPE_ARRAY)
        return emu_array_elem(op->src.op.array.array);
    if (op->dst.type == CU_MEMCPY_OPERAND_TYPE_ARRAY)
        return emu_array_elem(op->dst.op.array.array);
    return 1;
}

static CUresult batch_3d(size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, size_t *fail_out, unsigned long long flags,
                         CUstream hs, emu_null_stream null_means)
{
    size_t fail = SIZE_MAX;
    CUresult r = !ops || n == 0 || flags != 0 || is_legacy(hs, null_means) ? CUDA_ERROR_INVALID_VALUE
                                                                            : CUDA_SUCCESS;
    emu_copy *c = r == CUDA_SUCCESS ? emu_xcalloc(n, sizeof *c) : NULL;
    CUmemcpySrcAccessOrder *order = r == CUDA_SUCCESS ? emu_xcalloc(n, sizeof *order) : NULL;
    for (size_t i = 0; r == CUDA_SUCCESS && i < n; i++) {
        const CUDA_MEMCPY3D_BATCH_OP *op = &ops[i];
        const CUextent3D *e = &op->extent;
        if (!e->width || !e->height || !e->depth || !order_ok(op->srcAccessOrder) ||
            (op->flags & ~(unsigned int)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE))
            r = CUDA_ERROR_INVALID_VALUE;
        size_t elem = op_elem(op);
        if (r == CUDA_SUCCESS && !elem)
            r = CUDA_ERROR_INVALID_VALUE;
        if (r == CUDA_SUCCESS)
            r = operand_side(&op->src, e, elem, &c[i].src);
        if (r == CUDA_SUCCESS)
            r = operand_side(&op->dst, e, elem, &c[i].dst);
        if (r != CUDA_SUCCESS) {
            fail = i;
            break;
        }
        c[i].width = e->width * elem;
        c[i].height = e->height;
        c[i].depth = e->depth;
        order[i] = op->srcAccessOrder;
    }
    if (r == CUDA_SUCCESS)
        r = submit_batch(c, order, n, hs, null_means, &fail);
    free(c);
    free(order);
    return report_fail(r, fail, fail_out);
}

EMU_NULL_STREAM_ABIS(cuMemcpy3DBatchAsync, cuMemcpy3DBatchAsync_ptsz,
                     (size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, size_t *failIdx, unsigned long long flags,
                      CUstream hStream),
                     batch_3d, numOps, opList, failIdx, flags, hStream)

EMU_NULL_STREAM_ABIS(cuMemcpy3DBatchAsync_v2, cuMemcpy3DBatchAsync_v2_ptsz,
                     (size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags, CUstream hStream),
                     batch_3d, numOps, opList, NULL, flags, hStream)
