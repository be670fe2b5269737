/* memset.c - cuMemsetD8/D16/D32 and their Async forms.
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
    bool host;                  /* page-locked host memory: write by DMA */
    size_t count;               /* elements */
    size_t elem;                /* 1, 2 or 4 bytes */
    uint32_t value;
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

static void memset_run(emu_op *op)
{
    memset_op *m = (memset_op *)op;
    if (!m->host) {
        fill((void *)m->dst, m->count, m->elem, m->value);
        return;
    }
    uint32_t chunk[EMU_FILL_CHUNK / 4];
    size_t per_chunk = sizeof chunk / m->elem;
    fill(chunk, per_chunk, m->elem, m->value);
    for (size_t done = 0; done < m->count; done += per_chunk) {
        size_t k = m->count - done < per_chunk ? m->count - done : per_chunk;
        emu_dma_write(m->dst + done * m->elem, chunk, k * m->elem);
    }
}

static const emu_op_class memset_class = { .run = memset_run };

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
    if (r == CUDA_SUCCESS && n) {
        memset_op *op = emu_op_new(&memset_class, sizeof *op);
        op->dst = (uintptr_t)dst;
        op->host = host;
        op->count = n;
        op->elem = elem;
        op->value = value;
        uint64_t seq = emu_enqueue(s, &op->op);
        if (!async && host)
            emu_host_wait_op(s, seq);
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    return memset_submit(dstDevice, uc, 1, N, false, NULL, EMU_NULL_LEGACY);
}

CUresult CUDAAPI cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    return memset_submit(dstDevice, uc, 1, N, false, NULL, EMU_NULL_PER_THREAD);
}

CUresult CUDAAPI cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    return memset_submit(dstDevice, us, 2, N, false, NULL, EMU_NULL_LEGACY);
}

CUresult CUDAAPI cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    return memset_submit(dstDevice, us, 2, N, false, NULL, EMU_NULL_PER_THREAD);
}

CUresult CUDAAPI cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    return memset_submit(dstDevice, ui, 4, N, false, NULL, EMU_NULL_LEGACY);
}

CUresult CUDAAPI cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    return memset_submit(dstDevice, ui, 4, N, false, NULL, EMU_NULL_PER_THREAD);
}

CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
    return memset_submit(dstDevice, uc, 1, N, true, hStream, EMU_NULL_LEGACY);
}

CUresult CUDAAPI cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
    return memset_submit(dstDevice, uc, 1, N, true, hStream, EMU_NULL_PER_THREAD);
}

CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
    return memset_submit(dstDevice, us, 2, N, true, hStream, EMU_NULL_LEGACY);
}

CUresult CUDAAPI cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
    return memset_submit(dstDevice, us, 2, N, true, hStream, EMU_NULL_PER_THREAD);
}

CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
    return memset_submit(dstDevice, ui, 4, N, true, hStream, EMU_NULL_LEGACY);
}

CUresult CUDAAPI cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
    return memset_submit(dstDevice, ui, 4, N, true, hStream, EMU_NULL_PER_THREAD);
}
