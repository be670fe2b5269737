/* m_event_before_copy_race: events.  An event recorded BEFORE the copy
 * captures only the work before it: synchronizing it says nothing about the
 * copy.  Twin: m_event_after_copy_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_event_before_copy_race
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
    SGT_CHECK(cuEventRecord(e, a));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventSynchronize(e));   /* complete: does not wait */
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventSynchronize(event before the copy)");
}
