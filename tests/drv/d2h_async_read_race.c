/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_async_read_race: the host reads the pinned destination of a
 * cuMemcpyDtoHAsync before it has observed the copy's completion.
 *
 * The copy waits behind a hold on its stream, so without syncguard the reads
 * are certain to see the old contents.  syncguard must report the first
 * read, wait for the copy (a host wait: that releases the hold) and let the
 * read go on with the copied data.  Twin: d2h_async_stream_sync.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*d2h_async_read_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_sync_mode.c (the lines under #ifdef SG_TWIN are the twin's). */
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

    /* The race: nothing tells the host that the copy is done. */
    unsigned early = count_wrong(host, NEW);

    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = count_wrong(host, NEW);
    printf("early read: %u of %u words wrong; after cuStreamSynchronize: %u\n", early, WORDS, late);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (early || late) {
        printf("check: MISMATCH the early read saw data the copy had not delivered yet\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
