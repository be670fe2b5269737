/* m_legacy_event_blocking_ok: legacy default stream.  The copy runs on a
 * BLOCKING created stream A; then a memset and an event record go to the
 * legacy stream (NULL) and the event is synchronized.  Legacy-stream work
 * waits for all earlier work of the blocking streams, so the event covers
 * the copy.  Twin: m_legacy_event_nonblocking_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
    CUdeviceptr scratch;
    SGT_CHECK(cuMemAlloc(&scratch, 64));
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_DEFAULT));
    CUevent e;
    SGT_CHECK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuMemsetD8Async(scratch, 0, 64, NULL));   /* legacy stream */
    SGT_CHECK(cuEventRecord(e, NULL));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing a legacy-stream event");
}
