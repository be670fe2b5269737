/* SPDX-License-Identifier: Apache-2.0 */
/* Host memory that a program gets outside cuMemAllocHost, cuMemHostAlloc
 * and cuMemHostRegister_v2, for the tests of what syncguard asks the
 * driver about memory it did not see pinned: the CUDA 4.0 cuMemHostRegister
 * ABI, a host allocation of the virtual memory management API, an
 * allocation from a memory pool located on the host, managed memory. Each
 * returns NULL (after printing why) where the device cannot: the caller
 * then prints SKIP and exits 77. */
#ifndef SGT_HOSTKINDS_H
#define SGT_HOSTKINDS_H

#include <cuda.h>
#include <stdio.h>
#include <sys/mman.h>

#include "sgtest.h"
#include "sgt_shapes.h"

/* SGT_BYTES of anonymous memory registered through the CUDA 4.0 ABI of
 * cuMemHostRegister (the unversioned symbol), as a runtime built for CUDA
 * 4.0-6.0 would call it. */
static inline uint32_t *sgt_register_v1(void)
{
    typedef CUresult (*register_v1)(void *, size_t, unsigned int);
    register_v1 reg = (register_v1)sgt_proc("cuMemHostRegister", 4000);
    void *p = mmap(NULL, SGT_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    SGT_EXPECT(p != MAP_FAILED);
    SGT_CHECK(reg(p, SGT_BYTES, 0));
    return p;
}

/* A mapping of at least SGT_BYTES of page-locked host memory made with
 * cuMemCreate (CU_MEM_LOCATION_TYPE_HOST), cuMemAddressReserve, cuMemMap
 * and cuMemSetAccess (read-write for the host and the device). */
static inline uint32_t *sgt_vmm_host(void)
{
    CUdevice dev;
    int ok = 0;
    SGT_CHECK(cuCtxGetDevice(&dev));
    if (cuDeviceGetAttribute(&ok, CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev) !=
            CUDA_SUCCESS || !ok) {
        printf("the device does not support host allocations of the virtual memory API\n");
        return NULL;
    }
    CUmemAllocationProp prop = { .type = CU_MEM_ALLOCATION_TYPE_PINNED };
    prop.location.type = CU_MEM_LOCATION_TYPE_HOST;
    size_t gran = 0;
    SGT_CHECK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    size_t size = (SGT_BYTES + gran - 1) / gran * gran;
    CUmemGenericAllocationHandle h;
    CUresult r = cuMemCreate(&h, size, &prop, 0);
    if (r != CUDA_SUCCESS) {
        printf("cuMemCreate with a host location: error %d\n", (int)r);
        return NULL;
    }
    CUdeviceptr va;
    SGT_CHECK(cuMemAddressReserve(&va, size, 0, 0, 0));
    SGT_CHECK(cuMemMap(va, size, 0, h, 0));
    CUmemAccessDesc access[2] = { { .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE },
                                  { .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE } };
    access[0].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access[0].location.id = dev;
    access[1].location.type = CU_MEM_LOCATION_TYPE_HOST;
    if (cuMemSetAccess(va, size, access, 2) != CUDA_SUCCESS) /* host access may be implied */
        SGT_CHECK(cuMemSetAccess(va, size, access, 1));
    SGT_CHECK(cuMemRelease(h)); /* the mapping keeps it */
    return (uint32_t *)(uintptr_t)va;
}

/* SGT_BYTES allocated on stream s from a new memory pool located on the
 * host (page-locked host memory, stream-ordered). */
static inline uint32_t *sgt_pool_host(CUstream s)
{
    CUmemPoolProps props = { .allocType = CU_MEM_ALLOCATION_TYPE_PINNED };
    props.location.type = CU_MEM_LOCATION_TYPE_HOST;
    CUmemoryPool pool;
    CUresult r = cuMemPoolCreate(&pool, &props);
    if (r != CUDA_SUCCESS) {
        printf("cuMemPoolCreate with a host location: error %d\n", (int)r);
        return NULL;
    }
    CUdeviceptr p;
    SGT_CHECK(cuMemAllocFromPoolAsync(&p, SGT_BYTES, pool, s));
    SGT_CHECK(cuStreamSynchronize(s)); /* the allocation is usable */
    return (uint32_t *)(uintptr_t)p;
}

/* SGT_BYTES of managed memory. */
static inline uint32_t *sgt_managed(void)
{
    CUdeviceptr p;
    CUresult r = cuMemAllocManaged(&p, SGT_BYTES, CU_MEM_ATTACH_GLOBAL);
    if (r != CUDA_SUCCESS) {
        printf("cuMemAllocManaged: error %d\n", (int)r);
        return NULL;
    }
    return (uint32_t *)(uintptr_t)p;
}

/* Fills the first SGT_WORDS words of h with v (a host store loop). */
static inline void sgt_fill(uint32_t *h, uint32_t v)
{
    for (unsigned i = 0; i < SGT_WORDS; i++)
        h[i] = v;
}

#endif
