/* SPDX-License-Identifier: Apache-2.0 */
/* huge_teardown_unmaps: syncguard's huge-page blocks (huge_pinned) of a
 * context are unmapped when the context is torn down, each way a context
 * goes (cuCtxDestroy, cuDevicePrimaryCtxReset, the last
 * cuDevicePrimaryCtxRelease), as the driver frees its own allocations
 * then: the process's memory does not grow with each job that allocates
 * and resets (mincore finds no page of them mapped). The blocks of the
 * test's own context, which lives on, stay mapped and pinned.
 *
 * SG-OPTIONS: verbosity=2
 * SG-EXPECT: silent
 * SG-GREP: ==[0-9]*==syncguard: pinned allocation 0x[0-9a-f]*+4194304 on huge pages unmapped: its context was torn down
 */
#include <cuda.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ctx_teardown.h"
#include "huge_pinned.h"
#include "sgtest.h"

#define BYTES (2 * HUGE_PAGE)

/* Whether any page of [p, p+n) is mapped. */
static int any_mapped(const void *p, size_t n)
{
    long page = sysconf(_SC_PAGESIZE);
    unsigned char vec;
    for (size_t off = 0; off < n; off += (size_t)page)
        if (mincore((char *)p + off, (size_t)page, &vec) == 0 || errno != ENOMEM)
            return 1;
    return 0;
}

/* A block each way to allocate one, in the context `kind` tears down. */
static void blocks_go(enum td_kind kind)
{
    td_enter(kind);
    void *a, *b;
    SGT_CHECK(cuMemAllocHost(&a, BYTES));
    SGT_CHECK(cuMemHostAlloc(&b, BYTES, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP));
    SGT_EXPECT(huge_mapping(a) == 1 && huge_mapping(b) == 1);
    td_teardown(kind);
    printf("after %s: blocks %s, %s\n", td_names[kind], any_mapped(a, BYTES) ? "MAPPED" : "unmapped",
           any_mapped(b, BYTES) ? "MAPPED" : "unmapped");
    SGT_EXPECT(!any_mapped(a, BYTES));
    SGT_EXPECT(!any_mapped(b, BYTES));
}

int main(void)
{
    sgt_watchdog(60);
    huge_require();
    td_start();
    void *kept;
    SGT_CHECK(cuMemAllocHost(&kept, BYTES)); /* in the test's own context */
    blocks_go(TD_DESTROY);
    blocks_go(TD_RESET);
    blocks_go(TD_RELEASE);
    SGT_EXPECT(huge_mapping(kept) == 1);
    unsigned type = 0;
    SGT_CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)kept));
    SGT_EXPECT(type == CU_MEMORYTYPE_HOST);
    SGT_CHECK(cuMemFreeHost(kept));
    printf("check: ok\n");
    return 0;
}
