/* SPDX-License-Identifier: Apache-2.0 */
/* memory.c - device memory, page-locked host memory (allocated and
 * registered), memory information.
 *
 * Device memory is anonymous memory the emulator owns; a CUdeviceptr is its
 * address.  Page-locked allocations are packed like the real driver's (see
 * map_host).
 * Under unified addressing a host allocation's device pointer is the host
 * pointer itself.  Freeing waits for the context's work first, as the real
 * driver may, so no queued copy touches memory that is gone.
 */
#include "emu.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgemu.h"

#define EMU_TOTAL_MEM (16ull << 30)

static unsigned long long device_used;

static size_t page_size(void)
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

static size_t round_to_pages(size_t n)
{
    size_t p = page_size();
    return (n + p - 1) / p * p;
}

static void *map_anonymous(size_t n)
{
    void *p = mmap(NULL, round_to_pages(n), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Page-locked allocations are packed as the real driver packs them
 * (measured on an H200, driver 580: tests/gpu/RESULTS.md run 13): small
 * ones are carved from shared 2 MiB chunks in 512-byte steps, so they share
 * pages and a page-multiple size need not start on a page; larger ones get
 * mappings of their own. Chunks are never given back (tests are short). */
#define POOL_CHUNK (2u << 20)
#define POOL_STEP 512u
#define POOL_LARGEST (1u << 20)
#define POOL_MAX_CHUNKS 64

static uintptr_t pool_next, pool_end;
static uintptr_t pool_chunk[POOL_MAX_CHUNKS];
static int pool_chunks;

static bool in_pool(uintptr_t p)
{
    for (int i = 0; i < pool_chunks; i++)
        if (p - pool_chunk[i] < POOL_CHUNK)
            return true;
    return false;
}

static void *map_host(size_t n)
{
    size_t step = (n + POOL_STEP - 1) / POOL_STEP * POOL_STEP;
    if (n > POOL_LARGEST)
        return map_anonymous(n);
    if (pool_next + step > pool_end) {
        void *chunk = pool_chunks < POOL_MAX_CHUNKS ? map_anonymous(POOL_CHUNK) : NULL;
        if (!chunk)
            return map_anonymous(n);
        pool_chunk[pool_chunks++] = (uintptr_t)chunk;
        pool_next = (uintptr_t)chunk, pool_end = pool_next + POOL_CHUNK;
    }
    void *p = (void *)pool_next;
    pool_next += step;
    return p;
}

/* SGEMU_PINNED_LIMIT (bytes) lets a test run short of page-locked memory,
 * as a machine does when the driver cannot pin more: cuMemHostAlloc of
 * more than that many bytes at once fails with CUDA_ERROR_OUT_OF_MEMORY.
 * Unset: no limit. Read at each call (a test sets it when it is ready). */
static size_t pinned_limit(void)
{
    const char *s = getenv("SGEMU_PINNED_LIMIT");
    char *end;
    unsigned long long v = s && *s ? strtoull(s, &end, 10) : 0;
    return v && !*end ? (size_t)v : SIZE_MAX;
}

/* SGEMU_DEVICE_ALIAS=1 (read at each call): cuMemHostAlloc with
 * CU_MEMHOSTALLOC_DEVICEMAP gives the device an address of its own for the
 * allocation (what cuMemHostGetDevicePointer answers), as a driver without
 * unified addressing does: a memfd mapped twice, the host's view and the
 * device's, so a kernel writing through the device address changes what
 * the host reads. */
static bool want_device_alias(unsigned int flags)
{
    const char *s = getenv("SGEMU_DEVICE_ALIAS");
    return (flags & CU_MEMHOSTALLOC_DEVICEMAP) && s && s[0] == '1' && !s[1];
}

static void *map_aliased(size_t n, uintptr_t *alias)
{
    int fd = memfd_create("sgemu-mapped", MFD_CLOEXEC);
    void *host = MAP_FAILED, *dev = MAP_FAILED;
    if (fd >= 0 && ftruncate(fd, (off_t)round_to_pages(n)) == 0) {
        host = mmap(NULL, round_to_pages(n), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        dev = mmap(NULL, round_to_pages(n), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    if (fd >= 0)
        close(fd);
    if (host == MAP_FAILED || dev == MAP_FAILED) {
        if (host != MAP_FAILED)
            munmap(host, round_to_pages(n));
        if (dev != MAP_FAILED)
            munmap(dev, round_to_pages(n));
        return NULL;
    }
    *alias = (uintptr_t)dev;
    return host;
}

/* Device memory freed is kept for the next allocation of the same size, as
 * the real driver's allocator reuses a freed address at once (a program
 * that frees and allocates again gets the same pointer): the kernel's and
 * qemu-user's mmap would place it anywhere. A reused mapping is zeroed
 * again (MADV_DONTNEED), as a fresh one is. Kept mappings are few and
 * handed back to the kernel oldest first. */
#define DEVICE_KEPT 16

static struct kept_mapping { uintptr_t base; size_t pages; } device_kept[DEVICE_KEPT];
static int device_kept_n;

static void keep_device_mapping(uintptr_t base, size_t size)
{
    if (device_kept_n == DEVICE_KEPT) {
        munmap((void *)device_kept[0].base, device_kept[0].pages);
        memmove(&device_kept[0], &device_kept[1], sizeof device_kept[0] * (DEVICE_KEPT - 1));
        device_kept_n--;
    }
    device_kept[device_kept_n++] = (struct kept_mapping){ base, round_to_pages(size) };
}

/* The most recently freed mapping of n's pages, or a new one. */
static void *map_device(size_t n)
{
    size_t pages = round_to_pages(n);
    for (int i = device_kept_n - 1; i >= 0; i--) {
        if (device_kept[i].pages != pages)
            continue;
        void *p = (void *)device_kept[i].base;
        memmove(&device_kept[i], &device_kept[i + 1], sizeof device_kept[0] * (size_t)(device_kept_n - 1 - i));
        device_kept_n--;
        madvise(p, pages, MADV_DONTNEED);
        return p;
    }
    return map_anonymous(n);
}

/* Returns the memory of a range that the emulator allocated. */
static void release_range(const emu_range *r)
{
    if (r->kind == EMU_MEM_HOST_REGISTERED || r->kind == EMU_MEM_HOST_VMM ||
        r->kind == EMU_MEM_DEVICE_VMM || r->kind == EMU_MEM_HOST_POOL ||
        r->kind == EMU_MEM_HOST_ALIAS)
        return;                 /* the program, a mapping, a pool or its host allocation owns it */
    if (r->kind == EMU_MEM_HOST_ALLOC && r->alias) {
        emu_range gone;
        emu_mem_remove(r->alias, &gone);    /* already gone when the context goes */
        emu_dma_alias_remove(r->base);
        munmap((void *)r->alias, round_to_pages(r->size));
    }
    if (r->kind == EMU_MEM_HOST_ALLOC && in_pool(r->base))
        return;                 /* a slot of a shared chunk: stays mapped */
    if (r->kind == EMU_MEM_DEVICE) {
        device_used -= r->size;
        keep_device_mapping(r->base, r->size);
        return;
    }
    munmap((void *)r->base, round_to_pages(r->size));
}

void emu_mem_drop_ctx(CUcontext ctx)
{
    emu_range *v;
    size_t n = emu_mem_take_ctx(ctx, &v);
    for (size_t i = 0; i < n; i++)
        release_range(&v[i]);
    free(v);
}

/* The range of `kind` starting exactly at base, or NULL. */
static const emu_range *allocation_at(uintptr_t base, emu_mem_kind kind)
{
    const emu_range *r = emu_mem_find(base);
    return r && r->base == base && r->kind == kind ? r : NULL;
}

/* Waits until the range's context is idle, then forgets and releases the
 * range (if it is still there: the wait let other threads run). */
static void free_range(uintptr_t base, emu_mem_kind kind)
{
    emu_ctx_host_wait(allocation_at(base, kind)->ctx);
    emu_range r;
    if (allocation_at(base, kind) && emu_mem_remove(base, &r))
        release_range(&r);
}

static void add_range(CUcontext c, uintptr_t base, size_t size, emu_mem_kind kind, unsigned int flags)
{
    emu_range r = { .base = base, .size = size, .kind = kind, .flags = flags, .ctx = c,
                     .id = emu_mem_next_id() };
    emu_mem_insert(&r);
}

/* ---- device memory ------------------------------------------------------- */

CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    if (!dptr || bytesize == 0)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    void *p = NULL;
    if (r == CUDA_SUCCESS && (bytesize > EMU_TOTAL_MEM - device_used || !(p = map_device(bytesize))))
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS) {
        device_used += bytesize;
        add_range(c, (uintptr_t)p, bytesize, EMU_MEM_DEVICE, 0);
        *dptr = (CUdeviceptr)(uintptr_t)p;
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuMemFree_v2(CUdeviceptr dptr)
{
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    /* cuMemAllocManaged memory is freed here too */
    emu_mem_kind kind = allocation_at((uintptr_t)dptr, EMU_MEM_MANAGED) ? EMU_MEM_MANAGED : EMU_MEM_DEVICE;
    if (r == CUDA_SUCCESS && dptr && !allocation_at((uintptr_t)dptr, kind))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && dptr)
        free_range((uintptr_t)dptr, kind);
    emu_unlock();
    return r;
}

/* The device (or managed) allocation holding dptr. */
CUresult CUDAAPI cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    const emu_range *a = r == CUDA_SUCCESS ? emu_mem_find((uintptr_t)dptr) : NULL;
    if (r == CUDA_SUCCESS && (!a || (a->kind != EMU_MEM_DEVICE && a->kind != EMU_MEM_MANAGED)))
        r = CUDA_ERROR_NOT_FOUND;
    if (r == CUDA_SUCCESS) {
        if (pbase)
            *pbase = (CUdeviceptr)a->base;
        if (psize)
            *psize = a->size;
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    if (!free_bytes || !total)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    if (r == CUDA_SUCCESS) {
        *total = EMU_TOTAL_MEM;
        *free_bytes = EMU_TOTAL_MEM - device_used;
    }
    emu_unlock();
    return r;
}

size_t emu_total_mem(void)
{
    return EMU_TOTAL_MEM;
}

/* ---- page-locked host memory --------------------------------------------- */

CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    const unsigned int known = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED;
    if (!pp || bytesize == 0 || (Flags & ~known))
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    void *p = NULL;
    if (r == CUDA_SUCCESS && bytesize > pinned_limit())
        r = CUDA_ERROR_OUT_OF_MEMORY;
    uintptr_t alias = 0;
    bool aliased = r == CUDA_SUCCESS && want_device_alias(Flags);
    if (r == CUDA_SUCCESS && !(p = aliased ? map_aliased(bytesize, &alias) : map_host(bytesize)))
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS) {
        emu_range h = { (uintptr_t)p, bytesize, EMU_MEM_HOST_ALLOC, Flags, c, emu_mem_next_id(),
                        alias };
        emu_mem_insert(&h);
        if (alias) {
            emu_range d = { alias, bytesize, EMU_MEM_HOST_ALIAS, Flags, c, h.id, (uintptr_t)p };
            emu_mem_insert(&d);
            /* DMA into the host's view, which the program may protect, goes
             * through the device's */
            emu_dma_alias_add((uintptr_t)p, bytesize, alias);
        }
        *pp = p;
    }
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuMemAllocHost_v2(void **pp, size_t bytesize)
{
    return cuMemHostAlloc(pp, bytesize, 0);
}

/* cuMemFreeHost and cuMemHostUnregister: p must be the start of a range of
 * that kind (`missing`, the call's own error code, otherwise), which goes
 * away. */
static CUresult release_host_range(void *p, emu_mem_kind kind, CUresult missing)
{
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    if (r == CUDA_SUCCESS && !allocation_at((uintptr_t)p, kind))
        r = missing;
    if (r == CUDA_SUCCESS)
        free_range((uintptr_t)p, kind);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuMemFreeHost(void *p)
{
    return release_host_range(p, EMU_MEM_HOST_ALLOC, CUDA_ERROR_INVALID_VALUE);
}

/* mincore fails with ENOMEM when part of the range is not mapped: a real
 * driver could not pin such a range either. */
static bool is_mapped(uintptr_t p, size_t n)
{
    uintptr_t start = p / page_size() * page_size();
    size_t len = round_to_pages(p + n - start);
    unsigned char vec[256];
    for (size_t off = 0; off < len; off += sizeof vec * page_size()) {
        size_t chunk = len - off < sizeof vec * page_size() ? len - off : sizeof vec * page_size();
        if (mincore((void *)(start + off), chunk, vec) != 0 && errno == ENOMEM)
            return false;
    }
    return true;
}

static CUresult check_registrable(uintptr_t p, size_t n)
{
    const emu_range *o = emu_mem_overlap(p, n);
    if (o)
        return o->kind == EMU_MEM_DEVICE ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    return is_mapped(p, n) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    const unsigned int known = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
                               CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY;
    if (!p || bytesize == 0 || (Flags & ~known))
        return CUDA_ERROR_INVALID_VALUE;
    if (Flags & CU_MEMHOSTREGISTER_IOMEMORY)
        return CUDA_ERROR_NOT_SUPPORTED;        /* no third-party device memory here */
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    if (r == CUDA_SUCCESS)
        r = check_registrable((uintptr_t)p, bytesize);
    if (r == CUDA_SUCCESS)
        add_range(c, (uintptr_t)p, bytesize, EMU_MEM_HOST_REGISTERED, Flags);
    emu_unlock();
    return r;
}

CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
    EMU_OLD_ABI_OF(cuMemHostRegister_v2);

CUresult CUDAAPI cuMemHostUnregister(void *p)
{
    return release_host_range(p, EMU_MEM_HOST_REGISTERED, CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
}

/* The page-locked range holding p, or NULL. */
static const emu_range *pinned_range(const void *p)
{
    const emu_range *r = emu_mem_find((uintptr_t)p);
    return r && (r->kind == EMU_MEM_HOST_ALLOC || r->kind == EMU_MEM_HOST_REGISTERED) ? r : NULL;
}

CUresult CUDAAPI cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    if (!pdptr || Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    if (r == CUDA_SUCCESS && !pinned_range(p))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *pdptr = (CUdeviceptr)(pinned_range(p)->alias ? pinned_range(p)->alias +
                                                             ((uintptr_t)p - pinned_range(p)->base)
                                                       : (uintptr_t)p); /* unified addressing */
    emu_unlock();
    return r;
}

int sgemu_host_flags(const void *p, unsigned int *flags)
{
    emu_lock();
    const emu_range *range = pinned_range(p);
    if (range)
        *flags = range->flags;
    emu_unlock();
    return range ? 0 : -1;
}

CUresult CUDAAPI cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
    if (!pFlags)
        return CUDA_ERROR_INVALID_VALUE;
    emu_lock();
    CUcontext c;
    CUresult r = emu_ctx_current(&c);
    const emu_range *range = r == CUDA_SUCCESS ? pinned_range(p) : NULL;
    if (r == CUDA_SUCCESS && !range)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *pFlags = range->flags;
    emu_unlock();
    return r;
}
