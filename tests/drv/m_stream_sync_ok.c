/* m_stream_sync_ok: stream order.  cuStreamSynchronize of the copy's own
 * stream returns once everything enqueued on it, the copy included, is
 * complete:  the read afterwards is no race.  Twin:
 * m_stream_sync_other_race.
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
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(a));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(copy stream)");
}
