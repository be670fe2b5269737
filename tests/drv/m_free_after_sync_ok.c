/* m_free_after_sync_ok: freeing pinned memory after the copy into it was
 * observed complete: nothing to report.  Twin: m_free_in_flight_race.
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
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    int r = sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize");
    SGT_CHECK(cuMemFreeHost(host));
    return r;
}
