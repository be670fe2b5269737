/* m_legacy_then_blocking_ok: legacy default stream.  The copy runs on the
 * legacy stream; then a memset is enqueued on a BLOCKING stream B, which
 * makes it wait for all earlier legacy-stream work.  Synchronizing B
 * observes the copy.  Twin: m_legacy_then_nonblocking_race.
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
    CUstream b;
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_DEFAULT));
    sgt_hold *hold = sgt_hold_stream(NULL);             /* the legacy stream */
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, NULL));
    SGT_CHECK(cuMemsetD8Async(scratch, 1, 64, b));         /* waits for the legacy copy */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(b));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(B) following an op on B");
}
