/* SPDX-License-Identifier: Apache-2.0 */
/* hostkinds.c - memory a program gets outside cuMemAlloc and
 * cuMemHostAlloc/cuMemHostRegister: managed memory (cuMemAllocManaged),
 * the virtual memory management API (cuMemCreate, cuMemAddressReserve,
 * cuMemMap, cuMemSetAccess, cuMemUnmap, cuMemRelease, cuMemAddressFree,
 * cuMemGetAllocationGranularity) and memory pools (cuMemPoolCreate,
 * cuMemAllocFromPoolAsync, cuMemFreeAsync, cuMemPoolDestroy).
 *
 * Each lands in the registry with a kind of its own, which fixes how copies
 * treat it: managed memory and device-located VMM memory are device memory
 * (an async copy into them stays asynchronous to the host); host-located
 * VMM allocations (CU_MEM_LOCATION_TYPE_HOST, _HOST_NUMA) are page-locked
 * host memory, copied by DMA in stream order like cuMemHostAlloc memory.
 * Allocations of host-located pools are host memory too, but copies with
 * them behave as with pageable memory, and their range starts at 0: what
 * the real driver answered (GPU run 20; registry.c, pointer.c).  None belongs to a context:
 * "cuCtxDestroy() will not destroy memory allocations by cuMemCreate(),
 * cuMemAllocAsync() and cuMemAllocFromPoolAsync()".
 *
 * A physical allocation is a memfd; cuMemMap maps it MAP_SHARED over the
 * reservation (MAP_FIXED), without access until cuMemSetAccess, and once
 * more elsewhere, read-write, as the device's view: DMA goes through that
 * one (emu_dma_alias), as a device's does not depend on the CPU page
 * protection.  cuMemUnmap puts the reservation back.  Pool allocations are private
 * anonymous mappings made at once (the memory may be used by work ordered
 * after the allocation, which any later work is); cuMemFreeAsync frees in
 * stream order, when the stream reaches it. */
#include "emu.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define GRANULARITY (2u << 20)

static CUcontext current_or_null(void)
{
    CUcontext c = NULL;
    return emu_ctx_current(&c) == CUDA_SUCCESS ? c : NULL;
}

static void insert(uintptr_t base, size_t size, emu_mem_kind kind, CUcontext c)
{
    emu_range r = { .base = base, .size = size, .kind = kind, .ctx = c, .id = emu_mem_next_id() };
    emu_mem_insert(&r);
}

/* ---- managed memory ------------------------------------------------------- */

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    if (!dptr || bytesize == 0 || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    void *p = MAP_FAILED;
    if (r == CUDA_SUCCESS)
        p = mmap(NULL, bytesize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (r == CUDA_SUCCESS && p == MAP_FAILED)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS) {
        insert((uintptr_t)p, bytesize, EMU_MEM_MANAGED, c);
        *dptr = (CUdeviceptr)(uintptr_t)p;
    }
    emu_unlock();
    return r;
}

/* ---- virtual memory management ---------------------------------------------- */

typedef struct vmm_alloc {
    int fd;
    size_t size;
    bool host;          /* CU_MEM_LOCATION_TYPE_HOST or _HOST_NUMA */
    int refs;           /* the handle and each mapping */
} vmm_alloc;

static CUresult check_location(const CUmemLocation *l, bool *host)
{
    switch (l->type) {
    case CU_MEM_LOCATION_TYPE_DEVICE:
        *host = false;
        return emu_device_check(l->id);
    case CU_MEM_LOCATION_TYPE_HOST:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
        *host = true;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult CUDAAPI cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                               CUmemAllocationGranularity_flags option)
{
    bool host;
    if (!granularity || !prop || prop->type != CU_MEM_ALLOCATION_TYPE_PINNED ||
        (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS)
        r = check_location(&prop->location, &host);
    if (r == CUDA_SUCCESS)
        *granularity = GRANULARITY;
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                             unsigned long long flags)
{
    bool host = false;
    if (!handle || !prop || flags != 0 || size == 0 || size % GRANULARITY ||
        prop->type != CU_MEM_ALLOCATION_TYPE_PINNED)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS)
        r = check_location(&prop->location, &host);
    int fd = -1;
    if (r == CUDA_SUCCESS && ((fd = memfd_create("sgemu-vmm", MFD_CLOEXEC)) < 0 || ftruncate(fd, (off_t)size) != 0))
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS) {
        vmm_alloc *a = emu_xcalloc(1, sizeof *a);
        *a = (vmm_alloc){ fd, size, host, 1 };
        *handle = (CUmemGenericAllocationHandle)(uintptr_t)a;
    } else if (fd >= 0) {
        close(fd);
    }
    emu_unlock();
    return r;
}

static void alloc_unref(vmm_alloc *a)
{
    if (--a->refs == 0) {
        close(a->fd);
        free(a);
    }
}

/* Mappings, to find the allocation a range maps when it is unmapped. */
typedef struct vmm_mapping {
    uintptr_t base;
    size_t size;
    vmm_alloc *alloc;
    uintptr_t alias;    /* the device's view */
} vmm_mapping;

/* Changed under the emulator lock and alias_lock; read by DMA under
 * alias_lock alone. */
static vmm_mapping *mappings;
static size_t nmappings, mappings_cap;
static pthread_mutex_t alias_lock = PTHREAD_MUTEX_INITIALIZER;

uintptr_t emu_dma_alias(uintptr_t addr, size_t n)
{
    uintptr_t to = addr;
    pthread_mutex_lock(&alias_lock);
    for (size_t i = 0; i < nmappings; i++)
        if (addr - mappings[i].base < mappings[i].size && n <= mappings[i].size - (addr - mappings[i].base))
            to = mappings[i].alias + (addr - mappings[i].base);
    pthread_mutex_unlock(&alias_lock);
    return to;
}

void emu_dma_alias_add(uintptr_t base, size_t size, uintptr_t alias)
{
    pthread_mutex_lock(&alias_lock);
    mappings = emu_grow(mappings, nmappings, &mappings_cap, sizeof *mappings);
    mappings[nmappings++] = (vmm_mapping){ base, size, NULL, alias };
    pthread_mutex_unlock(&alias_lock);
}

void emu_dma_alias_remove(uintptr_t base)
{
    pthread_mutex_lock(&alias_lock);
    for (size_t i = 0; i < nmappings; i++)
        if (mappings[i].base == base && !mappings[i].alloc) {
            mappings[i] = mappings[--nmappings];
            break;
        }
    pthread_mutex_unlock(&alias_lock);
}

CUresult CUDAAPI cuMemRelease(CUmemGenericAllocationHandle handle)
{
    if (!handle)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS)
        alloc_unref((vmm_alloc *)(uintptr_t)handle);    /* mapped: lives on until unmapped */
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                     unsigned long long flags)
{
    if (!ptr || size == 0 || size % GRANULARITY || flags != 0 || (alignment & (alignment - 1)))
        return CUDA_ERROR_INVALID_VALUE;
    if (alignment < GRANULARITY)
        alignment = GRANULARITY;
    emu_lock();
    CUresult r = emu_check_init();
    /* Over-reserve, then trim to the alignment asked for. */
    void *p = MAP_FAILED;
    if (r == CUDA_SUCCESS)
        p = mmap((void *)(uintptr_t)addr, size + alignment, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == CUDA_SUCCESS && p == MAP_FAILED)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS) {
        uintptr_t lo = (uintptr_t)p, at = (lo + alignment - 1) & ~(uintptr_t)(alignment - 1);
        if (at > lo)
            munmap(p, at - lo);
        if (lo + size + alignment > at + size)
            munmap((void *)(at + size), lo + size + alignment - (at + size));
        *ptr = (CUdeviceptr)at;
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
    if (!ptr || size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS && emu_mem_overlap((uintptr_t)ptr, size))
        r = CUDA_ERROR_INVALID_VALUE;       /* still mapped */
    if (r == CUDA_SUCCESS)
        munmap((void *)(uintptr_t)ptr, size);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                          unsigned long long flags)
{
    vmm_alloc *a = (vmm_alloc *)(uintptr_t)handle;
    if (!ptr || !a || flags != 0 || size == 0 || size % GRANULARITY || offset % GRANULARITY)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS && (offset > a->size || size > a->size - offset || emu_mem_overlap(ptr, size)))
        r = CUDA_ERROR_INVALID_VALUE;
    void *alias = MAP_FAILED;
    if (r == CUDA_SUCCESS &&
        (alias = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, (off_t)offset)) == MAP_FAILED)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS &&
        mmap((void *)(uintptr_t)ptr, size, PROT_NONE, MAP_SHARED | MAP_FIXED, a->fd, (off_t)offset) == MAP_FAILED) {
        munmap(alias, size);
        r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (r == CUDA_SUCCESS) {
        a->refs++;
        pthread_mutex_lock(&alias_lock);
        mappings = emu_grow(mappings, nmappings, &mappings_cap, sizeof *mappings);
        mappings[nmappings++] = (vmm_mapping){ (uintptr_t)ptr, size, a, (uintptr_t)alias };
        pthread_mutex_unlock(&alias_lock);
        insert((uintptr_t)ptr, size, a->host ? EMU_MEM_HOST_VMM : EMU_MEM_DEVICE_VMM, current_or_null());
    }
    emu_unlock();
    return r;
}

/* Access is all or nothing here: any read-write or read descriptor opens
 * the whole range to the host (the emulated device reaches it anyway). */
CUresult CUDAAPI cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
    if (!ptr || size == 0 || !desc || count == 0)
        return CUDA_ERROR_INVALID_VALUE;
    int prot = PROT_NONE;
    for (size_t i = 0; i < count; i++) {
        if (desc[i].flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
            prot = PROT_READ | PROT_WRITE;
        else if (desc[i].flags == CU_MEM_ACCESS_FLAGS_PROT_READ && prot == PROT_NONE)
            prot = PROT_READ;
    }
    emu_lock();
    CUresult r = emu_check_init();
    const emu_range *m = r == CUDA_SUCCESS ? emu_mem_find(ptr) : NULL;
    if (r == CUDA_SUCCESS && (!m || (m->kind != EMU_MEM_HOST_VMM && m->kind != EMU_MEM_DEVICE_VMM) ||
                              size > m->size - (ptr - m->base)))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && mprotect((void *)(uintptr_t)ptr, size, prot) != 0)
        r = CUDA_ERROR_INVALID_VALUE;
    emu_unlock();
    return r;
}

/* Like cuMemFree, the unmapping first lets queued work that may touch the
 * range finish ("may perform implicit synchronization"). */
CUresult CUDAAPI cuMemUnmap(CUdeviceptr ptr, size_t size)
{
    if (!ptr || size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    size_t i = 0;
    while (i < nmappings && (mappings[i].base != ptr || mappings[i].size != size))
        i++;
    if (r == CUDA_SUCCESS && i == nmappings)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS) {
        const emu_range *m = emu_mem_find(ptr);
        if (m && m->ctx)
            emu_ctx_host_wait(m->ctx);
        emu_mem_remove(ptr, NULL);
        pthread_mutex_lock(&alias_lock);
        vmm_mapping gone = mappings[i];
        mappings[i] = mappings[--nmappings];
        pthread_mutex_unlock(&alias_lock);
        munmap((void *)gone.alias, gone.size);
        mmap((void *)gone.base, gone.size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
        alloc_unref(gone.alloc);
    }
    emu_unlock();
    return r;
}

/* ---- memory pools ------------------------------------------------------------ */

struct CUmemPoolHandle_st {
    bool host;
    int allocations;    /* not yet freed */
    bool destroyed;     /* released once the last allocation is freed */
};

CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props)
{
    bool host = false;
    if (!pool || !props || props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS)
        r = check_location(&props->location, &host);
    if (r == CUDA_SUCCESS) {
        *pool = emu_xcalloc(1, sizeof **pool);
        (*pool)->host = host;
    }
    emu_unlock();
    return r;
}

/* "If any pointers obtained from this pool haven't been freed ... the
 * function will return immediately and the resources associated with the
 * pool will be released automatically once there are no more outstanding
 * allocations." */
CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool)
{
    if (!pool)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUresult r = emu_check_init();
    if (r == CUDA_SUCCESS && pool->allocations == 0)
        free(pool);
    else if (r == CUDA_SUCCESS)
        pool->destroyed = true;
    emu_unlock();
    return r;
}

/* Which pool each live allocation came from. */
typedef struct pool_alloc {
    uintptr_t base;
    size_t size;
    CUmemoryPool pool;
} pool_alloc;

static pool_alloc *pool_allocs;
static size_t npool_allocs, pool_allocs_cap;

static CUresult alloc_from_pool(CUdeviceptr *dptr, size_t size, CUmemoryPool pool, CUstream hs,
                                emu_null_stream null_means)
{
    if (!dptr || !pool || size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUstream s;
    CUresult r = emu_stream_get(hs, null_means, &s);
    if (r == CUDA_SUCCESS && (pool->destroyed || emu_capturing(s)))
        r = CUDA_ERROR_INVALID_VALUE;   /* allocation nodes are not emulated */
    void *p = MAP_FAILED;
    if (r == CUDA_SUCCESS)
        p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (r == CUDA_SUCCESS && p == MAP_FAILED)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS) {
        insert((uintptr_t)p, size, pool->host ? EMU_MEM_HOST_POOL : EMU_MEM_DEVICE_VMM, NULL);
        pool_allocs = emu_grow(pool_allocs, npool_allocs, &pool_allocs_cap, sizeof *pool_allocs);
        pool_allocs[npool_allocs++] = (pool_alloc){ (uintptr_t)p, size, pool };
        pool->allocations++;
        *dptr = (CUdeviceptr)(uintptr_t)p;
    }
    emu_unlock();
    return r;
}

EMU_NULL_STREAM_ABIS(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync_ptsz,
                     (CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream),
                     alloc_from_pool, dptr, bytesize, pool, hStream)

/* The free itself, when the stream reaches it (lock held). */
typedef struct free_op {
    emu_op op;
    pool_alloc a;
} free_op;

static void free_retire(emu_op *op)
{
    free_op *f = (free_op *)op;
    emu_mem_remove(f->a.base, NULL);
    munmap((void *)f->a.base, f->a.size);
    if (--f->a.pool->allocations == 0 && f->a.pool->destroyed)
        free(f->a.pool);
}

static const emu_op_class free_class = { .node_type = CU_GRAPH_NODE_TYPE_MEM_FREE, .retire = free_retire };

static CUresult free_async(CUdeviceptr dptr, CUstream hs, emu_null_stream null_means)
{
    emu_lock();
    CUstream s;
    CUresult r = emu_stream_get(hs, null_means, &s);
    size_t i = 0;
    while (i < npool_allocs && pool_allocs[i].base != dptr)
        i++;
    if (r == CUDA_SUCCESS && (i == npool_allocs || emu_capturing(s)))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS) {
        free_op *f = emu_op_new(&free_class, sizeof *f);
        f->a = pool_allocs[i];
        pool_allocs[i] = pool_allocs[--npool_allocs];
        emu_enqueue(s, &f->op);
    }
    emu_unlock();
    return r;
}

EMU_NULL_STREAM_ABIS(cuMemFreeAsync, cuMemFreeAsync_ptsz, (CUdeviceptr dptr, CUstream hStream), free_async,
                     dptr, hStream)
