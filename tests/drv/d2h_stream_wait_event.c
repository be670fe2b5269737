/* d2h_stream_wait_event: happens-before is transitive across streams.  The
 * copy runs on stream A, an event recorded after it on A is made a
 * dependency of stream B (cuStreamWaitEvent), a second event is recorded on
 * B, and the host synchronizes only that second event.  Its completion
 * implies the copy's, so the read afterwards is no race.
 * Twin of d2h_other_stream_sync_race.
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
    CUstream a, b;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    CUevent on_a, on_b;
    SGT_CHECK(cuEventCreate(&on_a, CU_EVENT_DISABLE_TIMING));
    SGT_CHECK(cuEventCreate(&on_b, CU_EVENT_DISABLE_TIMING));
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
    SGT_CHECK(cuEventRecord(on_a, a));
    SGT_CHECK(cuStreamWaitEvent(b, on_a, 0));
    SGT_CHECK(cuEventRecord(on_b, b));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(on_b)); /* waits for the copy: releases the hold */

    unsigned wrong = count_wrong(host, NEW);
    printf("after cuEventSynchronize on B's event: %u of %u words wrong\n", wrong, WORDS);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuEventDestroy(on_a));
    SGT_CHECK(cuEventDestroy(on_b));
    SGT_CHECK(cuStreamDestroy(a));
    SGT_CHECK(cuStreamDestroy(b));
    if (wrong) {
        printf("check: MISMATCH the synchronized read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
