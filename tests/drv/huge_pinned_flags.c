/* SPDX-License-Identifier: Apache-2.0 */
/* huge_pinned_flags: a pinned allocation syncguard puts on huge pages
 * (huge_pinned) must answer the program as the driver's own allocation
 * would. For each way to allocate (cuMemAllocHost; cuMemHostAlloc with
 * PORTABLE, DEVICEMAP, both): the block is syncguard's (huge-page advised,
 * huge-page aligned), cuMemHostGetFlags says what it says of a small
 * allocation made the same way, cuMemHostGetDevicePointer answers like
 * it, the driver knows the memory as host memory, cuMemHostUnregister
 * refuses it and cuMemHostRegister over it finds it registered, as for
 * any allocation; cuMemFreeHost unregisters and unmaps it. WRITECOMBINED
 * (which registration cannot give) and an allocation under a huge page
 * stay the driver's. (On the emulator a registration's flags read back as
 * the allocation flags of the same values; the real driver's answers are
 * what the GPU run of this test compares.)
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "huge_pinned.h"
#include "sgtest.h"

#define BYTES (2 * HUGE_PAGE + 12345) /* a tail under a huge page */

/* kind -1: cuMemAllocHost; else cuMemHostAlloc with those flags */
static void *alloc(int kind, size_t n)
{
    void *p = NULL;
    if (kind < 0)
        SGT_CHECK(cuMemAllocHost(&p, n));
    else
        SGT_CHECK(cuMemHostAlloc(&p, n, (unsigned)kind));
    return p;
}

static void same_answers(int kind)
{
    unsigned char *big = alloc(kind, BYTES), *small = alloc(kind, 4096);
    SGT_EXPECT(huge_mapping(big) == 1);
    SGT_EXPECT((uintptr_t)big % HUGE_PAGE == 0);
    SGT_EXPECT(huge_mapping(small) != 1);
    unsigned fb, fs;
    SGT_CHECK(cuMemHostGetFlags(&fb, big + 100));
    SGT_CHECK(cuMemHostGetFlags(&fs, small));
    printf("kind %d: flags %#x (driver's allocation: %#x)\n", kind, fb, fs);
    SGT_EXPECT(fb == fs);
    CUdeviceptr db, ds;
    CUresult rb = cuMemHostGetDevicePointer(&db, big, 0), rs = cuMemHostGetDevicePointer(&ds, small, 0);
    SGT_EXPECT(rb == rs);
    SGT_EXPECT(rs != CUDA_SUCCESS || (db == (CUdeviceptr)(uintptr_t)big) == (ds == (CUdeviceptr)(uintptr_t)small));
    unsigned type = 0;
    SGT_CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)(big + BYTES - 1)));
    SGT_EXPECT(type == CU_MEMORYTYPE_HOST);
    SGT_EXPECT(cuMemHostUnregister(big) == cuMemHostUnregister(small));
    SGT_EXPECT(cuMemHostRegister(big + 4096, 4096, 0) == cuMemHostRegister(small, 4096, 0));
    memset(big, 0x5a, BYTES); /* all of it the program's */
    SGT_CHECK(cuMemFreeHost(big));
    SGT_CHECK(cuMemFreeHost(small));
    SGT_EXPECT(huge_mapping(big) != 1); /* unmapped (or another mapping since) */
}

static void drivers_own(unsigned flags, size_t n)
{
    unsigned char *p = alloc((int)flags, n);
    SGT_EXPECT(huge_mapping(p) != 1);
    unsigned f;
    SGT_CHECK(cuMemHostGetFlags(&f, p));
    SGT_EXPECT((f & flags) == flags);
    SGT_CHECK(cuMemFreeHost(p));
}

int main(void)
{
    sgt_watchdog(60);
    huge_require();
    sgt_init();
    same_answers(-1);
    same_answers(CU_MEMHOSTALLOC_PORTABLE);
    same_answers(CU_MEMHOSTALLOC_DEVICEMAP);
    same_answers(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
    drivers_own(CU_MEMHOSTALLOC_WRITECOMBINED, BYTES);
    drivers_own(CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED, BYTES);
    drivers_own(CU_MEMHOSTALLOC_PORTABLE, HUGE_PAGE / 2);
    printf("check: ok\n");
    return 0;
}
