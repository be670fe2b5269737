/* d2h_async_stream_sync: the host reads the pinned destination of a
 * cuMemcpyDtoHAsync only after cuStreamSynchronize on the copy's stream has
 * returned.  That observes the copy's completion: no report, and the data
 * is the copied data.  Twin of d2h_async_read_race.
 *
 * SG-EXPECT: silent
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_verbose_log.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += h[i] != want;
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copy below is pending */
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(s));  /* waits for the copy: releases the hold */

    unsigned wrong = count_wrong(host, NEW);
    printf("after cuStreamSynchronize: %u of %u words wrong\n", wrong, WORDS);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (wrong) {
        printf("check: MISMATCH the synchronized read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
