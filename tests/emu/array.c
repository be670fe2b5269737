/* SPDX-License-Identifier: Apache-2.0 */
/* array.c - CUDA arrays, as far as copies need them: cuArray3DCreate,
 * cuArray3DGetDescriptor, cuArrayDestroy.  An array is device memory the
 * emulator owns, its elements laid out row after row, layer after layer
 * (the real layout is opaque; no copy here can tell).  An element is
 * NumChannels values of the format; block-compressed and planar formats
 * are CUDA_ERROR_NOT_SUPPORTED.  Two kinds of copies take arrays: 3D batch
 * copies (batch.c, through emu_array_side), in which "the extent is in
 * elements" of the array, and so are the rowLength and layerHeight of the
 * pointer operand facing it; and the 1D copies between an array and host
 * memory (cuMemcpyAtoH, cuMemcpyHtoA and their Async forms, copy_api.c,
 * through emu_array_bytes), at a byte offset into the array. */
#include "copy.h"

#include <stdlib.h>
#include <sys/mman.h>

struct CUarray_st {
    CUDA_ARRAY3D_DESCRIPTOR desc;
    size_t elem;        /* bytes per element */
    uintptr_t base;
    size_t bytes;
    CUcontext ctx;
};

static size_t format_bytes(CUarray_format f)
{
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8:
        return 1;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF:
        return 2;
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_FLOAT:
        return 4;
    default:
        return 0;
    }
}

CUresult CUDAAPI cuArray3DCreate_v2(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
    if (!pHandle || !d || !d->Width || (d->NumChannels != 1 && d->NumChannels != 2 && d->NumChannels != 4) ||
        (d->Depth && !d->Height) || d->Flags)
        return CUDA_ERROR_INVALID_VALUE;
    size_t fb = format_bytes(d->Format);
    if (!fb)
        return CUDA_ERROR_NOT_SUPPORTED;
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    struct CUarray_st *a = NULL;
    if (r == CUDA_SUCCESS) {
        a = emu_xcalloc(1, sizeof *a);
        a->desc = *d;
        a->elem = fb * d->NumChannels;
        a->bytes = a->elem * d->Width * (d->Height ? d->Height : 1) * (d->Depth ? d->Depth : 1);
        void *p = mmap(NULL, a->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            free(a);
            r = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            a->base = (uintptr_t)p, a->ctx = c;
            /* device memory to the copy engine; cuMemFree does not take it */
            emu_range range = { .base = a->base, .size = a->bytes, .kind = EMU_MEM_DEVICE_VMM,
                                .ctx = c, .id = emu_mem_next_id() };
            emu_mem_insert(&range);
            *pHandle = a;
        }
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *out, CUarray a)
{
    if (!out || !a)
        return CUDA_ERROR_INVALID_HANDLE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS)
        *out = a->desc;
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuArrayDestroy(CUarray a)
{
    if (!a)
        return CUDA_ERROR_INVALID_HANDLE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS) {
        emu_ctx_host_wait(a->ctx);      /* no queued copy touches it afterwards */
        emu_mem_remove(a->base, NULL);
        munmap((void *)a->base, a->bytes);
        free(a);
    }
    emu_unlock();
    return r;
}

size_t emu_array_elem(CUarray a)
{
    return a ? a->elem : 0;
}

CUresult emu_array_side(CUarray a, const CUoffset3D *off, const CUextent3D *e, emu_side *side)
{
    size_t w = a->desc.Width, h = a->desc.Height ? a->desc.Height : 1, d = a->desc.Depth ? a->desc.Depth : 1;
    if (off->x > w || e->width > w - off->x || off->y > h || e->height > h - off->y || off->z > d ||
        e->depth > d - off->z)
        return CUDA_ERROR_INVALID_VALUE;
    size_t pitch = w * a->elem;
    *side = (emu_side){ .addr = a->base + (off->z * h + off->y) * pitch + off->x * a->elem, .pitch = pitch,
                        .slice = pitch * h, .type = EMU_SIDE_DEVICE };
    return CUDA_SUCCESS;
}

CUresult emu_array_bytes(CUarray a, size_t off, size_t n, uintptr_t *addr)
{
    if (!a)
        return CUDA_ERROR_INVALID_HANDLE;
    if (off > a->bytes || n > a->bytes - off)
        return CUDA_ERROR_INVALID_VALUE;
    *addr = a->base + off;
    return CUDA_SUCCESS;
}
