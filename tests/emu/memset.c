/* SPDX-License-Identifier: Apache-2.0 */
/* memset.c - cuMemsetD8/D16/D32, their 2D forms (cuMemsetD2D8/16/32), and
 * the Async forms of both.
 *
 * "API synchronization behavior": the synchronous memsets are asynchronous
 * to the host unless the target is page-locked host memory, where they are
 * fully synchronous; the Async ones are always asynchronous.  The target
 * must be device memory or page-locked (mapped) host memory.
 */
#include "emu.h"

#include <string.h>

#define EMU_FILL_CHUNK 65536

typedef struct memset_op {
    emu_op op;
    uintptr_t dst;
    bool host;                  /* page-locked host memory (the host waits for a synchronous one) */
    bool dma;                   /* written by DMA: host or managed memory */
    size_t count;               /* elements per row */
    size_t elem;                /* 1, 2 or 4 bytes */
    uint32_t value;
    size_t rows, pitch;         /* memset nodes may be 2D; API calls: one row */
} memset_op;

static void fill(void *dst, size_t count, size_t elem, uint32_t value)
{
    if (elem == 1) {
        memset(dst, (int)(value & 0xff), count);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        if (elem == 2)
            ((uint16_t *)dst)[i] = (uint16_t)value;
        else
            ((uint32_t *)dst)[i] = value;
    }
}

static void fill_row(const memset_op *m, uintptr_t dst)
{
    if (!m->dma) {
        fill((void *)dst, m->count, m->elem, m->value);
        return;
    }
    uint32_t chunk[EMU_FILL_CHUNK / 4];
    size_t per_chunk = sizeof chunk / m->elem;
    fill(chunk, per_chunk, m->elem, m->value);
    for (size_t done = 0; done < m->count; done += per_chunk) {
        size_t k = m->count - done < per_chunk ? m->count - done : per_chunk;
        emu_dma_write(dst + done * m->elem, chunk, k * m->elem);
    }
}

static void memset_run(emu_op *op)
{
    memset_op *m = (memset_op *)op;
    for (size_t y = 0; y < m->rows; y++)
        fill_row(m, m->dst + y * m->pitch);
}

static const emu_op_class memset_class = { .node_type = CU_GRAPH_NODE_TYPE_MEMSET, .run = memset_run };

static CUresult check_target(uintptr_t dst, size_t bytes, size_t elem, bool *host)
{
    if (!dst || dst % elem)
        return CUDA_ERROR_INVALID_VALUE;
    emu_where w = emu_mem_where(dst, bytes);
    if (w != EMU_DEVICE && w != EMU_PINNED)
        return CUDA_ERROR_INVALID_VALUE;
    *host = w == EMU_PINNED;
    return CUDA_SUCCESS;
}

static CUresult memset_submit(CUdeviceptr dst, uint32_t value, size_t elem, size_t n, bool async,
                              CUstream hs, emu_null_stream null_means)
{
    emu_lock();
    CUstream s;
    bool host = false;
    CUresult r = emu_stream_get(hs, null_means, &s);
    if (r == CUDA_SUCCESS && n)
        r = check_target((uintptr_t)dst, n * elem, elem, &host);
    /* A synchronous memset of page-locked memory makes the host wait,
     * which a graph node cannot do. */
    if (r == CUDA_SUCCESS && n && !async && host && emu_capturing(s))
        r = emu_capture_fail(s, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    if (r == CUDA_SUCCESS && n) {
        memset_op *op = emu_op_new(&memset_class, sizeof *op);
        op->dst = (uintptr_t)dst;
        op->host = host;
        op->dma = host || emu_mem_managed((uintptr_t)dst);
        op->count = n;
        op->elem = elem;
        op->value = value;
        op->rows = 1;
        op->pitch = n * elem;
        uint64_t seq = 0;
        r = emu_submit(s, &op->op, &seq);
        if (r == CUDA_SUCCESS && !async && host && seq)
            emu_host_wait_op(s, seq);
    }
    emu_unlock();
    return r;
}

/* ---- memset nodes -------------------------------------------------------- */

CUresult emu_memset_node_op(const CUDA_MEMSET_NODE_PARAMS *p, emu_op **out)
{
    if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) || !p->width || !p->height)
        return CUDA_ERROR_INVALID_VALUE;
    size_t row = p->width * p->elementSize;
    if (p->height > 1 && p->pitch < row)
        return CUDA_ERROR_INVALID_VALUE;
    size_t pitch = p->height > 1 ? p->pitch : row;
    bool host = false;
    CUresult r = check_target((uintptr_t)p->dst, (p->height - 1) * pitch + row, p->elementSize, &host);
    if (r != CUDA_SUCCESS)
        return r;
    memset_op *op = emu_op_new(&memset_class, sizeof *op);
    op->dst = (uintptr_t)p->dst;
    op->host = host;
    op->dma = host || emu_mem_managed((uintptr_t)p->dst);
    op->count = p->width;
    op->elem = p->elementSize;
    op->value = p->value;
    op->rows = p->height;
    op->pitch = pitch;
    *out = &op->op;
    return CUDA_SUCCESS;
}

void emu_memset_op_params(const emu_op *op, CUDA_MEMSET_NODE_PARAMS *p)
{
    const memset_op *m = (const memset_op *)op;
    *p = (CUDA_MEMSET_NODE_PARAMS){ .dst = (CUdeviceptr)m->dst, .pitch = m->pitch, .value = m->value,
                                    .elementSize = (unsigned int)m->elem, .width = m->count,
                                    .height = m->rows };
}

EMU_NULL_STREAM_ABIS(cuMemsetD8_v2, cuMemsetD8_v2_ptds, (CUdeviceptr dstDevice, unsigned char uc, size_t N),
                     memset_submit, dstDevice, uc, 1, N, false, NULL)
EMU_NULL_STREAM_ABIS(cuMemsetD16_v2, cuMemsetD16_v2_ptds, (CUdeviceptr dstDevice, unsigned short us, size_t N),
                     memset_submit, dstDevice, us, 2, N, false, NULL)
EMU_NULL_STREAM_ABIS(cuMemsetD32_v2, cuMemsetD32_v2_ptds, (CUdeviceptr dstDevice, unsigned int ui, size_t N),
                     memset_submit, dstDevice, ui, 4, N, false, NULL)

EMU_NULL_STREAM_ABIS(cuMemsetD8Async, cuMemsetD8Async_ptsz,
                     (CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream),
                     memset_submit, dstDevice, uc, 1, N, true, hStream)
EMU_NULL_STREAM_ABIS(cuMemsetD16Async, cuMemsetD16Async_ptsz,
                     (CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream),
                     memset_submit, dstDevice, us, 2, N, true, hStream)
EMU_NULL_STREAM_ABIS(cuMemsetD32Async, cuMemsetD32Async_ptsz,
                     (CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream),
                     memset_submit, dstDevice, ui, 4, N, true, hStream)

/* ---- 2D memsets: the op of a memset node, submitted to a stream ---------- */

static CUresult memset_2d_submit(CUdeviceptr dst, size_t pitch, uint32_t value, size_t elem,
                                 size_t width, size_t height, bool async, CUstream hs,
                                 emu_null_stream null_means)
{
    if (!width || !height)
        return CUDA_SUCCESS;
    CUDA_MEMSET_NODE_PARAMS p = { .dst = dst, .pitch = pitch, .value = value,
                                  .elementSize = (unsigned int)elem, .width = width,
                                  .height = height };
    emu_lock();
    CUstream s;
    emu_op *op = NULL;
    CUresult r = emu_stream_get(hs, null_means, &s);
    if (r == CUDA_SUCCESS)
        r = emu_memset_node_op(&p, &op);
    bool host = r == CUDA_SUCCESS && ((memset_op *)op)->host;
    /* As for the 1D forms: a synchronous memset of page-locked memory
     * waits, which a capture cannot record. */
    if (r == CUDA_SUCCESS && !async && host && emu_capturing(s)) {
        emu_op_discard(op);
        r = emu_capture_fail(s, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    }
    uint64_t seq = 0;
    if (r == CUDA_SUCCESS)
        r = emu_submit(s, op, &seq);
    if (r == CUDA_SUCCESS && !async && host && seq)
        emu_host_wait_op(s, seq);
    emu_unlock();
    return r;
}

#define MEMSET_2D_PARAMS(T) \
    (CUdeviceptr dstDevice, size_t dstPitch, T value, size_t Width, size_t Height, CUstream hStream)
EMU_NULL_STREAM_ABIS(cuMemsetD2D8Async, cuMemsetD2D8Async_ptsz, MEMSET_2D_PARAMS(unsigned char),
                     memset_2d_submit, dstDevice, dstPitch, value, 1, Width, Height, true, hStream)
EMU_NULL_STREAM_ABIS(cuMemsetD2D16Async, cuMemsetD2D16Async_ptsz, MEMSET_2D_PARAMS(unsigned short),
                     memset_2d_submit, dstDevice, dstPitch, value, 2, Width, Height, true, hStream)
EMU_NULL_STREAM_ABIS(cuMemsetD2D32Async, cuMemsetD2D32Async_ptsz, MEMSET_2D_PARAMS(unsigned int),
                     memset_2d_submit, dstDevice, dstPitch, value, 4, Width, Height, true, hStream)

#define MEMSET_2D_SYNC_PARAMS(T) \
    (CUdeviceptr dstDevice, size_t dstPitch, T value, size_t Width, size_t Height)
EMU_NULL_STREAM_ABIS(cuMemsetD2D8_v2, cuMemsetD2D8_v2_ptds, MEMSET_2D_SYNC_PARAMS(unsigned char),
                     memset_2d_submit, dstDevice, dstPitch, value, 1, Width, Height, false, NULL)
EMU_NULL_STREAM_ABIS(cuMemsetD2D16_v2, cuMemsetD2D16_v2_ptds, MEMSET_2D_SYNC_PARAMS(unsigned short),
                     memset_2d_submit, dstDevice, dstPitch, value, 2, Width, Height, false, NULL)
EMU_NULL_STREAM_ABIS(cuMemsetD2D32_v2, cuMemsetD2D32_v2_ptds, MEMSET_2D_SYNC_PARAMS(unsigned int),
                     memset_2d_submit, dstDevice, dstPitch, value, 4, Width, Height, false, NULL)
