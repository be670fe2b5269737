/* m_stream_sync_other_race: stream order.  Synchronizing ANOTHER
 * non-blocking stream tells the host nothing about the copy's stream: the
 * read is a race.  Twin: m_stream_sync_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_stream_sync_other_race
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
    CUstream a, b;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuStreamSynchronize(b));  /* idle, unrelated */
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(other stream)");
}
