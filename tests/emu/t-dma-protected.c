/* SPDX-License-Identifier: Apache-2.0 */
/* The emulated DMA lands like a real device's: into pinned host memory the
 * program has made PROT_NONE or PROT_READ, and out of PROT_NONE memory. */
#include "t-util.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void dtoh_into_protected(CUstream s, unsigned char *h, size_t n, int prot, unsigned int seed)
{
    CUdeviceptr d = device_with_pattern(n, seed);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(h, d, n, s));
    SGT_EXPECT(mprotect(h, n, prot) == 0);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(mprotect(h, n, PROT_READ | PROT_WRITE) == 0);
    SGT_EXPECT(has_pattern(h, n, seed));
}

static void htod_from_protected(CUstream s, unsigned char *h, size_t n, unsigned int seed)
{
    fill_pattern(h, n, seed);
    CUdeviceptr d;
    SGT_CHECK(cuMemAlloc(&d, n));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyHtoDAsync(d, h, n, s));
    SGT_EXPECT(mprotect(h, n, PROT_NONE) == 0);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(mprotect(h, n, PROT_READ | PROT_WRITE) == 0);
    unsigned char *back = malloc(n);
    SGT_CHECK(cuMemcpyDtoH(back, d, n));
    SGT_EXPECT(has_pattern(back, n, seed));
    free(back);
}

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    size_t n = 2 * (size_t)sysconf(_SC_PAGESIZE);
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, 0));

    unsigned char *alloc = pinned_zeroed(n);            /* page-aligned */
    dtoh_into_protected(s, alloc, n, PROT_NONE, 1);

    unsigned char *reg = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    SGT_EXPECT(reg != MAP_FAILED);
    SGT_CHECK(cuMemHostRegister(reg, n, 0));
    dtoh_into_protected(s, reg, n, PROT_READ, 2);
    dtoh_into_protected(s, reg, n, PROT_NONE, 3);

    htod_from_protected(s, alloc, n, 4);
    return pass("t-dma-protected", "DMA reads and writes ignore PROT_NONE/PROT_READ");
}
