/* m_sync_htod_pageable_ok: synchronous copies.  "For transfers from
 * pageable host memory to device memory, a stream sync is performed before
 * the copy is initiated" (API synchronization behavior): a synchronous
 * cuMemcpyHtoD from a pageable buffer on the legacy stream returns after
 * the legacy stream's earlier work, the async copy included.  Twin:
 * m_sync_copy_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, unsigned n, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < n; i++)
        wrong += h[i] != want;
    return wrong;
}

/* Device memory holding NEW and a pinned host buffer holding OLD, in the
 * current context, with no work pending. */
static void buffers(CUdeviceptr *dev, uint32_t **host)
{
    SGT_CHECK(cuMemAlloc(dev, BYTES));
    SGT_CHECK(cuMemsetD32(*dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());
    SGT_CHECK(cuMemAllocHost((void **)host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        (*host)[i] = OLD;
}

static int verdict(unsigned wrong, const char *when)
{
    printf("%s: %u of %u words wrong\n", when, wrong, WORDS);
    if (wrong) {
        printf("check: MISMATCH the read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    buffers(&dev, &host);
    uint32_t small[16] = { 0 };
    CUdeviceptr scratch;
    SGT_CHECK(cuMemAlloc(&scratch, sizeof small));
    sgt_hold *hold = sgt_hold_stream(NULL);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, NULL));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyHtoD(scratch, small, sizeof small));  /* pageable source */
    return verdict(count_wrong(host, WORDS, NEW), "after a synchronous cuMemcpyHtoD from pageable memory");
}
