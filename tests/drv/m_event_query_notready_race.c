/* m_event_query_notready_race: events.  A cuEventQuery that returned
 * CUDA_ERROR_NOT_READY observes nothing.  Twin: m_event_query_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_event_query_notready_race
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
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventRecord(e, a));
    SGT_EXPECT(cuEventQuery(e) == CUDA_ERROR_NOT_READY);
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventQuery returned NOT_READY");
}
