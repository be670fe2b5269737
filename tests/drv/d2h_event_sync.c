/* d2h_event_sync: an event recorded on the copy's stream after a
 * cuMemcpyDtoHAsync, then cuEventSynchronize: its return observes the copy's
 * completion, so reading the pinned destination afterwards is no race and
 * sees the copied data.  Twin of d2h_event_before_copy_race.
 *
 * SG-EXPECT: silent
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_legacy_covers_blocking.c (the lines under #ifdef SG_TWIN are the twin's). */
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
#ifdef SG_TWIN /* d2h_legacy_covers_blocking */
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_DEFAULT));   /* blocking */
#else
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
#endif
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

#ifdef SG_TWIN /* d2h_legacy_covers_blocking */
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, a));
    SGT_CHECK(cuEventRecord(ev, NULL)); /* legacy stream: after A's copy */
#else
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    SGT_CHECK(cuEventRecord(ev, s));
#endif
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(ev));  /* waits for the copy: releases the hold */

    unsigned wrong = count_wrong(host, NEW);
#ifdef SG_TWIN /* d2h_legacy_covers_blocking */
    printf("after cuEventSynchronize on the legacy stream's event: %u of %u words wrong\n",
           wrong, WORDS);
#else
    printf("after cuEventSynchronize: %u of %u words wrong\n", wrong, WORDS);
#endif
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuEventDestroy(ev));
#ifdef SG_TWIN /* d2h_legacy_covers_blocking */
    SGT_CHECK(cuStreamDestroy(a));
#else
    SGT_CHECK(cuStreamDestroy(s));
#endif
    if (wrong) {
        printf("check: MISMATCH the synchronized read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
