/* m_wait_event_ok: cuStreamWaitEvent.  Copy on A, event e recorded on A, B
 * waits for e, event e2 recorded on B: e2 completes after the copy, so
 * synchronizing e2 observes it.  Twin: m_wait_event_before_copy_race.
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
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    CUevent e;
    SGT_CHECK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    CUstream b;
    CUevent e2;
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuEventCreate(&e2, CU_EVENT_DISABLE_TIMING));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventRecord(e, a));
    SGT_CHECK(cuStreamWaitEvent(b, e, 0));
    SGT_CHECK(cuEventRecord(e2, b));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e2));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventSynchronize(e2 on the waiting stream)");
}
