/* m_event_query_ok: events.  Polling cuEventQuery on an event recorded
 * after the copy until it returns CUDA_SUCCESS observes the copy.  Twin:
 * m_event_query_notready_race.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <sched.h>

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
    sgt_release(hold);
    CUresult r;
    while ((r = cuEventQuery(e)) == CUDA_ERROR_NOT_READY)
        sched_yield();                  /* bounded by the watchdog */
    SGT_CHECK(r);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventQuery returned CUDA_SUCCESS");
}
