/* SPDX-License-Identifier: Apache-2.0 */
/* copy3d.c - cuMemcpy2D*, cuMemcpy3D* and cuMemcpy3DPeer* between host and
 * device memory.  Array sides of these copies are not emulated: copies
 * naming one report CUDA_ERROR_NOT_SUPPORTED. */
#include "copy.h"

/* The start of one side: its memory type picks the base pointer. */
static CUresult side_base(CUmemorytype type, const void *host, CUdeviceptr dev, uintptr_t *base,
                          emu_side_type *t)
{
    switch (type) {
    case CU_MEMORYTYPE_HOST:    *base = (uintptr_t)host; *t = EMU_SIDE_HOST; return CUDA_SUCCESS;
    case CU_MEMORYTYPE_DEVICE:  *base = (uintptr_t)dev; *t = EMU_SIDE_DEVICE; return CUDA_SUCCESS;
    case CU_MEMORYTYPE_UNIFIED: *base = (uintptr_t)dev; *t = EMU_SIDE_UNIFIED; return CUDA_SUCCESS;
    case CU_MEMORYTYPE_ARRAY:   return CUDA_ERROR_NOT_SUPPORTED;
    default:                    return CUDA_ERROR_INVALID_VALUE;
    }
}

/* Fills one side of a 3D copy (2D copies are 3D copies of depth 1). */
static CUresult make_side(emu_side *s, CUmemorytype type, const void *host, CUdeviceptr dev, size_t x,
                          size_t y, size_t z, size_t pitch, size_t rows_per_slice)
{
    uintptr_t base = 0;
    CUresult r = side_base(type, host, dev, &base, &s->type);
    if (r == CUDA_SUCCESS && !base)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r != CUDA_SUCCESS)
        return r;
    s->pitch = pitch;
    s->slice = pitch * rows_per_slice;
    s->addr = base + (z * rows_per_slice + y) * pitch + x;
    return CUDA_SUCCESS;
}

/* A pitch shorter than a row would make rows overlap. */
static bool shape_ok(const emu_copy *c, size_t src_rows, size_t dst_rows)
{
    if (c->height > 1 && (c->src.pitch < c->width || c->dst.pitch < c->width))
        return false;
    return c->depth <= 1 || (src_rows >= c->height && dst_rows >= c->height);
}

static CUresult copy_2d(const CUDA_MEMCPY2D *p, bool async, CUstream stream, emu_null_stream null_means)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    emu_copy c = { .width = p->WidthInBytes, .height = p->Height, .depth = 1,
                   .async = async, .stream = stream, .null_means = null_means };
    CUresult r = make_side(&c.src, p->srcMemoryType, p->srcHost, p->srcDevice, p->srcXInBytes, p->srcY, 0,
                           p->srcPitch, p->Height);
    if (r == CUDA_SUCCESS)
        r = make_side(&c.dst, p->dstMemoryType, p->dstHost, p->dstDevice, p->dstXInBytes, p->dstY, 0,
                      p->dstPitch, p->Height);
    if (r == CUDA_SUCCESS && !shape_ok(&c, p->Height, p->Height))
        r = CUDA_ERROR_INVALID_VALUE;
    return r == CUDA_SUCCESS ? emu_copy_submit(&c) : r;
}

CUresult emu_copy_from_3d(const CUDA_MEMCPY3D *p, emu_copy *c)
{
    if (!p || p->srcLOD || p->dstLOD || p->reserved0 || p->reserved1)
        return CUDA_ERROR_INVALID_VALUE;
    *c = (emu_copy){ .width = p->WidthInBytes, .height = p->Height, .depth = p->Depth };
    CUresult r = make_side(&c->src, p->srcMemoryType, p->srcHost, p->srcDevice, p->srcXInBytes, p->srcY,
                           p->srcZ, p->srcPitch, p->srcHeight);
    if (r == CUDA_SUCCESS)
        r = make_side(&c->dst, p->dstMemoryType, p->dstHost, p->dstDevice, p->dstXInBytes, p->dstY,
                      p->dstZ, p->dstPitch, p->dstHeight);
    if (r == CUDA_SUCCESS && !shape_ok(c, p->srcHeight, p->dstHeight))
        r = CUDA_ERROR_INVALID_VALUE;
    return r;
}

static CUresult copy_3d(const CUDA_MEMCPY3D *p, bool async, CUstream stream, emu_null_stream null_means)
{
    emu_copy c;
    CUresult r = emu_copy_from_3d(p, &c);
    c.async = async;
    c.stream = stream;
    c.null_means = null_means;
    return r == CUDA_SUCCESS ? emu_copy_submit(&c) : r;
}

EMU_NULL_STREAM_ABIS(cuMemcpy2D_v2, cuMemcpy2D_v2_ptds, (const CUDA_MEMCPY2D *pCopy),
                     copy_2d, pCopy, false, NULL)
EMU_NULL_STREAM_ABIS(cuMemcpy2DUnaligned_v2, cuMemcpy2DUnaligned_v2_ptds, (const CUDA_MEMCPY2D *pCopy),
                     copy_2d, pCopy, false, NULL)
EMU_NULL_STREAM_ABIS(cuMemcpy2DAsync_v2, cuMemcpy2DAsync_v2_ptsz, (const CUDA_MEMCPY2D *pCopy, CUstream hStream),
                     copy_2d, pCopy, true, hStream)
EMU_NULL_STREAM_ABIS(cuMemcpy3D_v2, cuMemcpy3D_v2_ptds, (const CUDA_MEMCPY3D *pCopy),
                     copy_3d, pCopy, false, NULL)
EMU_NULL_STREAM_ABIS(cuMemcpy3DAsync_v2, cuMemcpy3DAsync_v2_ptsz, (const CUDA_MEMCPY3D *pCopy, CUstream hStream),
                     copy_3d, pCopy, true, hStream)

/* A 3D peer copy is a 3D copy whose sides name their contexts: both must
 * be usable.  Unlike cuMemcpyPeer, cuMemcpy3DPeer is not documented to
 * serialize with the contexts' other work, so it orders like cuMemcpy3D. */
static CUresult copy_3d_peer(const CUDA_MEMCPY3D_PEER *p, bool async, CUstream stream,
                             emu_null_stream null_means)
{
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_ctx_check(p->dstContext);
    if (r == CUDA_SUCCESS)
        r = emu_ctx_check(p->srcContext);
    emu_unlock();
    CUDA_MEMCPY3D q = {
        .srcXInBytes = p->srcXInBytes, .srcY = p->srcY, .srcZ = p->srcZ, .srcLOD = p->srcLOD,
        .srcMemoryType = p->srcMemoryType, .srcHost = p->srcHost, .srcDevice = p->srcDevice,
        .srcArray = p->srcArray, .srcPitch = p->srcPitch, .srcHeight = p->srcHeight,
        .dstXInBytes = p->dstXInBytes, .dstY = p->dstY, .dstZ = p->dstZ, .dstLOD = p->dstLOD,
        .dstMemoryType = p->dstMemoryType, .dstHost = p->dstHost, .dstDevice = p->dstDevice,
        .dstArray = p->dstArray, .dstPitch = p->dstPitch, .dstHeight = p->dstHeight,
        .WidthInBytes = p->WidthInBytes, .Height = p->Height, .Depth = p->Depth,
    };
    return r == CUDA_SUCCESS ? copy_3d(&q, async, stream, null_means) : r;
}

EMU_NULL_STREAM_ABIS(cuMemcpy3DPeer, cuMemcpy3DPeer_ptds, (const CUDA_MEMCPY3D_PEER *pCopy),
                     copy_3d_peer, pCopy, false, NULL)
EMU_NULL_STREAM_ABIS(cuMemcpy3DPeerAsync, cuMemcpy3DPeerAsync_ptsz,
                     (const CUDA_MEMCPY3D_PEER *pCopy, CUstream hStream), copy_3d_peer, pCopy, true, hStream)
