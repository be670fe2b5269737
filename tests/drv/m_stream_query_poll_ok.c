/* m_stream_query_poll_ok: cuStreamQuery.  Polling cuStreamQuery until it
 * returns CUDA_SUCCESS observes the completion of all the stream's work:
 * the read afterwards is no race.  Twin: m_stream_query_notready_race.
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
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_EXPECT(cuStreamQuery(a) == CUDA_ERROR_NOT_READY);
    sgt_release(hold);
    CUresult r;
    while ((r = cuStreamQuery(a)) == CUDA_ERROR_NOT_READY)
        sched_yield();                  /* bounded by the watchdog */
    SGT_CHECK(r);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamQuery returned CUDA_SUCCESS");
}
