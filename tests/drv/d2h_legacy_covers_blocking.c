/* d2h_legacy_covers_blocking: the copy runs on a BLOCKING created stream
 * (flags 0).  An operation on the legacy default stream waits for all
 * earlier work of the context's blocking streams, so an event recorded on
 * stream NULL after the copy and synchronized observes the copy's
 * completion: the read afterwards is no race.
 * Twin of d2h_legacy_nonblocking_race.
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
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_DEFAULT));   /* blocking */
    CUevent ev;
    SGT_CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copy below is pending */
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, a));
    SGT_CHECK(cuEventRecord(ev, NULL)); /* legacy stream: after A's copy */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(ev));  /* waits for the copy: releases the hold */

    unsigned wrong = count_wrong(host, NEW);
    printf("after cuEventSynchronize on the legacy stream's event: %u of %u words wrong\n",
           wrong, WORDS);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuEventDestroy(ev));
    SGT_CHECK(cuStreamDestroy(a));
    if (wrong) {
        printf("check: MISMATCH the synchronized read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
