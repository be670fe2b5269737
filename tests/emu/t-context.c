/* SPDX-License-Identifier: Apache-2.0 */
/* Contexts: primary retain/release, created contexts and the per-thread
 * stack, destruction; a teardown (destroy, reset, last release) frees the
 * context's page-locked allocations (unmapped) and forgets its
 * registrations, as the real driver "destroys all allocations". */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "t-util.h"

#define LARGE (4u << 20) /* a mapping of its own, not a slot of the shared pool */

static bool mapped(const void *p, size_t n)
{
    unsigned char vec[1];
    long page = sysconf(_SC_PAGESIZE);
    for (size_t off = 0; off < n; off += (size_t)page)
        if (mincore((char *)p + off, 1, vec) != 0 && errno == ENOMEM)
            return false;
    return true;
}

/* In the current context: a large allocation and a registration, whose
 * teardown (done by `teardown`) must free the first and forget both. */
static void check_teardown_frees(void (*teardown)(void))
{
    void *alloc, *reg = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    SGT_EXPECT(reg != MAP_FAILED);
    SGT_CHECK(cuMemHostAlloc(&alloc, LARGE, CU_MEMHOSTALLOC_PORTABLE));
    SGT_CHECK(cuMemHostRegister(reg, 4096, CU_MEMHOSTREGISTER_PORTABLE));
    teardown();
    SGT_EXPECT(!mapped(alloc, LARGE));
    SGT_EXPECT(mapped(reg, 4096)); /* the program's memory */
    unsigned type = 0;
    CUcontext c;
    SGT_CHECK(cuCtxCreate(&c, NULL, 0, 0));
    SGT_EXPECT(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)reg) ==
               CUDA_ERROR_INVALID_VALUE);
    SGT_CHECK(cuMemHostRegister(reg, 4096, 0)); /* not registered any more */
    SGT_CHECK(cuMemHostUnregister(reg));
    SGT_CHECK(cuCtxDestroy(c));
    munmap(reg, 4096);
}

static void destroy_current(void)
{
    CUcontext c;
    SGT_CHECK(cuCtxGetCurrent(&c));
    SGT_CHECK(cuCtxDestroy(c));
}

static void reset_primary(void)
{
    SGT_CHECK(cuDevicePrimaryCtxReset(0));
}

static void release_primary(void)
{
    SGT_CHECK(cuDevicePrimaryCtxRelease(0));
}

int main(void)
{
    sgt_watchdog(30);
    CUcontext primary = sgt_init(), c, cur;
    CUdevice dev;
    SGT_CHECK(cuCtxGetDevice(&dev));
    SGT_EXPECT(dev == 0);

    SGT_CHECK(cuCtxCreate(&c, NULL, 0, 0));          /* made current */
    SGT_CHECK(cuCtxGetCurrent(&cur));
    SGT_EXPECT(cur == c && c != primary);
    SGT_CHECK(cuCtxPopCurrent(&cur));
    SGT_EXPECT(cur == c);
    SGT_CHECK(cuCtxGetCurrent(&cur));
    SGT_EXPECT(cur == primary);
    SGT_CHECK(cuCtxPushCurrent(c));

    /* Streams of different contexts are independent, including the
     * legacy default streams. */
    sgt_hold *hold = sgt_hold_stream(NULL);            /* c's legacy stream */
    SGT_CHECK(cuCtxPopCurrent(NULL));
    SGT_CHECK(cuStreamSynchronize(NULL));              /* primary's: not held */
    SGT_CHECK(cuCtxPushCurrent(c));
    SGT_EXPECT(cuStreamQuery(NULL) == CUDA_ERROR_NOT_READY);
    sgt_release(hold);
    SGT_CHECK(cuCtxSynchronize());

    SGT_EXPECT(cuCtxDestroy(primary) == CUDA_ERROR_INVALID_CONTEXT);
    SGT_CHECK(cuCtxDestroy(c));                        /* popped too */
    SGT_CHECK(cuCtxGetCurrent(&cur));
    SGT_EXPECT(cur == primary);
    SGT_EXPECT(cuCtxSetCurrent(c) == CUDA_ERROR_CONTEXT_IS_DESTROYED);

    /* Retained twice, released twice: then the primary is inactive. */
    SGT_CHECK(cuDevicePrimaryCtxRetain(&cur, 0));
    SGT_EXPECT(cur == primary);
    SGT_CHECK(cuDevicePrimaryCtxRelease(0));
    SGT_CHECK(cuDevicePrimaryCtxRelease(0));
    CUdeviceptr d;
    SGT_EXPECT(cuMemAlloc(&d, 16) == CUDA_ERROR_INVALID_CONTEXT);
    SGT_EXPECT(cuDevicePrimaryCtxRelease(0) == CUDA_ERROR_INVALID_CONTEXT);
    SGT_CHECK(cuDevicePrimaryCtxRetain(&cur, 0));
    SGT_CHECK(cuMemAlloc(&d, 16));

    SGT_CHECK(cuCtxCreate(&c, NULL, 0, 0));
    check_teardown_frees(destroy_current);
    SGT_CHECK(cuCtxSetCurrent(primary));
    check_teardown_frees(reset_primary);
    check_teardown_frees(release_primary); /* retained once: the last release */
    return pass("t-context", "context stack, created and primary contexts, teardowns free memory");
}
