/* SPDX-License-Identifier: Apache-2.0 */
/* Managed memory, host allocations of the virtual memory API and host
 * memory pools (hostkinds.c): what cuPointerGetAttributes says of each, and
 * that an async device-to-host copy into managed and VMM host memory returns
 * at once and lands in stream order, by DMA, even into pages the program
 * made inaccessible; into host-pool memory it returns once complete. */
#include "t-util.h"

#include <sys/mman.h>

#include "sgt_hostkinds.h"

static void attributes(const void *p, unsigned want_type, unsigned want_managed)
{
    unsigned type = 0, managed = 9;
    CUpointer_attribute a[] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED };
    void *d[] = { &type, &managed };
    SGT_CHECK(cuPointerGetAttributes(2, a, d, (CUdeviceptr)(uintptr_t)p));
    SGT_EXPECT(type == want_type);
    SGT_EXPECT(managed == want_managed);
}

/* A held async copy into h: not there before the release (the call did not
 * wait), there after the synchronization; with protect, h is PROT_NONE
 * meanwhile. */
static void held_copy(CUstream s, CUdeviceptr d, uint32_t *h, int protect)
{
    memset(h, 0, SGT_BYTES);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(h, d, SGT_BYTES, s));
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(all_zero(h, SGT_BYTES));
    if (protect)
        SGT_EXPECT(mprotect(h, SGT_BYTES, PROT_NONE) == 0);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    if (protect)
        SGT_EXPECT(mprotect(h, SGT_BYTES, PROT_READ | PROT_WRITE) == 0);
    SGT_EXPECT(has_pattern(h, SGT_BYTES, 1));
}

/* Host-pool memory as the real driver treats it (GPU run 20): its range
 * starts at 0, and an async device-to-host copy into it returns only once
 * complete, as into pageable memory. */
static void pool_copy_waits(CUstream s, CUdeviceptr d, uint32_t *h)
{
    CUdeviceptr start = 1;
    size_t size = 0;
    SGT_CHECK(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, (CUdeviceptr)(uintptr_t)h));
    SGT_CHECK(cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, (CUdeviceptr)(uintptr_t)h));
    SGT_EXPECT(start == 0 && size >= SGT_BYTES);
    memset(h, 0, SGT_BYTES);
    sgt_hold *hold = sgt_hold_stream(s);
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyDtoHAsync(h, d, SGT_BYTES, s));
    SGT_EXPECT(has_pattern(h, SGT_BYTES, 1));
    SGT_EXPECT(cuStreamQuery(s) == CUDA_SUCCESS);
}

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr d = device_with_pattern(SGT_BYTES, 1);

    uint32_t *managed = sgt_managed();
    SGT_EXPECT(managed != NULL);
    attributes(managed, CU_MEMORYTYPE_DEVICE, 1);
    held_copy(s, d, managed, 0);
    SGT_CHECK(cuMemFree((CUdeviceptr)(uintptr_t)managed));

    uint32_t *vmm = sgt_vmm_host();
    SGT_EXPECT(vmm != NULL);
    attributes(vmm, CU_MEMORYTYPE_HOST, 0);
    held_copy(s, d, vmm, 1);
    /* Unmapped, the range is unknown again, and the reservation can go. */
    size_t gran = 0;
    CUmemAllocationProp prop = { .type = CU_MEM_ALLOCATION_TYPE_PINNED };
    prop.location.type = CU_MEM_LOCATION_TYPE_HOST;
    SGT_CHECK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    SGT_CHECK(cuMemUnmap((CUdeviceptr)(uintptr_t)vmm, gran));
    attributes(vmm, 0, 0);
    SGT_CHECK(cuMemAddressFree((CUdeviceptr)(uintptr_t)vmm, gran));

    uint32_t *pool = sgt_pool_host(s);
    SGT_EXPECT(pool != NULL);
    attributes(pool, CU_MEMORYTYPE_HOST, 0);
    pool_copy_waits(s, d, pool);
    SGT_CHECK(cuMemFreeAsync((CUdeviceptr)(uintptr_t)pool, s));
    SGT_CHECK(cuStreamSynchronize(s));
    attributes(pool, 0, 0); /* freed in stream order */
    return pass("t-hostkinds", "managed, VMM host and host-pool memory: attributes, asynchronous copies, DMA");
}
