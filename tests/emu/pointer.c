/* SPDX-License-Identifier: Apache-2.0 */
/* pointer.c - cuPointerGetAttribute(s): what the registry knows about an
 * address.  Under unified addressing device and host pointers of an
 * allocation are the address itself; nothing is managed memory. */
#include "emu.h"

/* Writes one attribute of the range holding p (lock held).  With r NULL
 * (p is not a CUDA pointer) it writes the attribute's "NULL value", as
 * cuPointerGetAttributes does. */
static CUresult attribute(CUpointer_attribute a, const emu_range *r, uintptr_t p, void *data)
{
    bool device = r && emu_mem_kind_device(r->kind);
    bool managed = r && r->kind == EMU_MEM_MANAGED;
    switch (a) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        *(CUcontext *)data = r ? r->ctx : NULL;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned int *)data = !r ? 0u : device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        /* a host allocation with a device address of its own (SGEMU_DEVICE_ALIAS) */
        if (r && r->kind == EMU_MEM_HOST_ALLOC && r->alias)
            p = r->alias + (p - r->base);
        *(CUdeviceptr *)data = r ? (CUdeviceptr)p : 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (r && r->kind == EMU_MEM_HOST_ALIAS)
            p = r->alias + (p - r->base);
        *(void **)data = r && (!device || managed) ? (void *)p : NULL;
        return r && device && !managed ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;  /* no host alias */
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        *(unsigned long long *)data = r ? r->id : 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(unsigned int *)data = managed;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
        *(unsigned int *)data = 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MAPPED:
        *(unsigned int *)data = r != NULL;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = r ? r->ctx->dev : -1;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        /* The real driver (CUDA 13.0, driver 580, GPU run 20) answers 0
         * for an allocation of a host-located memory pool, with its size. */
        *(CUdeviceptr *)data = r && r->kind != EMU_MEM_HOST_POOL ? (CUdeviceptr)r->base : 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        *(size_t *)data = r ? r->size : 0;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult CUDAAPI cuPointerGetAttribute(void *data, CUpointer_attribute attribute_, CUdeviceptr ptr)
{
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    const emu_range *range = emu_mem_find((uintptr_t)ptr);
    if (r == CUDA_SUCCESS && !range)
        r = CUDA_ERROR_INVALID_VALUE;           /* not allocated, mapped or registered */
    if (r == CUDA_SUCCESS)
        r = attribute(attribute_, range, (uintptr_t)ptr, data);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                        CUdeviceptr ptr)
{
    if (numAttributes && (!attributes || !data))
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    const emu_range *range = emu_mem_find((uintptr_t)ptr);
    for (unsigned int i = 0; r == CUDA_SUCCESS && i < numAttributes; i++) {
        CUresult one = attribute(attributes[i], range, (uintptr_t)ptr, data[i]);
        if (one != CUDA_SUCCESS && attributes[i] != CU_POINTER_ATTRIBUTE_HOST_POINTER)
            r = one;            /* a missing host alias is just a NULL value here */
    }
    emu_unlock();
    return r;
}
