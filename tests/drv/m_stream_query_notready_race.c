/* m_stream_query_notready_race: cuStreamQuery.  A query that returned
 * CUDA_ERROR_NOT_READY observes nothing: the read after it is a race.
 * Twin: m_stream_query_poll_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_stream_query_notready_race
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
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_EXPECT(cuStreamQuery(a) == CUDA_ERROR_NOT_READY);
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamQuery returned NOT_READY");
}
